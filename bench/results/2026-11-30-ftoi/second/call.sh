#!/bin/bash
# Second call (after the probe8 and review fixes): tgm-tune --verify-only on
# the H200 of tests/check/ftoi_forms.tgm (a helper's `b += x` into an int and
# `char c = x`, through tgm_ftoi), tests/ops/ftoi.tgm 1-D and rows (its scalar
# codelet now converts explicitly), imx.tgm (an int max of (int)in[i], the
# cooperative value's INT_MIN branch of a float ?:), and embed.gpu.ftoi.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
mkdir -p r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > r/device.txt
for m in .gpu/m/*.json; do
  b=$(basename $m .json)
  timeout 200 .gpu/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > r/verify_$b.txt 2>&1
  echo "verify $b exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/verify_$b.txt)"
done
nvcc -std=c++17 -O2 -arch=sm_90 -x cu -I.gpu/ftoi tests/embed/ftoi.cpp -o gpu_ftoi && ./gpu_ftoi > r/gpu_ftoi.txt 2>&1
echo "gpu_ftoi exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/gpu_ftoi.txt)"
tar czf $OUT/r.tgz r

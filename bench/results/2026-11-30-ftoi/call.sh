#!/bin/bash
# Float-to-integer conversions on the GPU (device call of 2026-11-30):
# ftoi_cvt.cu (tgm_ftoi<I>(x) against the GPU's (I)x, 4 integer types x
# float/double), tests/embed/ftoi.cpp on the GPU (embed.gpu.ftoi: the row and
# column calls of tests/ops/ftoi.tgm, the values the simulator gives), tgm-tune
# --verify-only of ftoi f32 (1-D, rows, cols) and l2norm i32 (its epilogue
# now converts through tgm_ftoi), and tests/embed/gpu_embed.cu over the
# re-blessed test headers (tgm::DeviceReduce added). Inputs in .gpu/ (carried):
# tgm-tune (build-gpu), manifests, the CUDA ftoi headers.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
mkdir -p r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > r/device.txt
d=bench/results/2026-11-30-ftoi
nvcc -std=c++17 -O2 -arch=sm_90 -I.gpu/ftoi $d/ftoi_cvt.cu -o ftoi_cvt && ./ftoi_cvt > r/ftoi_cvt.txt 2>&1
echo "ftoi_cvt exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/ftoi_cvt.txt)"
nvcc -std=c++17 -O2 -arch=sm_90 -x cu -I.gpu/ftoi tests/embed/ftoi.cpp -o gpu_ftoi && ./gpu_ftoi > r/gpu_ftoi.txt 2>&1
echo "gpu_ftoi exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/gpu_ftoi.txt)"
for m in .gpu/m/*.json; do
  b=$(basename $m .json)
  timeout 200 .gpu/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > r/verify_$b.txt 2>&1
  echo "verify $b exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/verify_$b.txt)"
done
nvcc -std=c++17 -O3 -arch=sm_90 -Itests/embed/headers tests/embed/gpu_embed.cu -o gpu_embed &&
  timeout 300 ./gpu_embed > r/gpu_embed.txt 2>&1
echo "gpu_embed exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/gpu_embed.txt)"
tar czf $OUT/r.tgz r

#!/bin/bash
# argmax over NaNs on the GPU: test_reduce_gpu_spectra (argmax_nans and the rest),
# tgm-tune --verify-only of argmax f32 (1-D and rows: NaN inputs among its checks)
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
mkdir -p r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > r/device.txt
for m in .gpu/m/*.json; do
  timeout 200 .gpu/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > r/verify_$(basename $m .json).txt 2>&1
  echo "verify $(basename $m) exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 r/verify_$(basename $m .json).txt)"
done
timeout 200 .gpu/test_reduce_gpu_spectra .gpu/spectra > r/reduce_spectra.txt 2>&1; echo "test_reduce_gpu_spectra exit $? ($(( $(date +%s) - s0 )) s)"
tail -3 r/reduce_spectra.txt
tar czf $OUT/r.tgz r

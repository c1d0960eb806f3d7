#!/bin/bash
# the session's final headers on the GPU (tests/embed/headers as committed: rows on VW, d_out at
# its type's alignment, m = 0 a no-op): gpu_embed (1-D) and gpu_rows in full, memcheck on
# --quick; test_reduce_gpu_spectra (argmax over NaNs); built here with nvcc
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
mkdir -p r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > r/device.txt
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o r/gpu_rows > r/build_rows.txt 2>&1 &
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_embed.cu -o r/gpu_embed > r/build_embed.txt 2>&1 &
wait
echo "built ($(( $(date +%s) - s0 )) s)"
timeout 150 r/gpu_embed > r/embed.txt 2>&1; echo "gpu_embed exit $? ($(( $(date +%s) - s0 )) s)"
timeout 150 r/gpu_rows > r/rows.txt 2>&1; echo "gpu_rows exit $? ($(( $(date +%s) - s0 )) s)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 r/gpu_rows --quick > r/memcheck_rows.txt 2>&1
echo "memcheck rows exit $? ($(( $(date +%s) - s0 )) s)"
tail -n 2 r/embed.txt r/rows.txt r/memcheck_rows.txt
rm -f r/gpu_rows r/gpu_embed
tar czf $OUT/r.tgz r

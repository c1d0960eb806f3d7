#!/bin/bash
# per-ITEMS kernels, call 1 (correctness on the GPU): the embedded headers (1-D from the H200 tuning
# of ../2026-11-29-peel/tune/db_peel.json, rows/columns tests/embed/headers) in gpu_embed and
# gpu_rows; tgm-tune --verify-only of generated/ (every setting: the kernels of each path of items);
# tgm_reduce's GPU tests; compute-sanitizer memcheck on the quick runs. Binaries built on the dev
# machine (nvcc 13.0, -std=c++17 -O3 -arch=sm_90), .gpu/in.tgz; tgm-tune and the tgm_reduce tests
# from build-gpu and build-gpu-reduce (bench/README.md).
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
step() { echo "$1 exit $2 ($(( $(date +%s) - s0 )) s)" | tee -a $R/summary.txt; }
timeout 120 $B/d1_new --quick > $R/d1_quick.txt 2>&1; step d1_new--quick $?
timeout 120 $B/rows_new --quick > $R/rows_quick.txt 2>&1; step rows_new--quick $?
for m in generated/sum_f32.json generated/max_i32.json generated/rows/sum_f32_rows.json generated/rows/min_i32_rows.json generated/cols/sum_f32_cols.json; do
  timeout 150 $B/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > $R/verify_$(basename $m .json).txt 2>&1
  step "verify $(basename $m .json): $(tail -1 $R/verify_$(basename $m .json).txt)" $?
done
timeout 150 $B/test_reduce_gpu generated bench/results/2026-11-22-h100/tgm-tune.db.json > $R/reduce_gpu.txt 2>&1; step test_reduce_gpu $?
timeout 150 $B/test_reduce_gpu_shapes generated bench/results/2026-11-26-tune-shapes/h100/tgm-tune.db.json bench/results/2026-11-26-tune-shapes/h200/tgm-tune.db.json > $R/reduce_gpu_shapes.txt 2>&1; step test_reduce_gpu_shapes $?
timeout 150 $B/test_reduce_gpu_spectra .gpu/spectra > $R/reduce_spectra.txt 2>&1; step test_reduce_gpu_spectra $?
timeout 100 compute-sanitizer --tool memcheck $B/rows_new --quick > $R/memcheck_rows.txt 2>&1; step memcheck-rows $?
timeout 100 compute-sanitizer --tool memcheck $B/d1_new --quick > $R/memcheck_d1.txt 2>&1; step memcheck-d1 $?
tail -3 $R/memcheck_*.txt
cd $OUT && tar czf r.tgz r && rm -rf r

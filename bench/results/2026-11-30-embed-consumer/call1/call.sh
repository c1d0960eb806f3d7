#!/bin/bash
# device call (2026-11-30, third session): the embedded test headers of 777c7f6 (internal linkage,
# include guard, macros shielded, cudaPeekAtLastError, VR by shuffles below sm_80, PDL only for sm_90
# code) on the GPU: gpu_embed and gpu_rows built for sm_90 (full correctness), gpu_embed built for
# compute_75 only (PTX JIT: the VR fallback, any table's pick) and gpu_rows for compute_80 only (the
# early launch off: memsets), then memcheck of both --quick.
# Binaries built here: nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers -o .gpu/b/d1 tests/embed/gpu_embed.cu
# (rows: tests/embed/gpu_rows.cu), and with -gencode arch=compute_75,code=compute_75 (d1_sm75),
# -gencode arch=compute_80,code=compute_80 (rows_sm80).
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
B=.gpu/b
run() { local name=$1 t=$2; shift 2; timeout $t "$@" > $R/$name.log 2>&1; echo "$name exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 $R/$name.log)"; }
run d1 150 $B/d1
run d1_sm75 150 $B/d1_sm75 --quick
run rows 150 $B/rows
run rows_sm80 120 $B/rows_sm80 --quick
run memcheck_d1 150 compute-sanitizer --tool memcheck $B/d1 --quick
run memcheck_rows 150 compute-sanitizer --tool memcheck $B/rows --quick
grep -h "table\|FAIL" $R/d1_sm75.log | head -8
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

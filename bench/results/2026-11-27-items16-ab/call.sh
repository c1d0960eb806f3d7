#!/usr/bin/env bash
# items-16 path A/B: base headers vs the same with the 16 path compiled out
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
B=/tmp/ab; mkdir -p $B; s=$(date +%s)
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o $B/rows_base &
nvcc -std=c++17 -O3 -arch=sm_90 -I .gpu/ab16/rows-no16 tests/embed/gpu_rows.cu -o $B/rows_no16 &
nvcc -std=c++17 -O3 -arch=sm_90 -I .gpu/h1d tests/embed/gpu_embed.cu -o $B/d1_base &
nvcc -std=c++17 -O3 -arch=sm_90 -I .gpu/ab16/h1d-no16 tests/embed/gpu_embed.cu -o $B/d1_no16 &
wait; echo "built $(( $(date +%s) - s )) s"
$B/d1_base --bench $OUT/d1_base.md > $OUT/d1_base.log 2>&1; echo "d1 base rc=$? $(( $(date +%s) - s )) s"
$B/d1_no16 --bench $OUT/d1_no16.md > $OUT/d1_no16.log 2>&1; echo "d1 no16 rc=$? $(( $(date +%s) - s )) s"
$B/rows_no16 --bench $OUT/rows_no16.csv --sweep > $OUT/rows_no16.log 2>&1; echo "rows no16 rc=$? $(( $(date +%s) - s )) s"
$B/rows_base --bench $OUT/rows_base.csv --sweep > $OUT/rows_base.log 2>&1; echo "rows base rc=$? $(( $(date +%s) - s )) s"
tail -2 $OUT/*.log

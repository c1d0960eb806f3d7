#!/usr/bin/env bash
# device call 6: the rule's boundary shapes (gpu_rows --set rule) for every type/op, the final rule
# ("new": tests/embed/headers) against the rule before this session ("old": the headers of 5947109),
# both built here (nvcc -std=c++17 -O3 -arch=sm_90 -I HEADERS tests/embed/gpu_rows.cu), run in turn,
# twice: new, old, new, old. --quick: the correctness shapes up to 2^21 first.
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for r in 1 2; do
  for v in new old; do
    timeout 100 .gpu/gpu_rows_$v --quick --bench $OUT/$v$r.csv --set rule > $OUT/$v$r.log 2>&1
    echo "$v$r rc=$? $(tail -1 $OUT/$v$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done

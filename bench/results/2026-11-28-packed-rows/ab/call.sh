#!/bin/bash
# The device call of ab/: pick_ab of this change (.gpu/pick_ab) and of the headers before it
# (.gpu/pick_ab_old: tests/embed/headers of e075972 and its pick_ab.cu), both built on the dev
# machine with
#   nvcc -std=c++17 -O3 -arch=sm_90 -I HEADERS bench/rows/pick_ab.cu -o BINARY
# over rows of n = 1, 2 (and 4, not packed), new/old/new/old in one process each.
set -e
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:512x2 rows:2048x2 rows:524288x2 rows:2097152x2 rows:8388608x2 rows:33554432x2 rows:134217728x2 rows:1048576x1 rows:16777216x1 rows:134217728x1 rows:4194304x4"
for r in 1 2; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab $OUT/new$r.csv $S > $OUT/log_new$r.txt 2>&1
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab_old $OUT/old$r.csv $S > $OUT/log_old$r.txt 2>&1
done
grep -h WRONG $OUT/log*.txt || echo "no WRONG line"

#!/bin/bash
# The device call of noinline/: pick_ab of this change (.gpu/pick_ab), of the same headers with
# tgm_rows_packed_run __noinline__ (.gpu/pick_ab_ni: tests/embed/headers copied, that one word
# changed by sed) and of the headers before the change (.gpu/pick_ab_old, e075972), each built on
# the dev machine with
#   nvcc -std=c++17 -O3 -arch=sm_90 -I HEADERS bench/rows/pick_ab.cu -o BINARY
# at the small calls where packed rows lost 0.05-0.2 us (ab3/, ab-h100/), twice in turn.
set -e
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:512x2 rows:2048x2 rows:65536x2 rows:65536x3 rows:4096x1 rows:1048576x5 rows:2097152x2 rows:8388608x2"
for r in 1 2; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab $OUT/new$r.csv $S >> $OUT/log.txt 2>&1
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab_ni $OUT/ni$r.csv $S >> $OUT/log.txt 2>&1
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab_old $OUT/old$r.csv $S >> $OUT/log.txt 2>&1
done
grep -h WRONG $OUT/log*.txt || echo "no WRONG line"

#!/bin/bash
# The device call of rows-h200/: pick_ab's rows grid (sum f32, committed headers, prototypes on)
# at rows of n = 4-128 from 2^22 to 2^26 elements, where the H200 sweep
# (../2026-11-28-packed-rows/h200) has the thread-a-row kinds at 0.75-0.90 of the floor and the
# H100 (../2026-11-28-rows-final/final) at 0.96-1.02: which setting the H200 wants. One run.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:1048576x4 rows:524288x8 rows:262144x16 rows:131072x32 rows:65536x64 rows:32768x128
   rows:4194304x4 rows:2097152x8 rows:1048576x16 rows:524288x32 rows:262144x64 rows:131072x128
   rows:8388608x8 rows:2097152x32 rows:524288x128"
timeout 400 .gpu/pick_ab $OUT/rows.csv $S > /tmp/rows.log 2>&1
echo "rc=$? $(tail -1 /tmp/rows.log) ($(( $(date +%s) - s0 )) s)"
grep -h WRONG /tmp/rows.log | head || echo "no WRONG line"

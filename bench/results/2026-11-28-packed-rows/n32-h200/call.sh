#!/bin/bash
# The device call of n32-h200/: every RW setting pick_ab times (its rows grid) at the H200's
# lowest cells against the floor, rows of 32 at 2^24 and 2^28 elements (RW.SS b128 p8 there at
# 0.75-0.79 of the floor; 0.96-0.97 on the H100), with the committed headers (.gpu/pick_ab).
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
PICK_AB_PROTO=0 .gpu/pick_ab $OUT/n32.csv rows:524288x32 rows:8388608x32 > $OUT/log.txt 2>&1
grep -h WRONG $OUT/log.txt || echo "no WRONG line"

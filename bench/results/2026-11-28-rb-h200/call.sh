#!/bin/bash
# The device call of rb-h200/: pick_ab (sum f32, RB's settings without RL's, CUB in the process) at
# the row shapes where the rule takes a block a row (RB) from n = 4096, with the committed headers
# (.gpu/pick_ab) and with the same headers' 16-vector path compiled out (.gpu/pick_ab_no16: sed
# 's/items >= 16 ? tgm_vectors/false ? tgm_vectors/'), alternated, two runs each.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:768x4096 rows:4096x4096 rows:1000x4096 rows:200x4096 rows:512x8192 rows:2048x8192 rows:8192x8192 rows:2048x32768 rows:512x131072"
for r in 1 2; do
  for b in base no16; do
    bin=.gpu/pick_ab; [ $b = no16 ] && bin=.gpu/pick_ab_no16
    PICK_AB_PROTO=0 PICK_AB_RL=0 timeout 200 $bin $OUT/$b$r.csv $S > $OUT/$b$r.log 2>&1
    echo "$b$r rc=$? $(tail -1 $OUT/$b$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h WRONG $OUT/*.log || echo "no WRONG line"

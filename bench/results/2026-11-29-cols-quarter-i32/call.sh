#!/bin/bash
# The device call of cols-quarter-i32/: the column rule's quarter groups of 2026-11-28 (2af295a),
# measured then for sum f32 only, for sum i32: pick_ab built with -DPICK_AB_I32 against the headers
# before it ("A", .gpu/hQ = tests/embed/headers of 2af295a~; its rule-RL call in the old form) and
# the committed ones ("E"), PICK_AB_GRID=0, separate processes, alternated, three runs each, at the
# 13 sweep cells the change moved.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="cols:32x32 cols:128x32 cols:32x128 cols:128x128 cols:32x512 cols:128x512 cols:32x2048 cols:512x512
   cols:128x2048 cols:32x8192 cols:512x2048 cols:128x8192 cols:32x32768"
for r in 1 2 3; do
  for b in A E; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 60 .gpu/pick_ab_q$b $OUT/ab_$b$r.csv $S > /tmp/$b$r.log 2>&1
    echo "$b$r rc=$? $(tail -1 /tmp/$b$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h WRONG /tmp/[AE]*.log | head || echo "no WRONG line"

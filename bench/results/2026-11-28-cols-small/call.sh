#!/bin/bash
# The device call of cols-small/: pick_ab (sum f32; the pick, its CT/CA forms, the settings grid of
# CT.SV and CA.SV) at the column cells of the H100 sweep (../2026-11-28-rows-final/final) that miss
# issue 12's ">= 1.5x the better peer where it reads < 2 TB/s" while 1.5x would still be slower than
# their floor (bench/rows/heatmap.py's "Goal by goal"), committed headers (.gpu/pick_ab), two runs.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="cols:2048x2 cols:512x8 cols:8192x2 cols:2048x8 cols:512x32 cols:128x128 cols:8x8192 cols:524288x2 cols:131072x8 cols:32768x32 cols:8x32768 cols:2097152x2 cols:524288x8 cols:2048x2048"
for r in 1 2; do
  PICK_AB_PROTO=0 timeout 250 .gpu/pick_ab $OUT/cols$r.csv $S > /tmp/cols$r.log 2>&1
  echo "run$r rc=$? $(tail -1 /tmp/cols$r.log) ($(( $(date +%s) - s0 )) s)"
done
grep -h WRONG /tmp/cols*.log | head || echo "no WRONG line"

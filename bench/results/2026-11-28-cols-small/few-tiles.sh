#!/bin/bash
# The device call of cols-small/few-tiles*.csv: pick_ab (sum f32, committed headers, the CT.SV/CA.SV
# grid) at the sweep's column cells the rule runs in one part of few tiles (tgm_cols_pick_of's
# "few tiles of a small matrix" branch and its neighbours), two runs.
set -u
OUT=${OUT:-/tmp/out}
S="cols:8x128 cols:32x128 cols:128x128 cols:32x512 cols:128x512 cols:512x512 cols:8x2048 cols:32x2048 cols:128x2048 cols:512x2048 cols:8x8192 cols:32x8192 cols:2048x512"
for r in 1 2; do
  PICK_AB_PROTO=0 timeout 250 .gpu/pick_ab $OUT/few-tiles$r.csv $S > /tmp/f$r.log 2>&1
  echo "run$r rc=$? $(tail -1 /tmp/f$r.log)"
done

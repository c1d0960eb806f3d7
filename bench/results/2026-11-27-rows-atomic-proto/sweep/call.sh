#!/usr/bin/env bash
# device call 15: P.rowsA / P.rowsA-init at every sweep cell the rule runs as RL (sum f32), two runs
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for r in 1 2; do
  PICK_AB_GRID=0 timeout 200 .gpu/pick_ab_ra $OUT/sw$r.csv $(cat .gpu/rl_shapes.txt) > $OUT/sw$r.log 2>&1; echo "run$r rc=$? $(tail -1 $OUT/sw$r.log) ($(( $(date +%s) - s0 )) s)"
done

#!/usr/bin/env bash
# device call 14: prototype P.rowsA (RL without counters: the blocks' sums added to out[row] atomically) against the RL pick
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
S="rows:2x2097152 rows:16x65536 rows:8x524288 rows:32x131072 rows:2x8388608 rows:8x2097152 rows:32x524288 rows:128x131072 rows:25x1048576 rows:50x1048576 rows:100x262144 rows:2x33554432 rows:8x8388608 rows:32x2097152 rows:4x67108864"
for r in 1 2; do
  PICK_AB_GRID=0 timeout 120 .gpu/pick_ab_ra $OUT/ra$r.csv $S > $OUT/ra$r.log 2>&1; echo "run$r rc=$? $(tail -1 $OUT/ra$r.log) ($(( $(date +%s) - s0 )) s)"
done

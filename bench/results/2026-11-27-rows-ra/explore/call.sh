#!/usr/bin/env bash
# device call 2 (RA): pick_ab, sum f32, the rule's RL against the generated RA in blocks of 256 (2, 4, 8
# sms blocks), 512 (1, 2 sms) and 1024 (1 sms), items 1 and 4, at the sweep's RL cells and 2^26-2^28 shapes
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for r in 1 2; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 PICK_AB_RA=wide timeout 250 .gpu/pick_ab $OUT/ra$r.csv $(cat .gpu/rl_shapes.txt) rows:16x4194304 rows:64x1048576 rows:100x1048576 > $OUT/ra$r.log 2>&1
  echo "run$r rc=$? $(tail -1 $OUT/ra$r.log) ($(( $(date +%s) - s0 )) s)"
done

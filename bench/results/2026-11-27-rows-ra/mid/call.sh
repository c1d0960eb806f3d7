#!/usr/bin/env bash
# device call 8 (RA): sms <= m < 2 sms with long rows, where the rule keeps RL (2 blocks of 1024 a
# row): the generated RA at 2, 4, 8 sms blocks of 256 against it (pick_ab, sum f32, two runs)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for r in 1 2; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab $OUT/mid$r.csv rows:250x8192 rows:200x16384 rows:140x65536 rows:256x32768 rows:132x131072 rows:150x262144 rows:180x524288 rows:200x1048576 > $OUT/mid$r.log 2>&1
  echo "run$r rc=$? $(tail -1 $OUT/mid$r.log) ($(( $(date +%s) - s0 )) s)"
done

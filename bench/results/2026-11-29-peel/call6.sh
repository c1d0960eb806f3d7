#!/usr/bin/env bash
# peel, call 6 (2026-11-29c): RA and RL (few long rows, 77 -> 95-100 and 103 -> 115 registers for
# sum with the peel) in pick_ab, 0c0278d's test headers (B) against the peel's (P), f32 and i32,
# alternated twice; PICK_AB_GRID=0: the pick, CUB, the rule's RL and RA at 2, 4, 8 sms blocks.
set -u
tar xJf .gpu/bins.txz -C .gpu
B=.gpu/bins
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
S="rows:4x16777216 rows:16x1048576 rows:25x1048576 rows:32x524288 rows:64x262144 rows:100x131072 rows:150x65536 rows:200x32768 rows:256x16384 rows:8x262144 rows:32x65536"
for r in 1 2; do
  for v in B P; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 40 $B/pick_$v $R/ab_$v$r.csv $S > $R/ab_$v$r.log 2>&1; echo "f32 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
    PICK_AB_GRID=0 timeout 40 $B/pick_${v}i $R/ab_${v}i$r.csv $S > $R/ab_${v}i$r.log 2>&1; echo "i32 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# device call 6 (2026-11-29b): the row kernels' bound for blocks of 128 only (R) against it for
# every block (W: headers of 0b83812) and none (A: cab1c12), at few long rows (RB of 512, m < sms)
# and the blocks of 128; pick_ab sum f32, PICK_AB_GRID=0, alternated twice
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
S="rows:2x32768 rows:8x32768 rows:32x32768 rows:32x131072 rows:128x32768 rows:128x131072 rows:128x524288 \
   rows:128x2097152 rows:2048x131072 rows:2048x32768 rows:8192x1536 rows:2048x2048 rows:16384x1024 rows:768x4096"
for r in 1 2; do
  for v in A W R; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 PICK_AB_RL=0 timeout 60 .gpu/pick_ab_$v $R/ab_$v$r.csv $S > $R/ab_$v$r.log 2>&1
    echo "$v$r rc=$? $(tail -1 $R/ab_$v$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# device call 3 (2026-11-29b): the new headers' gpu_rows correctness (full), then pick_ab before (A:
# headers of ab96549) and after (E: RA for few rows on a fast memory), sum f32 and i32, alternated 3x
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
timeout 150 .gpu/gpu_rows > $R/correct.log 2>&1
echo "correct rc=$? $(tail -1 $R/correct.log) ($(( $(date +%s) - s0 )) s)"
S="rows:27x524288 rows:32x524288 rows:36x524288 rows:39x500000 rows:32x262144 rows:36x262144 rows:39x262144 \
   rows:32x786432 rows:30x300000 rows:33x262150 rows:40x524288 rows:32x131072 rows:64x262144"
for r in 1 2 3; do
  for v in A E; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 60 .gpu/pick_ab_$v $R/ab_$v$r.csv $S > $R/ab_$v$r.log 2>&1
    echo "f32 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
    PICK_AB_GRID=0 timeout 60 .gpu/pick_ab_${v}i $R/abi_$v$r.csv $S > $R/abi_$v$r.log 2>&1
    echo "i32 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

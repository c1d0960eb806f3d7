#!/usr/bin/env bash
# device call 3: rows of 1024 <= n <= 4096, where the rule runs a block a row (RB b128 i1): every
# setting of the committed kernels (RW up to n = 4096), CUB in the same process (pick_ab, sum f32, two runs)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
S="rows:100x1024 rows:64x1536 rows:132x1024 rows:300x1024 rows:1000x1024 rows:4096x1024 rows:16384x1024 rows:65536x1024 rows:262144x1024 rows:1000x1500 rows:1000x2000 rows:8192x1536 rows:2000x1800 rows:1000x2048 rows:16384x2048 rows:768x4096 rows:16384x4096"
for r in 1 2; do
  PICK_AB_PROTO=0 PICK_AB_RW_MAX=4097 timeout 280 .gpu/pick_ab $OUT/rw$r.csv $S > $OUT/rw$r.log 2>&1
  echo "run$r rc=$? $(tail -1 $OUT/rw$r.log) ($(( $(date +%s) - s0 )) s)"
done

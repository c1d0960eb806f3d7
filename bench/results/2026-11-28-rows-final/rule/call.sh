#!/usr/bin/env bash
# device call 4: the rule of rw/ (RW to n < 1536 on m >= 4 sms rows; RB of n / 16 threads, items 4,
# for n < 16384): the embedded calls' correctness, sweep and sanitizers (bench/rows/embed.sh), then
# pick_ab at rw/'s shapes, one run ("pick" now the new rule, CUB in the same process)
set -u
s0=$(date +%s)
bash bench/rows/embed.sh $OUT/h100; echo "embed rc=$? ($(( $(date +%s) - s0 )) s)"
S="rows:100x1024 rows:64x1536 rows:132x1024 rows:300x1024 rows:1000x1024 rows:4096x1024 rows:16384x1024 rows:65536x1024 rows:262144x1024 rows:1000x1500 rows:1000x2000 rows:8192x1536 rows:2000x1800 rows:1000x2048 rows:16384x2048 rows:768x4096 rows:16384x4096"
PICK_AB_PROTO=0 PICK_AB_GRID=0 timeout 150 .gpu/pick_ab $OUT/h100/rule.csv $S > $OUT/h100/rule.log 2>&1
echo "pick_ab rc=$? $(tail -1 $OUT/h100/rule.log) ($(( $(date +%s) - s0 )) s)"

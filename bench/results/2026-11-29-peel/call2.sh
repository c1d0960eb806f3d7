#!/usr/bin/env bash
# peel A/B 2 (2026-11-29c): base = committed headers; p2 = the first chunk (ITEMS >= 4) or the first
# 4 chunks (ITEMS 1) of an aligned input loaded before anything else; p3 = ITEMS >= 4 only
# (ab2/peelify2.py p2|p3 over the same headers as call 1; binaries as there, in .gpu/bins2).
set -u
tar xJf .gpu/bins.txz -C .gpu
B=.gpu/bins2
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
timeout 120 $B/d1_p2 --bench $R/d1_p20.md > $R/d1_p20.log 2>&1; echo "d1 p2 full rc=$? ($(( $(date +%s) - s0 )) s)"
timeout 120 $B/rows_p2 --bench $R/rule_p20.csv --set rule > $R/rows_p20.log 2>&1; echo "rows p2 full rc=$? ($(( $(date +%s) - s0 )) s)"
S="rows:200x4096 rows:768x4096 rows:1000x4096 rows:4096x4096 rows:512x8192 rows:2048x8192 rows:8192x1536 rows:2048x2048"
for r in 1 2; do
  for v in base p2 p3; do
    timeout 90 $B/d1_$v --quick --bench $R/d1_$v$r.md > $R/d1_$v$r.log 2>&1; echo "d1 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
    timeout 60 $B/rows_$v --quick --bench $R/rb_$v$r.csv --set rb > $R/rb_$v$r.log 2>&1; echo "rb $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
    PICK_AB_RL=0 PICK_AB_PROTO=0 timeout 60 $B/pick_$v $R/ab_$v$r.csv $S > $R/ab_$v$r.log 2>&1; echo "ab $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

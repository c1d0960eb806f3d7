#!/usr/bin/env bash
# peel, call 4 (2026-11-29c): the 1-D embedded call with headers from call 3's two tunes (base: the
# committed kernels and their tune; peel: the peeled kernels and theirs), full correctness of peel,
# then the three timings alternated three times; the row/column test headers with the peel
# (tests/embed/headers) checked in full and timed against HEAD's (--set rb); memcheck of the 1-D peel.
set -u
export PATH=$PATH:/usr/local/cuda/bin
tar xJf .gpu/bins.txz -C .gpu
B=.gpu/bins
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
timeout 120 $B/d1_peel --bench $R/d1_peel0.md > $R/d1_peel0.log 2>&1; echo "d1 peel full rc=$? ($(( $(date +%s) - s0 )) s)"
for r in 1 2 3; do
  for v in base peel; do
    timeout 90 $B/d1_$v --quick --bench $R/d1_$v$r.md > $R/d1_$v$r.log 2>&1; echo "d1 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
timeout 120 $B/rows_new --bench $R/rule_new.csv --set rule > $R/rows_new.log 2>&1; echo "rows new full rc=$? ($(( $(date +%s) - s0 )) s)"
for v in base new; do
  timeout 60 $B/rows_$v --quick --bench $R/rb_$v.csv --set rb > $R/rb_$v.log 2>&1; echo "rb $v rc=$? ($(( $(date +%s) - s0 )) s)"
done
timeout 150 compute-sanitizer --tool memcheck $B/d1_peel --quick > $R/memcheck.log 2>&1; echo "memcheck rc=$? ($(( $(date +%s) - s0 )) s)"
tail -n 3 $R/memcheck.log
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

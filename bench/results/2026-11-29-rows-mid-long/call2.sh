#!/usr/bin/env bash
# rows-mid-long (2026-11-29d): the row rule with a block of 256 a row for sms <= m < 2 sms, 8192 <= n <=
# 262144 on a fast memory (N) against the committed rule (A: n <= 65536, RA of 8 sms blocks past it):
# gpu_rows --set mid (all six type/ops, each shape checked before it is timed), alternated twice; N's
# full correctness. rows_A: tests/embed/gpu_rows.cu against the headers of 5168d68, rows_N against the new.
set -u
tar xJf .gpu/bins.txz -C .gpu
B=.gpu/bins
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
for r in 1 2; do
  for v in A N; do
    timeout 60 $B/rows_$v --quick --bench $R/$v$r.csv --set mid > $R/mid_$v$r.log 2>&1; echo "mid $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
timeout 100 $B/rows_N > $R/full_N.log 2>&1; echo "N full rc=$? ($(( $(date +%s) - s0 )) s)"; tail -n 2 $R/full_N.log
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

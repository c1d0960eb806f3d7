#!/usr/bin/env bash
# peel, call 5 (2026-11-29c): three forms of the same peel against HEAD's kernels (B), on the row
# set "rb" (gpu_rows --set rb, alternated twice) and the 1-D call (the peel tune's headers, call 3):
# F = tgm_vectors threading the value, ITEMS 1 outside tgm_vectors_first; G = F with ITEMS 1 through
# tgm_vectors_first (its peel off for ITEMS 1); P = G with tgm_vectors starting from the identity and
# the peeled chunk's value combined with the loop's (ab2's p3 written in the template).
set -u
export PATH=$PATH:/usr/local/cuda/bin
tar xJf .gpu/bins.txz -C .gpu
B=.gpu/bins
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
for r in 1 2; do
  for v in B F G P; do
    timeout 60 $B/rows_$v --quick --bench $R/rb_$v$r.csv --set rb > $R/rb_$v$r.log 2>&1; echo "rb $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
  for v in F G P; do
    timeout 90 $B/d1_$v --quick --bench $R/d1_$v$r.md > $R/d1_$v$r.log 2>&1; echo "d1 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
for v in G P; do
  timeout 120 $B/d1_$v > $R/d1_full_$v.log 2>&1; echo "d1 $v full rc=$? ($(( $(date +%s) - s0 )) s)"
  timeout 120 $B/rows_$v > $R/rows_full_$v.log 2>&1; echo "rows $v full rc=$? ($(( $(date +%s) - s0 )) s)"
done
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# peel A/B (2026-11-29c): base = committed headers; peel = tgm_values_DS_SV loading a block's first
# whole chunk of an aligned input before anything else (ab1/peelify.py, every ITEMS). Alternated.
# .gpu/bins: d1_{base,peel} (tests/embed/gpu_embed.cu on the 1-D headers of
# ../2026-11-27-h200/embed-1d/db.json, and their transform), pick_{base,peel} (bench/rows/pick_ab.cu)
# and rows_{base,peel} (tests/embed/gpu_rows.cu) on tests/embed/headers and their transform.
set -u
tar xJf .gpu/bins.txz -C .gpu
B=.gpu/bins
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
timeout 120 $B/d1_peel --bench $R/d1_peel0.md > $R/d1_peel0.log 2>&1; echo "d1 peel full rc=$? ($(( $(date +%s) - s0 )) s)"
timeout 120 $B/rows_peel --bench $R/rule_peel0.csv --set rule > $R/rows_peel0.log 2>&1; echo "rows peel full rc=$? ($(( $(date +%s) - s0 )) s)"
S="rows:200x4096 rows:768x4096 rows:1000x4096 rows:4096x4096 rows:512x8192 rows:2048x8192 rows:8192x1536 rows:2048x2048"
for r in 1 2; do
  for v in base peel; do
    timeout 90 $B/d1_$v --quick --bench $R/d1_$v$r.md > $R/d1_$v$r.log 2>&1; echo "d1 $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
    timeout 60 $B/rows_$v --quick --bench $R/rb_$v$r.csv --set rb > $R/rb_$v$r.log 2>&1; echo "rb $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
    PICK_AB_RL=0 PICK_AB_PROTO=0 timeout 60 $B/pick_$v $R/ab_$v$r.csv $S > $R/ab_$v$r.log 2>&1; echo "ab $v$r rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
grep -l -i "wrong\|fail" $R/*.log | head
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

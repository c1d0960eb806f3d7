#!/usr/bin/env bash
# device call 8 (2026-11-29b): the committed headers of 51c2f5f: gpu_rows' full correctness and
# --set rb; then an exploration, X8: RB in blocks of 128 with 8 vectors in flight a thread (a path
# of tgm_values_DS_SV for BLOCK <= 128) and the rule's items 8 for n = 4096-8191, --set rb against
# the committed (--quick), alternated
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
timeout 120 .gpu/gpu_rows --bench $R/H1.csv --set rb > $R/H1.log 2>&1
echo "correct+rb rc=$? $(tail -1 $R/H1.log) ($(( $(date +%s) - s0 )) s)"
for v in X8 H X8; do
  b=.gpu/gpu_rows; [ $v = X8 ] && b=.gpu/gpu_rows_X8
  n=$(ls $R/$v*.csv 2>/dev/null | wc -l); n=$((n + 1))
  [ $v = H ] && n=2
  timeout 40 $b --quick --bench $R/$v$n.csv --set rb > $R/$v$n.log 2>&1
  echo "$v$n rc=$? $(tail -1 $R/$v$n.log) ($(( $(date +%s) - s0 )) s)"
done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# device call 7 (2026-11-29b): the final headers (4fcb934: the bound for blocks of 128 only, RA for
# few long rows): gpu_rows' full correctness, then --set rb and --set rule against CUB (--quick)
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
timeout 120 .gpu/gpu_rows --bench $R/rb.csv --set rb > $R/rb.log 2>&1
echo "correct+rb rc=$? $(tail -1 $R/rb.log) ($(( $(date +%s) - s0 )) s)"
timeout 60 .gpu/gpu_rows --quick --bench $R/rule.csv --set rule > $R/rule.log 2>&1
echo "rule rc=$? $(tail -1 $R/rule.log) ($(( $(date +%s) - s0 )) s)"
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

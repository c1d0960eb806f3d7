#!/usr/bin/env bash
# device call 3 (RA, the final rule: 2 sms blocks of 256 below 2^22 elements, 8 sms from 2^22):
# correctness, then the sweep with RA (gpu_rows_ra) and without (gpu_rows_rl: tgm_rows_atomics = 0)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 100 .gpu/gpu_rows_ra > $OUT/correct.log 2>&1; echo "correct rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/correct.log
for v in ra rl; do
  left=$(( 585 - ($(date +%s) - s0) ))
  timeout $left .gpu/gpu_rows_$v --bench $OUT/ab_$v.csv --sweep > /tmp/ab_$v.log 2>&1
  echo "$v rc=$? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/ab_$v.log)"
done

#!/usr/bin/env bash
# device call 1 (RA): correctness of the embedded calls (RA where the rule takes it), then the
# sweep with RA (gpu_rows_ra, the committed headers) and without (gpu_rows_rl: the same headers
# with tgm_rows_atomics = 0, the rule's RL), alternated, as long as time allows
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 150 .gpu/gpu_rows_ra > $OUT/correct.log 2>&1; echo "correct rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/correct.log
for r in 1 2; do
  for v in ra rl; do
    left=$(( 560 - ($(date +%s) - s0) ))
    [ $left -lt 60 ] && { echo "skip $v$r"; continue; }
    timeout $left .gpu/gpu_rows_$v --bench $OUT/ab_$v$r.csv --sweep > /tmp/ab_$v$r.log 2>&1
    echo "$v$r rc=$? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/ab_$v$r.log)"
  done
done

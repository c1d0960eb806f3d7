#!/usr/bin/env bash
# A/B: the tiled SV level with items vectors in flight (after) or the codelet loop (before), 2^20..2^30, mode both
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for run in before after; do
  for m in sum_i32 sum_f32 max_i32 max_f32 min_i32 min_f32; do
    s=$(date +%s)
    .gpu/tgm-tune .gpu/$run/$m.json --sizes 2^20..2^30 --db $OUT/$run.db.json --quiet >$OUT/$run-$m.log 2>&1
    echo "$run $m: exit $? ($(( $(date +%s) - s )) s)"
  done
done
cd $OUT && tar czf ab.tar.gz *.db.json *.log && rm -f *.log *.lock

#!/usr/bin/env bash
# the six plain tunings, both modes, 2^10..2^30, into one database
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for m in sum_i32 sum_f32 max_i32 max_f32 min_i32 min_f32; do
  s=$(date +%s)
  .gpu/tgm-tune .gpu/gen6/$m.json --db $OUT/db.json --report $OUT/report-$m >$OUT/tune-$m.log 2>&1
  echo "$m: exit $? ($(( $(date +%s) - s )) s)"
done
cd $OUT && tar czf tune6.tar.gz report-* tune-*.log && rm -rf report-* tune-*.log *.lock

#!/usr/bin/env bash
# the plain tunings ($SPECTRA, default the six), mode both, 2^10..2^30, into one
# database ($OUT/db.json), with tgm-tune's noise by size (2% from 2^25
# elements); manifests from generated/; reports and logs in $OUT/tune-$TAG.tar.gz
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for m in ${SPECTRA:-sum_i32 sum_f32 max_i32 max_f32 min_i32 min_f32}; do
  s=$(date +%s)
  .gpu/tgm-tune generated/$m.json --db $OUT/db.json --report $OUT/report-$m >$OUT/tune-$m.log 2>&1
  echo "$m: exit $? ($(( $(date +%s) - s )) s)"
  tail -n 4 $OUT/tune-$m.log
done
cd $OUT && tar czf tune-${TAG:-all}.tar.gz report-* tune-*.log && rm -rf report-* tune-*.log *.lock

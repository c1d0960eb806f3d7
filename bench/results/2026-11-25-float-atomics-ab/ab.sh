#!/usr/bin/env bash
# A/B: f32 max/min global and shared atomics natively on the float's bits (after) or by CAS (before), 2^10..2^22, mode both
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for m in max_f64 min_f64; do
  .gpu/tgm-tune .gpu/after/$m.json --verify-only --verify-sizes 0,1,31,33,4097,65537,1048579 --quiet 2>&1 | tail -1
done
for run in before after before2 after2; do
  d=.gpu/${run%2}
  for m in max_f32 min_f32; do
    s=$(date +%s)
    .gpu/tgm-tune $d/$m.json --sizes 2^10..2^22 --db $OUT/$run.db.json --quiet >$OUT/$run-$m.log 2>&1
    echo "$run $m: exit $? ($(( $(date +%s) - s )) s)"
  done
done
cd $OUT && tar czf ab.tar.gz *.db.json *.log && rm -f *.log *.lock

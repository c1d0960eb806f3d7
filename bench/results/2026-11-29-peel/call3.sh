#!/usr/bin/env bash
# peel, call 3 (2026-11-29c): tgm-tune (mode both, 2^10..2^30) of the six 1-D spectra with the
# committed kernels (base: HEAD's generated/, copied to .gpu/t/gen_base) and with the peel (the
# working tree's generated/), alternated spectrum by spectrum, one database each. .gpu/t: tgm-tune
# (bench/README.md's build-gpu) and libtgm_cub.so.
set -u
export PATH=$PATH:/usr/local/cuda/bin
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
for m in sum_i32 sum_f32 max_i32 max_f32 min_i32 min_f32; do
  for v in base peel; do
    M=generated/$m.json; [ $v = base ] && M=.gpu/t/gen_base/$m.json
    s=$(date +%s)
    .gpu/t/tgm-tune $M --db $R/db_$v.json --cache /tmp/c_$v --report $R/report_$v-$m > $R/tune_$v-$m.log 2>&1
    echo "$v $m: exit $? ($(( $(date +%s) - s )) s, $(( $(date +%s) - s0 )) s)"
    tail -n 3 $R/tune_$v-$m.log
  done
done
rm -f $R/*.lock
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# evens (afbf1e8: the loop body copied whole per component where its condition reads only the
# index), i32 and f32: every variant and knob setting verified on the GPU at the gpu label's
# sizes, memcheck at 4097, then a tune (mode both, 2^10..2^26, budget 20 s) beside its CUB
# baseline. .gpu/u: tgm-gen --no-check --type=i32,f32 -o .gpu/u tests/ops/evens.tgm (.hip removed).
set -u
export PATH=$PATH:/usr/local/cuda/bin
R=$OUT/r; mkdir -p $R/reports
sizes=0,1,2,31,32,33,255,256,257,1000,4097,65537,1048579,4194309
for m in .gpu/u/evens_*.json; do
  b=$(basename $m .json)
  .gpu/tgm-tune $m --verify-only --verify-sizes $sizes --cache /tmp/c > $R/verify_$b.log 2>&1
  echo "verify $b: exit $?"; tail -n 1 $R/verify_$b.log
done
compute-sanitizer --tool memcheck .gpu/tgm-tune .gpu/u/evens_f32.json --verify-only --verify-sizes 4097 --default-knobs --cache /tmp/c > $R/memcheck_evens_f32.log 2>&1
echo "memcheck evens_f32: exit $?"; tail -n 1 $R/memcheck_evens_f32.log
for m in .gpu/u/evens_*.json; do
  b=$(basename $m .json)
  .gpu/tgm-tune $m --sizes 2^10..2^26 --mode both --budget 20 --db $R/db_evens.json --report $R/reports --cache /tmp/c > $R/tune_$b.log 2>&1
  echo "tune $b: exit $?"; grep -E "geomean|lowest" $R/tune_$b.log
done
tar czf $R/reports_evens.tar.gz -C $R reports && rm -rf $R/reports
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

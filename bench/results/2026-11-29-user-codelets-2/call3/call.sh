#!/bin/bash
# device call: NVRTC on the prelude's C names (cmath), a renamed helper with user macros (min_f32 = h.tgm), INT_MAX as a min's start (mn_i32)
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
VS=0,1,2,31,32,33,255,256,257,1000,4097,65537,1048579,4194309
for m in u/*.json; do
  b=$(basename $m .json)
  ./tgm-tune $m --verify-only --verify-sizes $VS --cache $PWD/cache > $R/verify_$b.txt 2>&1
  echo "$b verify exit $?" >> $R/summary.txt
done
( time ./tgm-tune u/cmath_f32.json --sizes 2^10..2^26 --mode both --budget 25 --cache $PWD/cache --db $R/db_cmath_f32.json --report $R/rep_cmath_f32 ) > $R/tune_cmath_f32.txt 2>&1
echo "cmath_f32 tune exit $?" >> $R/summary.txt
compute-sanitizer --tool memcheck ./tgm-tune u/cmath_f32.json --verify-only --default-knobs --verify-sizes 0,1,33,4097,65537 --cache $PWD/cache > $R/memcheck_cmath.txt 2>&1; echo "memcheck cmath exit $?" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r

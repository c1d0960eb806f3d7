#!/bin/bash
# device call: verify the session's user spectra on the GPU, tune three against their CUB
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
VS=0,1,2,31,32,33,255,256,257,1000,4097,65537,1048579,4194309
for m in u/*.json; do
  b=$(basename $m .json); p=""
  case $b in sumneg_*) p="--param neg=true";; esac
  ( time ./tgm-tune $m --verify-only --verify-sizes $VS --cache $PWD/cache $p ) > $R/verify_$b.txt 2>&1
  echo "$b verify exit $?" >> $R/summary.txt
done
./tgm-tune u/sumneg_f32.json --verify-only --verify-sizes $VS --cache $PWD/cache --param neg=false > $R/verify_sumneg_f32_false.txt 2>&1; echo "sumneg neg=false exit $?" >> $R/summary.txt
for b in anybool_f32 rms_f32 largest_f32 largest_i32; do
  ( time ./tgm-tune u/$b.json --sizes 2^10..2^26 --mode both --budget 25 --cache $PWD/cache --db $R/db_$b.json --report $R/rep_$b ) > $R/tune_$b.txt 2>&1
  echo "$b tune exit $?" >> $R/summary.txt
done
compute-sanitizer --tool memcheck ./tgm-tune u/rms_f32.json --verify-only --default-knobs --verify-sizes 0,1,33,4097,65537 --cache $PWD/cache > $R/memcheck_rms.txt 2>&1; echo "memcheck rms exit $?" >> $R/summary.txt
compute-sanitizer --tool memcheck ./tgm-tune u/anybool_f32.json --verify-only --default-knobs --verify-sizes 0,1,33,4097,65537 --cache $PWD/cache > $R/memcheck_anybool.txt 2>&1; echo "memcheck anybool exit $?" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r

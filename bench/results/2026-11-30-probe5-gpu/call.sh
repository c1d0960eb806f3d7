#!/bin/bash
# device call: this session's fixes on the GPU (tgm-tune --verify-only, NVRTC): && (all), the
# compare-and-swap atomic holding A (a double max of floats and ints), bool |= and &=, a
# cooperative -INFINITY; rows and columns with the NaN edge shapes (a NaN every 13th), and the
# pre-fix fmax_swapped rows (c0e2270 undone) that only NaN elements show
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
VS=0,1,2,31,32,33,255,256,257,1000,1025,4097,65537,1048579,4194309
for m in m/*.json r/*.json c/*.json r/bad/*.json; do
  b=$(echo ${m%.json} | tr / _); p=""; vs="--verify-sizes $VS"
  case $b in *anyo*|*allb*) p="--param thr=0";; esac
  case $m in r/*|c/*) vs="";; esac
  t0=$(date +%s%N)
  timeout 200 ./tgm-tune $m --verify-only $vs --cache $PWD/cache $p > $R/verify_$b.txt 2>&1
  rc=$?; t1=$(date +%s%N)
  echo "$b exit $rc $(( (t1 - t0) / 1000000 )) ms: $(grep -c 'NaN elements' $R/verify_$b.txt) NaN exclusions; $(tail -1 $R/verify_$b.txt)" >> $R/summary.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r

#!/bin/bash
# device call: tgm-tune's GPU verification with its NaN round (tune_fill_nan), f32/f64 spectra
# 1-D; a pre-fix fmax_swapped (the accumulator second, tgm_max(x, acc)) that only NaN elements
# show; tgm_reduce's first-use check with its NaN round (test_reduce_gpu_spectra, test_reduce_gpu)
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")" && tar xzf in.tgz
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
VS=0,1,2,31,32,33,255,256,257,1000,1025,4097,65537,1048579,4194309
for m in m/*.json bad/*.json; do
  b=$(basename $(dirname $m))_$(basename $m .json); p=""
  case $b in *count_if*) p="--param threshold=0.25";; esac
  t0=$(date +%s%N)
  timeout 150 ./tgm-tune $m --verify-only --verify-sizes $VS --cache $PWD/cache $p > $R/verify_$b.txt 2>&1
  rc=$?; t1=$(date +%s%N)
  echo "$b verify exit $rc $(( (t1 - t0) / 1000000 )) ms: $(grep -c 'NaN elements' $R/verify_$b.txt) NaN exclusions; $(tail -1 $R/verify_$b.txt)" >> $R/summary.txt
done
cd ../
timeout 200 .gpu/test_reduce_gpu_spectra .gpu/spectra > $R/reduce_spectra.txt 2>&1; echo "test_reduce_gpu_spectra exit $?" >> $R/summary.txt
timeout 200 .gpu/test_reduce_gpu generated bench/results/2026-11-22-h100/tgm-tune.db.json > $R/reduce_gpu.txt 2>&1; echo "test_reduce_gpu exit $?" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r

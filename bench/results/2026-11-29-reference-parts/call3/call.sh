#!/bin/bash
# device call 3: the session's user spectra (tests/check, l2norm over integers) verified on the GPU
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
VS=0,1,2,31,32,33,255,256,257,1000,1025,4097,65537,1048579,4194309
for m in v2/*.json; do
  b=$(basename $m .json); p=""
  case $b in cbool_*|cpp_*) p="--param threshold=2";; esac
  t0=$(date +%s%N)
  timeout 120 ./tgm-tune $m --verify-only --verify-sizes $VS --cache $PWD/cache $p > $R/verify_$b.txt 2>&1
  rc=$?; t1=$(date +%s%N)
  echo "$b verify exit $rc $(( (t1 - t0) / 1000000 )) ms" >> $R/summary.txt
done
t0=$(date +%s%N)
timeout 200 compute-sanitizer --tool memcheck ./tgm-tune v2/meanlen_i64.json --verify-only --default-knobs --verify-sizes 0,1,33,4097,65537 --cache $PWD/cache > $R/memcheck_meanlen.txt 2>&1
echo "memcheck meanlen_i64 exit $? $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r

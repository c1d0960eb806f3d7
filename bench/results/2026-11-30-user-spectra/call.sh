#!/bin/bash
# device call: the session's user spectra (tests/check: auto_brace, const_local, std_spelling,
# continue; 1-D, rows, columns; i32 and f32) verified on the GPU with NVRTC against the reference
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
VS=0,1,2,31,32,33,255,256,257,1000,1025,4097,65537,1048579,4194309
for m in m/*.json r/*.json c/*.json x/*.json; do
  [ -f "$m" ] || continue
  b=$(basename $m .json); p=""; vs="--verify-sizes $VS"
  case $b in csc_*) p="--param scale=3";; nneg_*) p="--param cap=5";; esac
  case $m in r/*|c/*) vs="";; esac
  [ -f "x/$b.param" ] && p="$(cat x/$b.param)"
  t0=$(date +%s%N)
  timeout 150 ./tgm-tune $m --verify-only $vs --cache $PWD/cache $p > $R/verify_$b.txt 2>&1
  rc=$?; t1=$(date +%s%N)
  echo "$b verify exit $rc $(( (t1 - t0) / 1000000 )) ms" >> $R/summary.txt
done
t0=$(date +%s%N)
timeout 150 compute-sanitizer --tool memcheck ./tgm-tune m/nneg_i32.json --verify-only --default-knobs --verify-sizes 0,1,33,4097,65537 --cache $PWD/cache --param cap=5 > $R/memcheck_nneg.txt 2>&1
echo "memcheck nneg_i32 exit $? $(( ($(date +%s%N) - t0) / 1000000 )) ms" >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r

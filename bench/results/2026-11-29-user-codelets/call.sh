#!/usr/bin/env bash
# user codelets (2026-11-29d): tests/ops/names.tgm, body.tgm, widen.tgm (i32, f32) on the GPU:
# every variant and knob setting verified against the spectrum's own scalar codelet
# (tgm-tune --verify-only at the gpu label's sizes), compute-sanitizer memcheck at 4097, then a
# tune each (mode both, 2^10..2^26, budget 20 s), the spectrum's own CUB baseline
# (NAME_TYPE.cub.cu, built with nvcc here) beside it. .gpu/u: tgm-gen -o .gpu/u
# tests/ops/{names,body,widen}.tgm --type=i32,f32 (checked on the CPU), .hip removed;
# .gpu/tgm-tune: bench/README.md's build-gpu.
set -u
export PATH=$PATH:/usr/local/cuda/bin
s0=$(date +%s)
R=$OUT/r; mkdir -p $R/reports
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
params() {
  case $(basename "$1") in
  names_*) echo --param lo=-2 --param hi=3 --param n=2 --param value=1 ;;
  body_*) echo --param c=1 ;;
  esac
}
sizes=0,1,2,31,32,33,255,256,257,1000,4097,65537,1048579,4194309
for m in .gpu/u/*.json; do
  b=$(basename $m .json)
  .gpu/tgm-tune $m --verify-only --verify-sizes $sizes --cache /tmp/c $(params $m) > $R/verify_$b.log 2>&1
  echo "verify $b: exit $? ($(( $(date +%s) - s0 )) s)"; tail -n 2 $R/verify_$b.log
done
for m in .gpu/u/names_f32.json .gpu/u/widen_f32.json; do
  b=$(basename $m .json)
  compute-sanitizer --tool memcheck .gpu/tgm-tune $m --verify-only --verify-sizes 4097 --default-knobs --cache /tmp/c $(params $m) > $R/memcheck_$b.log 2>&1
  echo "memcheck $b: exit $? ($(( $(date +%s) - s0 )) s)"; tail -n 1 $R/memcheck_$b.log
done
for m in .gpu/u/*.json; do
  b=$(basename $m .json)
  echo ".gpu/tgm-tune $m --sizes 2^10..2^26 --mode both --budget 20 --db $R/db.json --report $R/reports --cache /tmp/c $(params $m)" >> $R/commands.txt
  .gpu/tgm-tune $m --sizes 2^10..2^26 --mode both --budget 20 --db $R/db.json --report $R/reports --cache /tmp/c $(params $m) > $R/tune_$b.log 2>&1
  echo "tune $b: exit $? ($(( $(date +%s) - s0 )) s)"; tail -n 3 $R/tune_$b.log
done
rm -f $R/*.lock
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

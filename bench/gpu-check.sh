#!/usr/bin/env bash
# One call on the GPU machine: the device line, the gpu test label's work,
# compute-sanitizer, and a first tune. Needs .gpu/ (see bench/README.md).
set -u
export TGM_CACHE_DIR=/tmp/tgm-cache PATH=$PATH:/usr/local/cuda/bin
B=.gpu
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
step() { echo "=== $*"; local t0=$(date +%s); "$@"; local rc=$?; echo "=== rc=$rc $(( $(date +%s) - t0 )) s"; }
case ${1:-check} in
check)
  step timeout 120 $B/tgm-tune $B/gen/sum_i32.json --verify-only --quiet
  step timeout 150 $B/tgm-tune $B/gen/sum_i32.json --sizes 2^10..2^30 --budget 60 --db $OUT/db.json --report $OUT
  step timeout 100 $B/tgm-tune $B/gen/sum_f32.json --sizes 2^10..2^30 --budget 60 --db $OUT/db.json --report $OUT --mode graph
  step timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tgm-tune $B/gen/max_i32.json --verify-only --default-knobs --verify-sizes 4097 --quiet
  ;;
esac

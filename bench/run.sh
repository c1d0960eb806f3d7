#!/usr/bin/env bash
# What runs on the GPU machine (device tool), from the repository root, with
# .gpu/ carried (see bench/README.md for how .gpu/ is made here):
#   bash bench/run.sh check          gpu test label + compute-sanitizer
#   bash bench/run.sh bench TYPES    the benchmark, e.g. "i32 f32"
# Everything it writes goes to $OUT/results.tar.gz (plus log.txt).
set -u
export TGM_CACHE_DIR=/tmp/tgm-cache PATH=$PATH:/usr/local/cuda/bin
G=.gpu
OUT=${OUT:-/tmp/out}
R=/tmp/results && mkdir -p $R
step() { echo "=== $*"; local t0=$(date +%s); "$@"; local rc=$?; echo "=== rc=$rc $(( $(date +%s) - t0 )) s"; return $rc; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee $R/device.txt
nvidia-smi -L >> $R/device.txt
what=${1:-check}; shift || true
case $what in
check)
  # the gpu label, as ctest runs it, over the manifests made here
  TGM_GEN_DIR=$G/gen step bash tests/runtime/gpu.sh $G/tgm-tune "" . 2>&1 | tee $R/gpu-label.txt
  for m in $G/gen/*.json; do
    for tool in memcheck racecheck; do
      step compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 \
        $G/tgm-tune $m --verify-only --default-knobs --verify-sizes 4097 --quiet 2>&1 \
        | tee -a $R/sanitizer-$tool.txt | grep -E "ERROR SUMMARY|verified|===" 
    done
  done
  ;;
all)
  bash bench/run.sh bench "$@" > /tmp/bench.log 2>&1
  bash bench/run.sh check > /tmp/check.log 2>&1
  cat /tmp/bench.log /tmp/check.log
  ;;
bench)
  for t in ${@:-i32 f32}; do
    for op in sum max min; do
      for mode in stream graph; do
        cmd="$G/tgm-tune $G/gen/${op}_$t.json --type $t --op $op --sizes 2^10..2^30 --mode $mode --budget 60 --db $R/tgm-tune.db.json --report $R"
        echo "$cmd" >> $R/commands.txt
        step $cmd 2>&1 | tee -a $R/tune-log.txt | grep -vE "^tgm-tune: [0-9]+/21 " 
      done
    done
  done
  ;;
esac
tar czf $OUT/results.tar.gz -C /tmp results

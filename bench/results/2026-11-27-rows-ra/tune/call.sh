#!/usr/bin/env bash
# device call 5 (RA): memcheck and racecheck with RA at 1 x 2^20 and 3 x 2^19 (--quick); tgm-tune
# over rows of sum f32 with RA in the manifest (all variants, then --deterministic); tgm_reduce's
# row and column shapes on the GPU (test_reduce_gpu_shapes, the H100 tune of 2026-11-26)
set -u
R=$PWD
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
san=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 120 $san --tool $tool --error-exitcode 9 .gpu/gpu_rows_ra --quick > $OUT/$tool.txt 2>&1
  echo "$tool rc=$? ($(( $(date +%s) - s0 )) s) $(tail -1 $OUT/$tool.txt)"
done
mkdir -p /tmp/rep
sh=2x131072,8x524288,8x2097152,25x1048576,32x8388608
timeout 150 .gpu/tgm-tune generated/rows/sum_f32_rows.json --cache /tmp/c --db /tmp/rep/tune.db.json --report /tmp/rep/all --shapes $sh > /tmp/rep/tune.log 2>&1
echo "tune rc=$? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/rep/tune.log)"
timeout 120 .gpu/tgm-tune generated/rows/sum_f32_rows.json --cache /tmp/c --db /tmp/rep/tune.db.json --report /tmp/rep/det --deterministic --shapes $sh > /tmp/rep/tune-det.log 2>&1
echo "tune-det rc=$? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/rep/tune-det.log)"
(cd /tmp && tar czf $OUT/tune.tgz rep)
(cd .gpu/build-reduce/tests-reduce && timeout 150 ./test_reduce_gpu_shapes $R/generated $R/bench/results/2026-11-26-tune-shapes/h100/tgm-tune.db.json) > $OUT/reduce-gpu-shapes.log 2>&1
echo "reduce rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/reduce-gpu-shapes.log

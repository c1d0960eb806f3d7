#!/usr/bin/env bash
# device call 6 (RA): tgm_reduce's row and column shapes on the GPU (test_reduce_gpu_shapes, the H100
# tune of 2026-11-26; the rule's RA where no tuned cell applies), rebuilt
set -u
R=$PWD
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
(cd .gpu/build-reduce/tests-reduce && timeout 200 ./test_reduce_gpu_shapes $R/generated $R/bench/results/2026-11-26-tune-shapes/h100/tgm-tune.db.json) > $OUT/reduce-gpu-shapes.log 2>&1
echo "reduce rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/reduce-gpu-shapes.log; grep -c "RA\." $OUT/reduce-gpu-shapes.log

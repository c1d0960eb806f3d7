#!/usr/bin/env bash
# device call 7 (2026-11-27 s2): gpu_rows correctness (new shapes); tune A/B base vs transplant, sum f32 (+ max f32, sum i32 tp)
set -u
s0=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu"
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o /tmp/gpu_rows &
mkdir -p /tmp/t; C="--cache /tmp/cache"
.gpu/tgm-tune-base generated/sum_f32.json --prepare $C > /tmp/t/prep.log 2>&1; echo "prepare rc=$? ($(( $(date +%s) - s0 )) s)"
for r in 1 2; do for b in base tp; do
  s=$(date +%s)
  .gpu/tgm-tune-$b generated/sum_f32.json $C --db /tmp/t/db-$b$r.json --report /tmp/t/rep-$b$r > /tmp/t/tune-$b$r.log 2>&1
  echo "sum_f32 $b$r rc=$? ($(( $(date +%s) - s )) s)"
done; done
for m in max_f32 sum_i32; do for b in base tp; do
  s=$(date +%s)
  .gpu/tgm-tune-$b generated/$m.json $C --db /tmp/t/db-$m-$b.json --report /tmp/t/rep-$m-$b > /tmp/t/tune-$m-$b.log 2>&1
  echo "$m $b rc=$? ($(( $(date +%s) - s )) s)"
done; done
tar czf $OUT/tune.tar.gz -C /tmp/t .
wait
s=$(date +%s)
/tmp/gpu_rows > $OUT/rows_correct.log 2>&1; echo "gpu_rows rc=$? ($(( $(date +%s) - s )) s)"; tail -3 $OUT/rows_correct.log
echo "all $(( $(date +%s) - s0 )) s"

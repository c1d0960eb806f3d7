#!/usr/bin/env bash
# device call 4 (RA): memcheck and racecheck of the embedded calls (--quick), then pick_ab's RA
# settings against the rule's RL (sum f32, two runs)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
san=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 170 $san --tool $tool --error-exitcode 9 .gpu/gpu_rows_ra --quick > $OUT/$tool.txt 2>&1
  echo "$tool rc=$? ($(( $(date +%s) - s0 )) s) $(tail -1 $OUT/$tool.txt)"
done
for r in 1 2; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab $OUT/pa$r.csv $(cat .gpu/rl_shapes.txt) rows:16x65536 rows:16x4194304 rows:64x1048576 > $OUT/pa$r.log 2>&1
  echo "pick_ab run$r rc=$? $(tail -1 $OUT/pa$r.log) ($(( $(date +%s) - s0 )) s)"
done

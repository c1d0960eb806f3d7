#!/usr/bin/env bash
# device call 10: tgm_fold_element A/B (cols kernels, plain spectra: the element combined as it is)
# old = .gpu/pick_ab, .gpu/gpu_rows (headers of a42fe35); new = built here from tests/embed/headers
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/rows/pick_ab.cu -o /tmp/pick_new &
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o /tmp/rows_new &
wait; echo "built ($(( $(date +%s) - s0 )) s)"
A="$(cat .gpu/tiles_args.txt) cols:1048576x8 cols:2097152x8 cols:524288x32 cols:8388608x2 cols:4194304x64 cols:16777216x4 cols:25x1048576 cols:4096x4096 cols:768x4096 cols:2x8388608 cols:8x2097152"
for r in 1 2; do
  PICK_AB_GRID=0 timeout 100 .gpu/pick_ab $OUT/old$r.csv $A > /tmp/old$r.log 2>&1; echo "old$r rc=$? $(tail -1 /tmp/old$r.log) ($(( $(date +%s) - s0 )) s)"
  PICK_AB_GRID=0 timeout 100 /tmp/pick_new $OUT/new$r.csv $A > /tmp/new$r.log 2>&1; echo "new$r rc=$? $(tail -1 /tmp/new$r.log) ($(( $(date +%s) - s0 )) s)"
done
timeout 100 .gpu/gpu_rows --bench $OUT/rows_old.csv > /tmp/ro.log 2>&1; echo "rows old rc=$? ($(( $(date +%s) - s0 )) s)"
timeout 100 /tmp/rows_new --bench $OUT/rows_new.csv > $OUT/rows_new.log 2>&1; echo "rows new rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/rows_new.log
echo "all $(( $(date +%s) - s0 )) s"

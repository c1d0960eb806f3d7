#!/usr/bin/env bash
# device call 6: the few-tiles CA rule (pick_ab: new pick vs the old CT setting), gpu_rows correctness + 9 shapes
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
s=$(date +%s)
nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o /tmp/gpu_rows &
PICK_AB_GRID=0 .gpu/pick_ab $OUT/tiles_verify.csv $(cat .gpu/tiles_args.txt) > $OUT/tiles_verify.log 2>&1
echo "pick_ab rc=$? ($(( $(date +%s) - s )) s)"; tail -2 $OUT/tiles_verify.log
wait
/tmp/gpu_rows --bench $OUT/rows9.csv > $OUT/rows9.log 2>&1; echo "gpu_rows rc=$? ($(( $(date +%s) - s )) s)"; tail -2 $OUT/rows9.log
s=$(date +%s)
PICK_AB_GRID=0 PICK_AB_SET=ca .gpu/pick_ab $OUT/tiles_alt.csv $(cat .gpu/tiles_alt.txt) > $OUT/tiles_alt.log 2>&1
echo "pick_ab alt rc=$? ($(( $(date +%s) - s )) s)"; tail -1 $OUT/tiles_alt.log

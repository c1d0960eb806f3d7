#!/bin/bash
# device calls 2 and 3 (2026-11-30, fourth session): RB.SV in blocks of 256 under a
# bound of 6 (h6) or 8 (h8) blocks an SM, against the committed kernels (base),
# alternated twice in one call each (call 2: base, h8, h6 -- only base and h6 came
# back; call 3: base, h8). Built here:
#   cp -r tests/embed/headers .gpu/hV; sed -i 's/void __launch_bounds__(BLOCK, BLOCK <= 128 ?
#     1024 \/ BLOCK : 0) \(.*_RB_\)/void __launch_bounds__(BLOCK, BLOCK <= 128 ? 1024 \/ BLOCK :
#     BLOCK == 256 ? V : 0) \1/' .gpu/hV/*_rows_*.h
#   nvcc -std=c++17 -O3 -arch=sm_90 -I .gpu/hV bench/rows/pick_ab.cu -o .gpu/pick_ab_hV
#   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/rows/pick_ab.cu -o .gpu/pick_ab
cd .gpu
S="rows:768x4096 rows:1000x4096 rows:200x4096 rows:512x8192 rows:128x8192 rows:4096x4096 rows:2048x16384 rows:300x2048"
mkdir -p r
for run in 1 2; do
  for v in base h8 h6; do
    b=./pick_ab; [ $v = base ] || b=./pick_ab_$v
    PICK_AB_PROTO=0 PICK_AB_RL=0 $b r/$v-$run.csv $S > r/$v-$run.log 2>&1 || echo "$v $run failed"
  done
done
tar czf $OUT/r.tgz r

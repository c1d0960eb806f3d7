#!/usr/bin/env bash
# device call 4 (2026-11-29b): RA (blocks a row, atomics) with 3 blocks of 256 an SM (77 registers,
# A: headers of 0b83812) against RA kernels asking for 4 (RA4: __launch_bounds__(BLOCK, 4*256 /
# BLOCK), 64 registers) and 8 (RA8: 8*256 / BLOCK, 32 registers): pick_ab at the RA picks, sum f32
# and i32, alternated twice (its csvs renamed after: f32_4N -> f32/ab_QN, f32_8N -> f32/ab_ON, ...).
# The binaries, built here:
#   sed 's/void __launch_bounds__(BLOCK) \(\w*\)_RA_VS_SV(/void __launch_bounds__(BLOCK, K*256 \/ BLOCK) \1_RA_VS_SV(/'
# over tests/embed/headers (K = 4, 8), then nvcc -std=c++17 -O3 -arch=sm_90 [-DPICK_AB_I32] -I H bench/rows/pick_ab.cu
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
S="rows:25x1048576 rows:8x2097152 rows:2x8388608 rows:8x524288 rows:2x2097152 rows:32x524288 rows:27x524288 \
   rows:32x262144 rows:4x67108864 rows:200x65536 rows:16x1048576 rows:2x131072 rows:8x131072 rows:32x2097152 \
   rows:8x8388608 rows:250x8192 rows:50x1048576"
for r in 1 2; do
  for v in A 4 8; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 60 .gpu/pick_ab_$v $R/f32_$v$r.csv $S > $R/f32_$v$r.log 2>&1
    echo "f32 $v$r rc=$? $(tail -1 $R/f32_$v$r.log) ($(( $(date +%s) - s0 )) s)"
    PICK_AB_GRID=0 timeout 60 .gpu/pick_ab_${v}i $R/i32_$v$r.csv $S > $R/i32_$v$r.log 2>&1
    echo "i32 $v$r rc=$? $(tail -1 $R/i32_$v$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# rows between sms and 2 sms with n >= 8192 (RA of 8 sms blocks on the H200) against CUB: pick_ab's
# whole grid (RB, RL, RA settings), sum f32, the test headers of 58300eb (the row kernels as
# 0c0278d's), twice. .gpu/bins/pick: nvcc -std=c++17 -O3 -arch=sm_90
# -I tests/embed/headers bench/rows/pick_ab.cu
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
S="rows:256x16384 rows:200x16384 rows:160x16384 rows:256x8192 rows:200x32768 rows:256x32768 rows:140x65536"
for r in 1 2; do
  PICK_AB_PROTO=0 timeout 100 .gpu/bins/pick $R/ab_G$r.csv $S > $R/ab_G$r.log 2>&1; echo "grid $r rc=$? ($(( $(date +%s) - s0 )) s)"
done
grep -h -i "wrong" $R/*.log | head -3
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

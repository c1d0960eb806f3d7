#!/usr/bin/env bash
# rows between sms and 2 sms past n = 65536 (RA of 8 sms blocks on the H200), and of 8192: pick_ab's
# whole grid (RB, RL, RA settings), sum f32 and sum i32, the test headers of 5168d68.
# .gpu/bins/pick: nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/rows/pick_ab.cu
# (pick_i32: the same with -DPICK_AB_I32)
set -u
tar xJf .gpu/bins.txz -C .gpu
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
S="rows:200x65540 rows:140x131072 rows:200x131072 rows:256x131072 rows:200x262144 rows:140x524288 rows:256x8192 rows:160x8192"
for t in f32 i32; do
  b=.gpu/bins/pick; [ $t = i32 ] && b=.gpu/bins/pick_i32
  PICK_AB_PROTO=0 timeout 200 $b $R/ab_G${t}.csv $S > $R/ab_G$t.log 2>&1; echo "grid $t rc=$? ($(( $(date +%s) - s0 )) s)"
done
grep -h -i "wrong" $R/*.log | head -3
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

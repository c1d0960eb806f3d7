#!/bin/bash
# per-ITEMS kernels, call 3: the launch bounds of the row kernels a path (row headers only; 1-D
# unchanged). Variants of tests/embed/headers, each built on the dev machine (nvcc 13.0, -std=c++17
# -O3 -arch=sm_90) into gpu_rows and pick_ab (-DPICK_AB_BK=VW):
#   base  dd6836f (a kernel of all three paths)
#   v0    ca41db7 (a kernel a path; RB, RW.SV: BLOCK <= 128 ? 1024 / BLOCK : 0; RL, RA: none)
#   vc    RB, RW.SV: ... : 1; RL, RA: (BLOCK, 1)
#   vi1   RB, RW.SV: ... : ITEMS == 1 ? 1 : 0; RL, RA: (BLOCK, ITEMS == 1 ? 1 : 0)
#   vi1b  RB, RW.SV: ... : ITEMS == 1 ? 1 : 0; RL, RA: (BLOCK, 1)
# gpu_rows --quick --bench --set rb|rule|mid (the rule's picks, six type/ops) and pick_ab (sum f32,
# every RB/RL/RA/RW setting of 8 shapes), alternated, two runs.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
step() { echo "$1 exit $2 ($(( $(date +%s) - s0 )) s)" >> $R/summary.txt; }
S="rows:200x4096 rows:768x4096 rows:1000x4096 rows:4096x4096 rows:512x8192 rows:2048x8192 rows:64x131072 rows:16x524288"
for r in 1 2; do
  for v in base v0 vc vi1 vi1b; do
    for set in rb rule mid; do
      timeout 60 $B/rows_$v --quick --bench $R/$set-$v-$r.csv --set $set > $R/$set-$v-$r.log 2>&1; step $set-$v-$r $?
    done
    PICK_AB_PROTO=0 timeout 60 $B/pick_$v $R/ab-$v-$r.csv $S > $R/ab-$v-$r.log 2>&1; step ab-$v-$r $?
  done
done
tail -1 $R/summary.txt
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | sort | uniq -c | head
cd $OUT && tar czf r.tgz r && rm -rf r

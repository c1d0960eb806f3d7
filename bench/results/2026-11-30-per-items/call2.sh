#!/bin/bash
# per-ITEMS kernels, call 2 (A/B, alternated twice): base = the headers of dd6836f's tgm-gen (the
# strided vector kernels choosing their path of items at run time), new = this commit's (a kernel
# per path); the same tables. d1: gpu_embed --quick --bench (1-D, H200-tuned table); rows:
# gpu_rows --quick --bench --set rb (the rule's picks, six type/ops); pick: pick_ab's RB/RL/RA
# settings (sum f32, -DPICK_AB_BK=VW) on the row shapes of 4096-8192.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
step() { echo "$1 exit $2 ($(( $(date +%s) - s0 )) s)" | tee -a $R/summary.txt; }
S="rows:200x4096 rows:768x4096 rows:1000x4096 rows:4096x4096 rows:512x8192 rows:2048x8192 rows:8192x1536 rows:2048x2048"
for r in 1 2; do
  for v in base new; do
    timeout 90 $B/d1_$v --quick --bench $R/d1_$v$r.md > $R/d1_$v$r.log 2>&1; step d1_$v$r $?
    timeout 60 $B/rows_$v --quick --bench $R/rb_$v$r.csv --set rb > $R/rb_$v$r.log 2>&1; step rb_$v$r $?
    PICK_AB_RL=0 PICK_AB_PROTO=0 timeout 60 $B/pick_$v $R/ab_$v$r.csv $S > $R/ab_$v$r.log 2>&1; step ab_$v$r $?
  done
done
grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | head
cd $OUT && tar czf r.tgz r && rm -rf r

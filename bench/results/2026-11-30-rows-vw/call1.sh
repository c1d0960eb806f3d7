#!/bin/bash
# rows VW A/B (call 1): RB, RL and RA with block level VW (thread 0 folds the warps' sums) against
# VS, in one process each alternated: pick_ab (every setting, sum f32 and i32) and gpu_rows --bench
# --set rb (the rule's picks, all six type/ops, CUB in the same process). Built here (.gpu/in.tgz):
#   base: tests/embed/headers as committed at 1220b12 (the rule's RB, RL, RA on VS)
#   new:  the same headers from this commit's tgm-gen (embed.sh's shaped(): RB, RL, RA on VW)
#   nvcc -std=c++17 -O3 -arch=sm_90 [-DPICK_AB_I32] -I tests/embed/headers bench/rows/pick_ab.cu -o pick_ab_base[_i32]
#   nvcc -std=c++17 -O3 -arch=sm_90 [-DPICK_AB_I32] -DPICK_AB_BK=VW -I new bench/rows/pick_ab.cu -o pick_ab_vw[_i32]
#   nvcc -std=c++17 -O3 -arch=sm_90 -I {tests/embed/headers,new} tests/embed/gpu_rows.cu -o gpu_rows_{base,vw}
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && mkdir -p r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > r/device.txt
S="rows:768x4096 rows:1000x4096 rows:200x4096 rows:512x8192 rows:128x8192 rows:4096x4096 rows:2048x1024 rows:16384x512 rows:300x2048 rows:2x70000 rows:33x262150 rows:16x524288 rows:64x131072"
for run in 1 2 3; do
  for v in base vw base_i32 vw_i32; do
    PICK_AB_PROTO=0 timeout 100 bin/pick_ab_$v r/ab_$v-$run.csv $S > r/ab_$v-$run.log 2>&1 || echo "pick_ab $v $run failed"
  done
done
echo "pick_ab done ($(( $(date +%s) - s0 )) s)"
for run in 1 2; do
  for v in base vw; do
    timeout 120 bin/gpu_rows_$v --bench r/rb_$v-$run.csv --set rb > r/rb_$v-$run.log 2>&1 || echo "gpu_rows $v $run failed"
  done
done
echo "gpu_rows done ($(( $(date +%s) - s0 )) s)"
grep -h "wrong" r/ab_*.log | sort | uniq -c
tar czf $OUT/r.tgz r

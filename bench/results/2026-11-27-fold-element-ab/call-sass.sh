#!/usr/bin/env bash
# device call 11: why f32 CT.SV keeps 2 loads in flight (SASS), and two header variants: hv1 __ldg, hv3 an accumulator per load
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for v in hv1 hv3; do
  cuobjdump -sass -fun _ZN24tgm_kernels_sum_f32_cols9sum_CT_SVILj1024EEEvPKfyyyPfS3_Pjj .gpu/sass/ct_$v.cubin > $OUT/ct_$v.sass 2>&1
  nvcc -std=c++17 -O3 -arch=sm_90 -I .gpu/$v bench/rows/pick_ab.cu -o /tmp/pick_$v &
done
wait; echo "built ($(( $(date +%s) - s0 )) s)"
A="$(cat .gpu/tiles_args.txt) cols:1048576x8 cols:2097152x8 cols:524288x32 cols:131072x128 cols:4194304x64 cols:16777216x4 cols:4096x4096 cols:768x4096 cols:32768x512"
for r in 1 2; do
  PICK_AB_GRID=0 timeout 60 .gpu/pick_ab $OUT/old$r.csv $A > /tmp/o.log 2>&1; echo "old$r rc=$? $(tail -1 /tmp/o.log)"
  for v in hv1 hv3; do
    PICK_AB_GRID=0 timeout 60 /tmp/pick_$v $OUT/$v-$r.csv $A > /tmp/o.log 2>&1; echo "$v-$r rc=$? $(tail -1 /tmp/o.log)"
  done
done
echo "all $(( $(date +%s) - s0 )) s"

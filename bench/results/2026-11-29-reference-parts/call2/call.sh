#!/bin/bash
# device call 2: the reference's speed (old: one thread to 2^22; new: parts past 1024), the
# integer-result-of-a-float-fold comparison, and the gpu label (tests/runtime/gpu.sh)
export PATH=/usr/local/cuda/bin:$PATH
root=$PWD
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
T() { local name=$1; shift; local t0=$(date +%s%N); timeout ${TL:-120} "$@" > $R/$name.txt 2>&1; local rc=$?; local t1=$(date +%s%N); echo "$name exit $rc $(( (t1 - t0) / 1000000 )) ms" >> $R/summary.txt; }
./tgm-tune new/sum_f32_cols.json --prepare --cache $PWD/cache > /dev/null 2>&1
./tgm-tune old/sum_f32_cols.json --prepare --cache $PWD/cache > /dev/null 2>&1
for s in 1024x1024 8192x8192 64x65536 65536x64; do for v in old new; do TL=150 T ab_${v}_$s ./tgm-tune $v/sum_f32_cols.json --verify-only --default-knobs --shapes $s --cache $PWD/cache; done; done
TL=150 T v_rms_i32_cols ./tgm-tune new/rms_i32_cols.json --verify-only --cache $PWD/cache
TL=60 T v_tenth_i32 ./tgm-tune new/tenth_i32.json --verify-only --verify-sizes 0,1,2,31,32,33,255,256,257,1000,1025,4097,65537,1048579,4194309 --cache $PWD/cache
TL=100 T v_tenth_i32_cols ./tgm-tune new/tenth_i32_cols.json --verify-only --cache $PWD/cache
TL=120 T v_old_sum_f32_cols_all ./tgm-tune old/sum_f32_cols.json --verify-only --default-knobs --cache $PWD/cache
TL=150 T v_new_sum_f32_cols_all ./tgm-tune new/sum_f32_cols.json --verify-only --default-knobs --cache $PWD/cache
TL=$((585 - SECONDS)) T gpu_label bash $root/tests/runtime/gpu.sh $PWD/tgm-tune "" $root
cd $OUT && tar czf r.tgz r && rm -rf r

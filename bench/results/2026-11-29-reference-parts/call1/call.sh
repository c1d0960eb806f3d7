#!/bin/bash
# device call 1: the reference's parts (templates/file.tpl) against the old sequential reference;
# the rows and columns of the session's user spectra verified. (bc was missing on the device:
# the summary's times are empty; call 2 times with date +%s%N.)
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
T() { local name=$1; shift; local t0=$(date +%s.%N); timeout ${TL:-120} "$@" > $R/$name.txt 2>&1; local rc=$?; echo "$name exit $rc $(echo "$(date +%s.%N) - $t0" | bc) s" >> $R/summary.txt; }
# one shape, old (sequential to 2^22) and new reference: 8192 x 8192 checks 256 columns of 8192
for v in old new; do TL=120 T ab_${v}_8192 ./tgm-tune $v/sum_f32_cols.json --verify-only --default-knobs --shapes 8192x8192 --cache $PWD/cache; done
TL=120 T ab_old_1k ./tgm-tune old/sum_f32_cols.json --verify-only --default-knobs --shapes 1024x1024 --cache $PWD/cache
TL=120 T ab_new_1k ./tgm-tune new/sum_f32_cols.json --verify-only --default-knobs --shapes 1024x1024 --cache $PWD/cache
VS=0,1,2,31,32,33,255,256,257,1000,1025,4097,65537,1048579,4194309
TL=150 T v_sum_f32 ./tgm-tune new/sum_f32.json --verify-only --verify-sizes $VS --cache $PWD/cache
for m in new/sum_f32_cols.json new/sum_f32_rows.json new/*_cols.json new/*_rows.json; do [ $SECONDS -gt 500 ] && break; b=$(basename $m .json); [ -e $R/v_$b.txt ] && continue; TL=$((560 - SECONDS < 90 ? 560 - SECONDS : 90)) T v_$b ./tgm-tune $m --verify-only --cache $PWD/cache; done
cd $OUT && tar czf r.tgz r && rm -rf r

#!/bin/bash
# The session's newly accepted cooperative forms on a GPU: Harris's in-place tree
# (tests/check/inplace_tree.tgm: if (tid < s) sdata[tid] += sdata[tid + s], 1-D i32 and f32, rows
# f32), the same step with the value in a local inside the guard (probe16's hint_followed, hfsum
# i32), and a lane value declared from a conditional transform (tests/check/count_onestmt.tgm,
# conestmt i32, with --param threshold). Every variant generated and CPU-checked on the dev
# machine, compiled by NVRTC and verified by tgm-tune --verify-only; then compute-sanitizer
# racecheck, synccheck and memcheck over the in-place trees at two sizes, default knobs.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..  # bin/, m/
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
step() { echo "$1 exit $2 ($(( $(date +%s) - s0 )) s)" | tee -a $R/summary.txt; }
for m in .gpu/m/*.json; do
  b=$(basename $m .json); p=; [ $b = conestmt_i32 ] && p="--param threshold=3"
  timeout 150 $B/tgm-tune $m --verify-only $p --cache $PWD/.gpu/cache > $R/verify_$b.txt 2>&1
  step "verify $b: $(tail -1 $R/verify_$b.txt)" $?
done
for b in ipsum_i32 ipsum_f32_rows hfsum_i32; do
  for tool in racecheck synccheck memcheck; do
    timeout 120 compute-sanitizer --tool $tool $B/tgm-tune .gpu/m/$b.json --verify-only \
      --verify-sizes 31,4097 --default-knobs --cache $PWD/.gpu/cache > $R/${tool}_$b.txt 2>&1
    rc=$?
    step "$tool $b: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|verified' $R/${tool}_$b.txt | tr '\n' ' ')" $rc
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r

#!/bin/bash
# The session's new accepted forms on a GPU: an accumulator started off its identity (start_value
# f32: max of fabs from 0; start_sum i32 and its columns: a sum from 1), std::max<int> naming its
# type (std_max_named f32), a cooperative codelet with a tid local and a while-loop tree
# (while_tree i32 and its rows), the reference bound at each element's index (index_sum f32) and
# around an epilogue that turns at 0 (epilogue_fabs f32), the shipped sum f32 (1-D and rows:
# the reference kernel's bound changed), and shared_fixed i32 (its V variants left out by the
# CPU check, the rest kept). Every variant, generated and CPU-checked on the dev machine, compiled
# by NVRTC on the H200 and verified by tgm-tune --verify-only against the GPU reference kernel;
# then compute-sanitizer racecheck and memcheck over the while-loop tree's verification.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..  # bin/, m/
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
step() { echo "$1 exit $2 ($(( $(date +%s) - s0 )) s)" | tee -a $R/summary.txt; }
for m in .gpu/m/*.json; do
  b=$(basename $m .json)
  timeout 150 $B/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > $R/verify_$b.txt 2>&1
  step "verify $b: $(tail -1 $R/verify_$b.txt)" $?
done
for tool in racecheck memcheck; do
  timeout 200 compute-sanitizer --tool $tool $B/tgm-tune .gpu/m/wsum_i32.json --verify-only \
    --verify-sizes 1,31,1000,4097,100000 --cache $PWD/.gpu/cache > $R/${tool}_wsum_i32.txt 2>&1
  step "$tool wsum_i32: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_wsum_i32.txt | tail -1)" $?
done
cd $OUT && tar czf r.tgz r && rm -rf r

#!/bin/bash
# The session's later accepted forms on a GPU (fffad11): CUDA-style locals for the thread, lane
# and warp indices with while trees, one inside warp 0 (warp_locals i32 and rows), a start
# converted to the accumulator's type (start_wide i32), acc -= in[i] (minus_sum i32), a commuted
# dot (dot_commuted f32), a float sum from 1 per row and column (start_sum f32 rows, cols), and
# while_tree i32 again under the inlined index locals. Every variant, generated and CPU-checked
# on the dev machine, compiled by NVRTC on the H200 and verified by tgm-tune --verify-only;
# then compute-sanitizer racecheck, synccheck and memcheck over the two while trees at few sizes,
# default knobs.
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
for b in wloc_i32 wsum_i32; do
  for tool in racecheck synccheck memcheck; do
    timeout 120 compute-sanitizer --tool $tool $B/tgm-tune .gpu/m/$b.json --verify-only \
      --verify-sizes 31,4097 --default-knobs --cache $PWD/.gpu/cache > $R/${tool}_$b.txt 2>&1
    rc=$?
    step "$tool $b: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|verified' $R/${tool}_$b.txt | tr '\n' ' ')" $rc
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r

#!/bin/bash
# The session's new emissions on a GPU (fc82707): value locals kept 32-bit (value_local i32, i64,
# i64 rows), float math in float (float_math f32), fmax/fmin typed as <cmath> with their arguments
# cast (fmax_float f32, i32), an epilogue cast back to its C type (epilogue_unsigned i32),
# promoted char/short constants (narrow_const i32), using namespace std (using_std i32): every
# variant of each, generated and CPU-checked (with the oracle) on the dev machine, compiled by
# NVRTC on the H200 and verified by tgm-tune --verify-only against the GPU reference kernel.
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
cd $OUT && tar czf r.tgz r && rm -rf r

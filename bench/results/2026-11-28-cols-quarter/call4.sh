#!/bin/bash
# The device call of cols-quarter/abe*: the final change ("E": the rule for 16-512 rows and
# tgm_columns_vec's last 1-3 rows' loads in flight together, as C of call2.sh) against the
# headers before it ("A", .gpu/hA), pick_ab (sum f32, PICK_AB_GRID=0) in separate processes,
# alternated, two runs each, at the shapes of call2.sh; then gpu_rows --quick and compute-sanitizer
# memcheck/racecheck on its headers. (call3.sh, "D": E with a lane's last row loaded alone as before:
# slower at 100 rows, not faster at 8; not kept.)
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S=" cols:100x2048 cols:100x512 cols:100x640 cols:128x128 cols:128x2048 cols:128x32 cols:128x512 cols:128x8192 cols:12x4000 cols:160x160 cols:24x3000 cols:250x4000 cols:300x1000 cols:32x128 cols:32x2048 cols:32x32768 cols:32x32 cols:32x512 cols:32x8192 cols:48x1536 cols:512x2048 cols:512x512 cols:512x520 cols:60x1000 cols:8x128 cols:8x2048 cols:8x32768 cols:8x512 cols:8x8192 cols:96x640  cols:512x8192 cols:200x8192 cols:400x9000 cols:2048x512 cols:1000x1000 cols:4x16777216 cols:32768x2048 cols:1048576x8 cols:131072x32 cols:8192x8192"
for r in 1 2; do
  for b in A E; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab_$b $OUT/abe_$b$r.csv $S > /tmp/$b$r.log 2>&1
    echo "$b$r rc=$? $(tail -1 /tmp/$b$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h WRONG /tmp/[AE]*.log | head || echo "no WRONG line"
timeout 200 .gpu/gpu_rows --quick > /tmp/correct.log 2>&1; echo "gpu_rows --quick rc=$? $(tail -1 /tmp/correct.log)"
SAN=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 150 $SAN --tool $tool --error-exitcode 9 .gpu/gpu_rows --quick > /tmp/$tool.txt 2>&1; echo "$tool: exit $? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/$tool.txt)"
done

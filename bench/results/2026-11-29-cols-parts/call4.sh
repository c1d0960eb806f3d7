#!/bin/bash
# Device call 4 of cols-parts/: the rule as committed ("E": with atomics, below 2^24, n a multiple of
# vw >= 4 in at most 4 aligned tiles: one block a SM in all, blocks of 512 from 2^22) against the
# headers before it ("A", .gpu/hA), pick_ab (sum f32, PICK_AB_GRID=0) in separate processes,
# alternated, three runs each: the shapes it moves (powers of two and not) and some it keeps; then
# gpu_rows --quick and compute-sanitizer memcheck/racecheck on E's headers.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="cols:8192x128 cols:32768x32 cols:32768x128 cols:131072x8 cols:131072x32 cols:524288x8 cols:1048576x8
   cols:262144x4 cols:65536x16 cols:262144x16 cols:1048576x4 cols:16384x64 cols:65536x64 cols:65536x32
   cols:24576x32 cols:49152x16 cols:98304x8 cols:6144x128 cols:196608x4 cols:65536x128 cols:16384x128
   cols:131072x16 cols:393216x32 cols:3145728x4 cols:100000x12 cols:50000x20 cols:65536x24 cols:30000x40
   cols:20000x100 cols:100000x10 cols:60000x30 cols:16384x256 cols:8192x32 cols:524288x2 cols:524288x32"
for r in 1 2 3; do
  for b in A E; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab_$b $OUT/ab_$b$r.csv $S > /tmp/$b$r.log 2>&1
    echo "$b$r rc=$? $(tail -1 /tmp/$b$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h WRONG /tmp/[AE]*.log | head || echo "no WRONG line"
timeout 200 .gpu/gpu_rows --quick > /tmp/correct.log 2>&1; echo "gpu_rows --quick rc=$? $(tail -1 /tmp/correct.log)"
SAN=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 150 $SAN --tool $tool --error-exitcode 9 .gpu/gpu_rows --quick > /tmp/$tool.txt 2>&1; echo "$tool: exit $? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/$tool.txt)"
done

#!/bin/bash
# The device call of cols-quarter/: gpu_rows --quick (correctness, the new column rule's headers),
# then pick_ab (sum f32, PICK_AB_GRID=0) at the column shapes whose pick the change moves (the
# sweep's cells and others, m not a power of two among them): "pick" the new rule's, "set bB gG pP"
# the old rule's (CT.SV, one part), three runs; then compute-sanitizer memcheck and racecheck on
# gpu_rows --quick. Binaries built on the dev machine:
#   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/rows/pick_ab.cu -o .gpu/pick_ab
#   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o .gpu/gpu_rows
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
timeout 300 .gpu/gpu_rows --quick > $OUT/correct.log 2>&1; echo "gpu_rows --quick rc=$? $(tail -1 $OUT/correct.log) ($(( $(date +%s) - s0 )) s)"
S=" cols:100x2048:b512,g16,p1 cols:100x512:b512,g16,p1 cols:100x640:b512,g16,p1 cols:128x128:b512,g16,p1 cols:128x2048:b512,g16,p1 cols:128x32:b256,g8,p1 cols:128x512:b512,g16,p1 cols:128x8192:b512,g16,p1 cols:12x4000:b512,g128,p1 cols:160x160:b512,g8,p1 cols:24x3000:b512,g64,p1 cols:250x4000:b512,g8,p1 cols:300x1000:b512,g4,p1 cols:32x128:b256,g32,p1 cols:32x2048:b512,g64,p1 cols:32x32768:b512,g64,p1 cols:32x32:b256,g8,p1 cols:32x512:b512,g64,p1 cols:32x8192:b512,g64,p1 cols:48x1536:b512,g32,p1 cols:512x2048:b512,g8,p1 cols:512x512:b512,g8,p1 cols:512x520:b512,g8,p1 cols:60x1000:b512,g32,p1 cols:8x128:b256,g32,p1 cols:8x2048:b256,g128,p1 cols:8x32768:b256,g128,p1 cols:8x512:b256,g128,p1 cols:8x8192:b256,g128,p1 cols:96x640:b512,g16,p1 "
for r in 1 2 3; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab $OUT/ab$r.csv $S > /tmp/ab$r.log 2>&1
  echo "ab$r rc=$? $(tail -1 /tmp/ab$r.log) ($(( $(date +%s) - s0 )) s)"
done
grep -h WRONG /tmp/ab*.log | head || echo "no WRONG line"
SAN=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 200 $SAN --tool $tool --error-exitcode 9 .gpu/gpu_rows --quick > $OUT/$tool.txt 2>&1; echo "$tool: exit $? ($(( $(date +%s) - s0 )) s)"
  tail -1 $OUT/$tool.txt
done

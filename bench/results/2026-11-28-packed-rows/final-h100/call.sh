#!/bin/bash
# The device call of final-h100/: the committed headers (the stores' bits read through a cast,
# as NVRTC has no __builtin_memcpy) against those before the change, as ab3/, on an H100; then
# gpu_rows --quick (the correctness run up to 2^21 elements) alone and under compute-sanitizer
# memcheck and racecheck. Binaries built on the dev machine:
#   nvcc -std=c++17 -O3 -arch=sm_90 -I HEADERS bench/rows/pick_ab.cu -o .gpu/pick_ab[_old]
#   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o .gpu/gpu_rows
OUT=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:512x2 rows:2048x2 rows:65536x2 rows:524288x2 rows:2097152x2 rows:8388608x2 rows:4096x1 rows:1048576x1 rows:16777216x1 rows:4194304x4 rows:65536x3 rows:1048576x5"
for r in 1 2; do
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab $OUT/new$r.csv $S >> $OUT/log.txt 2>&1
  PICK_AB_GRID=0 PICK_AB_PROTO=0 .gpu/pick_ab_old $OUT/old$r.csv $S >> $OUT/log.txt 2>&1
done
grep -h WRONG $OUT/log.txt || echo "no WRONG line"
.gpu/gpu_rows --quick >> $OUT/log.txt 2>&1 && echo "gpu_rows --quick: ok"
S=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 200 $S --tool $tool --error-exitcode 9 .gpu/gpu_rows --quick > $OUT/$tool.txt 2>&1; echo "$tool: exit $?"
  tail -1 $OUT/$tool.txt
done

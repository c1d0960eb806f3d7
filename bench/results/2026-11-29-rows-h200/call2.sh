#!/bin/bash
# Device call 2 of rows-h200/: the row rule reading the memory's bandwidth ("E": where a SM's share
# is >= 32 GB/s, rows of 8-63 from 2^22 take a thread a row of 8-15, else n / 16 threads, vectors,
# items 4) against the headers before it ("A", .gpu/hB, HEAD 99ff4f8), pick_ab (sum f32,
# PICK_AB_GRID=0) in separate processes, alternated, three runs each; then gpu_rows (every shape,
# misaligned rows included), memcheck/racecheck of gpu_rows --quick and of E's new picks.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:524288x8 rows:2097152x8 rows:8388608x8 rows:33554432x8 rows:262144x16 rows:1048576x16 rows:4194304x16
   rows:131072x32 rows:524288x32 rows:2097152x32 rows:8388608x32 rows:500000x12 rows:1000000x10
   rows:270000x17 rows:200000x24 rows:105000x40 rows:100000x48 rows:70000x63 rows:1000000x60
   rows:131072x8 rows:65536x32 rows:65536x64 rows:1048576x4"
for r in 1 2 3; do
  for b in A E; do
    PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab_$b $OUT/ab_$b$r.csv $S > /tmp/$b$r.log 2>&1
    echo "$b$r rc=$? $(tail -1 /tmp/$b$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
grep -h WRONG /tmp/[AE]*.log | head || echo "no WRONG line"
timeout 200 .gpu/gpu_rows > /tmp/correct.log 2>&1; echo "gpu_rows rc=$? $(tail -1 /tmp/correct.log) ($(( $(date +%s) - s0 )) s)"
SAN=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 120 $SAN --tool $tool --error-exitcode 9 .gpu/gpu_rows --quick > /tmp/$tool.txt 2>&1; echo "$tool quick: exit $? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/$tool.txt)"
  PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 $SAN --tool $tool --error-exitcode 9 .gpu/pick_ab_E /tmp/san.csv rows:105000x40 rows:524300x8 rows:270000x17 > /tmp/$tool-new.txt 2>&1; echo "$tool new picks: exit $? ($(( $(date +%s) - s0 )) s) $(tail -1 /tmp/$tool-new.txt)"
done

#!/bin/bash
# The device call of full-chunks/: tgm_vectors (templates/file.tpl, every .SV kernel's thread level)
# as committed ("base") against the same with a thread's full chunks loaded without a bounds test a
# load and one guarded partial chunk after ("full": /tmp/fullify.py's transform of the headers, in
# README). Rows: pick_ab (sum f32, the pick, CUB, RB's settings) built on tests/embed/headers and on
# .gpu/full/rows. 1-D: gpu_embed --bench (correctness sweep first, then the three timings of all six
# type/ops, CUB in the process) built on the H100+H200 tuned headers (.gpu/h1d, from
# ../2026-11-27-h200/embed-1d/db.json) and on .gpu/full/h1d. Alternated.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="rows:768x4096 rows:4096x4096 rows:1000x4096 rows:200x4096 rows:512x8192 rows:2048x8192 rows:2048x2048 rows:8192x1536 rows:1000x1024 rows:16384x1024 rows:32x524288 rows:4x16777216"
for r in 1 2; do
  for b in base full; do
    bin=.gpu/pick_ab; [ $b = full ] && bin=.gpu/pick_ab_full
    PICK_AB_PROTO=0 PICK_AB_RL=0 PICK_AB_RW_MAX=1 timeout 120 $bin $OUT/rows_$b$r.csv $S > /tmp/rows_$b$r.log 2>&1
    echo "rows $b$r rc=$? $(tail -1 /tmp/rows_$b$r.log) ($(( $(date +%s) - s0 )) s)"
  done
done
for b in base full; do
  timeout 200 .gpu/d1_$b --bench $OUT/d1_$b.md > /tmp/d1_$b.log 2>&1
  echo "d1 $b rc=$? $(tail -1 /tmp/d1_$b.log) ($(( $(date +%s) - s0 )) s)"
done
grep -h WRONG /tmp/*.log | head || echo "no WRONG line"

#!/usr/bin/env bash
# device call 1 (2026-11-27): on an H200 the six 1-D tunes (added to the
# H100's db-vrw.json), then on any GPU the embedded row/column sweep
set -u
s0=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$gpu"
case "$gpu" in
*H200*)
  cp bench/results/2026-11-26-vrw/db-vrw.json $OUT/db.json
  mkdir -p /tmp/t
  for m in sum_i32 sum_f32 max_i32 max_f32 min_i32 min_f32; do
    s=$(date +%s)
    .gpu/tgm-tune generated/$m.json --db $OUT/db.json --report /tmp/t/report-$m >/tmp/t/tune-$m.log 2>&1
    echo "$m: exit $? ($(( $(date +%s) - s )) s)" | tee -a /tmp/t/tune6.txt
    tail -n 4 /tmp/t/tune-$m.log | tee -a /tmp/t/tune6.txt
  done
  rm -f $OUT/*.lock
  tar czf $OUT/tune.tar.gz -C /tmp/t .
  ;;
esac
s=$(date +%s)
bash bench/rows/embed.sh $OUT/sweep
echo "sweep rc=$? ($(( $(date +%s) - s )) s, all $(( $(date +%s) - s0 )) s)"

#!/usr/bin/env bash
# device call 13: sum f32, deterministic variants only, 2^20..2^30 (what the variant space gives without float atomics)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
mkdir -p /tmp/t; C="--cache /tmp/cache"
.gpu/tgm-tune-tp generated/sum_f32.json --prepare $C > /tmp/t/prep.log 2>&1; echo "prepare rc=$? ($(( $(date +%s) - s0 )) s)"
for r in 1 2; do
  .gpu/tgm-tune-tp generated/sum_f32.json $C --deterministic --sizes 2^20..2^30 --budget 120 --db /tmp/t/db-det$r.json --report /tmp/t/rep-det$r > /tmp/t/tune-det$r.log 2>&1
  echo "det$r rc=$? ($(( $(date +%s) - s0 )) s)"
done
rm -f /tmp/t/*.lock; cp /tmp/t/rep-det1/report-*.md $OUT/report-det1.md; cp /tmp/t/rep-det2/report-*.md $OUT/report-det2.md
tar czf $OUT/det.tar.gz -C /tmp/t rep-det1 rep-det2
echo "all $(( $(date +%s) - s0 )) s"

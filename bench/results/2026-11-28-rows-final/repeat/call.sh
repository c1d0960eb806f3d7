#!/usr/bin/env bash
# device call 7 (asked for an H200, ran on an H100): the committed headers' gpu_rows (built here for sm_90, as ops/'s "new"):
# correctness on --quick's shapes, then the nine shapes and the rule set, every type/op, CUB in the
# same process (no torch, no sweep: the device time left)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/device.txt 2>&1
timeout 150 .gpu/gpu_rows_new --quick --bench $OUT/rows_embed.csv --set issue > $OUT/log.txt 2>&1
echo "issue rc=$? $(tail -1 $OUT/log.txt) ($(( $(date +%s) - s0 )) s)"
timeout 60 .gpu/gpu_rows_new --quick --bench $OUT/rule.csv --set rule > $OUT/rule.log 2>&1
echo "rule rc=$? $(tail -1 $OUT/rule.log) ($(( $(date +%s) - s0 )) s)"

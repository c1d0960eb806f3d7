#!/usr/bin/env bash
# device call 12: time_three ((b) re-timed where far above (c)): 1-D bench (h1d headers) and the row/column sweep, no sanitizers
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
TGM_EMBED_HEADERS=.gpu/h1d timeout 150 bash tests/embed/gpu.sh --bench $OUT/bench1d.md > $OUT/bench1d.log 2>&1
echo "1-D rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/bench1d.log
s=$(date +%s)
TGM_SANITIZERS=0 timeout 400 bash bench/rows/embed.sh /tmp/sw > /dev/null 2>&1
echo "sweep rc=$? ($(( $(date +%s) - s )) s)"; tail -2 /tmp/sw/log.txt
cp /tmp/sw/rows_embed.csv /tmp/sw/torch.csv /tmp/sw/device.txt /tmp/sw/log.txt $OUT/
echo "all $(( $(date +%s) - s0 )) s"

#!/usr/bin/env bash
# device call 8: gpu_timing.h with (b)/(c) samples enqueued ahead: 1-D bench (h1d headers), pick_ab rows grid at 768x4096 / 4096x4096, rows sweep (no sanitizers)
set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
TGM_EMBED_HEADERS=.gpu/h1d timeout 150 bash tests/embed/gpu.sh --bench $OUT/bench1d.md > $OUT/bench1d.log 2>&1
echo "1-D rc=$? ($(( $(date +%s) - s0 )) s)"; tail -2 $OUT/bench1d.log
s=$(date +%s)
timeout 100 .gpu/pick_ab $OUT/rb_grid.csv rows:768x4096 rows:4096x4096 > $OUT/rb_grid.log 2>&1
echo "pick_ab rc=$? ($(( $(date +%s) - s )) s)"
s=$(date +%s)
TGM_SANITIZERS=0 timeout 360 bash bench/rows/embed.sh /tmp/sw > /dev/null 2>&1
echo "sweep rc=$? ($(( $(date +%s) - s )) s)"; tail -2 /tmp/sw/log.txt
cp /tmp/sw/rows_embed.csv /tmp/sw/torch.csv $OUT/ ; cat /tmp/sw/device.txt
echo "all $(( $(date +%s) - s0 )) s"

#!/bin/bash
# rows VW (call 2): the new rule-only headers (RB, RL, RA with VW) on the GPU: gpu_rows in full
# (960 calls a type, graphs, two streams, against a host reference and CUB), memcheck and
# racecheck on --quick
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && mkdir -p r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > r/device.txt
timeout 200 bin/gpu_rows_vw > r/correct.txt 2>&1; echo "gpu_rows exit $? ($(( $(date +%s) - s0 )) s)"
for tool in memcheck racecheck; do
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 9 bin/gpu_rows_vw --quick > r/$tool.txt 2>&1
  echo "$tool exit $? ($(( $(date +%s) - s0 )) s)"
done
tail -n 2 r/*.txt
tar czf $OUT/r.tgz r

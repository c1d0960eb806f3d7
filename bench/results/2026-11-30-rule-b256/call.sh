#!/bin/bash
# The row rule's last case, rows of 4096 <= n < 16384 (m >= sms, or m < 2 sms on a slower memory):
# vc = tests/embed/headers at 5f7caee (RB in blocks of 128, ITEMS 1) against r = the same headers
# with the rule's `else if (n < 16384 && max_threads >= 256) k.block = 256, k.items = 4;` (RB in
# blocks of 256, ITEMS 4: 40-56 registers since a kernel per path). gpu_rows --quick --bench --set
# rb|rule (the rule's picks, six type/ops, CUB in the same process), alternated, three runs. Built
# on the dev machine (nvcc 13.0, -std=c++17 -O3 -arch=sm_90).
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
for r in 1 2 3; do
  for v in vc r; do
    for set in rb rule; do
      timeout 60 $B/rows_$v --quick --bench $R/$set-$v-$r.csv --set $set > $R/$set-$v-$r.log 2>&1
      echo "$set-$v-$r exit $? ($(( $(date +%s) - s0 )) s)" >> $R/summary.txt
    done
  done
done
tail -1 $R/summary.txt; grep -h -i "wrong\|fail" $R/*.log | grep -v " 0 wrong\|0 failures" | sort | uniq -c | head
cd $OUT && tar czf r.tgz r && rm -rf r

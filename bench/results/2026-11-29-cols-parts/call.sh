#!/bin/bash
# The device call of cols-parts/: pick_ab (sum f32; the pick, its CT/CA forms, the settings grid of
# CT.SV and CA.SV) at column shapes of 2^18-2^22 elements and n = 2-64, where the rule's last
# branch takes parts (CA.SV, 2 sms blocks of 256 or what the rows allow): how many parts is best
# (cols-small found half of them 1.13-1.17x at 32768 x 32). Committed headers (.gpu/pick_ab), two runs.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
S="cols:8192x32 cols:16384x32 cols:32768x32 cols:65536x32 cols:131072x32 cols:16384x16 cols:65536x16
   cols:262144x16 cols:32768x8 cols:131072x8 cols:524288x8 cols:4096x64 cols:16384x64 cols:65536x64
   cols:262144x4 cols:524288x2 cols:1048576x4"
for r in 1 2; do
  PICK_AB_PROTO=0 timeout 280 .gpu/pick_ab $OUT/parts$r.csv $S > /tmp/parts$r.log 2>&1
  echo "run$r rc=$? $(tail -1 /tmp/parts$r.log) ($(( $(date +%s) - s0 )) s)"
done
grep -h WRONG /tmp/parts*.log | head || echo "no WRONG line"

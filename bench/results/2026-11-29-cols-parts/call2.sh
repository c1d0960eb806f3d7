#!/bin/bash
# Device call 2 of cols-parts/: the rule variant of rule_p.cu (with atomics: one block a SM in all,
# blocks of 512 from 2^22) at the 21 shapes where it moves the pick: its setting as CA.SV ("set-ca",
# pick_ab's PICK_AB_SET=ca) against the pick, with the settings grid; committed headers, two runs.
set -u
OUT=${OUT:-/tmp/out}
s0=$(date +%s)
S="cols:8192x128:b256,g8,p33 cols:32768x32:b256,g8,p132 cols:32768x128:b512,g8,p33 cols:32768x512:b512,g8,p9
   cols:131072x8:b256,g2,p132 cols:131072x32:b512,g8,p132 cols:131072x128:b512,g8,p33 cols:524288x2:b256,g1,p132
   cols:524288x8:b512,g2,p132 cols:524288x32:b512,g8,p132 cols:1048576x8:b512,g2,p132 cols:2097152x2:b512,g1,p132
   cols:2097152x8:b512,g2,p132 cols:8388608x2:b512,g1,p132 cols:262144x4:b256,g1,p132 cols:65536x16:b256,g4,p132
   cols:262144x16:b512,g4,p132 cols:1048576x4:b512,g1,p132 cols:16384x64:b256,g8,p66 cols:65536x64:b512,g8,p66
   cols:65536x32:b256,g8,p132"
for r in 1 2; do
  PICK_AB_SET=ca PICK_AB_PROTO=0 timeout 280 .gpu/pick_ab $OUT/set$r.csv $S > /tmp/set$r.log 2>&1
  echo "run$r rc=$? $(tail -1 /tmp/set$r.log) ($(( $(date +%s) - s0 )) s)"
done
grep -h WRONG /tmp/set*.log | head || echo "no WRONG line"

set -u
S="cols:512x32 cols:8192x2 cols:131072x8 cols:2097152x2 cols:128x128 rows:768x4096"
for r in 1 2; do
  PICK_AB_REPICK=1 PICK_AB_PROTO=0 PICK_AB_RL=0 PICK_AB_RW_MAX=1 timeout 120 .gpu/pick_ab $OUT/cold$r.csv $S > /tmp/c$r.log 2>&1; echo "cold$r $? $(tail -1 /tmp/c$r.log)"
  TGM_TIMING_WARM=1 PICK_AB_REPICK=1 PICK_AB_PROTO=0 PICK_AB_RL=0 PICK_AB_RW_MAX=1 timeout 120 .gpu/pick_ab $OUT/warm$r.csv $S > /tmp/w$r.log 2>&1; echo "warm$r $? $(tail -1 /tmp/w$r.log)"
done

set -u
S="cols:512x32 cols:8192x2 cols:131072x8 cols:2097152x2 cols:524288x8 cols:32768x32"
for r in 1 2; do
  PICK_AB_B2=1 PICK_AB_REPICK=1 PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 120 .gpu/pick_ab $OUT/b2_$r.csv $S > /tmp/c$r.log 2>&1; echo "b2_$r $? $(tail -1 /tmp/c$r.log)"
done

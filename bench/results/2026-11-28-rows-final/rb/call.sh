set -u
s0=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
S="rows:768x4096 rows:4096x4096 rows:512x8192 rows:2048x2048 rows:512x2048 rows:8192x2048 rows:2048x8192 rows:32768x2048 rows:8192x8192 rows:200x4096 rows:1000x1024 rows:16x128 rows:128x128 rows:8x128"
for r in 1 2; do
  PICK_AB_PROTO=0 timeout 280 .gpu/pick_ab $OUT/rb$r.csv $S > $OUT/rb$r.log 2>&1
  echo "run$r rc=$? $(tail -1 $OUT/rb$r.log) ($(( $(date +%s) - s0 )) s)"
done

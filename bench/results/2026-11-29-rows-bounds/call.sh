#!/usr/bin/env bash
# device call 2 (2026-11-29b): gpu_rows --set rb and --set rule with five header builds (A committed;
# L RB with __launch_bounds__(BLOCK, 1024 / BLOCK); W RB and RW.*SV so; N RB without the items-16
# path; L4 L with items 4 up to n < 8192), alternated twice; pick_ab's RB grid at n = 4096-8192 with
# A and L (sum f32); the RA/RB crossover in m (pick_ab, GRID=0, f32 and i32). Results in one tar.
set -u
tar xJf .gpu/bins.txz -C .gpu # the binaries below, built here (README)
s0=$(date +%s)
R=$OUT/r; mkdir -p $R/rb $R/grid $R/ra
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt 2>&1
for r in 1 2; do
  for v in A L W N L4; do
    timeout 60 .gpu/rb/gpu_rows_$v --quick --bench $R/rb/$v$r.csv --set rb > $R/rb/$v$r.log 2>&1
    echo "$v$r rb rc=$? $(tail -1 $R/rb/$v$r.log) ($(( $(date +%s) - s0 )) s)"
    timeout 60 .gpu/rb/gpu_rows_$v --bench $R/rb/rule_$v$r.csv --set rule > $R/rb/rule_$v$r.log 2>&1
    echo "$v$r rule rc=$? ($(( $(date +%s) - s0 )) s)"
  done
done
for v in A L; do
  b=.gpu/pick_ab; [ $v = L ] && b=.gpu/pick_ab_L
  PICK_AB_RL=0 PICK_AB_PROTO=0 timeout 100 $b $R/grid/$v.csv rows:200x4096 rows:768x4096 rows:1000x4096 \
    rows:4096x4096 rows:512x8192 rows:2048x8192 rows:8192x1536 > $R/grid/$v.log 2>&1
  echo "grid $v rc=$? ($(( $(date +%s) - s0 )) s)"
done
S="rows:20x524288 rows:24x524288 rows:27x524288 rows:32x524288 rows:36x524288 rows:40x524288 rows:44x524288 \
   rows:24x262144 rows:32x262144 rows:36x262144 rows:40x262144 rows:32x131072 rows:40x131072 rows:32x786432 rows:40x786432"
PICK_AB_GRID=0 PICK_AB_PROTO=0 timeout 100 .gpu/pick_ab $R/ra/f32.csv $S > $R/ra/f32.log 2>&1
echo "ra f32 rc=$? ($(( $(date +%s) - s0 )) s)"
PICK_AB_GRID=0 timeout 100 .gpu/pick_ab_i32 $R/ra/i32.csv $S > $R/ra/i32.log 2>&1
echo "ra i32 rc=$? ($(( $(date +%s) - s0 )) s)"
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R

#!/usr/bin/env bash
# On the GPU machine: a fresh build of runtime/ (jansson headers and the
# static library carried in .gpu/jansson, since that machine has no Debian
# packages), then tgm-tune end to end with it: a tune killed with SIGKILL
# and resumed from its database, and a --deterministic tune.
set -u
export TGM_CACHE_DIR=/tmp/tgm-cache-fresh PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results-fresh && mkdir -p $R
J=$PWD/.gpu/jansson
step() { echo "=== $*"; local t0=$(date +%s); "$@"; local rc=$?; echo "=== rc=$rc $(( $(date +%s) - t0 )) s"; return $rc; }
step cmake -S runtime -B /tmp/build -DTGM_WERROR=ON -DTGM_JANSSON_STATIC=ON -DTGM_HIP=OFF \
  -DTGM_RT_JANSSON_INCLUDE=$J/include -DTGM_RT_JANSSON_LIB=$J/lib/libjansson.a -DCMAKE_BUILD_TYPE=Release || exit 1
step cmake --build /tmp/build -j 16 2>&1 | tail -3
T=/tmp/build/tgm-tune
ls -la /tmp/build/tgm-tune /tmp/build/libtgm_cub.so
( cd /tmp/build && step ctest -L unit 2>&1 | tail -4 )
# killed mid-run, then resumed
$T .gpu/gen/sum_i32.json --db $R/resume.db.json --report $R > $R/killed.txt 2>&1 &
pid=$!; sleep 6; kill -9 $pid; wait $pid 2>/dev/null
echo "after kill -9: $(grep -c '"log2n"' $R/resume.db.json) sizes in the database"
grep -E "^tgm-tune: [0-9]+/21" $R/killed.txt | tail -2
step $T .gpu/gen/sum_i32.json --db $R/resume.db.json --report $R 2>&1 | grep -E "resumed|mode, on|geomean|lowest" | head -30
step $T .gpu/gen/sum_f32.json --deterministic --db $R/resume.db.json --report $R 2>&1 | grep -E "mode, on|geomean|lowest|variants in"
# a corrupt database: refused, exit 4, left alone
echo '{"tgm_db": 1, "entries": [' > $R/corrupt.json
$T .gpu/gen/sum_i32.json --db $R/corrupt.json; echo "exit $? on a corrupt database; file now: $(cat $R/corrupt.json)"
tar czf $OUT/results-fresh.tar.gz -C /tmp results-fresh

#!/usr/bin/env bash
# tgm-tune over the cells of rows and columns (runtime/tune/shapes.c), run on
# the GPU machine from the repository root with .gpu/ carried:
#   .gpu/tgm-tune (build-gpu, bench/README.md) and .gpu/gen/NAME_rows.{cu,json},
#   NAME_cols.{cu,json} (tgm-gen --rows / --cols, .hip files removed).
#   bash bench/rows/tune.sh "sum_f32 sum_i32" [tgm-tune options]
# SHAPES ("rows cols") picks the manifests; LIMIT (540) the seconds all the
# tunes of one call may take, so that the results come back from a call of
# 600 s: a tune cut there resumes from $DB on the next call.
# One database for all, $DB (default $OUT/tgm-tune.db.json; give a carried
# one to resume a run cut at the call's time limit), copied to $OUT; reports,
# timings, logs and the commands in $OUT/tune.tar.gz.
set -u
export TGM_CACHE_DIR=/tmp/tgm-cache
out=${OUT:?}
r=/tmp/tune-results && mkdir -p $r
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $r/device.txt
start=$(date +%s)
db=${DB:-$out/tgm-tune.db.json}
names=${1:-sum_f32}
shift || true
for m in $names; do
  for shape in ${SHAPES:-rows cols}; do
    cmd=".gpu/tgm-tune .gpu/gen/${m}_$shape.json --db $db --report $r $*"
    echo "$cmd" >> $r/commands.txt
    t0=$(date +%s)
    left=$(( ${LIMIT:-540} - (t0 - start) ))
    [ $left -gt 10 ] || { echo "$m $shape: no time left in this call"; continue; }
    timeout $left $cmd >> $r/tune-${m}_$shape.log 2>&1
    echo "$m $shape: exit $? in $(( $(date +%s) - t0 )) s"
    tail -n 1 $r/tune-${m}_$shape.log
  done
done
[ "$db" = "$out/tgm-tune.db.json" ] || cp "$db" $out/tgm-tune.db.json
rm -f $out/*.lock
tar czf $out/tune.tar.gz -C /tmp tune-results

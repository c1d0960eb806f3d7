#!/usr/bin/env bash
# Run-to-run stability of the tuner's choices (on the GPU machine, .gpu/
# carried as for bench/spectra.sh): each manifest of $SPECTRA is tuned
# $RUNS times (default 2) in $MODE (default stream), each run into its own
# database, with the margins of every winner over its runner-up. Then, here:
#   python3 bench/stability_table.py DIR > DIR/stability.md
# Output (to $OUT, else bench/results/stability-DATE): db-1.json ..
# db-RUNS.json, log.txt, reports.tar.gz, commands.txt.
set -u
cd "$(dirname "$0")/.."
gen=.gpu/gen tune=.gpu/tgm-tune
out=${OUT:-bench/results/stability-$(date +%F)}
cache=${TGM_CACHE_DIR:-/tmp/tgm-cache}
mkdir -p "$out/reports"
exec > >(tee "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
params() { case $(basename "$1") in count_if_*) echo --param threshold=2 ;; esac; }
SPECTRA=${SPECTRA:-"sum_i32 sum_f32 max_i32 max_f32 min_i32 min_f32 dot_f32"}
export tune cache
for s in $SPECTRA; do echo "$gen/$s.json" $(params "$s"); done |
  xargs -P 8 -L 1 sh -c '"$tune" "$0" "$@" --prepare --quiet --cache "$cache" || echo "prepare $0: exit $?"'
: > "$out/commands.txt"
for run in $(seq 1 "${RUNS:-2}"); do
  for s in $SPECTRA; do
    cmd=("$tune" "$gen/$s.json" --sizes "${SIZES:-2^10..2^28}" --mode "${MODE:-stream}" --budget 20
         --db "$out/db-$run.json" --report "$out/reports" --cache "$cache" --quiet $(params "$s"))
    echo "${cmd[*]}" >> "$out/commands.txt"
    t0=$(date +%s)
    "${cmd[@]}" > "$out/reports/$s-${MODE:-stream}-$run.txt" 2>&1
    echo "run $run $s: exit $? in $(( $(date +%s) - t0 )) s"
  done
done
rm -f "$out"/*.lock
tar -C "$out" -czf "$out/reports.tar.gz" reports && rm -rf "$out/reports"

#!/usr/bin/env bash
# run.sh FUZZER SECONDS RUNS MAX_LEN SEED... — one short fuzz run for CI
# with a fixed seed: seed 1, RUNS inputs (-1: no limit) unless SECONDS run out
# first, inputs up to MAX_LEN bytes. Each SEED is a folder or
# a file; they are read only: the seed files and every new input go to a
# temporary folder that is removed. Exit 0 when nothing crashed, leaked or
# timed out; otherwise libFuzzer's report and the crashing input (base64)
# are printed and the exit status is 1. The last lines of libFuzzer's log
# (executions, coverage) are printed either way.
set -uo pipefail
if [ $# -lt 4 ]; then
  echo "usage: run.sh FUZZER SECONDS RUNS MAX_LEN SEED..." >&2
  exit 2
fi
fuzzer=$1 seconds=$2 runs=$3 max_len=$4
shift 4
work=$(mktemp -d /tmp/tgm-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new" "$work/seed"
dirs=()
n=0
for s in "$@"; do
  if [ -d "$s" ]; then
    dirs+=("$s")
  elif [ -f "$s" ]; then
    n=$((n + 1))
    cp "$s" "$work/seed/$n-$(basename "$s")"
  fi
done
"$fuzzer" -seed=1 -max_total_time="$seconds" -runs="$runs" -max_len="$max_len" \
  -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$work/" \
  "$work/new" "$work/seed" "${dirs[@]}" >"$work/log" 2>&1
rc=$?
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
  "$work/log" | sed "s|^|$(basename "$fuzzer"): |"
if [ $rc -ne 0 ]; then
  tail -60 "$work/log"
  for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [ -f "$f" ] || continue
    echo "== $f (base64):"
    base64 "$f" | head -40
  done
  exit 1
fi
exit 0

#!/usr/bin/env bash
# run.sh FUZZER SECONDS SEED_DIR... — one short, repeatable fuzz run for CI:
# seed 1, SECONDS of fuzzing from the seed folders (read only: new inputs go
# to a temporary folder that is removed). Exit 0 when nothing crashed,
# leaked or timed out; otherwise libFuzzer's report and the crashing input
# (base64) are printed and the exit status is 1.
set -uo pipefail
fuzzer=$1 seconds=$2
shift 2
work=$(mktemp -d /tmp/tgm-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new"
seeds=()
for d in "$@"; do [ -d "$d" ] && seeds+=("$d"); done
"$fuzzer" -seed=1 -max_total_time="$seconds" -max_len=8192 -timeout=20 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/new" "${seeds[@]}" >"$work/log" 2>&1
rc=$?
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)|cov:' "$work/log" | tail -3
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

#!/usr/bin/env bash
# long.sh BUILD OUT SECONDS [TARGET...] — long fuzz runs (an hour
# each, done once, their figures in the closing note): the targets (default:
# front manifest db) all at once, in the background of each other, under
# nice -n 19, each from a copy of its CI seeds in OUT/TARGET/corpus, which
# grows. A crash, leak or timeout is saved as OUT/TARGET/crash-* (or leak-,
# timeout-, oom-) and the run goes on from the grown corpus until SECONDS
# are spent (at most 20 restarts). Then OUT/summary holds, per target, the
# executions, the final coverage (cov, ft), the corpus size and the
# findings. BUILD is a tree made by scripts/sanitize.sh (build-asan).
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: long.sh BUILD OUT SECONDS [front|manifest|db...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd) out=$2 seconds=$3
shift 3
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(front manifest db)
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

seeds() { # the same seeds as tests/fuzz/CMakeLists.txt
  case $1 in
  front) ls "$root"/codelets/*.tgm "$root"/tests/errors/*.tgm "$root"/tests/xf/*.tgm ;;
  manifest) ls "$root"/generated/*.json "$root"/tests/runtime/data/*.json ;;
  db) ls "$root"/bench/results/*/*.db.json "$root"/tests/embed/*.db.json 2>/dev/null ;;
  esac
  [ -d "$root/tests/fuzz/corpus/$1" ] && ls -d "$root/tests/fuzz/corpus/$1"/* 2>/dev/null
}
max_len() { case $1 in front) echo 16384 ;; manifest) echo 262144 ;; *) echo 131072 ;; esac; }

one() { # one target, restarted after each finding until its time is spent
  local t=$1 dir=$out/$1 end=$(($(date +%s) + seconds)) n=0
  mkdir -p "$dir/corpus" "$dir/bin"
  # a copy of the fuzzer, so a rebuild of the tree does not touch the run
  cp "$build/tests/fuzz/fuzz_$t" "$dir/bin/"
  seeds "$t" | while read -r f; do cp "$f" "$dir/corpus/seed-$(basename "$f")"; done
  while [ $n -lt 20 ]; do
    local left=$((end - $(date +%s)))
    [ $left -gt 10 ] || break
    n=$((n + 1))
    nice -n 19 "$dir/bin/fuzz_$t" -seed=$n -max_total_time=$left -max_len="$(max_len "$t")" \
      -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$dir/" \
      "$dir/corpus" >"$dir/log.$n" 2>&1
    echo "$t: segment $n ended with status $?" >>"$dir/segments"
  done
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:external_symbolizer_path=$(command -v addr2line)}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
  one "$t" &
done
wait

{
  echo "long fuzz runs: ${seconds} s each, $(date -u +%FT%TZ)"
  for t in "${targets[@]}"; do
    dir=$out/$t
    execs=$(cat "$dir"/log.* | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
    last=$(ls -v "$dir"/log.* | tail -1)
    cov=$(grep -E '^#[0-9]+' "$last" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -1)
    found=$(ls "$dir" | grep -cE '^(crash|leak|timeout|oom)-')
    echo "$t: $execs executions in $(ls "$dir"/log.* | wc -l) segment(s), final $cov," \
         "corpus $(ls "$dir/corpus" | wc -l) inputs, $found finding(s)"
    ls "$dir" | grep -E '^(crash|leak|timeout|oom)-' | sed 's/^/  /'
  done
} | tee "$out/summary"

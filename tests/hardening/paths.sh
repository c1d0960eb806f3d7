#!/usr/bin/env bash
# paths.sh TGM_GEN ROOT [NVCC] — outside text never reaches generated code
# as code: a codelet file and a tuning database under folders whose names
# hold a newline, a carriage return, `*/`, a backslash, a trigraph and an
# `#error` line. The .cu, .hip and the embedded header must hold none of it
# at a line start, no CR, no comment end, no splice; their code must be the
# same as from a plain path; and with nvcc they compile.
set -euo pipefail
gen=$1 root=$2 nvcc=${3:-}
work=$(mktemp -d /tmp/tgm-paths.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "paths: $*" >&2; exit 1; }

evil="$work/"$'a\n#error from the path\rb*/c\\\n#include <nothing>??/\nd'
mkdir -p "$evil" "$work/plain" "$work/out-evil" "$work/out-plain"
cp "$root/codelets/sum.tgm" "$evil/sum.tgm"
cp "$root/codelets/sum.tgm" "$work/plain/sum.tgm"
"$gen" --no-check --type=i32 -o "$work/out-evil" "$evil/sum.tgm"
"$gen" --no-check --type=i32 -o "$work/out-plain" "$work/plain/sum.tgm"

check() { # FILE: no path text as code
  local f=$1
  if grep -q $'\r' "$f"; then fail "$f: a carriage return"; fi
  if grep -qE '^#(error|include <nothing>)' "$f"; then fail "$f: the path's text became a directive"; fi
  if grep -qE '^(from the path|b\*/c)' "$f"; then fail "$f: the path's text at a line start"; fi
  if head -12 "$f" | grep -qF -- '*/'; then fail "$f: a comment end from the path"; fi
  if head -12 "$f" | grep -qF -- '??/'; then fail "$f: a trigraph from the path"; fi
  if head -12 "$f" | grep -qE '\\$'; then fail "$f: a line splice from the path"; fi
  return 0
}
for ext in cu hip; do
  check "$work/out-evil/sum_i32.$ext"
  # the code is the same as from a plain path: only the two banner lines differ
  diff <(tail -n +3 "$work/out-evil/sum_i32.$ext") <(tail -n +3 "$work/out-plain/sum_i32.$ext") >/dev/null ||
    fail "sum_i32.$ext differs from the plain path's beyond the banner"
  head -2 "$work/out-evil/sum_i32.$ext" | grep -qv '^//' && fail "sum_i32.$ext: a banner line that is not a comment"
done
head -2 "$work/out-evil/sum_i32.cu" | grep -qF '%0A#error from the path%0Db*%2Fc%5C%0A#include <nothing>?%3F/%0Ad' ||
  fail "the path is not written escaped: $(head -2 "$work/out-evil/sum_i32.cu")"

# --embed=DB with a database under the same folder: the tuned choice of
# the manifest's source
hash=$(sed -n 's/.*"source_hash": "\([0-9a-f]*\)".*/\1/p' "$work/out-evil/sum_i32.json" | head -1)
cat >"$evil/db.json" <<JSON
{"tgm_db": 1, "entries": [{"key": {"device": "NVIDIA H100 80GB HBM3", "cc": "9.0", "sm_count": 132,
 "driver": 13000, "compiler": "nvrtc 13.0", "type": "i32", "op": "sum", "mode": "stream",
 "source_hash": "$hash", "deterministic": false, "hot_l2": false}, "results": [],
 "buckets": [{"from_log2n": 0, "to_log2n": 63, "variant": "DSL.VS.SV", "block": 256, "items": 1,
 "grid_cap_per_sm": 4}]}]}
JSON
"$gen" --embed="$evil/db.json" --type=i32 -o "$work/out-evil/tgm_sum_i32.cuh" "$evil/sum.tgm"
check "$work/out-evil/tgm_sum_i32.cuh"

if [ -n "$nvcc" ]; then
  for f in "$work/out-evil/sum_i32.cu" "$work/out-evil/tgm_sum_i32.cuh"; do
    "$nvcc" -std=c++17 -arch=sm_80 -c -x cu "$f" -o "$work/x.o" || fail "$f does not compile"
  done
fi
echo "paths: ok"

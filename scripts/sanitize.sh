#!/usr/bin/env bash
# The sanitizer and fuzz run (scripts/test.sh runs it after the tests):
# a second tree, build-asan (or $TGM_ASAN_BUILD_DIR), built with clang-19,
# AddressSanitizer and UndefinedBehaviorSanitizer and the libFuzzer targets;
# then ctest there over the unit, errors, cli, golden and runtime labels,
# and each fuzz target for $TGM_FUZZ_SECONDS (default 20) from its corpus.
# Only the targets those tests run are built.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TGM_ASAN_BUILD_DIR:-build-asan}
labels='unit|errors|cli|golden|runtime'
jobs=$(nproc)
CC=clang-19 CXX=clang++-19 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTGM_WERROR=OFF \
  -DTGM_SANITIZE=ON -DTGM_FUZZ=ON -DTGM_FUZZ_SECONDS="${TGM_FUZZ_SECONDS:-20}" \
  -DTGM_CUB=OFF -DCMAKE_C_FLAGS=-O1 >/dev/null
# the executables the chosen tests run, named by their paths in the tree
abs=$(cd "$build" && pwd)
targets=$(ctest --test-dir "$build" --show-only=json-v1 -L "$labels" |
  grep -o "\"$abs/[^\"]*\"" | sed 's|.*/||; s|"||g' | sort -u)
known=$(cmake --build "$build" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
want=(fuzz_front fuzz_manifest fuzz_db)
for t in $targets; do
  if grep -qx "$t" <<<"$known"; then want+=("$t"); fi
done
cmake --build "$build" -j "$jobs" --target "${want[@]}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j "$jobs" -L "$labels|fuzz"

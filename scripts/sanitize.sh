#!/usr/bin/env bash
# The sanitizer and fuzz run (scripts/test.sh runs it after the tests):
# a second tree, build-asan (or $TGM_ASAN_BUILD_DIR), built with clang-19,
# AddressSanitizer and UndefinedBehaviorSanitizer (any report fails the
# test: -fno-sanitize-recover, halt_on_error, leaks checked) and the
# libFuzzer targets; then ctest there over the unit, errors, cli, golden and
# runtime labels, and each fuzz target (label fuzz) for a fixed number of
# inputs from its corpus, seed 1 (tests/fuzz/run.sh; at most
# $TGM_FUZZ_SECONDS, default 40, each). Only the
# targets those tests run are built. From a clean tree on 2 idle cores:
# 4 min 15 s (build 40 s, tests 3.5 min of which the cli tests, which run
# tgm-gen's CPU check, 2.5 min and the fuzz runs 1 min); 11 min with the
# cores shared with other work.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
build=${TGM_ASAN_BUILD_DIR:-build-asan}
labels='unit|errors|cli|golden|runtime'
jobs=$(nproc)
CC=clang-19 CXX=clang++-19 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DTGM_WERROR=OFF \
  -DTGM_SANITIZE=ON -DTGM_FUZZ=ON -DTGM_FUZZ_SECONDS="${TGM_FUZZ_SECONDS:-40}" \
  -DTGM_CUB=OFF -DCMAKE_C_FLAGS=-O1 >/dev/null
# the executables the chosen tests run: the build-tree paths on their
# add_test lines (resolved there before anything is built), by file name
abs=$(cd "$build" && pwd)
names=$(ctest --test-dir "$build" -N -L "$labels" | sed -n 's/^ *Test *#[0-9]*: //p')
targets=$(find "$build" -name CTestTestfile.cmake -exec grep -h '^add_test(\[=\[' {} + |
  sed 's/^add_test(\[=\[\([^]]*\)\]=\]/\1/' |
  awk 'NR == FNR { want[$1] = 1; next } ($1 in want)' <(printf '%s\n' "$names") - |
  grep -o "\"$abs/[^\"]*\"" | sed 's|.*/||; s|"||g' | sort -u)
known=$(cmake --build "$build" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
want=(fuzz_front fuzz_manifest fuzz_db)
for t in $targets; do
  if grep -qx "$t" <<<"$known"; then want+=("$t"); fi
done
cmake --build "$build" -j "$jobs" --target "${want[@]}"
# Reports name functions and lines: llvm-symbolizer 19 where installed,
# else binutils' addr2line (ASan takes neither from $PATH on its own here).
sym=/usr/lib/llvm-19/bin/llvm-symbolizer
[ -x "$sym" ] || sym=$(command -v addr2line || true)
sym=${sym:+:external_symbolizer_path=$sym}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1$sym}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1$sym}
ctest --test-dir "$build" --output-on-failure -j "$jobs" -L "$labels|fuzz"

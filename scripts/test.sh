#!/usr/bin/env bash
# The tests: install, build, and run every CTest test; then the sanitizer
# and fuzz run (scripts/sanitize.sh: ASan + UBSan over the unit, errors,
# cli, golden and runtime labels in build-asan, and each libFuzzer target
# briefly). Arguments go to the first ctest and, since they choose tests,
# leave the sanitizer run out; so does TGM_SANITIZE=0.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
bash scripts/build.sh
ctest --test-dir "${TGM_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
if [ $# -eq 0 ] && [ "${TGM_SANITIZE:-1}" != 0 ]; then
  bash scripts/sanitize.sh
fi

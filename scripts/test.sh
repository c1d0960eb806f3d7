#!/usr/bin/env bash
# The tests: install, build, and run every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir "${TGM_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"

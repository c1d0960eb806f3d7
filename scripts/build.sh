#!/usr/bin/env bash
# Configures and builds tgm in ./build (or $TGM_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TGM_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=${TGM_BUILD_TYPE:-RelWithDebInfo} -DTGM_WERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc)"

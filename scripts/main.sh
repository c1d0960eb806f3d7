#!/usr/bin/env bash
# The main job: install, build, and run tgm-gen on the sum codelets: every
# variant generated, checked on the CPU simulator, and written to build/main.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/tgm-gen --dump=sema codelets/sum.tgm
./build/tgm-gen --strict --type=i32 -o build/main codelets/sum.tgm
ls -l build/main

#!/usr/bin/env bash
# The main job: install, build, and run tgm-gen on the sum codelets.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/tgm-gen --dump=sema codelets/sum.tgm

#!/usr/bin/env bash
# Regenerates generated/: sum, max and min over i32 and f32, CUDA and HIP,
# with their manifests. Review the diff before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tgm-gen ] || bash scripts/build.sh
rm -rf generated.new
for f in sum max min; do
  ./build/tgm-gen --type=i32,f32 -o generated.new "codelets/$f.tgm"
done
rm -rf generated
mv generated.new generated
git status --short generated

#!/usr/bin/env bash
# Regenerates generated/: sum, max and min over i32 and f32, CUDA and HIP,
# with their manifests, their row and column reductions in generated/rows/
# and generated/cols/ (--rows, --cols),
# and tgm_reduce's typed calls
# (runtime/reduce/include/tgm/reduce_spectra.h). Review the diff before
# committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tgm-gen ] || bash scripts/build.sh
rm -rf generated.new
mkdir -p generated.new/rows generated.new/cols
for f in sum max min; do
  ./build/tgm-gen --type=i32,f32 -o generated.new "codelets/$f.tgm"
  ./build/tgm-gen --rows --type=i32,f32 -o generated.new/rows "codelets/$f.tgm"
  ./build/tgm-gen --cols --type=i32,f32 -o generated.new/cols "codelets/$f.tgm"
done
rm -rf generated
mv generated.new generated
bash scripts/reduce_api.sh "$PWD/build/tgm-gen" runtime/reduce/include/tgm/reduce_spectra.h
git status --short generated runtime/reduce/include

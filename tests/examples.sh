#!/usr/bin/env bash
# cmake --install, then the embedded-header example builds against the
# installed package (find_package(tgm), tgm_embed()).
set -u
build=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
for f in bin/tgm-gen share/tgm/codelets/sum.tgm lib/cmake/tgm/tgmConfig.cmake; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
cmake -S "$root/examples/embedded" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CUDA_COMPILER="${3:-nvcc}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
[ -x "$work/example/sum_example" ] || { echo "FAIL: no example binary"; exit 1; }
grep -q "inline cudaError_t tgm_sum_i32" "$work/example/tgm_sum_i32.cuh" || { echo "FAIL: header"; exit 1; }
echo "ok: installed, and examples/embedded builds against the package"

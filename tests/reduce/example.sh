#!/usr/bin/env bash
# cmake --install, then examples/runtime (find_package(tgm), tgm::reduce)
# builds against the installed package and, where there is a GPU, runs.
set -u
build=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
lib=$(ls -d "$work"/prefix/lib*/libtgm_reduce.a 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "FAIL: the install has no libtgm_reduce.a"; exit 1; }
libdir=$(dirname "$lib")
for f in "$libdir/libtgm_tune.a" "$libdir/libtgm.a" "$work/prefix/include/tgm/reduce.h" \
         "$work/prefix/include/tgm/tgm.h" "$work/prefix/share/tgm/generated/sum_i32.json" \
         "$work/prefix/share/tgm/generated/sum_i32.cu" \
         "$work/prefix/share/tgm/generated/rows/sum_i32_rows.json" \
         "$work/prefix/share/tgm/generated/cols/sum_f32_cols.cu"; do
  [ -e "$f" ] || { echo "FAIL: ${f#$work/prefix/} not installed"; exit 1; }
done
# the installed tgm-tune finds its CUB fallback (libtgm_cub.so in the
# library folder) wherever the prefix is, when the build made one
if [ -e "$build/libtgm_cub.so" ]; then
  [ -e "$libdir/libtgm_cub.so" ] || { echo "FAIL: libtgm_cub.so not installed"; exit 1; }
  "$work/prefix/bin/tgm-tune" --version | grep -qF "CUB fallback (plain sum, max, min without nvcc): $work/prefix/bin/../" ||
    { echo "FAIL: the installed tgm-tune does not find libtgm_cub.so: $("$work/prefix/bin/tgm-tune" --version)"; exit 1; }
fi
cmake -S "$root/examples/runtime" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
[ -x "$work/example/reduce_example" ] || { echo "FAIL: no example binary"; exit 1; }
if [ -e /dev/nvidiactl ]; then
  TGM_DATA_DIR="$work/prefix/share/tgm/generated" TGM_DB="$root/bench/results/2026-11-22-h100/tgm-tune.db.json" \
    "$work/example/reduce_example" || { echo "FAIL: the example did not run"; exit 1; }
fi
echo "ok: installed, and examples/runtime builds against the package"

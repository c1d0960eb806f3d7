#!/usr/bin/env bash
# The CUB baseline tgm-gen writes beside the variants (NAME_TYPE.cub.cu,
# which tgm-tune builds with nvcc and times) compiles, warning-free, for
# every codelet in codelets/ and each of its CI types (tgm-test-types), with
# the flags tgm-tune uses (runtime/tune/cub.c), but to an object file.
#   cub.sh TGM_GEN ROOT NVCC
set -u
gen=$1 root=$2 nvcc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for c in "$root"/codelets/*.tgm; do
  types=$(sed -n 's/.*tgm-test-types: *\([a-z0-9,]*\).*/\1/p' "$c" | head -1)
  "$gen" --no-check --type="${types:-i32}" -o "$work" "$c" || { echo "FAIL: tgm-gen $c"; exit 1; }
done
ls "$work"/*.cub.cu >/dev/null || { echo "FAIL: no .cub.cu written"; exit 1; }
for f in "$work"/*.cub.cu; do
  base=$(basename "$f" .cub.cu)
  [ -f "$work/$base.cu" ] || { echo "FAIL: $base.cub.cu without $base.cu"; exit 1; }
  grep -q '^extern "C" int tgm_cub_run(' "$f" || { echo "FAIL: $base.cub.cu: no tgm_cub_run"; exit 1; }
done
export nvcc work
ls "$work"/*.cub.cu | xargs -P "$(nproc)" -I{} sh -c \
  '"$nvcc" -O3 -std=c++17 -arch=sm_90 -Xcompiler -fPIC -Werror all-warnings -I"$work" -c {} -o {}.o \
     > {}.log 2>&1 || { echo "FAIL: $(basename {})"; cat {}.log; exit 255; }'
rc=$?
n=$(ls "$work"/*.cub.cu | wc -l)
[ $rc -eq 0 ] && echo "ok: $n CUB baselines compile with nvcc (sm_90)"
exit $rc

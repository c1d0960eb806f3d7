#!/usr/bin/env bash
# ops.sh TGM-GEN FILE.tgm [NVCC] [HIPCC]: a codelet file written as a user
# would write it (an operator no shipped codelet uses, the user's own names,
# a loop body of several statements): every variant of i32 and f32 run on
# the CPU simulator (--strict: a wrong variant fails), the rows and the
# columns of f32 too, then each generated 1-D file compiled with nvcc (sm_80)
# and hipcc (gfx90a) where they are installed, the CUB baseline included.
set -u
gen=$1 file=$2 nvcc=${3:-} hipcc=${4:-}
case $nvcc in *NOTFOUND) nvcc= ;; esac
case $hipcc in *NOTFOUND) hipcc= ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/compile/instantiate.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" --strict --type=i32,f32 -o "$work" "$file" || { echo "FAIL: tgm-gen --strict"; exit 1; }
for shape in rows cols; do
  mkdir -p "$work/$shape"
  "$gen" --strict --$shape --type=f32 -o "$work/$shape" "$file" || { echo "FAIL: tgm-gen --strict --$shape"; exit 1; }
done
name=$(basename "$file" .tgm)
for t in i32 f32; do
  base=${name}_$t
  [ -f "$work/$base.cu" ] && [ -f "$work/$base.hip" ] && [ -f "$work/$base.json" ] ||
    { echo "FAIL: $base: missing outputs"; exit 1; }
  instantiate "$work" "$base" sm_80 "$nvcc" "$hipcc" || exit 1
  if [ -n "$nvcc" ]; then
    "$nvcc" -std=c++17 -arch=sm_80 -c "$work/$base.cub.cu" -o "$work/$base.cub.o" ||
      { echo "FAIL: nvcc $base.cub.cu"; exit 1; }
  fi
  echo "ok: $base ($("$gen" --type=$t --list "$file" | wc -l) variants, checked and compiled)"
done

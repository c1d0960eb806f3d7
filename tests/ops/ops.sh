#!/usr/bin/env bash
# ops.sh TGM-GEN FILE.tgm [NVCC] [HIPCC] [TGM-TUNE] [TEST_RT_RTC]: a codelet file written as
# a user would write it (an operator no shipped codelet uses, the user's own
# names, a loop body of several statements, a condition on the index): every
# variant of i32 and f32 run on the CPU simulator (--strict: a wrong variant
# fails), the rows and (where the file does not use in.Index()) the columns
# of f32 too, the 16-byte vector body among the variants, then each
# generated 1-D file compiled with nvcc (sm_80) and hipcc (gfx90a) where
# they are installed, the CUB baseline included, and
# each generated .cu compiled by NVRTC for sm_90 without a GPU (test_rt_rtc),
# each manifest read by tgm-tune (--verify-only, every parameter 1): exit 0
# (verified on a GPU) or 3 (no GPU), never a manifest it cannot read (a bool
# result included); with
# nvcc, the embedded call of f32's first variant compiled too.
set -u
gen=$1 file=$2 nvcc=${3:-} hipcc=${4:-} tune=${5:-} rtc=${6:-}
case $nvcc in *NOTFOUND) nvcc= ;; esac
case $hipcc in *NOTFOUND) hipcc= ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/compile/instantiate.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" --strict --type=i32,f32 -o "$work" "$file" || { echo "FAIL: tgm-gen --strict"; exit 1; }
shapes="rows cols"
# down a column, in.Index(i) would count elements, not rows: no column variants (a located error)
grep -q '\.Index(' "$file" && shapes=rows
for shape in $shapes; do
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
  if [ -n "$rtc" ]; then
    # NVRTC, as tgm-tune and tgm_reduce compile: it lacks what nvcc, hipcc and the sim have
    # (__builtin_huge_valf was one); every variant at its first block size, sm_90, no GPU
    "$rtc" cuda sm_90 "$work/$base.json" 1 >"$work/rtc.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || { tail -20 "$work/rtc.log"; echo "FAIL: NVRTC $base.cu: exit $rc"; exit 1; }
  fi
  if [ -n "$tune" ]; then
    # shellcheck disable=SC2046
    "$tune" "$work/$base.json" --verify-only --quiet --cache '' $(python3 -c '
import json, sys
for p in json.load(open(sys.argv[1]))["meaning"]["params"]:
    print("--param", p["name"] + "=1")' "$work/$base.json")
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "FAIL: tgm-tune $base.json: exit $rc"; exit 1; }
  fi
  # every file here has one input, read at the loop's index: the 16-byte vector body applies
  "$gen" --type=$t --list "$file" | awk '{ print $1 }' | grep -q '\.SV$' ||
    { echo "FAIL: $base: no variant with the 16-byte vector body (.SV)"; exit 1; }
  echo "ok: $base ($("$gen" --type=$t --list "$file" | wc -l) variants, checked and compiled)"
done
if [ -n "$nvcc" ]; then
  first=$("$gen" --type=f32 --list "$file" | awk 'NR == 1 { print $1 }')
  "$gen" --embed --variant="$first" --type=f32 -o "$work/embed.cuh" "$file" ||
    { echo "FAIL: tgm-gen --embed --variant=$first"; exit 1; }
  printf '#include "embed.cuh"\n' > "$work/embed.cu"
  "$nvcc" -std=c++17 -arch=sm_80 -Werror all-warnings -c "$work/embed.cu" -I"$work" -o "$work/embed.o" ||
    { echo "FAIL: nvcc the embedded call ($first)"; exit 1; }
  echo "ok: $name's embedded call ($first, f32) compiled"
fi

#!/usr/bin/env bash
# Types generated/ does not hold, compiled (the atomics and vector types
# differ by type: CUDA and HIP each lack some, e.g. HIP 5.2 has no
# atomicMax on long long): max and min over f64, u32 and i64, sum over i64
# and u32, prod over f64, l2norm over i32 (sqrt of an int: device code has
# no such overload; tgm makes the argument double). nvcc sm_75 and hipcc
# gfx90a where installed.
#   types.sh TGM_GEN ROOT [NVCC] [HIPCC]
set -u
gen=$1 root=$2 nvcc=${3:-} hipcc=${4:-}
. "$(dirname "$0")/instantiate.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for pair in max:f64 min:f64 max:u32 min:i64 sum:i64 sum:u32 prod:f64 l2norm:i32; do
  c=${pair%:*} t=${pair#*:} base=${pair%:*}_${pair#*:}
  "$gen" --no-check --type="$t" -o "$work" "$root/codelets/$c.tgm" || { echo "FAIL: tgm-gen $pair"; fail=1; continue; }
  instantiate "$work" "$base" sm_75 "$nvcc" "$hipcc" || fail=1
  echo "ok: $base"
done
exit $fail

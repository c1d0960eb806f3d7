#!/usr/bin/env bash
# Types generated/ does not hold, compiled (the atomics and vector types
# differ by type: CUDA and HIP each lack some, e.g. HIP 5.2 has no
# atomicMax on long long): max and min over f64, u32 and i64, sum over i64
# and u32, prod over f64. nvcc sm_75 and hipcc gfx90a where installed.
#   types.sh TGM_GEN ROOT [NVCC] [HIPCC]
set -u
gen=$1 root=$2 nvcc=${3:-} hipcc=${4:-}
case $nvcc in *NOTFOUND) nvcc= ;; esac
case $hipcc in *NOTFOUND) hipcc= ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for pair in max:f64 min:f64 max:u32 min:i64 sum:i64 sum:u32 prod:f64; do
  c=${pair%:*} t=${pair#*:} base=${pair%:*}_${pair#*:}
  "$gen" --no-check --type="$t" -o "$work" "$root/codelets/$c.tgm" || { echo "FAIL: tgm-gen $pair"; fail=1; continue; }
  defs=(-DTGM_NS=tgm_kernels_$base -DTGM_VARIANTS=TGM_VARIANTS_$base)
  if [ -n "$nvcc" ]; then
    "$nvcc" -std=c++17 -arch=sm_75 -Werror all-warnings -c -x cu "$root/tests/compile/instantiate.cu" \
      -I"$work" -DTGM_FILE="\"$base.cu\"" "${defs[@]}" -o "$work/$base.o" || { echo "FAIL: nvcc $base.cu"; fail=1; }
  fi
  if [ -n "$hipcc" ]; then
    "$hipcc" --offload-arch=gfx90a -std=c++17 -Werror -c -x hip "$root/tests/compile/instantiate.cu" \
      -I"$work" -DTGM_FILE="\"$base.hip\"" "${defs[@]}" -o "$work/$base.hip.o" || { echo "FAIL: hipcc $base.hip"; fail=1; }
  fi
  echo "ok: $base"
done
exit $fail

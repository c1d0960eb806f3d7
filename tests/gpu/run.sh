#!/usr/bin/env bash
# On the GPU machine: every variant of the user-reduction codelets, checked on
# the GPU against their own reference (tests/gpu/variants.cu). GEN holds
# tgm-gen's output for the files listed below (made where libclang is):
#   for f in sumsq dot count_if mean prod absmax bit_xor; do
#     tgm-gen --no-check --type=... -o GEN codelets/$f.tgm; done
set -u
gen=${1:?usage: run.sh GEN_DIR [ARCH]} arch=${2:-sm_90}
here=$(cd "$(dirname "$0")" && pwd)
cases=${TGM_GPU_CASES:-"sumsq:i32:1: sumsq:f32:1: dot:f32:2: count_if:f32:1:(T)0.25f mean:i32:1: mean:f32:1:
       prod:f64:1: absmax:f32:1: bit_xor:u32:1: l2norm:f32:1:"}
fail=0
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
build() { # compiles one case (in parallel with the others)
  IFS=: read -r name type nin params <<<"$1"
  [ -f "$gen/${name}_$type.cu" ] || return 0
  nvcc -O2 -arch="$arch" -I"$gen" -DTGM_FILE="\"${name}_$type.cu\"" -DTGM_NS=tgm_kernels_${name}_$type \
       -DTGM_VARIANTS=TGM_VARIANTS_${name}_$type -DTGM_NIN="$nin" ${params:+-DTGM_PARAM="$params"} \
       "$here/variants.cu" -o "$work/${name}_$type" >"$work/${name}_$type.log" 2>&1
}
for c in $cases; do build "$c" & done
wait
for c in $cases; do
  IFS=: read -r name type nin params <<<"$c"
  [ -f "$gen/${name}_$type.cu" ] || { echo "skip $name $type: not generated"; continue; }
  [ -x "$work/${name}_$type" ] || { echo "FAIL $name $type: does not compile"; cat "$work/${name}_$type.log"; fail=1; continue; }
  "$work/${name}_$type"
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || fail=1
done
exit $fail

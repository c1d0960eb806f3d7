#!/usr/bin/env bash
# Every shipped spectrum through tgm-tune on the GPU machine (the device
# tool), from the repository root, with .gpu/ carried (bench/README.md says
# how it is made: tgm-tune, libtgm_cub.so, and .gpu/gen from tgm-gen over
# every codelet in codelets/ for its CI types).
#   1. the gpu label's check (tests/runtime/gpu.sh) over every manifest:
#      every variant and knob setting against the spectrum's own scalar
#      codelet run on the GPU (tgm_reference_kernel)
#   2. a tune of each spectrum in SPECTRA (stream mode, 2^10..2^26), with its
#      report and database entries
# Output (to $OUT, else bench/results/spectra-DATE): log.txt, db.json, the
# reports, commands.txt.
set -u
cd "$(dirname "$0")/.."
gen=.gpu/gen tune=.gpu/tgm-tune
out=${OUT:-bench/results/spectra-$(date +%F)}
mkdir -p "$out"
exec > >(tee "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
start=$(date +%s)
TGM_GEN_DIR=$gen bash tests/runtime/gpu.sh "$tune" "" .
echo "gpu label: exit $? in $(( $(date +%s) - start )) s"

SPECTRA=${SPECTRA:-"dot_f32 count_if_f32 argmax_i32 argmin_f32 mean_f32 sumsq_f64 l2norm_f32 prod_i32 absmax_f32 bit_xor_u32 sum_i32"}
: > "$out/commands.txt"
for s in $SPECTRA; do
  params=()
  case $s in count_if_*) params=(--param threshold=2) ;; esac
  cmd=("$tune" "$gen/$s.json" --sizes '2^10..2^26' --mode stream --budget 20 --db "$out/db.json"
       --report "$out" --quiet "${params[@]}")
  echo "${cmd[*]}" >> "$out/commands.txt"
  t0=$(date +%s)
  "${cmd[@]}"
  echo "$s: exit $? in $(( $(date +%s) - t0 )) s"
done

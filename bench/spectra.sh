#!/usr/bin/env bash
# Every shipped spectrum through tgm-tune on the GPU machine (the device
# tool), from the repository root, with .gpu/ carried (bench/README.md says
# how it is made: tgm-tune, libtgm_cub.so, and .gpu/gen from tgm-gen over
# every codelet in codelets/ for its CI types).
#   1. (LABEL=1) the gpu label's check (tests/runtime/gpu.sh) over every
#      manifest: every variant and knob setting against the spectrum's own
#      scalar codelet run on the GPU (tgm_reference_kernel)
#   2. tgm-tune --prepare of every manifest, 8 at a time: the variants
#      compiled and each spectrum's CUB baseline built with nvcc, into the
#      cache, so that the tunes after it time and compile nothing
#   3. a tune of each manifest (or of $SPECTRA, e.g. "dot_f32 sum_i32") in
#      each of $MODES (default "both": tgm-tune's default), sizes $SIZES (2^10..2^28),
#      the spectrum's CUB baseline timed beside it
# Output (to $OUT, else bench/results/spectra-DATE): log.txt, db.json,
# reports.tar.gz (report-*.md, plot-*.svg), commands.txt.
set -u
cd "$(dirname "$0")/.."
gen=.gpu/gen tune=.gpu/tgm-tune
out=${OUT:-bench/results/spectra-$(date +%F)}
cache=${TGM_CACHE_DIR:-/tmp/tgm-cache}
mkdir -p "$out" "$out/reports"
exec > >(tee "$out/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
params() { case $(basename "$1") in count_if_*) echo --param threshold=2 ;; esac; }
if [ "${LABEL:-1}" = 1 ]; then
  start=$(date +%s)
  TGM_GEN_DIR=$gen bash tests/runtime/gpu.sh "$tune" "" .
  echo "gpu label: exit $? in $(( $(date +%s) - start )) s"
fi

if [ -n "${SPECTRA:-}" ]; then
  manifests=$(for s in $SPECTRA; do echo "$gen/$s.json"; done)
else
  manifests=$(ls "$gen"/*.json)
fi
start=$(date +%s)
export tune cache
# one manifest (and its --param words) per line, no trailing blank: xargs -L
# would join a line that ends in one with the next
for m in $manifests; do echo "$m" $(params "$m"); done |
  xargs -P 8 -L 1 sh -c '"$tune" "$0" "$@" --prepare --quiet --cache "$cache" || echo "prepare $0: exit $?"'
echo "prepare: $(( $(date +%s) - start )) s"

: > "$out/commands.txt"
for mode in ${MODES:-both}; do
  for m in $manifests; do
    cmd=("$tune" "$m" --sizes "${SIZES:-2^10..2^28}" --mode "$mode" --budget 20 --db "$out/db.json"
         --report "$out/reports" --cache "$cache" --quiet $(params "$m"))
    echo "${cmd[*]}" >> "$out/commands.txt"
    t0=$(date +%s)
    "${cmd[@]}" > "$out/reports/$(basename "$m" .json)-$mode.txt" 2>&1
    rc=$?
    echo "$(basename "$m" .json) $mode: exit $rc in $(( $(date +%s) - t0 )) s"
    [ $rc -eq 0 ] || tail -5 "$out/reports/$(basename "$m" .json)-$mode.txt"
  done
done
tar -C "$out" -czf "$out/reports.tar.gz" reports && rm -rf "$out/reports"

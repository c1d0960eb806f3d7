#!/usr/bin/env bash
# generated/ must be exactly what tgm-gen makes now (it is reviewed as a
# diff whenever a transformation or template changes). Also: generating all
# variants of one file for one type takes under 2 seconds.
#   re-generate: scripts/generate.sh
set -u
gen=$1 root=$2
cd "$root" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rows" "$work/cols"
for f in sum max min; do
  "$gen" --no-check --rows --type=i32,f32 -o "$work/rows" "codelets/$f.tgm" || exit 1
  "$gen" --no-check --cols --type=i32,f32 -o "$work/cols" "codelets/$f.tgm" || exit 1
  start=$(date +%s%N)
  "$gen" --no-check --type=i32,f32 -o "$work" "codelets/$f.tgm" || exit 1
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "$f (i32 and f32, CUDA and HIP, manifest): ${ms} ms"
  [ "$ms" -lt 4000 ] || { echo "FAIL: generation of $f took ${ms} ms"; exit 1; }
done
diff -r -u generated "$work" >"$work.diff" 2>&1 || {
  head -50 "$work.diff"; rm -f "$work.diff"
  echo "FAIL: generated/ is stale; run scripts/generate.sh and review the diff"; exit 1; }
rm -f "$work.diff"
grep -L 'do not edit' generated/*.cu generated/*.hip generated/rows/*.cu generated/rows/*.hip generated/cols/*.cu generated/cols/*.hip | grep . && { echo "FAIL: missing banner"; exit 1; }
# tgm_reduce's typed calls, from every shipped codelet
bash scripts/reduce_api.sh "$gen" "$work/reduce_spectra.h" || exit 1
diff -u runtime/reduce/include/tgm/reduce_spectra.h "$work/reduce_spectra.h" ||
  { echo "FAIL: runtime/reduce/include/tgm/reduce_spectra.h is stale; run scripts/generate.sh"; exit 1; }
echo "ok: generated/ is fresh"

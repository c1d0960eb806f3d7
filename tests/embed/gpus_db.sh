#!/usr/bin/env bash
# A tuning database of several GPUs for the embed tests: the H100's, as
# tgm-tune wrote it (bench/results/2026-11-22-h100/tgm-tune.db.json), and
# the synthetic GPUs of tests/embed/fixture-gpus.db.json (an "NVIDIA H200"
# for CUDA; two AMD GPUs, tuned with hiprtc, for --hip), whose source hashes
# are those of the codelets as they are now.
#   gpus_db.sh TGM_GEN ROOT OUT
set -euo pipefail
gen=$1 root=$2 out=$3
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" --no-check --type=i32 -o "$work" codelets/sum.tgm codelets/max.tgm codelets/min.tgm
hash() { sed -n 's/.*"source_hash": "\([0-9a-f]*\)".*/\1/p' "$work/$1_i32.json" | head -1; }
# The text inside "entries": [ ... ] of a database.
entries() {
  local t
  t=$(<"$1")
  t=${t#*\"entries\": [}
  printf '%s' "${t%]*}"
}
fixture=$(entries tests/embed/fixture-gpus.db.json)
fixture=${fixture//@sum@/$(hash sum)}
fixture=${fixture//@max@/$(hash max)}
fixture=${fixture//@min@/$(hash min)}
printf '{"tgm_db": 1, "entries": [%s,\n%s]}\n' "$(entries bench/results/2026-11-22-h100/tgm-tune.db.json)" \
  "$fixture" >"$work/db.json"
mv "$work/db.json" "$out"

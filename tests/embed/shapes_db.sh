#!/usr/bin/env bash
# A tuning database of row and column cells for the embed tests:
# tests/embed/fixture-shapes.db.json (sum f32 rows and columns, tuned on an
# "NVIDIA H100 80GB HBM3" of 132 SMs: cells naming variants other than the
# rule's, the atomic RA and CA.SV among them, and cells whose setting does
# not fit every shape of the cell),
# with the source hash of codelets/sum.tgm as it is now.
#   shapes_db.sh TGM_GEN ROOT OUT
set -euo pipefail
gen=$1 root=$2 out=$3
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gen" --no-check --type=f32 -o "$work" codelets/sum.tgm
hash=$(sed -n 's/.*"source_hash": "\([0-9a-f]*\)".*/\1/p' "$work/sum_f32.json" | head -1)
sed "s/@sum@/$hash/g" tests/embed/fixture-shapes.db.json >"$work/db.json"
mv "$work/db.json" "$out"

#!/usr/bin/env bash
# A spectrum tgm-gen --cols cannot compose (argmax, argmin: x.Index(i) down
# a column counts elements, not rows) is an error that says why, exit 1,
# nothing written.
#   cols_refused.sh TGM_GEN CODELET TYPE
set -u
gen=$1 file=$2 type=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$("$gen" --cols --type="$type" -o "$work" "$file" 2>&1)
rc=$?
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1"; echo "$out"; exit 1; }
grep -q "note: columns (CT.SS): the transform uses x.Index(i), which down a column counts elements" <<<"$out" ||
  { echo "FAIL: no reason"; echo "$out"; exit 1; }
[ -z "$(ls -A "$work")" ] || { echo "FAIL: something was written"; exit 1; }
echo "ok: $(basename "$file") $type --cols refused with its reason"

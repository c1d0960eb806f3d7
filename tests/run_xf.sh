#!/usr/bin/env bash
# A transformation golden: tgm-gen --dump=code CASE.tgm against CASE.code.
# A first line `// ARGS: ...` adds options; TGM_BLESS=1 rewrites CASE.code.
set -u
gen=$1 case_file=$2
dir=$(dirname "$case_file") name=$(basename "$case_file" .tgm)
args=$(sed -n '1s|^// ARGS: ||p' "$case_file")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086
(cd "$dir" && "$gen" $args --dump=code "$name.tgm") >"$out" || exit 1
[ "${TGM_BLESS:-}" = 1 ] && cp "$out" "$dir/$name.code"
diff -u "$dir/$name.code" "$out" || { echo "FAIL: $name.code differs (TGM_BLESS=1 to re-bless)"; exit 1; }
echo "ok $name"

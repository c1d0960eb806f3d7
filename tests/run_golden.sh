#!/usr/bin/env bash
# A golden dump: GOLDEN is NAME.TYPE.DUMP (e.g. sum.i32.ast), compared with
#   tgm-gen --type=TYPE --dump=DUMP codelets/NAME.tgm   (run in the source root)
# or NAME.TYPE.rows.DUMP (NAME.TYPE.cols.DUMP), the same with --rows (--cols).
# TGM_BLESS=1 rewrites the golden file.
set -u
gen=$1 root=$2 golden=$3
IFS=. read -r name type dump <<<"$(basename "$golden")"
rows=()
case $dump in
  rows.*) rows=(--rows) dump=${dump#rows.} ;;
  cols.*) rows=(--cols) dump=${dump#cols.} ;;
esac
out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd "$root" && "$gen" --type="$type" "${rows[@]}" --dump="$dump" "codelets/$name.tgm") >"$out" || exit 1
[ "${TGM_BLESS:-}" = 1 ] && cp "$out" "$golden"
diff -u "$golden" "$out" || { echo "FAIL: $golden is stale (TGM_BLESS=1 to re-bless)"; exit 1; }
echo "ok $(basename "$golden")"

#!/usr/bin/env bash
# One case of the error corpus: tgm-gen must exit 1, print exactly the
# expected diagnostics (CASE.err), print nothing on stdout and write nothing.
#   usage: run_error.sh TGM_GEN CASE.tgm | CASE.tgm.sh (a script printing the case)
# A first line `// ARGS: ...` adds options. TGM_BLESS=1 rewrites CASE.err.
set -u
gen=$1 case_file=$2
dir=$(cd "$(dirname "$case_file")" && pwd)
name=$(basename "$case_file" .sh)
expected="$dir/${name%.tgm}.err"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $case_file == *.sh ]]; then bash "$case_file" >"$work/$name"; else cp "$case_file" "$work/$name"; fi
args=$(sed -n '1s|^// ARGS: ||p' "$work/$name")
cd "$work"
# shellcheck disable=SC2086
# --dump=sema, or with `// ARGS: --no-dump` the whole generation (errors
# found while composing variants)
case " $args " in
*" --no-dump "*) dump="" ;;
*) dump="--dump=sema" ;;
esac
args=${args/--no-dump/}
"$gen" $args $dump -o out "$name" >stdout 2>stderr
rc=$?
[ "${TGM_BLESS:-}" = 1 ] && cp stderr "$expected"
fail() { echo "FAIL $name: $*"; echo "--- stderr:"; cat stderr; exit 1; }
[ "$rc" -eq 1 ] || fail "exit status $rc, expected 1"
[ ! -e out ] || fail "wrote output despite errors: $(ls -R out)"
[ ! -s stdout ] || fail "printed on stdout"
[ -f "$expected" ] || fail "no expectation file $expected"
diff -u "$expected" stderr || fail "diagnostics differ from $expected"
echo "ok $name: $(head -n 1 stderr)"

#!/usr/bin/env bash
# The command line: options, exit statuses, -o and determinism.
set -u
gen=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
expect() { # expect STATUS DESCRIPTION -- COMMAND...
  local want=$1 what=$2; shift 3
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $what: exit $rc, expected $want"; cat "$work/err"; fails=$((fails + 1))
  else
    echo "ok $what"
  fi
}
cd "$root"
expect 0 "--help" -- "$gen" --help
grep -q '^usage: tgm-gen' "$work/out" || { echo "FAIL --help prints usage"; fails=$((fails + 1)); }
expect 0 "--version" -- "$gen" --version
grep -q '^tgm-gen [0-9]' "$work/out" || { echo "FAIL --version prints version"; fails=$((fails + 1)); }
expect 2 "no file" -- "$gen"
expect 2 "unknown option" -- "$gen" --frobnicate codelets/sum.tgm
grep -q "unknown option '--frobnicate'" "$work/err" || { echo "FAIL names the bad option"; fails=$((fails + 1)); }
expect 2 "bad --type" -- "$gen" --type=f16 codelets/sum.tgm
grep -q "unknown --type 'f16'" "$work/err" || { echo "FAIL names the bad type"; fails=$((fails + 1)); }
expect 2 "bad --dump" -- "$gen" --dump=plans9 codelets/sum.tgm
expect 2 "-o without a value" -- "$gen" codelets/sum.tgm -o
expect 1 "missing file" -- "$gen" no/such/file.tgm
grep -q "^no/such/file.tgm: error: cannot open" "$work/err" || { echo "FAIL missing file message"; fails=$((fails + 1)); }
expect 1 "a directory" -- "$gen" codelets
expect 0 "summary" -- "$gen" codelets/sum.tgm
grep -q "shared_V2" "$work/out" || { echo "FAIL summary lists the codelets"; fails=$((fails + 1)); }

# -o writes the same dump as standard output, named NAME.TYPE.DUMP
expect 0 "-o DIR" -- "$gen" --dump=sema --type=f32 -o "$work/o" codelets/sum.tgm codelets/max.tgm
"$gen" --dump=sema --type=f32 codelets/sum.tgm >"$work/sum.sema"
cmp -s "$work/o/sum.f32.sema" "$work/sum.sema" || { echo "FAIL -o output differs from stdout"; fails=$((fails + 1)); }
[ -f "$work/o/max.f32.sema" ] || { echo "FAIL -o writes one file per input"; fails=$((fails + 1)); }
[ -z "$(find "$work/o" -name '*.tmp.*')" ] || { echo "FAIL temporaries left behind"; fails=$((fails + 1)); }

# one bad file among good ones: nothing at all is written
expect 1 "all or nothing" -- "$gen" --dump=sema -o "$work/o2" codelets/sum.tgm "$root/tests/errors/no_return.tgm"
[ ! -e "$work/o2" ] || { echo "FAIL wrote output although one file had errors"; fails=$((fails + 1)); }
touch "$work/afile"
expect 1 "-o onto a file" -- "$gen" --dump=sema -o "$work/afile" codelets/sum.tgm

# deterministic, byte for byte
for t in i32 f64; do
  "$gen" --type=$t --dump=ast codelets/sum.tgm >"$work/a1"
  "$gen" --type=$t --dump=ast codelets/sum.tgm >"$work/a2"
  cmp -s "$work/a1" "$work/a2" || { echo "FAIL --dump=ast not deterministic for $t"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] && echo "all cli checks passed"
exit $((fails > 0))

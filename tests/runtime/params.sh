#!/usr/bin/env bash
# params.sh TGM_GEN TGM_TUNE — tgm-tune's --param values (found by a probe):
# an f32 out of range (1e40 was inf, 1e-50 was 0) and a value with leading
# blanks are usage errors (exit 2); a value in another spelling (0x10 for
# 16) is read before the GPU is sought (exit 3 here, or on a GPU machine
# whatever the run gives, never 2).
set -u
gen=$1 tune=$2
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
root=$(cd "$(dirname "$0")/../.." && pwd)
"$gen" --no-check --type=f32,i32 -o "$work/g" "$root/codelets/count_if.tgm" 2>"$work/err" || { cat "$work/err"; exit 1; }
fails=0
want() { # RC-SET MESSAGE MANIFEST VALUE
  local rcs=$1 msg=$2 m=$3 v=$4
  timeout 60 "$tune" "$work/g/$m" --db "$work/db.json" --verify-only --param "$v" >/dev/null 2>"$work/err"
  local rc=$?
  case " $rcs " in *" $rc "*) ;; *) echo "FAIL --param $v: exit $rc, want one of $rcs"; cat "$work/err"; fails=$((fails + 1)); return;; esac
  [ -z "$msg" ] || grep -q -- "$msg" "$work/err" || { echo "FAIL --param $v: no '$msg'"; cat "$work/err"; fails=$((fails + 1)); return; }
  echo "ok --param $v ($m): exit $rc"
}
want 2 "out of its range" count_if_f32.json "threshold=1e40"
want 2 "out of its range" count_if_f32.json "threshold=1e-50"
want 2 "not a f32 value" count_if_f32.json "threshold= 5"
want 2 "not a i32 value" count_if_i32.json "threshold= 5"
want 2 "out of its range" count_if_i32.json "threshold=4294967296"
want "0 1 3" "" count_if_i32.json "threshold=0x10"
want "0 1 3" "" count_if_f32.json "threshold=0.1"
[ $fails -eq 0 ]

#!/usr/bin/env bash
# run.sh TGM_GEN TGM_TUNE ROOT — tgm-gen and tgm-tune under valgrind's
# Memcheck, leaks included, with libclang.supp (libclang's own reports):
# any error or leak fails. Skipped (77) where valgrind is not installed.
#   tgm-gen --no-check -o DIR codelets/sum.tgm exit 0, files written (the
#                                              CPU check compiles and runs
#                                              child processes valgrind does
#                                              not follow, 70 s more)
#   tgm-gen tests/errors/start_from_in0.tgm      exit 1, a diagnostic
#   tgm-tune MANIFEST --db CORRUPT             exit 4, before any GPU
#   tgm-tune MANIFEST --db NEW                 exit 3 "no CUDA driver"
#                                              (only where there is none)
set -u
gen=$1 tune=$2 root=$3
command -v valgrind >/dev/null || { echo "skipped: no valgrind"; exit 77; }
out=$(mktemp -d /tmp/tgm-valgrind.XXXXXX) && trap 'rm -rf "$out"' EXIT
supp=$root/tests/valgrind/libclang.supp
manifest=$root/generated/sum_i32.json
fail=0
n=0

# check WANT_STATUS COMMAND...: the command under Memcheck; 97 is Memcheck's.
check() {
  local want=$1
  shift
  n=$((n + 1))
  valgrind --error-exitcode=97 --leak-check=full --suppressions="$supp" \
    --log-file="$out/vg.$n" "$@" >"$out/out.$n" 2>&1
  local rc=$?
  local summary
  summary=$(grep -h 'ERROR SUMMARY' "$out/vg.$n" | sed 's/^==[0-9]*== //')
  echo "$(basename "$1") ${*:2}: exit $rc, $summary"
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: exit $rc, want $want"
    cat "$out/out.$n"
    grep -v '^==[0-9]*== *$' "$out/vg.$n" | tail -60
    fail=1
  fi
}

check 0 "$gen" --no-check -o "$out/gen" "$root/codelets/sum.tgm"
[ -s "$out/gen/sum_i32.cu" ] || { echo "FAIL: tgm-gen wrote no sum_i32.cu"; fail=1; }
check 1 "$gen" "$root/tests/errors/start_from_in0.tgm"
grep -q 'error:' "$out/out.$n" || { echo "FAIL: no diagnostic from tgm-gen"; fail=1; }
echo '{"tgm_db": 1, "entries": [' >"$out/corrupt.json"
check 4 "$tune" "$manifest" --db "$out/corrupt.json"
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  check 3 "$tune" "$manifest" --db "$out/new.json"
  grep -q 'no CUDA driver' "$out/out.$n" || { echo "FAIL: not 'no CUDA driver'"; fail=1; }
else
  echo "(a CUDA driver is installed: tgm-tune's no-driver run left out)"
fi
exit $fail

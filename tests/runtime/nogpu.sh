#!/usr/bin/env bash
# tgm-tune on a machine without a CUDA driver: one line on stderr, exit 3.
# Skipped (77) where a driver is present.
set -u
tune=$1 dir=$2
if [ -e /dev/nvidiactl ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  echo "skipped: this machine has a CUDA driver"
  exit 77
fi
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
err=$work/err
# tiny.json's sources lie beside it (sum_i32.cu): every file input is good
cp "$dir/data/tiny.json" "$work/tiny.json"
printf '// the CUDA source\n' >"$work/sum_i32.cu"
"$tune" "$work/tiny.json" --db "$work/db.json" >/dev/null 2>"$err"
rc=$?
if [ $rc -ne 3 ]; then
  echo "FAIL: exit $rc, want 3"; cat "$err"; exit 1
fi
if [ "$(wc -l <"$err")" -ne 1 ] || ! grep -q '^tgm-tune: no CUDA driver' "$err"; then
  echo "FAIL: want one line 'tgm-tune: no CUDA driver ...', got:"; cat "$err"; exit 1
fi
# every file input is checked before the GPU is opened: a corrupt database
# is the database's error (exit 4), not "no GPU"
printf '{"tgm_db": 1, "entries": [' >"$work/corrupt.json"
"$tune" "$work/tiny.json" --db "$work/corrupt.json" >/dev/null 2>"$err"
rc=$?
if [ $rc -ne 4 ] || ! grep -q 'corrupt tuning database' "$err" || grep -q 'no CUDA' "$err"; then
  echo "FAIL: a corrupt database without a GPU: exit $rc, want 4 and the database's message:"
  cat "$err"; exit 1
fi
# so is a missing CUDA source (exit 2) and an unwritable database (exit 4)
rm "$work/sum_i32.cu"
"$tune" "$work/tiny.json" --db "$work/db.json" >/dev/null 2>"$err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q 'cannot read the CUDA source' "$err"; then
  echo "FAIL: a missing source without a GPU: exit $rc, want 2:"; cat "$err"; exit 1
fi
printf '// the CUDA source\n' >"$work/sum_i32.cu"
"$tune" "$work/tiny.json" --db /dev/null/none.json >/dev/null 2>"$err"
rc=$?
if [ $rc -ne 4 ]; then
  echo "FAIL: an unwritable database without a GPU: exit $rc, want 4:"; cat "$err"; exit 1
fi
"$tune" "$work/tiny.json" --verify-sizes "$(seq -s, 1 40)" >/dev/null 2>"$err"
rc=$?
if [ $rc -ne 2 ] || ! grep -q 'at most 32' "$err"; then
  echo "FAIL: 40 --verify-sizes: exit $rc, want 2 naming the limit:"; cat "$err"; exit 1
fi
# usage errors come first and exit 2
"$tune" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: no arguments should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --mode fast >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --mode should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --sizes 2^10..2^5 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --sizes should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --op max >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --op not matching the manifest should exit 2"; exit 1; }
echo "ok"

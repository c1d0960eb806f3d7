#!/usr/bin/env bash
# tgm-tune on a machine without a CUDA driver: one line on stderr, exit 3.
# Skipped (77) where a driver is present.
set -u
tune=$1 dir=$2
if [ -e /dev/nvidiactl ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  echo "skipped: this machine has a CUDA driver"
  exit 77
fi
err=$(mktemp) && trap 'rm -f "$err"' EXIT
"$tune" "$dir/data/tiny.json" --db /dev/null/none.json >/dev/null 2>"$err"
rc=$?
if [ $rc -ne 3 ]; then
  echo "FAIL: exit $rc, want 3"; cat "$err"; exit 1
fi
if [ "$(wc -l <"$err")" -ne 1 ] || ! grep -q '^tgm-tune: no CUDA driver' "$err"; then
  echo "FAIL: want one line 'tgm-tune: no CUDA driver ...', got:"; cat "$err"; exit 1
fi
# usage errors come first and exit 2
"$tune" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: no arguments should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --mode fast >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --mode should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --sizes 2^10..2^5 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --sizes should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --op max >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --op not matching the manifest should exit 2"; exit 1; }
echo "ok: $(cat "$err")"

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
# run in the work folder: a run without --db writes ./tgm-tune.db.json there
tune=$(realpath "$tune") dir=$(realpath "$dir") && cd "$work" || exit 1
err=$work/err
# tiny.json's sources lie beside it (sum_i32.cu, the text its sources_hash
# holds): every file input is good
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
# a size that is no count: exit 2, before the GPU (strtoull read -1 as 2^64 - 1)
for bad in -1 " 5" 5x 1,,2 2e3 1099511627777 99999999999999999999999; do
  "$tune" "$work/tiny.json" --verify-sizes "$bad" >/dev/null 2>"$err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- '--verify-sizes wants numbers from 0 to 2^40' "$err"; then
    echo "FAIL: --verify-sizes '$bad': exit $rc, want 2:"; cat "$err"; exit 1
  fi
done
"$tune" "$work/tiny.json" --db "$work/db.json" --verify-sizes 0,0x10,1099511627776 >/dev/null 2>"$err"
[ $? -eq 3 ] || { echo "FAIL: --verify-sizes 0,0x10,2^40 is good (want exit 3 here):"; cat "$err"; exit 1; }
for bad in abc -5 0 nan inf 5s 1e7; do
  "$tune" "$work/tiny.json" --budget "$bad" >/dev/null 2>"$err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "--budget $bad: a positive number of seconds" "$err"; then
    echo "FAIL: --budget '$bad': exit $rc, want 2:"; cat "$err"; exit 1
  fi
done
# usage errors come first and exit 2
"$tune" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: no arguments should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --mode fast >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --mode should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --sizes 2^10..2^5 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: bad --sizes should exit 2"; exit 1; }
"$tune" "$dir/data/tiny.json" --op max >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: --op not matching the manifest should exit 2"; exit 1; }
# what a user gets wrong, each before the GPU, exit 2, the file or option named
expect() { # expect WHAT PATTERN args...: exit 2 and a message matching PATTERN
  local what=$1 pat=$2; shift 2
  "$tune" "$@" >/dev/null 2>"$err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$pat" "$err"; then
    echo "FAIL: $what: exit $rc, want 2 and '$pat':"; cat "$err"; exit 1
  fi
}
expect "a folder as the manifest" "$work: a folder, not a manifest" "$work"
expect "a missing manifest" "$work/nosuch.json: No such file" "$work/nosuch.json"
printf 'not json' >"$work/bad.json"
expect "a file that is not JSON" "$work/bad.json:1:.*not a manifest" "$work/bad.json"
# a row or column manifest reads, and gets as far as the GPU (exit 3 here);
# its own options are checked first
rows=$dir/../../generated/rows/sum_f32_rows.json cols=$dir/../../generated/cols/sum_i32_cols.json
for m in "$rows" "$cols"; do
  "$tune" "$m" --db "$work/db.json" >/dev/null 2>"$err"
  rc=$?
  if [ $rc -ne 3 ] || ! grep -q '^tgm-tune: no CUDA driver' "$err"; then
    echo "FAIL: $m without a GPU: exit $rc, want 3:"; cat "$err"; exit 1
  fi
done
expect "--shapes without a column count" "--shapes wants MxN" "$rows" --shapes 1000x
expect "--shapes of 0 rows" "--shapes wants MxN" "$rows" --shapes 0x5
expect "--shapes past 2^32 elements" "--shapes wants MxN" "$rows" --shapes 65536x65537
expect "--shapes with junk" "--shapes wants MxN" "$rows" --shapes 4x4,x
# --db through a symbolic link: the link kept, its target made (a dangling
# link was replaced by a file and its target never made); an empty path is
# the database's error (found by a probe)
ln -s "$work/through.json" "$work/link.json"
"$tune" "$work/tiny.json" --db "$work/link.json" >/dev/null 2>"$err"
if [ $? -ne 3 ] || [ ! -L "$work/link.json" ] || ! grep -q '"tgm_db"' "$work/through.json"; then
  echo "FAIL: --db through a dangling link: link $( [ -L "$work/link.json" ] && echo kept || echo replaced)"
  cat "$err"; exit 1
fi
"$tune" "$work/tiny.json" --db '' >/dev/null 2>"$err"
if [ $? -ne 4 ] || ! grep -q -- "--db: an empty path" "$err"; then
  echo "FAIL: --db '': want exit 4 and 'an empty path':"; cat "$err"; exit 1
fi
# a --cache that is a file is said, not silently no cache (found by a probe)
: >"$work/cachefile"
"$tune" "$work/tiny.json" --db "$work/db.json" --cache "$work/cachefile" >/dev/null 2>"$err"
if [ $? -ne 3 ] || ! grep -q -- "--cache .* is not a folder: compiling without a cache" "$err"; then
  echo "FAIL: --cache FILE: want the warning:"; cat "$err"; exit 1
fi
# m n past 2^64 wrapped to a small product and passed (found by a probe)
expect "--shapes whose m n wraps 64 bits" "--shapes wants MxN" "$rows" --shapes 1099511627776x16777216
expect "--shapes of 2^32 x 2^32" "--shapes wants MxN" "$rows" --shapes 4294967296x4294967296
# text after a bound of --sizes was ignored: 2^10..2^20..2^30 tuned to 2^20
expect "--sizes with a third bound" "--sizes wants A..B" "$work/tiny.json" --sizes 2^10..2^20..2^30
expect "--sizes with junk after a bound" "--sizes wants A..B" "$work/tiny.json" --sizes 2^10.x..2^20
expect "--shapes on a 1-D manifest" "--shapes: .* is a 1-D manifest" "$work/tiny.json" --shapes 4x4
expect "HIP for rows" "rows and columns are tuned with --backend cuda only" "$rows" --backend hip
expect "--noise out of range" "--noise 2: a fraction" "$work/tiny.json" --noise 2
expect "--noise=VALUE form" "--noise x: a fraction" "$work/tiny.json" --noise=x
expect "a parameter the spectrum lacks" "has no parameter of that name (it takes none)" \
  "$work/tiny.json" --param threshold=1
expect "--param without =" "--param wants NAME=VALUE" "$work/tiny.json" --param threshold
# a source that is not the one tgm-gen wrote with the manifest (edited, or a
# set mixed from two runs, which a run killed between its renames could
# leave) is refused by its hash, before the GPU; so is a manifest without
# the hashes (an older tgm-gen's)
gen=$dir/../../generated
mkdir "$work/set" && cp "$gen/sum_i32.json" "$gen/sum_i32.cu" "$gen/sum_i32.hip" "$gen/sum_i32.cub.cu" "$work/set/"
"$tune" "$work/set/sum_i32.json" --db "$work/db.json" >/dev/null 2>"$err"
[ $? -eq 3 ] || { echo "FAIL: the generated set should reach the GPU (exit 3):"; cat "$err"; exit 1; }
printf '// edited\n' >>"$work/set/sum_i32.cu"
expect "an edited CUDA source" "the CUDA source $work/set/sum_i32.cu is not the file tgm-gen wrote with $work/set/sum_i32.json" \
  "$work/set/sum_i32.json"
cp "$gen/max_i32.cu" "$work/set/sum_i32.cu"
expect "a CUDA source of another run" "sum_i32.cu is not the file tgm-gen wrote" "$work/set/sum_i32.json"
cp "$gen/sum_i32.cu" "$work/set/sum_i32.cu" && cp "$gen/max_i32.hip" "$work/set/sum_i32.hip"
expect "a HIP source of another run" "the HIP source .*sum_i32.hip is not the file" "$work/set/sum_i32.json" --backend hip
printf ' ' >>"$work/set/sum_i32.cub.cu"
expect "an edited CUB baseline" "the CUB baseline .*sum_i32.cub.cu is not the file" "$work/set/sum_i32.json"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); del m["sources_hash"]; json.dump(m, open(sys.argv[2], "w"))' \
  "$gen/sum_i32.json" "$work/set/old.json"
[ ! -e tgm-tune.db.json ] || { echo "FAIL: a refused source made a database in $PWD"; exit 1; }
expect "a manifest without sources_hash" "old.json: sources_hash has no hash .* of cuda 'sum_i32.cu' (a manifest of an older tgm-gen" \
  "$work/set/old.json"
# --version, and options as --option=VALUE
"$tune" --version | grep -q '^tgm-tune [0-9]' || { echo "FAIL: --version"; exit 1; }
"$tune" "$work/tiny.json" --db="$work/db2.json" --mode=graph >/dev/null 2>"$err"
[ $? -eq 3 ] || { echo "FAIL: --db=PATH --mode=graph should reach the GPU (exit 3):"; cat "$err"; exit 1; }
"$tune" "$work/tiny.json" --db="$work/db3.json" --mode=both >/dev/null 2>"$err"
[ $? -eq 3 ] || { echo "FAIL: --mode=both should reach the GPU (exit 3):"; cat "$err"; exit 1; }
expect "an unknown mode" "--mode is both, stream, graph or one" "$work/tiny.json" --mode=fast
"$tune" "$work/tiny.json" --db="$work/db4.json" --mode=one >/dev/null 2>"$err"
[ $? -eq 3 ] || { echo "FAIL: --mode=one should reach the GPU (exit 3):"; cat "$err"; exit 1; }
echo "ok"

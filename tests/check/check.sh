#!/usr/bin/env bash
# tgm-gen's check (label sim): a user's cooperative codelet with a slip
# (buggy_coop.tgm, buggy_or.tgm where only sparse data shows it, and
# unstored_partials.tgm where only junk in shared memory does) makes
# every variant built on it wrong; the check must
# leave exactly those out, say so, and write the rest (that it writes is the
# point: the variants on shared atomics never run that codelet). --strict
# writes nothing. Without a C++ compiler nothing is written either.
#   check.sh TGM_GEN
set -u
gen=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export TGM_CHECK_JOBS=${TGM_CHECK_JOBS:-1}

"$gen" --type=i32 -o "$work/out" "$root/tests/check/buggy_coop.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || { cat "$work/err"; fail "a wrong variant is left out, not an error: exit $rc"; }
grep -q "buggy_coop.tgm:[0-9]*:[0-9]*: warning: [0-9]* variants of bsum_i32 are wrong on the CPU check" "$work/err" ||
  { cat "$work/err"; fail "no located warning"; }
grep -q "note: DT.V.ST (cuda, warp 32): block=128 n=" "$work/err" || fail "no note naming DT.V.ST"
grep -q "buggy_coop.tgm:[0-9]*:[0-9]*: note: every wrong variant runs codelet 'coop' (block levels V, VS, VR" "$work/err" ||
  fail "no note at the codelet every wrong variant runs"
manifest=$work/out/bsum_i32.json
[ -f "$manifest" ] || fail "nothing written"
# every variant whose block level runs the codelet (V, VS, VR: the tree and
# its shuffle forms) is gone; those on shared atomics (VA1) are there
python3 - "$manifest" <<'EOF' || fail "the manifest holds the wrong variants"
import json, sys
m = json.load(open(sys.argv[1]))
ids = [v["id"] for v in m["variants"]]
blocks = {i.split(".")[1] for i in ids}
assert not blocks & {"V", "VS", "VR"}, sorted(blocks)
assert "VA1" in blocks, sorted(blocks)
print(len(ids), "variants kept, block levels", sorted(blocks))
EOF
! grep -q "BSUM_DT_V_ST\|bsum_DT_V_ST\b" "$work/out/bsum_i32.cu" || fail "DT.V.ST is in the .cu"
grep -q "bsum_DT_VA1_SS" "$work/out/bsum_i32.cu" || fail "DT.VA1.SS is not in the .cu"

# a cooperative codelet right in blocks of 128 alone (four warps written as a
# number): every block level runs in every block size tgm launches (128 to
# 1024), so its tree variants are wrong in one and left out, all of them,
# in 1-D, rows and a one-variant header; VA1 (no tree) stays
"$gen" --type=f32 -o "$work/wc" "$root/tests/check/warps_constant.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] && grep -q "warning: [0-9]* variants of cnt_f32 are wrong on the CPU check" "$work/err" &&
  grep -q "note: DT\.V[A-Z]*\.S[TSV] (cuda, warp 32): block=\(256\|512\|1024\) n=" "$work/err" &&
  grep -q "its block level V is wrong in blocks of" "$work/err" ||
  { cat "$work/err"; fail "warps_constant: exit $rc, or its variants not found wrong in larger blocks"; }
python3 -c "import json,sys; b={v['id'].split('.')[1] for v in json.load(open(sys.argv[1]))['variants']}; assert b == {'VA1'}, b" \
  "$work/wc/cnt_f32.json" || fail "warps_constant: the manifest holds the wrong variants"
"$gen" --rows --type=f32 -o "$work/wcr" "$root/tests/check/warps_constant.tgm" 2>"$work/err" &&
  python3 -c "import json,sys; b={v['id'].split('.')[1] for v in json.load(open(sys.argv[1]))['variants'] if v['id'][:2] != 'RW'}; assert b == {'VA1'}, b" \
    "$work/wcr/cnt_f32_rows.json" ||
  { cat "$work/err"; fail "warps_constant --rows: a tree variant of RB, RL or RA written"; }
"$gen" --embed --variant=DSL.VS.SV --type=f32 -o "$work/wc.h" "$root/tests/check/warps_constant.tgm" 2>"$work/err"
rc=$?
[ $rc -ne 0 ] && [ ! -e "$work/wc.h" ] && grep -q "block=\(256\|512\|1024\)" "$work/err" ||
  { cat "$work/err"; fail "warps_constant --embed --variant=DSL.VS.SV: exit $rc (a header of a variant wrong in larger blocks)"; }

# a fixed-size __shared array smaller than the block (tmp[512] at ThreadId()): the harness traps
# the index past its end; the V variants (the only ones reading tmp) are left out, with the reason
"$gen" --type=i32 -o "$work/sf" "$root/tests/check/shared_fixed.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] && grep -q "warning: [0-9]* variants of fsum_i32 are wrong on the CPU check .*trapped: an index past the end of a fixed-size array" "$work/err" ||
  { cat "$work/err"; fail "shared_fixed: exit $rc, or its variants not found past the array's end"; }
python3 -c "import json,sys; b={v['id'].split('.')[1] for v in json.load(open(sys.argv[1]))['variants']}; assert 'V' not in b and 'VA1' in b, b" \
  "$work/sf/fsum_i32.json" || fail "shared_fixed: the manifest holds the wrong variants"

# an operator that saturates on random data (|): only the sparse data (the
# identity but for one element) shows the variants on the broken tree
"$gen" --strict --type=i32 -o "$work/or" "$root/tests/check/buggy_or.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] || { cat "$work/err"; fail "buggy_or: exit $rc, want 1 (wrong variants found)"; }
grep -q "note: .* sparse data: the identity but for one element" "$work/err" ||
  { cat "$work/err"; fail "buggy_or: not caught by the sparse data"; }
! grep -q "note: [^ ]*\.VA1\." "$work/err" || fail "buggy_or: a shared-atomic (VA1) variant called wrong"

# shared memory nobody wrote holds junk, as on a GPU (not a static's 0, the
# identity of +): the talk's figure 1(c) as printed, its partials' tree
# reading slots no Vector stored, is wrong in every tree (V) variant
"$gen" --type=i32 -o "$work/up" "$root/tests/check/unstored_partials.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || { cat "$work/err"; fail "unstored_partials: exit $rc, want 0"; }
grep -q "unstored_partials.tgm:[0-9]*:[0-9]*: warning: 42 variants of usum_i32 are wrong on the CPU check" "$work/err" ||
  { cat "$work/err"; fail "unstored_partials: the 42 tree variants (14 a target) not found wrong"; }
python3 - "$work/up/usum_i32.json" <<'EOF' || fail "unstored_partials: the manifest holds the wrong variants"
import json, sys
blocks = {v["id"].split(".")[1] for v in json.load(open(sys.argv[1]))["variants"]}
assert "V" not in blocks and {"VS", "VA1"} <= blocks, sorted(blocks)
EOF

# an integer result of a float fold (float_fold_int.tgm): a right variant
# rounds the fold in its own order; the check takes it when it lies between
# the ends of the reference's bound (1-D and rows), not only when it equals it
for shape in "" --rows; do
  "$gen" --strict $shape --type=i32 -o "$work/ffi$shape" "$root/tests/check/float_fold_int.tgm" 2>"$work/err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$work/err"; fail "float_fold_int $shape: exit $rc, want 0"; }
  grep -q "checked tenth_i32[_rows]* on the CPU .*: [1-9][0-9]* CUDA variants .* 0 wrong" "$work/err" ||
    { cat "$work/err"; fail "float_fold_int $shape: not all checked right"; }
done

# a length's C type survives tgm's widening to 64 bits: an i64 mean by
# `unsigned len` divides signed ((long long)len in the epilogue and the
# reference), an i32 one unsigned, as C does (with a warning at the '/'); an
# `int len` mean divides by (long long)n (was: every variant called wrong)
"$gen" --strict --type=i64,i32 -o "$work/mul" "$root/tests/check/mean_unsigned_len.tgm" 2>"$work/err" ||
  { cat "$work/err"; fail "mean_unsigned_len: exit $?"; }
grep -q "return n ? accum / (long long)n : 0;" "$work/mul/meanlen_i64.cu" &&
  grep -q "return len ? accum / (long long)len : 0;" "$work/mul/meanlen_i64.cu" ||
  fail "mean_unsigned_len i64: the division is not signed"
grep -q "return n ? accum / (unsigned)n : 0;" "$work/mul/meanlen_i32.cu" ||
  fail "mean_unsigned_len i32: the division is not C's unsigned one"
[ "$(grep -c "mean_unsigned_len.tgm:[0-9]*:[0-9]*: warning: 'len' is unsigned, so C computes this '/' in unsigned" "$work/err")" -eq 1 ] ||
  { cat "$work/err"; fail "mean_unsigned_len: want one warning (i32's)"; }
"$gen" --strict --type=i32 -o "$work/mil" "$root/tests/check/mean_int_len.tgm" 2>"$work/err" ||
  { cat "$work/err"; fail "mean_int_len: exit $? (its variants called wrong?)"; }
grep -q "accum / (long long)n" "$work/mil/meanint_i32.cu" || fail "mean_int_len: the epilogue's n is not long long"

# a codelet a user writes that tgm once refused or got wrong, now checked
# whole: all_right FILE TYPE BASE N [--rows|--cols]: --strict passes, N CUDA
# variants, 0 wrong
all_right() {
  "$gen" --strict ${5:-} --type="$2" -o "$work/$3" "$root/tests/check/$1" 2>"$work/err" ||
    { cat "$work/err"; fail "$1: exit $?"; }
  grep -q "checked $3 on the CPU .*: $4 CUDA variants .* 0 wrong" "$work/err" ||
    { cat "$work/err"; fail "$1: not all $4 variants kept"; }
}
# a true-or-false transform spelled `c ? 1 : 0` in the cooperative codelet
all_right count_bool.tgm i32 cbool_i32 126
# an identity in C's spelling: ~0u and UINT_MAX for a min over u32, in the
# scalar and the cooperative codelets
all_right limits.tgm u32 umin_u32 126
# a cooperative codelet's thread value started in one statement from a
# transform of two inputs (was refused: "must start from 0")
all_right coop_init_transform.tgm f32 rdot_f32 42
# a step through a local alias of in.Stride()
all_right step_alias.tgm i32 sstep_i32 126
# a count by accum++
all_right count_plusplus.tgm i32 cpp_i32 126
# `auto` temporaries and brace initialisers (`T accum{};`, `T y{x};`)
all_right auto_brace.tgm i32 absq_i32 126
# a factor in locals set once from a constant and a parameter, before the
# scalar loop and in the cooperative codelets
all_right const_local.tgm i32 csc_i32 126
# std::numeric_limits<T>::lowest() and std::max, with <limits>, <algorithm>
all_right std_spelling.tgm i32 smax_i32 168
# early exits: `if (c) continue;` guards the combine that follows
all_right continue.tgm i32 nneg_i32 126
# a float max with the accumulator second, under the NaN setting (1-D and
# rows: unfixed, every variant of either was wrong)
all_right fmax_swapped.tgm f32 fmxr_f32 126
all_right fmax_swapped.tgm f32 fmxr_f32_rows 57 --rows
# log(0) = -inf for n = 0, where an end of the float bound is NaN
all_right logsumexp.tgm f32 lse_f32 90
# a float max accumulated in double: the compare-and-swap atomic holds A,
# not T (was: every DTA/DSA variant wrong)
all_right acc_wider.tgm f32 dmax_f32 63
# a bool accumulator combined by |= (was: an internal error, atomicOr on a
# bool) and by &= from true (was: "must start from ~0")
all_right bool_or_assign.tgm f32 anyo_f32 75
all_right bool_and_true.tgm f32 allb_f32 75
# a cooperative codelet's -INFINITY for the transform's Lowest() (was no
# variant: "reads its input other than through the spectrum's transform")
all_right coop_infinity.tgm f32 fmx_f32 84
# a loop bound cast to int, i < (int)in.Size()
all_right int_cast_bound.tgm i32 lic_i32 126
# an else-if chain: the transform is the chain of conditions, nested
all_right else_if.tgm i32 chain_i32 105
# float-to-integer conversions in a helper's compound assignment and to
# narrow types: written through tgm_ftoi (the GPU's conversion), checked
all_right ftoi_forms.tgm f32 fforms_f32 8
grep -q "b = tgm_ftoi<int>(b + x);" "$work/fforms_f32/fforms_f32.cu" &&
  grep -q "char c = (char)tgm_ftoi<int>(in\[i\]);" "$work/fforms_f32/fforms_f32.cu" &&
  grep -q "const unsigned short h = (const unsigned short)tgm_ftoi<unsigned>(x);" "$work/fforms_f32/fforms_f32.cu" ||
  fail "ftoi_forms: a conversion not written through tgm_ftoi"
# a const integer temporary of a float element (was: tgm_ftoi<const int>, every variant refused)
all_right const_temp.tgm f32 ctemp_f32 63
grep -q "tgm_ftoi<int>(in\[i\] / 2)" "$work/ctemp_f32/ctemp_f32.cu" || fail "const_temp: not tgm_ftoi<int>"
# Sequences spelled otherwise than the shipped codelets, every element in
# one part (evaluated over sample sizes: tests/errors/partition_*.tgm)
all_right partition_spellings.tgm i32 pspell_i32 21
grep -q '"transform": "(in\[i\] > t) ? in\[i\] : (in\[i\] < -t) ? 2 \* in\[i\] : 1"' "$work/chain_i32/chain_i32.json" ||
  fail "else_if.tgm: the transform is not the chain"
# a continue in a nested if: what follows runs under !(a && b)
all_right continue_nested.tgm i32 nc_i32 105
grep -q '"transform": "!(in\[i\] > 0 && in\[i\] > t) ? in\[i\] : 0"' "$work/nc_i32/nc_i32.json" ||
  fail "continue_nested.tgm: the transform is not guarded by both conditions"
# file-scope constants: their values, spelled in their types (HALF over f32: 2.0f;
# (int) of a float through tgm_ftoi)
all_right file_constant.tgm f32 fc_f32 63
grep -q '"transform": "tgm_ftoi<int>(in\[i\]) / 2.0f + 3"' "$work/fc_f32/fc_f32.json" ||
  fail "file_constant.tgm: the constants are not their typed values"

# integer locals that hold values keep their type (C++'s meaning): unsigned
# of a negative int, int of a long long (were widened to 64 bits with the
# reference, so the check agreed; the oracle found it)
all_right value_local.tgm i32 vloc_i32 21
all_right value_local.tgm i64 vloc_i64 21
grep -q "unsigned u = in\[i\];" "$work/vloc_i64/vloc_i64.cu" && grep -q "int k = in\[i\] / 2;" "$work/vloc_i64/vloc_i64.cu" ||
  fail "value_local: a value local widened"

# float math of a float element computed in float on the CPU check too
# (sqrt, exp; pow(x, 2) in double, as C++), a file-scope constant named L
all_right float_math.tgm f32 fmath_f32 21
# fmax and fmin typed as <cmath> types them (float of two floats), the other arguments cast
all_right fmax_float.tgm f32 fm_f32 21
grep -q "acc += fmax(in\[i\], 0.25f) \* 0.1f + fmin((double)in\[i\], (double)1) / 3;" "$work/fm_f32/fm_f32.cu" ||
  fail "fmax_float: fmax not float, or fmin's arguments not cast to double"
# char and short constants read as C++ promotes them (a constexpr unsigned char is the int
# 200, not 200u), a const unsigned short local the same in every part
all_right narrow_const.tgm i32 nconst_i32 21
grep -q '"transform": "(in\[i\] - 200) / 3"' "$work/nconst_i32/nconst_i32.json" ||
  fail "narrow_const: the constants are not their promoted values"
# using namespace std; and using std::max; at file scope
all_right using_std.tgm i32 nsmax_i32 21
# std::max<int>(acc, in[i]) over f32: each element converted to the int named, then compared
all_right std_max_named.tgm f32 imax_f32 21
grep -q '"transform": "tgm_ftoi<int>(in\[i\])"' "$work/imax_f32/imax_f32.json" ||
  fail "std_max_named: the elements are not converted to the type std::max names"
# a cooperative codelet's y[tid] * x[tid] for the scalar's x[i] * y[i]
all_right dot_commuted.tgm f32 dotc_f32 4
# acc -= in[i]: a sum of -in[i]
all_right minus_sum.tgm i32 msum_i32 21
all_right minus_sum.tgm f32 msum_f32_rows 10 --rows
# a cooperative codelet with its thread index in a local and its tree as a while loop
all_right while_tree.tgm i32 wsum_i32 8
all_right while_tree.tgm i32 wsum_i32_rows 7 --rows
# a float sum of in.Index(i): the bound's scale at each element's own index
all_right index_sum.tgm f32 isum_f32 14
# a float sum returned as fabs(acc): the epilogue's least value inside the bound's interval
all_right epilogue_fabs.tgm f32 efabs_f32 15
# an accumulator started from another value than the identity: folded in once, last
all_right start_value.tgm f32 linf_f32 90
grep -q '"epilogue": "tgm_max(0, accum)",' "$work/linf_f32/linf_f32.json" ||
  fail "start_value: the start 0 is not folded into the return"
all_right start_sum.tgm i32 ssum_i32 2
all_right start_sum.tgm i32 ssum_i32_cols 2 --cols
grep -q '"epilogue": "1 + accum",' "$work/ssum_i32/ssum_i32.json" ||
  fail "start_sum: the start 1 is not added once, in the return"
all_right start_sum.tgm f32 ssum_f32_rows 3 --rows
# a start converted to the accumulator's type as its declaration converts it
all_right start_wide.tgm i32 swide_i32 15
grep -q '"epilogue": "((int)t + acc) / 2",' "$work/swide_i32/swide_i32.json" ||
  fail "start_wide: the start is not converted to the accumulator's type"
# the thread, lane and warp indices in locals; a while tree in warp 0
all_right warp_locals.tgm i32 wloc_i32 8
# a lane's value declared from a conditional transform in one statement: one variant of its
# cooperative codelet's tree, checked
"$gen" --embed --variant=DT.V.ST --type=i32 -o "$work/co.h" "$root/tests/check/count_onestmt.tgm" 2>"$work/err" &&
  grep -q "checked conestmt_i32 on the CPU .*: 1 CUDA variant .* 0 wrong" "$work/err" ||
  { cat "$work/err"; fail "count_onestmt: the one-statement lane value refused or wrong"; }
# the textbook in-place tree, if (tid < s) sdata[tid] += sdata[tid + s]: a barrier between the steps
all_right inplace_tree.tgm i32 ipsum_i32 8
all_right inplace_tree.tgm f32 ipsum_f32_rows 7 --rows
all_right epilogue_unsigned.tgm i32 etu_i32 15
grep -q "return n ? (unsigned)(acc / n) : -1;" "$work/etu_i32/etu_i32.cu" ||
  fail "epilogue_unsigned: the quotient is not cast back to unsigned"

# a float-to-unsigned conversion out of range (u32 data past 2^31, times
# 1000): C++ leaves it undefined, so the oracle has no answer there and
# compares the rest (it called tgm's reference wrong: got 3080192, want
# 4294967295); one variant
"$gen" --embed --variant=DT.V.ST --type=u32 -o "$work/ffi.h" "$root/tests/check/float_fold_int.tgm" 2>"$work/err" &&
  grep -q "checked tenth_u32 on the CPU .*: 1 CUDA variant .* 0 wrong" "$work/err" ||
  { cat "$work/err"; fail "float_fold_int u32: the oracle compared an undefined conversion"; }

# a shift by the width or more in the scalar codelet: a located error at it
V=$("$gen" --list --type=i32 "$root/tests/check/shift_too_far.tgm" | head -1 | cut -f1 -d' ')
"$gen" --embed --variant="$V" --type=i32 -o "$work/stf.h" "$root/tests/check/shift_too_far.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$work/stf.h" ] &&
  grep -q "shift_too_far.tgm:9:12: error: the scalar codelet does what C++ leaves undefined at n = 1 (the check's data): a shift by its type's width or more" "$work/err" ||
  { cat "$work/err"; fail "shift_too_far: exit $rc, not a located error"; }

# the oracle: a codelet that reads one way to tgm and another to C++ (its
# SCALE depends on the prelude's macro) is refused at its scalar codelet,
# 1-D, rows and columns, with nothing written
for mode in "" --rows --cols; do
  "$gen" $mode --type=i32 -o "$work/otgm$mode" "$root/tests/check/oracle_tgm_only.tgm" 2>"$work/err"
  rc=$?
  kept=$(sed -n "s/^tgm-gen: the check's files are kept in //p" "$work/err")
  [ -n "$kept" ] && rm -rf "$kept"
  [ $rc -eq 1 ] && [ ! -e "$work/otgm$mode" ] &&
    grep -q "oracle_tgm_only.tgm:13:3: error: internal error: tgm's translation of the scalar codelet 'twice' disagrees with the codelet compiled as C++ (the check's oracle) at .*n = 1: got -*[0-9]*, want -*[0-9]*" "$work/err" ||
    { cat "$work/err"; fail "oracle_tgm_only $mode: exit $rc, not refused by the oracle"; }
done

# parameters get distinct values in the check (lo 3, hi 303), and a
# cooperative codelet testing the band the wrong way round is left out
TGM_CHECK_KEEP=1 "$gen" --type=i32 -o "$work/bs" "$root/tests/check/band_swapped.tgm" 2>"$work/err" ||
  { cat "$work/err"; fail "band_swapped: exit $?"; }
kept=$(sed -n "s/^tgm-gen: the check's files are in //p" "$work/err")
grep -q "band_swapped.tgm:[0-9]*:[0-9]*: warning: codelet 'coop' is used by no variant" "$work/err" ||
  { cat "$work/err"; fail "band_swapped: the swapped band was not left out"; }
grep -Eq "T lo_* = \(T\)3;" "$kept"/*.cpp && grep -Eq "T hi_* = \(T\)303;" "$kept"/*.cpp ||
  fail "band_swapped: the check's parameters are not 3 and 303"
rm -rf "$kept"

# --strict: an error, and nothing written
"$gen" --strict --type=i32 -o "$work/strict" "$root/tests/check/buggy_coop.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] || fail "--strict: exit $rc, want 1"
grep -q "error: [0-9]* variants of bsum_i32 are wrong on the CPU check (--strict: nothing is written)" "$work/err" ||
  { cat "$work/err"; fail "--strict: no error"; }
[ ! -e "$work/strict" ] || fail "--strict wrote $(ls "$work/strict")"

# no compiler: a clear error, nothing written
CXX=/nonexistent/c++ "$gen" --type=i32 -o "$work/nocxx" "$root/codelets/sum.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] || fail "no compiler: exit $rc, want 1"
grep -q "needs a C++17 compiler: '/nonexistent/c++' is not there" "$work/err" || { cat "$work/err"; fail "no compiler: message"; }
[ ! -e "$work/nocxx" ] || fail "no compiler: something was written"

# the talk's figure 1(a)-(c) as printed (tests/errors/talk_figure1.tgm) with
# the loop's step fixed: (c)'s partials' tree still reads slots nobody
# stored (the `<=` and the missing store the shipped sum.tgm mends), so its
# tree variants are wrong (--strict: an error); with those two mended too,
# every variant it makes is right, its cooperative codelet (no __coop, a
# Vector) among them
sed 's/i < len; in.Stride())/i < len; i += in.Stride())/' "$root/tests/errors/talk_figure1.tgm" \
  >"$work/figure1.tgm"
"$gen" --strict --type=i32 -o "$work/fig1" "$work/figure1.tgm" 2>"$work/err"
rc=$?
[ $rc -eq 1 ] && grep -q "error: [0-9]* variants of sum_i32 are wrong on the CPU check (--strict" "$work/err" &&
  grep -q "note: DT.V.ST (cuda, warp 32)" "$work/err" ||
  { cat "$work/err"; fail "figure 1 as printed (step fixed): exit $rc, its tree variants not found wrong"; }
sed -e 's|vthread.ThreadId() <= (in.Size() / vthread.MaxValue())|vthread.ThreadId() < (in.Size() + vthread.MaxValue() - 1) / vthread.MaxValue()|' \
  -e 's|^    for(int offset = vthread.MaxValue()/2; offset > 0; offset /= 2){|    partial[vthread.ThreadId()] = val;\n&|' \
  "$work/figure1.tgm" >"$work/figure1_mended.tgm"
[ "$(grep -c 'partial\[vthread.ThreadId()\] = val' "$work/figure1_mended.tgm")" = 2 ] || fail "figure 1: the store not added"
"$gen" --strict --type=i32 -o "$work/fig" "$work/figure1_mended.tgm" 2>"$work/err" || { cat "$work/err"; fail "figure 1 mended: exit $?"; }
python3 - "$work/fig/sum_i32.json" <<'EOF' || fail "figure 1 mended: the wrong variants"
import json, sys
ids = [v["id"] for v in json.load(open(sys.argv[1]))["variants"]]
assert len(ids) >= 6 and any(i.split(".")[1] == "V" for i in ids), ids
print(len(ids), "variants of the talk's figure 1, all checked")
EOF

# usage
"$gen" --strict --no-check -o "$work/x" "$root/codelets/sum.tgm" 2>/dev/null; [ $? -eq 2 ] || fail "--strict --no-check"
"$gen" --strict --list "$root/codelets/sum.tgm" 2>/dev/null; [ $? -eq 2 ] || fail "--strict --list"
echo ok

#!/usr/bin/env bash
# consumer.sh TGM_GEN ROOT NVCC — an application's build with the embedded
# headers, as a probe found it broken (nvcc, no GPU: compile and link only):
#   - two translation units that include the same headers (1-D, rows,
#     columns) link, also with -rdc=true: every name of a header has
#     internal linkage (its kernels were strong symbols, defined twice);
#   - a header included twice in one file compiles (its include guard);
#   - an application's macros of the headers' short names (N, BLOCK, T, ...)
#     defined before the includes do not reach them, and stay defined;
#   - the stream may be left out (0, as CUB's);
#   - they compile as C++11, 14, 17 and 20;
#   - two different headers of one call in one file are an error, not one
#     silently read for the other (the guard holds the header's hash);
#   - tgm::DeviceReduce::Sum/Min called as cub::DeviceReduce's are (int64_t
#     buffers too), only in headers of plain sums, maxima and minima, and
#     two plain sums of one type (two spectra) define it once;
#   - an application built for sm_75 holds no trap in a VR kernel (the
#     warp-reduce instruction falls back to shuffles): on a newer GPU the
#     header may pick VR, and its code, run from sm_75's PTX, trapped.
set -u
gen=$1 root=$2 cc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
h=$work/h
mkdir -p "$h"
"$gen" --embed --no-check --variant=DSL.VS.SV --type=f32 -o "$h/sum_f32.h" codelets/sum.tgm &&
  "$gen" --embed --no-check --variant=B1.VR.SV --type=i32 -o "$h/max_i32.h" codelets/max.tgm &&
  "$gen" --rows --embed --no-check --type=f32 -o "$h/sum_rows_f32.h" codelets/sum.tgm &&
  "$gen" --cols --embed --no-check --type=i32 -o "$h/min_cols_i32.h" codelets/min.tgm &&
  "$gen" --embed --no-check --variant=DTL.VS.SV --type=f32 -o "$h/other_sum_f32.h" codelets/sum.tgm ||
  { echo "FAIL: tgm-gen"; exit 1; }
cat >"$work/calls.h" <<'H'
#include "sum_f32.h"
#include "max_i32.h"
#include "sum_rows_f32.h"
#include "min_cols_i32.h"
H
cat >"$work/a.cu" <<'A'
#include "calls.h"
#include "sum_f32.h" // again: read once
cudaError_t a_calls(void *t, size_t *b, const float *f, float *g, const int *i, int *o, size_t n) {
  cudaError_t e = tgm_sum_f32(t, b, f, g, n, 0);
  if (e == cudaSuccess) e = tgm_max_i32(t, b, i, o, n, 0);
  if (e == cudaSuccess) e = tgm_sum_rows_f32(t, b, f, g, 4, n / 4, n / 4, 0);
  if (e == cudaSuccess) e = tgm_min_cols_i32(t, b, i, o, 4, n / 4, n / 4, 0);
  if (e == cudaSuccess) e = tgm_sum_f32(nullptr, b, f, g, n); // the stream left out: 0, as CUB's
  cudaError_t (*fn)(void *, size_t *, const float *, float *, size_t, cudaStream_t) = tgm_sum_f32;
  if (e == cudaSuccess) e = fn(t, b, f, g, n, 0); // the call's address, one function
  return e;
}
A
cat >"$work/b.cu" <<'B'
#include "calls.h"
cudaError_t a_calls(void *t, size_t *b, const float *f, float *g, const int *i, int *o, size_t n);
int main() {
  size_t b = 0;
  cudaError_t e = tgm_sum_f32(nullptr, &b, nullptr, nullptr, 1000, 0); // the same calls here too
  return (int)e + (int)a_calls(nullptr, &b, nullptr, nullptr, nullptr, nullptr, 1000);
}
B
for rdc in "" "-rdc=true"; do
  ok=1
  for u in a b; do
    "$cc" -std=c++17 -arch=sm_90 $rdc -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$h" \
      -c "$work/$u.cu" -o "$work/$u.o" 2>"$work/err" || { ok=0; fail "nvcc -c $u.cu $rdc"; head -5 "$work/err"; }
  done
  [ $ok = 1 ] && { "$cc" -arch=sm_90 $rdc "$work/a.o" "$work/b.o" -o "$work/app" 2>"$work/err" &&
    echo "ok two translation units link ${rdc:-(whole program)}" ||
    { fail "two translation units do not link $rdc"; head -5 "$work/err"; }; }
done
# any C++ standard from C++11 (the tables were C++17's inline variables)
for std in c++11 c++14 c++20; do
  "$cc" -std=$std -arch=sm_90 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$h" \
    -c "$work/a.cu" -o "$work/std.o" 2>"$work/err" || { fail "-std=$std"; head -5 "$work/err"; }
done
# an application's short macros before the includes (as CUDA samples begin:
# #define N, #define BLOCK) do not reach the headers' names, and are theirs again after
{
  for m in A ATOMIC BLOCK GROUP ITEMS N P R RV T V W X; do printf '#define %s 1024\n' $m; done
  printf '#include "calls.h"\n'
  for m in A ATOMIC BLOCK GROUP ITEMS N P R RV T V W X; do printf 'static_assert(%s == 1024, "%s");\n' $m $m; done
  printf 'cudaError_t c(const float *f, float *g, size_t *b) { return tgm_sum_f32(nullptr, b, f, g, N); }\n'
} >"$work/macros.cu"
"$cc" -std=c++17 -arch=sm_90 -Werror all-warnings -I"$h" -c "$work/macros.cu" -o "$work/macros.o" 2>"$work/err" &&
  echo "ok an application's macros N, BLOCK, T, ... before the headers" ||
  { fail "an application's short macros break the headers"; head -5 "$work/err"; }
# two different headers of tgm_sum_f32 in one file: the compiler says so
printf '#include "sum_f32.h"\n#include "other_sum_f32.h"\n' >"$work/two.cu"
if "$cc" -std=c++17 -arch=sm_90 -I"$h" -c "$work/two.cu" -o "$work/two.o" 2>"$work/err"; then
  fail "two different headers of one call compiled as one"
elif grep -q "tgm_sum_f32" "$work/err"; then
  echo "ok two different headers of one call: an error naming it"
else
  fail "two different headers: not the call's error"; head -5 "$work/err"
fi
# built for sm_75: the VR kernel computes by shuffles, no trap
printf '#include "max_i32.h"\n' >"$work/vr.cu"
"$cc" -std=c++17 -arch=sm_75 -I"$h" -ptx "$work/vr.cu" -o "$work/vr.ptx" 2>"$work/err" || { fail "nvcc -ptx sm_75"; head -5 "$work/err"; }
if grep -q "B1_VR_SV" "$work/vr.ptx" && ! grep -q "trap;" "$work/vr.ptx" && grep -q "shfl.sync.bfly" "$work/vr.ptx"; then
  echo "ok sm_75 code of a VR kernel: shuffles, no trap"
else
  fail "sm_75 code of a VR kernel: $(grep -c 'trap;' "$work/vr.ptx") traps"
fi
# cub::DeviceReduce's calls, `cub` changed to `tgm`: the size by reference,
# an int count, the stream left out or given, float and int64_t buffers (long
# on LP64, where the i64 header's own call takes long long), beside CUB; and
# no tgm::DeviceReduce in a header of another spectrum (sum of squares)
sed 's/\bsum\b/psum/g' codelets/sum.tgm >"$work/psum.tgm"
"$gen" --embed --no-check --variant=DSL.VS.SV --type=i64 -o "$h/min_i64.h" codelets/min.tgm &&
  "$gen" --embed --no-check --variant=DSL.VS.SV --type=f32 -o "$h/sumsq_f32.h" codelets/sumsq.tgm &&
  "$gen" --embed --no-check --variant=DSL.VS.SV --type=f32 -o "$h/psum_f32.h" "$work/psum.tgm" ||
  fail "tgm-gen min i64, sumsq f32, psum f32"
cat >"$work/cub.cu" <<'C'
#include <cub/cub.cuh>
#include <cstdint>
#include "sum_f32.h"
#include "min_i64.h"
#include "sumsq_f32.h"
#include "psum_f32.h" // a second plain sum of floats: tgm::DeviceReduce::Sum(float) once
int as_cub(void *d_temp, size_t &bytes, const float *f, float *fo, int64_t *l, int64_t *lo,
           long long *ll, int n, cudaStream_t s) {
  cub::DeviceReduce::Sum(d_temp, bytes, f, fo, n, s);
  cub::DeviceReduce::Min(d_temp, bytes, l, lo, n);
  return (int)tgm::DeviceReduce::Sum(d_temp, bytes, f, fo, n, s) +
         (int)tgm::DeviceReduce::Min(d_temp, bytes, l, lo, n) +
         (int)tgm::DeviceReduce::Min(d_temp, bytes, ll, ll, n);
}
C
if "$cc" -std=c++17 -arch=sm_90 -I"$h" -c "$work/cub.cu" -o "$work/cub.o" 2>"$work/err"; then
  echo "ok tgm::DeviceReduce called as cub::DeviceReduce (float, int64_t, long long)"
else
  fail "tgm::DeviceReduce as CUB's call"; head -5 "$work/err"
fi
grep -q "namespace DeviceReduce" "$h/sumsq_f32.h" && fail "tgm::DeviceReduce in a sum of squares' header"
[ $fails -eq 0 ] && echo "ok consumer"
exit $((fails > 0))

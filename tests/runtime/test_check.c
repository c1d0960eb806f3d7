// test_check.c — what a check accepts (tune_same) and runs on (tune_fill,
// tune_fill_sparse, tune_fill_nan):
// the rule tgm-tune's verification and tgm_reduce's first-use check share.
#include "../check.h"
#include "tune.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

static tune_manifest spectrum(const char *op, tune_type elem, tune_type res) {
  tune_manifest m;
  memset(&m, 0, sizeof m);
  m.op = (char *)op;
  m.elem = elem;
  m.acc = m.res = res;
  return m;
}

int main(void) {
  // integers: exactly
  tune_manifest mi = spectrum("max", TUNE_I32, TUNE_I32);
  int32_t want_i[3] = {518, 518, 518}, got_i = 518;
  CHECK(tune_same(&mi, &got_i, want_i));
  got_i = -518; // absmax's miscompile: x for |x|
  CHECK(!tune_same(&mi, &got_i, want_i));
  // an integer result of a floating-point fold (an RMS of i32 accumulated in
  // double: the H200 gave 1024710917 for the reference's 1024710916): within
  // the ends of the bound, in either order, and no further
  tune_manifest mr = spectrum("sum", TUNE_I32, TUNE_I32);
  int32_t want_r[3] = {1024710916, 1024710915, 1024710917}, got_r = 1024710917;
  CHECK(tune_same(&mr, &got_r, want_r));
  int32_t want_rr[3] = {-5, -4, -6}; // a decreasing epilogue: the ends swapped
  got_r = -6;
  CHECK(tune_same(&mr, &got_r, want_rr));
  got_r = -7;
  CHECK(!tune_same(&mr, &got_r, want_rr));
  got_r = 1024710918;
  CHECK(!tune_same(&mr, &got_r, want_r));
  tune_manifest mu = spectrum("sum", TUNE_F32, TUNE_U64);
  uint64_t want_u[3] = {1ull << 40, (1ull << 40) - 2, (1ull << 40) + 2}, got_u = (1ull << 40) + 1;
  CHECK(tune_same(&mu, &got_u, want_u));
  got_u = (1ull << 40) + 3;
  CHECK(!tune_same(&mu, &got_u, want_u));
  // floating-point sums: the reference or within [want[1], want[2]]
  tune_manifest mf = spectrum("sum", TUNE_F32, TUNE_F32);
  float want_f[3] = {10.0f, 9.999f, 10.001f}, got_f = 10.0005f;
  CHECK(tune_same(&mf, &got_f, want_f));
  got_f = 10.01f;
  CHECK(!tune_same(&mf, &got_f, want_f));
  got_f = NAN;
  CHECK(!tune_same(&mf, &got_f, want_f));
  float nan3[3] = {NAN, NAN, NAN};
  CHECK(tune_same(&mf, &got_f, nan3)); // NaN only for NaN
  // log-sum-exp of nothing: -inf, a bound end outside log's domain (NaN)
  float lse[3] = {-INFINITY, NAN, -103.3f};
  got_f = -INFINITY;
  CHECK(tune_same(&mf, &got_f, lse));
  got_f = -103.0f;
  CHECK(!tune_same(&mf, &got_f, lse));
  // a pair: the index and the value exactly
  tune_manifest mp = spectrum("max", TUNE_F32, TUNE_PAIR);
  unsigned char gp[16] = {0}, wp[48] = {0};
  uint64_t idx = 7;
  float val = 2.5f;
  memcpy(wp, &idx, 8), memcpy(wp + 8, &val, 4);
  memcpy(gp, wp, 16);
  CHECK(tune_same(&mp, gp, wp));
  idx = 8;
  memcpy(gp, &idx, 8); // the same value at another index (a tie the lower index wins)
  CHECK(!tune_same(&mp, gp, wp));
  // a bool (anybool): its byte exactly; the text says true, false, or a byte no bool has
  tune_manifest mb = spectrum("||", TUNE_F32, TUNE_BOOL);
  unsigned char want_b[3] = {1, 1, 1}, got_b = 1;
  char text[64];
  CHECK(tune_same(&mb, &got_b, want_b));
  tune_value_text(&mb, &got_b, text, sizeof text);
  CHECK(!strcmp(text, "true"));
  got_b = 0;
  CHECK(!tune_same(&mb, &got_b, want_b));
  tune_value_text(&mb, &got_b, text, sizeof text);
  CHECK(!strcmp(text, "false"));
  got_b = 0xA5; // the poison left where a kernel wrote nothing
  CHECK(!tune_same(&mb, &got_b, want_b));
  unsigned char either_b[3] = {1, 0, 1}; // `return accum > 0.5f` of a float sum, on the edge
  got_b = 0;
  CHECK(tune_same(&mb, &got_b, either_b));
  got_b = 0xA5;
  CHECK(!tune_same(&mb, &got_b, either_b));
  tune_value_text(&mb, &got_b, text, sizeof text);
  CHECK(!strcmp(text, "(not a bool: byte 165)"));
  // the data: every operator's values as documented, the same for the same seed
  enum { N = 4096 };
  static int32_t a[N], b[N];
  static float f[N];
  uint64_t s1 = 1, s2 = 1;
  tune_fill(&mi, a, N, &s1);
  tune_fill(&mi, b, N, &s2);
  CHECK(!memcmp(a, b, sizeof a) && s1 == s2 && s1 != 1); // deterministic, the state advanced
  int neg = 0;
  for (int i = 0; i < N; i++)
    neg += a[i] < 0;
  CHECK(neg > N / 4 && neg < 3 * N / 4); // max over int: both signs (absmax's bug needs them)
  tune_fill(&mf, f, N, &s1);
  int small = 1;
  for (int i = 0; i < N; i++)
    small &= f[i] == floorf(f[i]) && f[i] != 0 && fabsf(f[i]) <= 8;
  CHECK(small); // float sums: small nonzero integers, exact in any order
  tune_manifest mprod = spectrum("*", TUNE_I32, TUNE_I32);
  tune_fill(&mprod, a, N, &s1);
  int odd = 1;
  for (int i = 0; i < N; i++)
    odd &= (a[i] & 1) != 0;
  CHECK(odd); // integer products: odd, never 0 modulo 2^32
  // sparse data: a plain fold whose identity the manifest names gets the
  // identity everywhere but one element, which is not the identity
  tune_manifest mor = spectrum("|", TUNE_I32, TUNE_I32);
  mor.plain = 1, mor.identity = TUNE_ID_ZERO;
  for (int round = 0; round < 50; round++) {
    CHECK(tune_fill_sparse(&mor, a, 33, &s1));
    int others = 0;
    for (int i = 0; i < 33; i++)
      others += a[i] != 0;
    CHECK_EQ_INT(others, 1);
  }
  tune_manifest mmax = spectrum("max", TUNE_F32, TUNE_F32);
  mmax.plain = 1, mmax.identity = TUNE_ID_LOWEST;
  CHECK(tune_fill_sparse(&mmax, f, N, &s1));
  int lowest = 0, where = -1;
  for (int i = 0; i < N; i++)
    f[i] == -INFINITY ? lowest++ : (where = i);
  CHECK(lowest == N - 1 && where >= 0 && isfinite(f[where]));
  tune_manifest mand = spectrum("&", TUNE_U32, TUNE_U32);
  mand.plain = 1, mand.identity = TUNE_ID_ONES;
  uint32_t u[64];
  CHECK(tune_fill_sparse(&mand, u, 64, &s1));
  int ones = 0;
  for (int i = 0; i < 64; i++)
    ones += u[i] == UINT32_MAX;
  CHECK_EQ_INT(ones, 63);
  tune_manifest mprod1 = spectrum("*", TUNE_F64, TUNE_F64);
  mprod1.plain = 1, mprod1.identity = TUNE_ID_ONE;
  double d[8];
  CHECK(tune_fill_sparse(&mprod1, d, 8, &s1));
  int unit = 0;
  for (int i = 0; i < 8; i++)
    unit += d[i] == 1.0;
  CHECK_EQ_INT(unit, 7);
  // a logical and: the identity 1 everywhere but one 0 (a nonzero element
  // would leave the result what it was)
  tune_manifest mland = spectrum("&&", TUNE_I32, TUNE_I32);
  mland.plain = 1, mland.identity = TUNE_ID_ONE;
  CHECK(tune_fill_sparse(&mland, a, 33, &s1));
  int land_ones = 0, land_zeros = 0;
  for (int i = 0; i < 33; i++)
    land_ones += a[i] == 1, land_zeros += a[i] == 0;
  CHECK(land_ones == 32 && land_zeros == 1);
  // not applicable: not plain, no identity kind, or nothing to fill
  a[0] = 12345;
  mor.plain = 0;
  CHECK(!tune_fill_sparse(&mor, a, 33, &s1) && a[0] == 12345);
  mor.plain = 1, mor.identity = TUNE_ID_NONE;
  CHECK(!tune_fill_sparse(&mor, a, 33, &s1) && a[0] == 12345);
  mor.identity = TUNE_ID_ZERO;
  CHECK(!tune_fill_sparse(&mor, a, 0, &s1));
  // NaN elements: a floating-point element's data with a NaN at 2 and at
  // every `every`-th from every / 2, the rest tune_fill's; not for integers
  CHECK(tune_fill_nan(&mmax, f, N, 1009, &s1));
  int nans = 0, nan_right = 1;
  for (int i = 0; i < N; i++) {
    nans += isnan(f[i]);
    nan_right &= !isnan(f[i]) == !(i == 2 || i % 1009 == 504);
  }
  CHECK(nan_right && nans == 5); // 2, 504, 1513, 2522, 3531
  static double dn[1100];
  tune_manifest msumd = spectrum("sum", TUNE_F64, TUNE_F64);
  CHECK(tune_fill_nan(&msumd, dn, 1100, 13, &s1));
  CHECK(isnan(dn[2]) && isnan(dn[6]) && isnan(dn[19]) && !isnan(dn[20]) && dn[20] == floor(dn[20]));
  a[0] = 12345;
  CHECK(!tune_fill_nan(&mi, a, 33, 13, &s1) && a[0] == 12345);
  CHECK(!tune_fill_nan(&mmax, f, 0, 1009, &s1) && !tune_fill_nan(&mmax, f, 5, 0, &s1));
  CHECK_DONE();
}

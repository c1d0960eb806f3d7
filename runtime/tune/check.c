// check.c — what a check of a variant runs and accepts, one home for
// tgm-tune's verification (verify.c) and tgm_reduce's first-use check: the
// test data per operator and the comparison with the reference.
#include "tune.h"
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint64_t rnd(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return *s = x;
}

static int is_float(tune_type t) { return t == TUNE_F32 || t == TUNE_F64; }

// Fills host[0..n) (the element type) with test data, by operator, so that a
// fold in any order is exact where it can be: a floating-point sum of small
// nonzero integers (+-1 past 2^21 elements), a product of +-1, odd integers
// for an integer product (never 0 modulo 2^32), values in -8..8 for a pair
// (argmax: many ties); else random values.
void tune_fill(const tune_manifest *m, void *host, unsigned long long n, uint64_t *rng) {
  int sum = !strcmp(m->op, "sum"), prod = !strcmp(m->op, "*"), pair = m->res == TUNE_PAIR;
  for (unsigned long long i = 0; i < n; i++) {
    uint64_t r = rnd(rng);
    int small = (int)(r % 16) - 8;
    if (small >= 0)
      small++;
    double f = prod  ? (small > 0 ? 1 : -1)
               : sum ? (n > (1ull << 21) ? (small > 0 ? 1 : -1) : small)
                     : 0;
    if (prod && !is_float(m->elem))
      r |= 1;
    switch (m->elem) {
    case TUNE_I32: ((int32_t *)host)[i] = (int32_t)(uint32_t)r; break;
    case TUNE_U32: ((uint32_t *)host)[i] = (uint32_t)r; break;
    case TUNE_I64: ((int64_t *)host)[i] = (int64_t)r; break;
    case TUNE_U64: ((uint64_t *)host)[i] = r; break;
    case TUNE_F32:
      ((float *)host)[i] = sum || prod ? (float)f : (float)((int32_t)(r >> 40) - (1 << 23));
      break;
    case TUNE_F64: ((double *)host)[i] = sum || prod ? f : (double)(int64_t)(r >> 12); break;
    case TUNE_PAIR:
    case TUNE_BOOL: break; // never an element type (manifest.c)
    }
    if (pair) // values from a small range: ties, which the lower index wins
      switch (m->elem) {
      case TUNE_F32: ((float *)host)[i] = (float)small; break;
      case TUNE_F64: ((double *)host)[i] = small; break;
      case TUNE_I32:
      case TUNE_U32: ((int32_t *)host)[i] = small; break;
      case TUNE_I64:
      case TUNE_U64: ((int64_t *)host)[i] = small; break;
      case TUNE_PAIR:
      case TUNE_BOOL: break;
      }
  }
}

// The identity of kind id as an element of type t, into out; its size.
static size_t identity_of(tune_type t, int id, void *out) {
  int lo = id == TUNE_ID_LOWEST, hi = id == TUNE_ID_HIGHEST, one = id == TUNE_ID_ONE,
      ones = id == TUNE_ID_ONES;
  switch (t) {
  case TUNE_I32: {
    int32_t v = lo ? INT32_MIN : hi ? INT32_MAX : one ? 1 : ones ? -1 : 0;
    memcpy(out, &v, sizeof v);
    return sizeof v;
  }
  case TUNE_U32: {
    uint32_t v = lo ? 0 : hi || ones ? UINT32_MAX : one ? 1 : 0;
    memcpy(out, &v, sizeof v);
    return sizeof v;
  }
  case TUNE_I64: {
    int64_t v = lo ? INT64_MIN : hi ? INT64_MAX : one ? 1 : ones ? -1 : 0;
    memcpy(out, &v, sizeof v);
    return sizeof v;
  }
  case TUNE_U64: {
    uint64_t v = lo ? 0 : hi || ones ? UINT64_MAX : one ? 1 : 0;
    memcpy(out, &v, sizeof v);
    return sizeof v;
  }
  case TUNE_F32: {
    float v = lo ? -INFINITY : hi ? INFINITY : one ? 1.0f : 0.0f;
    memcpy(out, &v, sizeof v);
    return sizeof v;
  }
  case TUNE_F64: {
    double v = lo ? -INFINITY : hi ? INFINITY : one ? 1.0 : 0.0;
    memcpy(out, &v, sizeof v);
    return sizeof v;
  }
  case TUNE_PAIR:
  case TUNE_BOOL: break; // never an element type
  }
  return 0;
}

int tune_fill_sparse(const tune_manifest *m, void *host, unsigned long long n, uint64_t *rng) {
  unsigned char id[8], x[8];
  size_t size = m->plain && m->identity != TUNE_ID_NONE ? identity_of(m->elem, m->identity, id) : 0;
  if (!size || n == 0 || (m->identity == TUNE_ID_ONES && is_float(m->elem)))
    return 0;
  for (unsigned long long i = 0; i < n; i++)
    memcpy((unsigned char *)host + i * size, id, size);
  int tries = 0;
  do // a value of the operator's own test data, not the identity
    tune_fill(m, x, 1, rng);
  while (!memcmp(x, id, size) && ++tries < 64);
  if (!memcmp(x, id, size)) // (every draw gave the identity): its lowest bit flipped
    memcpy(x, id, size), x[0] ^= 1;
  if (!strcmp(m->op, "&&")) // a logical and: only a 0 changes an identity of 1
    memset(x, 0, size);
  memcpy((unsigned char *)host + (rnd(rng) % n) * size, x, size);
  return 1;
}

int tune_fill_nan(const tune_manifest *m, void *host, unsigned long long n, unsigned every,
                  uint64_t *rng) {
  if (!is_float(m->elem) || n == 0 || every == 0)
    return 0;
  tune_fill(m, host, n, rng);
  for (unsigned long long i = 0; i < n; i++)
    if (i == 2 || i % every == every / 2) {
      if (m->elem == TUNE_F32)
        ((float *)host)[i] = NAN;
      else
        ((double *)host)[i] = NAN;
    }
  return 1;
}

static double as_double(tune_type t, const void *p) {
  switch (t) {
  case TUNE_I32: return *(const int32_t *)p;
  case TUNE_U32: return *(const uint32_t *)p;
  case TUNE_I64: return (double)*(const int64_t *)p;
  case TUNE_U64: return (double)*(const uint64_t *)p;
  case TUNE_F32: return *(const float *)p;
  case TUNE_F64: return *(const double *)p;
  case TUNE_PAIR: return NAN; // compared by tune_same() in parts
  case TUNE_BOOL: return *(const unsigned char *)p != 0;
  }
  return 0;
}

static int64_t signed_at(tune_type t, const void *p) {
  return t == TUNE_I32 ? *(const int32_t *)p : *(const int64_t *)p;
}

static uint64_t unsigned_at(tune_type t, const void *p) { // u32, u64, a bool's byte
  return t == TUNE_U32   ? *(const uint32_t *)p
         : t == TUNE_U64 ? *(const uint64_t *)p
                         : *(const unsigned char *)p;
}

// x between a and b, in either order, for integers of type t (a bool: a
// byte 0 or 1)
static int int_between(tune_type t, const void *x, const void *a, const void *b) {
  if (t == TUNE_I32 || t == TUNE_I64) {
    int64_t v = signed_at(t, x), lo = signed_at(t, a), hi = signed_at(t, b);
    return (lo <= v && v <= hi) || (hi <= v && v <= lo);
  }
  uint64_t v = unsigned_at(t, x), lo = unsigned_at(t, a), hi = unsigned_at(t, b);
  return (t != TUNE_BOOL || v <= 1) && ((lo <= v && v <= hi) || (hi <= v && v <= lo));
}

// got (R) against want[3] (R each): integers exactly, or, an integer
// epilogue of a floating-point fold (an RMS of i32 accumulated in double),
// between want[1] and want[2] (which are want[0] where the fold is exact);
// floating point equal to the reference or between want[1] and want[2] (NaN
// only for NaN; a range end outside the epilogue's domain, sqrt(< 0), allows
// as far as the other); a pair's index exactly and its value exactly (NaN
// only for NaN).
int tune_same(const tune_manifest *m, const void *got, const void *want) {
  size_t r = tune_type_size(m->res), elem = tune_type_size(m->elem);
  if (m->res == TUNE_PAIR) {
    if (memcmp(got, want, 8))
      return 0;
    const char *gv = (const char *)got + 8, *wv = (const char *)want + 8;
    if (!is_float(m->elem))
      return memcmp(gv, wv, elem) == 0;
    double g = as_double(m->elem, gv), w = as_double(m->elem, wv);
    return g == w || (isnan(g) && isnan(w));
  }
  if (!is_float(m->res)) {
    const char *a = (const char *)want + r, *b = (const char *)want + 2 * r;
    return memcmp(got, want, r) == 0 || int_between(m->res, got, a, b);
  }
  double g = as_double(m->res, got), w = as_double(m->res, want);
  double a = as_double(m->res, (const char *)want + r),
         b = as_double(m->res, (const char *)want + 2 * r);
  if (isnan(g) || isnan(w))
    return isnan(g) && isnan(w);
  if (g == w) // -inf equals -inf where a bound left the domain (log(0 - bound))
    return 1;
  if (isnan(a) || isnan(b)) { // an infinite reference is only itself (it is not g)
    double end = isnan(a) ? b : a;
    return !isinf(w) && (isnan(end) || fabs(g - w) <= fabs(end - w));
  }
  return g >= fmin(a, b) && g <= fmax(a, b);
}

static void value_of(tune_type t, const void *p, char *buf, size_t len) {
  switch (t) {
  case TUNE_I32: snprintf(buf, len, "%d", *(const int32_t *)p); break;
  case TUNE_U32: snprintf(buf, len, "%u", *(const uint32_t *)p); break;
  case TUNE_I64: snprintf(buf, len, "%lld", (long long)*(const int64_t *)p); break;
  case TUNE_U64: snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)p); break;
  case TUNE_F32: snprintf(buf, len, "%.9g", *(const float *)p); break;
  case TUNE_F64: snprintf(buf, len, "%.17g", *(const double *)p); break;
  case TUNE_PAIR: snprintf(buf, len, "?"); break; // tune_value_text spells pairs
  case TUNE_BOOL: { // a byte other than 0 or 1 is no bool a kernel wrote
    unsigned b = *(const unsigned char *)p;
    if (b <= 1)
      snprintf(buf, len, "%s", b ? "true" : "false");
    else
      snprintf(buf, len, "(not a bool: byte %u)", b);
  } break;
  }
}

void tune_value_text(const tune_manifest *m, const void *p, char *buf, size_t len) {
  if (m->res != TUNE_PAIR) {
    value_of(m->res, p, buf, len);
    return;
  }
  uint64_t key; // (index, value)
  memcpy(&key, p, 8);
  int w = snprintf(buf, len, "(%llu, ", (unsigned long long)key);
  if (w > 0 && (size_t)w < len) {
    value_of(m->elem, (const char *)p + 8, buf + w, len - (size_t)w);
    size_t at = strlen(buf);
    snprintf(buf + at, len - at, ")");
  }
}

// test_gpu_spectra.c — tgm_reduce_spectrum through the typed calls of
// tgm/reduce_spectra.h on the GPU, against host references written here
// (not the codelets): several inputs (dot), a scalar parameter (count_if),
// epilogues (mean, l2norm), other accumulator and result types (count_if's
// unsigned, argmax's index and value), prod, bit_xor and absmax; sizes 0,
// 1, 33, 4097, 2^20 + 3, inputs at element offsets 0 and 1, the output
// poisoned. With no tuning database (the default variant) and, when DB is
// given, with it. Rows and columns through tgm_reduce_spectrum_rows /
// _cols (DATA_DIR/rows, DATA_DIR/cols): sumsq, dot, count_if, mean, argmax
// (rows), prod (columns) on matrices with ld > n, misaligned starts, 4097
// long rows, 4097 rows, n = 0 and m = 0. A CUDA source edited after
// tgm-gen wrote it is refused. Exit 0 pass, 1 fail, 77 no GPU.
//   test_reduce_gpu_spectra DATA_DIR [DB]   (DATA_DIR: tgm-gen's manifests
//   of absmax, argmax, bit_xor, count_if, dot, l2norm, mean, prod, sumsq;
//   rows/ and cols/ of sumsq, dot, count_if f32, mean, prod i32, argmax f32 rows)
#include "../check.h"
#include "gpu_common.h"
#include "tgm/reduce_spectra.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define MAXN ((1u << 20) + 8)
static const size_t sizes[] = {0, 1, 33, 4097, (1u << 20) + 3};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static tgm_backend *b;
static tgm_stream stream;
static tgm_devptr d_x, d_y, d_out, d_rows; // d_rows: a row or column reduction's outputs
static float *hx, *hy; // f32 data (the f64 and integer data are their own below)
static double *hd;
static int32_t *hi;
static uint32_t *hu;

static void *dev(tgm_devptr p, size_t off_bytes) { return (void *)(uintptr_t)(p + off_bytes); }

static void poison(void) { tgm_memset(b, d_out, 0xA5, 64, stream); }
static void fetch(void *dst, size_t bytes) {
  if (tgm_stream_sync(b, stream) != TGM_OK || tgm_copy_to_host(b, dst, d_out, bytes) != TGM_OK) {
    fprintf(stderr, "fetch: %s\n", tgm_last_error());
    exit(1);
  }
}
static void put(tgm_devptr d, const void *h, size_t bytes) {
  if (tgm_copy_to_device(b, d, h, bytes) != TGM_OK) {
    fprintf(stderr, "copy: %s\n", tgm_last_error());
    exit(1);
  }
}

#define CALL(what, call)                                   \
  do {                                                     \
    tgm_status s_ = (call);                                \
    if (s_ != TGM_OK) {                                    \
      fprintf(stderr, "%s: %s\n", what, tgm_last_error()); \
      check_failures++;                                    \
      return;                                              \
    }                                                      \
  } while (0)

static int close_rel(double got, double want, double bound) { return fabs(got - want) <= bound; }

static void one_size(tgm_ctx *c, size_t n, int off) {
  size_t o4 = (size_t)off * 4, o8 = (size_t)off * 8;
  char what[96];
  // sumsq f32: sum x*x (x small integers: every order is exact)
  {
    double want = 0;
    for (size_t i = 0; i < n; i++)
      want += (double)hx[off + i] * hx[off + i];
    float got;
    poison();
    snprintf(what, sizeof what, "sumsq f32 n=%zu off=%d", n, off);
    CALL(what, tgm_reduce_sumsq_f32(c, dev(d_x, o4), n, dev(d_out, 0), stream));
    fetch(&got, 4);
    if (got != (float)want)
      CHECK_FAIL("%s: got %g, want %g", what, got, want);
  }
  // dot f32: two inputs; within the float sum's error bound 2(n+1) eps sum |x y|
  {
    double want = 0, abs = 0;
    for (size_t i = 0; i < n; i++) {
      want += (double)hx[off + i] * hy[off + i];
      abs += fabs((double)hx[off + i] * hy[off + i]);
    }
    float got;
    poison();
    snprintf(what, sizeof what, "dot f32 n=%zu off=%d", n, off);
    CALL(what, tgm_reduce_dot_f32(c, dev(d_x, o4), dev(d_y, o4), n, dev(d_out, 0), stream));
    fetch(&got, 4);
    if (!close_rel(got, want, 2.0 * (double)(n + 1) * 1.2e-7 * abs))
      CHECK_FAIL("%s: got %g, want %g", what, got, want);
  }
  // count_if f32: a parameter, an unsigned result
  for (int t = -2; t <= 3; t += 5) {
    float threshold = (float)t + 0.5f;
    unsigned want = 0, got;
    for (size_t i = 0; i < n; i++)
      want += hx[off + i] > threshold;
    poison();
    snprintf(what, sizeof what, "count_if f32 threshold=%g n=%zu off=%d", threshold, n, off);
    CALL(what, tgm_reduce_count_if_f32(c, dev(d_x, o4), n, threshold, dev(d_out, 0), stream));
    fetch(&got, 4);
    if (got != want)
      CHECK_FAIL("%s: got %u, want %u", what, got, want);
  }
  // mean i32: the epilogue divides by n (0 for n = 0)
  {
    int64_t s = 0;
    for (size_t i = 0; i < n; i++)
      s += hi[off + i];
    int32_t want = n ? (int32_t)((int32_t)s / (int32_t)n) : 0, got;
    poison();
    snprintf(what, sizeof what, "mean i32 n=%zu off=%d", n, off);
    CALL(what, tgm_reduce_mean_i32(c, dev(d_x + MAXN * 4, o4), n, dev(d_out, 0), stream));
    fetch(&got, 4);
    if (got != want)
      CHECK_FAIL("%s: got %d, want %d", what, got, want);
  }
  // l2norm f64: sqrt of the sum of squares
  {
    double s = 0;
    for (size_t i = 0; i < n; i++)
      s += hd[off + i] * hd[off + i];
    double want = sqrt(s), got;
    poison();
    snprintf(what, sizeof what, "l2norm f64 n=%zu off=%d", n, off);
    CALL(what, tgm_reduce_l2norm_f64(c, dev(d_y + MAXN * 4, o8), n, dev(d_out, 0), stream));
    fetch(&got, 8);
    if (!close_rel(got, want, 1e-9 * (want + 1)))
      CHECK_FAIL("%s: got %.17g, want %.17g", what, got, want);
  }
  // argmax f32: the index (of the first largest) and the value
  {
    size_t at = 0;
    for (size_t i = 1; i < n; i++)
      if (hy[off + i] > hy[off + at])
        at = i;
    tgm_arg_f32 got;
    poison();
    snprintf(what, sizeof what, "argmax f32 n=%zu off=%d", n, off);
    CALL(what, tgm_reduce_argmax_f32(c, dev(d_y, o4), n, dev(d_out, 0), stream));
    fetch(&got, sizeof got);
    if (n && (got.index != at || got.value != hy[off + at]))
      CHECK_FAIL("%s: got [%llu] = %g, want [%zu] = %g", what, (unsigned long long)got.index,
                 got.value, at, hy[off + at]);
    if (!n && !(got.value < -3e38f))
      CHECK_FAIL("%s: got %g for no elements, want the lowest float", what, got.value);
  }
  // prod i32 (wraps as unsigned), bit_xor u32, absmax i32
  {
    uint32_t p = 1, x = 0;
    int32_t m = INT32_MIN; // absmax starts from the lowest value (its codelet's Lowest())
    for (size_t i = 0; i < n; i++) {
      p *= (uint32_t)hi[off + i];
      x ^= hu[off + i];
      int32_t a = hi[off + i] < 0 ? -hi[off + i] : hi[off + i];
      m = a > m ? a : m;
    }
    int32_t gp, gm;
    uint32_t gx;
    snprintf(what, sizeof what, "prod/bit_xor/absmax n=%zu off=%d", n, off);
    poison();
    CALL(what, tgm_reduce_prod_i32(c, dev(d_x + MAXN * 4, o4), n, dev(d_out, 0), stream));
    fetch(&gp, 4);
    poison();
    CALL(what, tgm_reduce_bit_xor_u32(c, dev(d_y + MAXN * 12, o4), n, dev(d_out, 0), stream));
    fetch(&gx, 4);
    poison();
    // absmax over int: CUDA 13.0's ptxas miscompiles it (bench/results/
    // 2026-11-24-ptxas-absmax); tgm_reduce's first-use check must refuse
    // the kernel then, never return its value
    tgm_status sa = tgm_reduce_absmax_i32(c, dev(d_x + MAXN * 4, o4), n, dev(d_out, 0), stream);
    if (sa == TGM_ERR_COMPILE && strstr(tgm_last_error(), "a compiler bug")) {
      if (n == 1 && !off)
        printf("absmax i32 refused: %s\n", tgm_last_error());
      gm = m;
    } else {
      CALL(what, sa);
      fetch(&gm, 4);
    }
    if ((uint32_t)gp != p || gx != x || gm != m)
      CHECK_FAIL("%s: prod %d (want %d), xor %u (%u), absmax %d (%d)", what, gp, (int32_t)p, gx, x,
                 gm, m);
  }
}

// ------------------------------------------------------ rows and columns
// The m x n matrices (ld, first element off) the row and column calls run on.
typedef struct {
  size_t m, n, ld;
  int off;
} mat;
static const mat mats[] = {{5, 33, 37, 1}, {250, 4097, 4100, 0}, {4097, 7, 9, 1},
                           {3, 0, 0, 0},   {0, 5, 5, 0},         {2, 40000, 40000, 3}};
enum { NMATS = sizeof mats / sizeof mats[0] };

// out[j] of row (cols 0) or column j: the element (r, c)'s index into h
static size_t at(const mat *x, size_t r, size_t c) { return (size_t)x->off + r * x->ld + c; }

static void fetch_rows(void *dst, size_t bytes) {
  if (tgm_stream_sync(b, stream) != TGM_OK || tgm_copy_to_host(b, dst, d_rows, bytes) != TGM_OK) {
    fprintf(stderr, "fetch: %s\n", tgm_last_error());
    exit(1);
  }
}

static void one_matrix(tgm_ctx *c, const mat *x) {
  char what[128];
  for (int cols = 0; cols < 2; cols++) {
    size_t outs = cols ? x->n : x->m, len = cols ? x->m : x->n;
    const char *how = cols ? "cols" : "rows";
    // the element k of output j: (r, c)
#define EL(j, k) (cols ? at(x, (k), (j)) : at(x, (j), (k)))
    tgm_status (*call)(tgm_ctx *, const char *, tgm_type, const void *const *, int, size_t, size_t,
                       size_t, const void *const *, int, void *,
                       void *) = cols ? tgm_reduce_spectrum_cols : tgm_reduce_spectrum_rows;
    void *out = dev(d_rows, 0);
    const void *fx[1] = {dev(d_x, 0)}, *fxy[2] = {dev(d_x, 0), dev(d_y, 0)};
    const void *ix[1] = {dev(d_x + MAXN * 4, 0)}, *fy[1] = {dev(d_y, 0)};
    for (int q = 0; q < 2; q++) { // the matrix starts off elements in
      fxy[q] = dev(q ? d_y : d_x, (size_t)x->off * 4);
    }
    fx[0] = dev(d_x, (size_t)x->off * 4), ix[0] = dev(d_x + MAXN * 4, (size_t)x->off * 4);
    fy[0] = dev(d_y, (size_t)x->off * 4);
    float *gf = malloc((outs + 1) * 16);
    // sumsq f32 and dot f32 (small integers and eighths: exact in any order)
    for (int sp = 0; sp < 2; sp++) {
      snprintf(what, sizeof what, "%s %s f32 %zu x %zu ld %zu off %d", sp ? "dot" : "sumsq", how,
               x->m, x->n, x->ld, x->off);
      tgm_memset(b, d_rows, 0xA5, (outs + 1) * 4, stream);
      CALL(what, call(c, sp ? "dot" : "sumsq", TGM_TYPE_F32, sp ? fxy : fx, sp ? 2 : 1, x->m, x->n,
                      x->ld, NULL, 0, out, stream));
      fetch_rows(gf, (outs + 1) * 4);
      for (size_t j = 0; j < outs; j++) {
        double w = 0;
        for (size_t k = 0; k < len; k++)
          w += (double)hx[EL(j, k)] * (sp ? hy[EL(j, k)] : hx[EL(j, k)]);
        if (gf[j] != (float)w) {
          CHECK_FAIL("%s: output %zu: got %g, want %g", what, j, gf[j], w);
          break;
        }
      }
      uint32_t guard;
      memcpy(&guard, &gf[outs], 4);
      if (guard != 0xA5A5A5A5u)
        CHECK_FAIL("%s: wrote past its %zu outputs", what, outs);
    }
    // count_if f32 (a parameter; an unsigned result)
    {
      float threshold = 0.5f;
      const void *params[1] = {&threshold};
      unsigned *gu = (unsigned *)gf;
      snprintf(what, sizeof what, "count_if %s f32 %zu x %zu", how, x->m, x->n);
      CALL(what,
           call(c, "count_if", TGM_TYPE_F32, fx, 1, x->m, x->n, x->ld, params, 1, out, stream));
      fetch_rows(gu, outs * 4);
      for (size_t j = 0; j < outs; j++) {
        unsigned w = 0;
        for (size_t k = 0; k < len; k++)
          w += hx[EL(j, k)] > threshold;
        if (gu[j] != w) {
          CHECK_FAIL("%s: output %zu: got %u, want %u", what, j, gu[j], w);
          break;
        }
      }
    }
    // mean i32 (the epilogue divides by the length: 0 for none) and prod i32 (wraps)
    for (int sp = 0; sp < 2; sp++) {
      int32_t *gi = (int32_t *)gf;
      snprintf(what, sizeof what, "%s %s i32 %zu x %zu", sp ? "prod" : "mean", how, x->m, x->n);
      CALL(what, call(c, sp ? "prod" : "mean", TGM_TYPE_I32, ix, 1, x->m, x->n, x->ld, NULL, 0, out,
                      stream));
      fetch_rows(gi, outs * 4);
      for (size_t j = 0; j < outs; j++) {
        int64_t s = 0;
        uint32_t p = 1;
        for (size_t k = 0; k < len; k++) {
          s += hi[EL(j, k)];
          p *= (uint32_t)hi[EL(j, k)];
        }
        int32_t w = sp ? (int32_t)p : len ? (int32_t)((int32_t)s / (int32_t)len) : 0;
        if (gi[j] != w) {
          CHECK_FAIL("%s: output %zu: got %d, want %d", what, j, gi[j], w);
          break;
        }
      }
    }
    // argmax f32 over rows: the index within the row (of the first largest) and the value
    if (!cols) {
      tgm_arg_f32 *ga = (tgm_arg_f32 *)gf;
      snprintf(what, sizeof what, "argmax rows f32 %zu x %zu", x->m, x->n);
      CALL(what, call(c, "argmax", TGM_TYPE_F32, fy, 1, x->m, x->n, x->ld, NULL, 0, out, stream));
      fetch_rows(ga, outs * sizeof *ga);
      for (size_t j = 0; j < outs && len; j++) {
        size_t best = 0;
        for (size_t k = 1; k < len; k++)
          if (hy[EL(j, k)] > hy[EL(j, best)])
            best = k;
        if (ga[j].index != best || ga[j].value != hy[EL(j, best)]) {
          CHECK_FAIL("%s: row %zu: got [%llu] = %g, want [%zu] = %g", what, j,
                     (unsigned long long)ga[j].index, ga[j].value, best, hy[EL(j, best)]);
          break;
        }
      }
    }
#undef EL
    free(gf);
  }
}

// argmax f32 over NaNs (README): only NaNs give the first (index 0, NaN);
// NaNs but for one number, or two equal ones, give that number (the first),
// wherever the blocks and threads that hold it combine.
static void argmax_nans(tgm_ctx *c) {
  const size_t n = (1u << 20) + 3, at[] = {777777, 12345};
  float *h = malloc(n * 4), one = 5.5f;
  if (!h) {
    check_failures++;
    return;
  }
  for (size_t i = 0; i < n; i++)
    h[i] = NAN;
  for (int k = 0; k <= 2; k++) {
    if (k > 0)
      h[at[k - 1]] = one;
    put(d_rows, h, n * 4);
    size_t want = k == 0 ? 0 : k == 1 ? at[0] : at[1];
    tgm_arg_f32 got;
    char what[64];
    snprintf(what, sizeof what, "argmax f32 of NaNs and %d numbers", k);
    poison();
    tgm_status s = tgm_reduce_argmax_f32(c, dev(d_rows, 0), n, dev(d_out, 0), stream);
    if (s != TGM_OK) {
      CHECK_FAIL("%s: %s", what, tgm_last_error());
      break;
    }
    fetch(&got, sizeof got);
    if (got.index != want || (k == 0 ? !isnan(got.value) : got.value != one))
      CHECK_FAIL("%s: got [%llu] = %g, want [%zu]", what, (unsigned long long)got.index, got.value,
                 want);
  }
  free(h);
}

// A data folder whose CUDA source is not the one tgm-gen wrote with its
// manifest (edited here): the call refuses it by the manifest's hash
// (TGM_ERR_MANIFEST, the file named) and runs nothing.
static void test_edited_source(const char *data) {
  char dir[] = "/tmp/tgm-reduce-edited-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  const char *names[] = {"dot_f32.json", "dot_f32.cu"};
  for (int i = 0; i < 2; i++) {
    char from[4096], to[4096], buf[1 << 16];
    snprintf(from, sizeof from, "%s/%s", data, names[i]);
    snprintf(to, sizeof to, "%s/%s", dir, names[i]);
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    CHECK(in && out);
    if (!in || !out)
      return;
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
      fwrite(buf, 1, got, out);
    if (i == 1)
      fputs("// edited\n", out);
    fclose(in);
    fclose(out);
  }
  tgm_ctx_options o = {0};
  o.data_dir = dir;
  o.db_path = "";
  tgm_ctx *c;
  CHECK_EQ_INT(tgm_ctx_create(&c, &o), TGM_OK);
  const void *ins[2] = {dev(d_x, 0), dev(d_y, 0)};
  poison();
  CHECK_EQ_INT(tgm_reduce_spectrum(c, "dot", TGM_TYPE_F32, ins, 2, 33, NULL, 0, dev(d_out, 0),
                                   stream),
               TGM_ERR_MANIFEST);
  CHECK_HAS(tgm_last_error(), "dot_f32.cu is not the file tgm-gen wrote with");
  unsigned char got[4];
  fetch(got, 4);
  CHECK(got[0] == 0xA5 && got[3] == 0xA5); // nothing ran
  tgm_ctx_destroy(c);
  for (int i = 0; i < 2; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: test_reduce_gpu_spectra DATA_DIR [DB]\n");
    return 2;
  }
  rng = 0x2545f4914f6cdd1dull; // this test's inputs
  int opened = gpu_open(&b);
  if (opened)
    return opened;
  // d_x: f32 x, then i32 data; d_y: f32 y, then f64 data, then u32 data
  hx = malloc(MAXN * 4), hy = malloc(MAXN * 4), hd = malloc(MAXN * 8), hi = malloc(MAXN * 4),
  hu = malloc(MAXN * 4);
  if (!hx || !hy || !hd || !hi || !hu || tgm_stream_create(b, &stream) ||
      tgm_malloc(b, MAXN * 8, &d_x) || tgm_malloc(b, MAXN * 16, &d_y) ||
      tgm_malloc(b, 64, &d_out) || tgm_malloc(b, MAXN * 16, &d_rows)) {
    fprintf(stderr, "setup: %s\n", tgm_last_error());
    return 1;
  }
  for (size_t i = 0; i < MAXN; i++) {
    hx[i] = (float)((int)(rnd() % 7) - 3);
    hy[i] = (float)((int)(rnd() % 2001) - 1000) / 8; // argmax: ties on purpose, the first wins
    hd[i] = (double)(int64_t)rnd() / 9.2e18;
    hi[i] = (int32_t)(rnd() % 2001) - 1000;
    hu[i] = (uint32_t)rnd();
  }
  put(d_x, hx, MAXN * 4);
  put(d_x + MAXN * 4, hi, MAXN * 4);
  put(d_y, hy, MAXN * 4);
  put(d_y + MAXN * 4, hd, MAXN * 8);
  put(d_y + MAXN * 12, hu, MAXN * 4);
  test_edited_source(argv[1]);
  for (int with_db = 0; with_db <= (argc == 3); with_db++) {
    tgm_ctx_options o = {0};
    o.data_dir = argv[1];
    o.db_path = with_db ? argv[2] : "";
    tgm_ctx *c;
    if (tgm_ctx_create(&c, &o) != TGM_OK) {
      fprintf(stderr, "tgm_ctx_create: %s\n", tgm_last_error());
      return 1;
    }
    tgm_spectrum_info info;
    CHECK_EQ_INT(tgm_reduce_spectrum_info(c, "dot", TGM_TYPE_F32, &info), TGM_OK);
    CHECK(info.n_inputs == 2 && info.n_params == 0 && info.result_bytes == 4);
    CHECK_EQ_INT(tgm_reduce_spectrum_info(c, "count_if", TGM_TYPE_F32, &info), TGM_OK);
    CHECK(info.n_params == 1 && !strcmp(info.param_names[0], "threshold") &&
          info.param_bytes[0] == 4);
    CHECK_EQ_INT(tgm_reduce_spectrum_info(c, "argmax", TGM_TYPE_F32, &info), TGM_OK);
    CHECK(info.result_bytes == sizeof(tgm_arg_f32));
    // a parameter left out, a name that is a path, a spectrum with no manifest
    const void *ins[1] = {dev(d_x, 0)};
    CHECK_EQ_INT(tgm_reduce_spectrum(c, "count_if", TGM_TYPE_F32, ins, 1, 5, NULL, 0, dev(d_out, 0),
                                     stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_spectrum(c, "../sum", TGM_TYPE_I32, ins, 1, 5, NULL, 0, dev(d_out, 0),
                                     stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_spectrum(c, "nosuch", TGM_TYPE_I32, ins, 1, 5, NULL, 0, dev(d_out, 0),
                                     stream),
                 TGM_ERR_NOT_FOUND);
    for (int k = 0; k < NSIZES; k++)
      for (int off = 0; off < 2; off++)
        one_size(c, sizes[k], off);
    for (int k = 0; k < NMATS; k++)
      one_matrix(c, &mats[k]);
    argmax_nans(c);
    // argmax has no column form (tgm-gen refuses it): no manifest
    const void *yin[1] = {dev(d_y, 0)};
    CHECK_EQ_INT(tgm_reduce_spectrum_cols(c, "argmax", TGM_TYPE_F32, yin, 1, 4, 4, 4, NULL, 0,
                                          dev(d_rows, 0), stream),
                 TGM_ERR_NOT_FOUND);
    tgm_reduce_choice ch;
    if (tgm_reduce_spectrum_explain(c, "absmax", TGM_TYPE_I32, 1, &ch) == TGM_OK)
      printf("%s: absmax i32 at n=1 runs %s block %u items %u (%s)\n",
             with_db ? "database" : "default", ch.variant, ch.block, ch.items, ch.why);
    if (tgm_reduce_spectrum_explain(c, "dot", TGM_TYPE_F32, 1u << 20, &ch) == TGM_OK)
      printf("%s: dot f32 at 2^20 runs %s block %u items %u (%s)\n",
             with_db ? "database" : "default", ch.variant, ch.block, ch.items, ch.why);
    tgm_ctx_destroy(c);
  }
  tgm_free(b, d_x);
  tgm_free(b, d_y);
  tgm_free(b, d_out);
  tgm_free(b, d_rows);
  tgm_stream_destroy(b, stream);
  tgm_backend_close(b);
  free(hx), free(hy), free(hd), free(hi), free(hu);
  CHECK_DONE();
}

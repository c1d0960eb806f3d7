// test_gpu_shapes.c — tgm_reduce_rows and tgm_reduce_cols on the GPU
// against a host reference: sum, max, min over i32 and f32; shapes with
// m or n of 0, 1, 3, 31, 33, 4097, long rows, many short rows, the cells the
// H100 tune replaced (RL few long rows, CT parts), ld > n, the matrix 0 or
// 1 element past 16-byte alignment; the output poisoned with 0xA5 bytes and
// a guard after it that must stay; with the H100 shapes database and with
// none (the rule): the first of the databases given that names this GPU
// (else the first), and then some shapes must run a tuned cell. Also: the context's counters shared by 1-D, row and
// column calls in turn; the errors (ld < n, misaligned, NULL); prepare.
// Exit 0 pass, 1 fail, 77 no GPU.
//   test_reduce_gpu_shapes GENERATED_DIR SHAPES_DB [SHAPES_DB...]
#include "../check.h"
#include "gpu_common.h"
#include "tgm/reduce.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  size_t m, n;
} dims;
// m x n; each runs with ld = n and ld = n + 3, offsets 0 and 1
static const dims shapes[] = {{0, 5},       {5, 0},       {1, 1},        {3, 31},
                              {33, 33},     {1000, 3},    {7, 4097},     {2, 131072},
                              {3, 200000},  {16, 128},    {128, 8192},   {200, 8192},
                              {2048, 32},   {768, 4096},  {25, 1 << 20}, {1 << 20, 8},
                              {65536, 2},   {3000, 1000}, {100000, 64},  {8, 1 << 22},
                              {4096, 4096}, {300000, 33}, {132, 70000},  {1 << 16, 600}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };
#define MAXE ((size_t)(1 << 25) + 64) // elements of the largest matrix with ld = n + 3

// op over each row (cols 0: outs = m) or each column (outs = n) of the
// m x n matrix at x (4-byte elements, ld apart) into out, a row at a time.
static void reference(int op, int type, int cols, const char *x, size_t m, size_t n, size_t ld,
                      char *out) {
  size_t outs = cols ? n : m;
  double *acc = malloc((outs ? outs : 1) * sizeof *acc);
  for (size_t j = 0; j < outs; j++)
    acc[j] = op == TGM_OP_SUM ? 0 : op == TGM_OP_MAX ? -INFINITY : INFINITY;
  for (size_t r = 0; r < m; r++)
    for (size_t c = 0; c < n; c++) {
      double v;
      if (type == TGM_TYPE_I32) {
        int32_t e;
        memcpy(&e, x + (r * ld + c) * 4, 4);
        v = e;
      } else {
        float e;
        memcpy(&e, x + (r * ld + c) * 4, 4);
        v = e;
      }
      double *a = &acc[cols ? c : r];
      // i32 sums wrap: kept modulo 2^32 below (|v| < 2^31, a fold of 2^21
      // of them is exact in a double before the wrap)
      *a = op == TGM_OP_SUM ? *a + v : op == TGM_OP_MAX ? (v > *a ? v : *a) : (v < *a ? v : *a);
      if (op == TGM_OP_SUM && type == TGM_TYPE_I32 && fabs(*a) > 0x1p52)
        *a = (double)(int64_t)(uint32_t)(int64_t)*a;
    }
  for (size_t j = 0; j < outs; j++) {
    if (type == TGM_TYPE_I32) {
      int32_t r = op == TGM_OP_SUM   ? (int32_t)(uint32_t)(int64_t)acc[j]
                  : !isinf(acc[j])   ? (int32_t)acc[j]
                  : op == TGM_OP_MAX ? INT32_MIN
                                     : INT32_MAX; // no element: the identity
      memcpy(out + j * 4, &r, 4);
    } else {
      float r = (float)acc[j];
      memcpy(out + j * 4, &r, 4);
    }
  }
  free(acc);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  char *t = NULL;
  long len = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (t = malloc((size_t)len + 1)) != NULL)
    t[fread(t, 1, (size_t)len, f)] = 0;
  if (f)
    fclose(f);
  return t;
}

static tgm_backend *b;
static tgm_stream stream;
static tgm_devptr d_in, d_out;
static char *host, *want, *got;
static long runs;

// One call of tgm_reduce_rows (cols 0) or _cols on m x n (ld, off) and
// its check: every output, and the guard element after them untouched.
static void one(tgm_ctx *ctx, int cols, int op, int ty, size_t m, size_t n, size_t ld, unsigned off,
                const char *what) {
  static const char *const opn[] = {"sum", "max", "min"}, *const tyn[] = {"i32", "f32"};
  size_t outs = cols ? n : m;
  reference(op, ty, cols, host + (size_t)off * 4, m, n, ld, want);
  tgm_memset(b, d_out, 0xA5, (outs + 1) * 4, stream);
  const void *in = (const void *)(uintptr_t)(d_in + (tgm_devptr)off * 4);
  tgm_status s = cols
                     ? tgm_reduce_cols(ctx, op, ty, in, m, n, ld, (void *)(uintptr_t)d_out, stream)
                     : tgm_reduce_rows(ctx, op, ty, in, m, n, ld, (void *)(uintptr_t)d_out, stream);
  if (s == TGM_OK)
    s = tgm_stream_sync(b, stream);
  if (s == TGM_OK)
    s = tgm_copy_to_host(b, got, d_out, (outs + 1) * 4);
  if (s != TGM_OK) {
    fprintf(stderr, "FAIL %s %s %s %zu x %zu ld %zu off %u (%s): %s: %s\n", cols ? "cols" : "rows",
            opn[op], tyn[ty], m, n, ld, off, what, tgm_strerror(s), tgm_last_error());
    check_failures++;
    return;
  }
  runs++;
  uint32_t guard;
  memcpy(&guard, got + outs * 4, 4);
  if (guard != 0xA5A5A5A5u) {
    fprintf(stderr, "FAIL %s %s %s %zu x %zu (%s): wrote past its %zu outputs\n",
            cols ? "cols" : "rows", opn[op], tyn[ty], m, n, what, outs);
    check_failures++;
  }
  for (size_t j = 0; j < outs; j++) {
    if (!memcmp(got + j * 4, want + j * 4, 4))
      continue;
    int32_t gi, wi;
    float gf, wf;
    memcpy(&gi, got + j * 4, 4), memcpy(&wi, want + j * 4, 4);
    memcpy(&gf, got + j * 4, 4), memcpy(&wf, want + j * 4, 4);
    fprintf(stderr,
            "FAIL %s %s %s %zu x %zu ld %zu off %u (%s): %s %zu: got %d / %g, want %d / %g\n",
            cols ? "cols" : "rows", opn[op], tyn[ty], m, n, ld, off, what, cols ? "column" : "row",
            j, gi, gf, wi, wf);
    check_failures++;
    break;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_reduce_gpu_shapes GENERATED_DIR SHAPES_DB [SHAPES_DB...]\n");
    return 2;
  }
  int opened = gpu_open(&b);
  if (opened)
    return opened;
  tgm_status s;
  const tgm_device_info *info = tgm_backend_info(b);
  printf("device: %s (%s, %d SMs), %s\n", info->name, info->arch, info->sm_count, info->compiler);
  const char *db = argv[2];
  int db_names_gpu = 0;
  for (int i = 2; i < argc && !db_names_gpu; i++) {
    char *text = read_text(argv[i]);
    char quoted[300];
    snprintf(quoted, sizeof quoted, "\"%s\"", info->name);
    if (text && strstr(text, quoted))
      db = argv[i], db_names_gpu = 1;
    free(text);
  }
  host = malloc(MAXE * 4);
  want = malloc(MAXE * 4);
  got = malloc(MAXE * 4);
  if (!host || !want || !got || tgm_stream_create(b, &stream) || tgm_malloc(b, MAXE * 4, &d_in) ||
      tgm_malloc(b, MAXE * 4, &d_out)) {
    fprintf(stderr, "setup: %s\n", tgm_last_error());
    return 1;
  }
  static const char *const opn[] = {"sum", "max", "min"}, *const tyn[] = {"i32", "f32"};
  int tuned_seen = 0;
  for (int cfg = 0; cfg < 2; cfg++) {
    tgm_ctx_options o = {0};
    o.data_dir = argv[1];
    o.db_path = cfg == 0 ? db : "";
    tgm_ctx *ctx;
    if ((s = tgm_ctx_create(&ctx, &o)) != TGM_OK) {
      fprintf(stderr, "tgm_ctx_create: %s: %s\n", tgm_strerror(s), tgm_last_error());
      return 1;
    }
    printf("== %s\n", cfg == 0 ? db : "no database (the rule)");
    double t0 = now();
    CHECK_EQ_INT(tgm_reduce_rows_prepare(ctx, TGM_OP_SUM, TGM_TYPE_F32), TGM_OK);
    CHECK_EQ_INT(tgm_reduce_cols_prepare(ctx, TGM_OP_SUM, TGM_TYPE_F32), TGM_OK);
    printf("prepare (compile or cache, check) of sum f32 rows and columns: %.1f s\n", now() - t0);
    for (int op = 0; op < 3; op++)
      for (int ty = 0; ty < 2; ty++) {
        fill(op, ty, host, MAXE);
        if (tgm_copy_to_device(b, d_in, host, MAXE * 4)) {
          fprintf(stderr, "copy: %s\n", tgm_last_error());
          return 1;
        }
        for (int cols = 0; cols < 2; cols++)
          for (int si = 0; si < NSHAPES; si++) {
            size_t m = shapes[si].m, n = shapes[si].n;
            tgm_reduce_shape_choice ch;
            CHECK_EQ_INT(cols ? tgm_reduce_cols_explain(ctx, op, ty, m, n, &ch)
                              : tgm_reduce_rows_explain(ctx, op, ty, m, n, &ch),
                         TGM_OK);
            if (cfg == 1)
              CHECK_EQ_INT(ch.tuned, 0);
            tuned_seen += ch.tuned;
            char what[160];
            snprintf(what, sizeof what, "%s b%u i%u r%u w%u p%u%s", ch.variant, ch.block, ch.items,
                     ch.per_row, ch.width, ch.parts, ch.tuned ? " tuned" : "");
            if (op == 0)
              printf("%s %s %s %zu x %zu: %s\n", cols ? "cols" : "rows", opn[op], tyn[ty], m, n,
                     what);
            // large matrices: ld = n at 0, and ld = n + 3 at 1 element
            // past alignment; without the database only their sums
            int big = m * n >= (1u << 22);
            if (big && cfg == 1 && op != TGM_OP_SUM)
              continue;
            for (int v = 0; v < 4; v++) {
              size_t ld = v & 1 ? n + 3 : n;
              if ((m ? m - 1 : 0) * ld + n + 1 > MAXE || (big && (v == 1 || v == 2)))
                continue;
              one(ctx, cols, op, ty, m, n, ld, (unsigned)(v >> 1), what);
            }
          }
      }
    // the counters are the context's, shared: 1-D, rows (RL) and columns
    // (CT with parts) in turn on one stream, each right
    fill(TGM_OP_SUM, TGM_TYPE_I32, host, MAXE);
    tgm_copy_to_device(b, d_in, host, MAXE * 4);
    for (int round = 0; round < 3; round++) {
      one(ctx, 0, TGM_OP_SUM, TGM_TYPE_I32, 2, 131072, 131072, 0, "after 1-D");
      int32_t w, g = 0;
      reference(TGM_OP_SUM, TGM_TYPE_I32, 1, host, 1 << 22, 1, 1, (char *)&w);
      CHECK_EQ_INT(tgm_reduce(ctx, TGM_OP_SUM, TGM_TYPE_I32, (const void *)(uintptr_t)d_in, 1 << 22,
                              (void *)(uintptr_t)d_out, stream),
                   TGM_OK);
      tgm_stream_sync(b, stream);
      tgm_copy_to_host(b, &g, d_out, 4);
      CHECK_EQ_INT(g, w);
      one(ctx, 1, TGM_OP_SUM, TGM_TYPE_I32, 1 << 20, 8, 8, 0, "after 1-D");
    }
    // errors: ld < n, misaligned, NULL; nothing written
    void *out = (void *)(uintptr_t)d_out;
    const void *in = (const void *)(uintptr_t)d_in;
    CHECK_EQ_INT(tgm_reduce_rows(ctx, TGM_OP_SUM, TGM_TYPE_F32, in, 4, 10, 9, out, stream),
                 TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "ld 9 is less than n 10");
    CHECK_EQ_INT(tgm_reduce_cols(ctx, TGM_OP_SUM, TGM_TYPE_F32, (const void *)(uintptr_t)(d_in + 2),
                                 4, 10, 10, out, stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_rows(ctx, TGM_OP_MAX, TGM_TYPE_I32, in, 4, 10, 10,
                                 (void *)(uintptr_t)(d_out + 1), stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_rows(ctx, TGM_OP_MAX, TGM_TYPE_I32, NULL, 4, 10, 10, out, stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_cols(ctx, TGM_OP_MAX, TGM_TYPE_I32, in, 4, 10, 10, NULL, stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_rows(ctx, (tgm_op)7, TGM_TYPE_I32, in, 4, 10, 10, out, stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce_rows(NULL, TGM_OP_SUM, TGM_TYPE_I32, in, 4, 10, 10, out, stream),
                 TGM_ERR_INVALID);
    // an empty matrix with no input: rows of nothing, the identity
    tgm_memset(b, d_out, 0xA5, 64, stream);
    CHECK_EQ_INT(tgm_reduce_rows(ctx, TGM_OP_MIN, TGM_TYPE_I32, NULL, 3, 0, 0, out, stream),
                 TGM_OK);
    int32_t ids[4];
    tgm_stream_sync(b, stream);
    tgm_copy_to_host(b, ids, d_out, 16);
    CHECK_EQ_INT(ids[0], INT32_MAX);
    CHECK_EQ_INT(ids[2], INT32_MAX);
    CHECK_EQ_INT((uint32_t)ids[3], 0xA5A5A5A5u);
    tgm_ctx_destroy(ctx);
  }
  printf("%ld row and column reductions checked, %d shapes ran a tuned cell, %d failures\n", runs,
         tuned_seen, check_failures);
  if (db_names_gpu)
    CHECK(tuned_seen > 0); // the database has this GPU's cells: some of them run
  tgm_free(b, d_in);
  tgm_free(b, d_out);
  tgm_stream_destroy(b, stream);
  tgm_backend_close(b);
  free(host);
  free(want);
  free(got);
  return check_failures ? 1 : 0;
}

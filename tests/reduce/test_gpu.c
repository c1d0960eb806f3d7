// test_gpu.c — tgm_reduce on the GPU against a host reference: sum, max,
// min over i32 and f32, sizes 0, 1, 2, 31, 33, 4097, 2^20+3, 2^26, input
// offsets of 0-3 elements, output poisoned with 0xA5 bytes, with the H100
// tuning database and with none (the default variant). Also: misaligned
// pointers refused, n = 0 with no input, the default stream.
// Exit 0 pass, 1 fail, 77 no GPU.
//   test_reduce_gpu GENERATED_DIR DB
#include "../check.h"
#include "gpu_common.h"
#include "tgm/reduce.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define MAXN ((1ull << 26) + 8)
static const size_t sizes[] = {0, 1, 2, 31, 33, 4097, (1u << 20) + 3, 1u << 26};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

// The reference of op over x[0..n) and, for f32 sums, sum |x|.
static void reference(int op, int type, const void *x, size_t n, void *ref, double *abs_sum) {
  *abs_sum = 0;
  if (type == TGM_TYPE_I32) {
    const int32_t *a = x;
    uint32_t s = 0;
    int32_t mx = INT32_MIN, mn = INT32_MAX;
    for (size_t i = 0; i < n; i++) {
      s += (uint32_t)a[i];
      mx = a[i] > mx ? a[i] : mx;
      mn = a[i] < mn ? a[i] : mn;
    }
    int32_t r = op == TGM_OP_SUM ? (int32_t)s : op == TGM_OP_MAX ? mx : mn;
    memcpy(ref, &r, 4);
  } else {
    const float *a = x;
    double s = 0;
    float mx = -INFINITY, mn = INFINITY;
    for (size_t i = 0; i < n; i++) {
      s += a[i];
      *abs_sum += fabs(a[i]);
      mx = a[i] > mx ? a[i] : mx;
      mn = a[i] < mn ? a[i] : mn;
    }
    float r = op == TGM_OP_SUM ? (float)s : op == TGM_OP_MAX ? mx : mn;
    memcpy(ref, &r, 4);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_reduce_gpu GENERATED_DIR DB\n");
    return 2;
  }
  tgm_backend *b; // the test's own handle for memory (the same primary context)
  int opened = gpu_open(&b);
  if (opened)
    return opened;
  tgm_status s;
  printf("device: %s (%s, %d SMs), %s\n", tgm_backend_info(b)->name, tgm_backend_info(b)->arch,
         tgm_backend_info(b)->sm_count, tgm_backend_info(b)->compiler);
  tgm_stream stream;
  tgm_devptr d_in, d_out;
  void *host = malloc(MAXN * 4);
  if (!host || tgm_stream_create(b, &stream) || tgm_malloc(b, MAXN * 4, &d_in) ||
      tgm_malloc(b, 64, &d_out)) {
    fprintf(stderr, "setup: %s\n", tgm_last_error());
    return 1;
  }
  static const char *const opn[] = {"sum", "max", "min"}, *const tyn[] = {"i32", "f32"};
  long runs = 0, exact = 0;
  for (int cfg = 0; cfg < 2; cfg++) {
    tgm_ctx_options o = {0};
    o.data_dir = argv[1];
    o.db_path = cfg == 0 ? argv[2] : "";
    tgm_ctx *ctx;
    s = tgm_ctx_create(&ctx, &o);
    if (s != TGM_OK) {
      fprintf(stderr, "tgm_ctx_create: %s: %s\n", tgm_strerror(s), tgm_last_error());
      return 1;
    }
    printf("== %s\n", cfg == 0 ? argv[2] : "no database (the default variant)");
    double t0 = now();
    for (int op = 0; op < 3; op++)
      for (int ty = 0; ty < 2; ty++)
        if ((s = tgm_reduce_prepare(ctx, op, ty)) != TGM_OK) {
          fprintf(stderr, "prepare %s %s: %s\n", opn[op], tyn[ty], tgm_last_error());
          return 1;
        }
    printf("prepare (compile or cache) of 6 op/types: %.1f s\n", now() - t0);
    for (int op = 0; op < 3; op++)
      for (int ty = 0; ty < 2; ty++) {
        fill(op, ty, host, MAXN);
        if (tgm_copy_to_device(b, d_in, host, MAXN * 4)) {
          fprintf(stderr, "copy: %s\n", tgm_last_error());
          return 1;
        }
        for (int si = 0; si < NSIZES; si++) {
          size_t n = sizes[si];
          tgm_reduce_choice ch;
          CHECK_EQ_INT(tgm_reduce_explain(ctx, op, ty, n, &ch), TGM_OK);
          if (cfg == 1)
            CHECK_EQ_INT(ch.tuned, 0);
          printf("%s %s n=%zu: %s b%u i%u c%u (%s)\n", opn[op], tyn[ty], n, ch.variant, ch.block,
                 ch.items, ch.grid_cap_per_sm, ch.tuned ? "tuned" : "default");
          for (int off = 0; off < 4; off++) {
            unsigned char want[4], got[4];
            double abs_sum;
            reference(op, ty, (char *)host + off * 4, n, want, &abs_sum);
            tgm_memset(b, d_out, 0xA5, 64, stream);
            s = tgm_reduce(ctx, op, ty, (const void *)(uintptr_t)(d_in + off * 4), n,
                           (void *)(uintptr_t)d_out, stream);
            if (s == TGM_OK)
              s = tgm_stream_sync(b, stream);
            if (s == TGM_OK)
              s = tgm_copy_to_host(b, got, d_out, 4);
            if (s != TGM_OK) {
              fprintf(stderr, "FAIL %s %s n=%zu off=%d: %s: %s\n", opn[op], tyn[ty], n, off,
                      tgm_strerror(s), tgm_last_error());
              check_failures++;
              continue;
            }
            runs++;
            if (!memcmp(got, want, 4)) {
              exact++;
              continue;
            }
            if (ty == TGM_TYPE_F32 && op == TGM_OP_SUM) {
              float g, w;
              memcpy(&g, got, 4);
              memcpy(&w, want, 4);
              if (fabs((double)g - w) <= (double)(n + 1) * 0x1p-24 * abs_sum)
                continue; // within (n+1) eps sum|x|
            }
            int32_t gi, wi;
            float gf, wf;
            memcpy(&gi, got, 4), memcpy(&wi, want, 4), memcpy(&gf, got, 4), memcpy(&wf, want, 4);
            fprintf(stderr, "FAIL %s %s n=%zu off=%d (%s b%u i%u c%u): got %d / %g, want %d / %g\n",
                    opn[op], tyn[ty], n, off, ch.variant, ch.block, ch.items, ch.grid_cap_per_sm,
                    gi, gf, wi, wf);
            check_failures++;
          }
        }
      }
    // misaligned pointers, n = 0 with no input, the default stream
    CHECK_EQ_INT(tgm_reduce(ctx, TGM_OP_SUM, TGM_TYPE_F32, (const void *)(uintptr_t)(d_in + 2), 10,
                            (void *)(uintptr_t)d_out, stream),
                 TGM_ERR_INVALID);
    CHECK_EQ_INT(tgm_reduce(ctx, TGM_OP_SUM, TGM_TYPE_I32, (const void *)(uintptr_t)d_in, 10,
                            (void *)(uintptr_t)(d_out + 1), stream),
                 TGM_ERR_INVALID);
    tgm_memset(b, d_out, 0xA5, 64, stream);
    tgm_stream_sync(b, stream);
    CHECK_EQ_INT(tgm_reduce(ctx, TGM_OP_MAX, TGM_TYPE_I32, NULL, 0, (void *)(uintptr_t)d_out, NULL),
                 TGM_OK);
    int32_t v = 0;
    tgm_copy_to_host(b, &v, d_out, 4); // synchronous with the default stream
    CHECK_EQ_INT(v, INT32_MIN);
    fill(TGM_OP_MAX, TGM_TYPE_I32, host, 1000);
    ((int32_t *)host)[777] = 0x7ffffff0;
    tgm_copy_to_device(b, d_in, host, 4000);
    CHECK_EQ_INT(tgm_reduce(ctx, TGM_OP_MAX, TGM_TYPE_I32, (const void *)(uintptr_t)d_in, 1000,
                            (void *)(uintptr_t)d_out, NULL),
                 TGM_OK);
    tgm_copy_to_host(b, &v, d_out, 4);
    CHECK_EQ_INT(v, 0x7ffffff0);
    tgm_ctx_destroy(ctx);
  }
  printf("%ld reductions checked, %ld bit-exact, %d failures\n", runs, exact, check_failures);
  tgm_free(b, d_in);
  tgm_free(b, d_out);
  tgm_stream_destroy(b, stream);
  tgm_backend_close(b);
  free(host);
  return check_failures ? 1 : 0;
}

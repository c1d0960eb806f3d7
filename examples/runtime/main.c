// Sums 2^24 ints on the GPU with tgm_reduce, then each row of them as a
// 4096 x 4096 matrix with tgm_reduce_rows. The device memory comes from
// libtgm here to keep the example free of the CUDA toolkit; in your program
// pass your own cudaMalloc'd pointers and cudaStream_t.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tgm/reduce.h>

int main(void) {
  tgm_ctx *ctx;
  tgm_status s = tgm_ctx_create(&ctx, NULL); // $TGM_DB, $TGM_DATA_DIR or the defaults
  if (s != TGM_OK) {
    fprintf(stderr, "tgm_ctx_create: %s (%s)\n", tgm_strerror(s), tgm_last_error());
    return 1;
  }
  size_t n = (size_t)1 << 24;
  int *host = malloc(n * sizeof *host), want = 0;
  for (size_t i = 0; i < n; i++)
    want += host[i] = (int)(i % 7) - 3;
  tgm_backend *b;
  tgm_devptr d_in, d_out;
  int sum = 0;
  if ((s = tgm_backend_open(TGM_BACKEND_CUDA, 0, NULL, &b)) || (s = tgm_malloc(b, n * 4, &d_in)) ||
      (s = tgm_malloc(b, 4, &d_out)) || (s = tgm_copy_to_device(b, d_in, host, n * 4)) ||
      (s = tgm_reduce(ctx, TGM_OP_SUM, TGM_TYPE_I32, (void *)(uintptr_t)d_in, n,
                      (void *)(uintptr_t)d_out, NULL)) ||
      (s = tgm_copy_to_host(b, &sum, d_out, 4))) {
    fprintf(stderr, "error: %s (%s)\n", tgm_strerror(s), tgm_last_error());
    return 1;
  }
  tgm_reduce_choice ch;
  tgm_reduce_explain(ctx, TGM_OP_SUM, TGM_TYPE_I32, n, &ch);
  printf("sum = %d (want %d): %s\n", sum, want, ch.why);

  // the same ints as 4096 rows of 4096: out[r] = the sum of row r
  size_t m = 4096, cols = n / m;
  int *rows = malloc(m * sizeof *rows), bad = 0;
  tgm_devptr d_rows;
  if ((s = tgm_malloc(b, m * 4, &d_rows)) ||
      (s = tgm_reduce_rows(ctx, TGM_OP_SUM, TGM_TYPE_I32, (void *)(uintptr_t)d_in, m, cols, cols,
                           (void *)(uintptr_t)d_rows, NULL)) ||
      (s = tgm_copy_to_host(b, rows, d_rows, m * 4))) {
    fprintf(stderr, "error: %s (%s)\n", tgm_strerror(s), tgm_last_error());
    return 1;
  }
  for (size_t r = 0; r < m; r++) {
    int w = 0;
    for (size_t c = 0; c < cols; c++)
      w += host[r * cols + c];
    bad += rows[r] != w;
  }
  tgm_reduce_shape_choice rc;
  tgm_reduce_rows_explain(ctx, TGM_OP_SUM, TGM_TYPE_I32, m, cols, &rc);
  printf("row sums: %zu of %zu right: %s\n", m - (size_t)bad, m, rc.why);
  free(rows);
  free(host);
  tgm_ctx_destroy(ctx);
  return sum != want || bad;
}

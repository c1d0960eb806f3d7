// Sums 2^24 ints on the GPU with tgm_reduce. The device memory comes from
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
  tgm_ctx_destroy(ctx);
  return 0;
}

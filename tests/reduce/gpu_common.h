// gpu_common.h — what the GPU tests of tgm_reduce share (test_gpu.c,
// test_gpu_shapes.c, test_gpu_spectra.c): the clock, the generator, the
// inputs of sum/max/min, and opening the GPU (77: none here, skipped).
#ifndef TGM_TEST_REDUCE_GPU_COMMON_H
#define TGM_TEST_REDUCE_GPU_COMMON_H
#include "tgm/reduce.h"
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static inline double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// xorshift64; a test that wants another sequence sets rng first
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static inline uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

// n inputs of op over type: any i32; f32 sums small integers (every order
// of adding them is exact), f32 max/min spread over +-1e6.
static inline void fill(int op, int type, void *x, size_t n) {
  if (type == TGM_TYPE_I32) {
    int32_t *a = x;
    for (size_t i = 0; i < n; i++)
      a[i] = (int32_t)(uint32_t)rnd();
  } else {
    float *a = x;
    for (size_t i = 0; i < n; i++)
      a[i] = op == TGM_OP_SUM ? (float)((int)(rnd() % 9) - 4)
                              : (float)((double)(int64_t)rnd() / 9.2e18 * 1e6);
  }
}

// The CUDA backend into *b: 0, or the test's exit status (77 skipped: no
// driver, GPU or run-time compiler; 1 any other failure), said on stdout.
static inline int gpu_open(tgm_backend **b) {
  tgm_status s = tgm_backend_open(TGM_BACKEND_CUDA, 0, NULL, b);
  if (s == TGM_ERR_NO_DRIVER || s == TGM_ERR_NO_DEVICE || s == TGM_ERR_NO_COMPILER) {
    printf("skipped: %s\n", tgm_last_error());
    return 77;
  }
  if (s != TGM_OK) {
    fprintf(stderr, "tgm_backend_open: %s\n", tgm_last_error());
    return 1;
  }
  return 0;
}
#endif

// reduce_rows.cu -- tgm_reduce_rows / tgm_reduce_cols (libtgm's run-time
// path) against the embedded calls (tests/embed/headers, the untuned rule)
// in one process: the same kernel for each shape (the context without a
// database runs the rule the headers hold), the embedded call under CUB's
// contract (its temp holds anything: a memset of the counters where a row
// or column takes several blocks) and the context's call (its counters
// start zero and stay zero: one launch). Every shape is checked first: the
// two calls' outputs must be the same bits. Then each is timed the three
// ways of tests/embed/gpu_timing.h ((a) stream, (b) one call after an L2
// flush, (c) a CUDA graph, after tgm_reduce_*_prepare).
//
//   bash bench/rows/reduce_rows.sh OUT.csv     (builds here, runs there)
//   reduce_rows DATA_DIR OUT.csv
// CSV: shape,type,m,n,emb_a,emb_b,emb_c,red_a,red_b,red_c (us a call).
#include "sum_cols_f32.h"
#include "sum_rows_f32.h"
#include "tgm/reduce.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static const char *where = "";
#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_), \
                   where);                                                                         \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)
#define TK(x)                                                                                       \
  do {                                                                                              \
    tgm_status s_ = (x);                                                                            \
    if (s_ != TGM_OK) {                                                                             \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #x, tgm_last_error(), where); \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)
#include "../../tests/embed/gpu_timing.h"

struct Shape {
  size_t m, n;
};

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: reduce_rows DATA_DIR OUT.csv\n");
    return 2;
  }
  tgm_ctx_options o = {};
  o.data_dir = argv[1];
  o.db_path = ""; // the rule, as the committed headers
  tgm_ctx *ctx;
  TK(tgm_ctx_create(&ctx, &o));
  TK(tgm_reduce_rows_prepare(ctx, TGM_OP_SUM, TGM_TYPE_F32));
  TK(tgm_reduce_cols_prepare(ctx, TGM_OP_SUM, TGM_TYPE_F32));
  FILE *csv = std::fopen(argv[2], "w");
  if (!csv) {
    std::perror(argv[2]);
    return 1;
  }
  int dev = 0;
  cudaDeviceProp props;
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&props, dev));
  std::fprintf(csv, "# %s, %d SMs; sum f32, us a call, cold L2\n", props.name,
               props.multiProcessorCount);
  std::fprintf(csv, "shape,type,m,n,emb_a,emb_b,emb_c,red_a,red_b,red_c\n");
  const size_t len = (size_t)1 << 28; // 1 GiB of floats: the batches' copies
  float *d;
  CK(cudaMalloc(&d, len * sizeof(float)));
  std::vector<float> h(1 << 20);
  for (size_t i = 0; i < h.size(); i++)
    h[i] = (float)((int)(i * 2654435761u % 9) - 4);
  for (size_t at = 0; at < len; at += h.size())
    CK(cudaMemcpy(d + at, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  Flush flush = flush_alloc();
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  static const Shape shapes[] = {{16, 128},      {768, 4096},   {25, 1 << 20}, {1 << 20, 8},
                                 {1 << 20, 32},  {4096, 4096},  {4, 1 << 26},  {1 << 24, 4},
                                 {1 << 22, 64},  {2, 32768},    {8, 1 << 17},  {128, 8192},
                                 {512, 128},     {32768, 2},    {1 << 16, 2},  {64, 64}};
  long checked = 0;
  for (int cols = 0; cols < 2; cols++)
    for (const Shape &sh : shapes) {
      size_t m = sh.m, n = sh.n, outs = cols ? n : m, bytes = 0;
      char w[96];
      std::snprintf(w, sizeof w, "%s %zu x %zu", cols ? "cols" : "rows", m, n);
      where = w;
      auto emb = cols ? tgm_sum_cols_f32 : tgm_sum_rows_f32;
      CK(emb(nullptr, &bytes, nullptr, nullptr, m, n, n, 0));
      void *temp;
      float *out_e, *out_r;
      CK(cudaMalloc(&temp, bytes));
      CK(cudaMalloc(&out_e, outs * sizeof(float)));
      CK(cudaMalloc(&out_r, outs * sizeof(float)));
      auto red = [&](const float *in, float *out) {
        TK(cols ? tgm_reduce_cols(ctx, TGM_OP_SUM, TGM_TYPE_F32, in, m, n, n, out, s)
                : tgm_reduce_rows(ctx, TGM_OP_SUM, TGM_TYPE_F32, in, m, n, n, out, s));
      };
      // the same kernel: the same bits
      CK(cudaMemsetAsync(out_e, 0xA5, outs * sizeof(float), s));
      CK(cudaMemsetAsync(out_r, 0x5A, outs * sizeof(float), s));
      CK(emb(temp, &bytes, d, out_e, m, n, n, s));
      red(d, out_r);
      std::vector<float> ge(outs), gr(outs);
      CK(cudaStreamSynchronize(s));
      CK(cudaMemcpy(ge.data(), out_e, outs * sizeof(float), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(gr.data(), out_r, outs * sizeof(float), cudaMemcpyDeviceToHost));
      if (std::memcmp(ge.data(), gr.data(), outs * sizeof(float))) {
        std::fprintf(stderr, "FAIL %s: the embedded call and tgm_reduce differ\n", w);
        return 1;
      }
      checked++;
      double te[3], tr[3];
      for (int k = 0; k < 3; k++) {
        te[k] = time_us<float>((Timing)k, [&](const float *in) { CK(emb(temp, &bytes, in, out_e, m, n, n, s)); },
                               d, len, flush, m * n, s);
        tr[k] = time_us<float>((Timing)k, [&](const float *in) { red(in, out_r); }, d, len, flush, m * n, s);
      }
      std::fprintf(csv, "%s,f32,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", cols ? "cols" : "rows", m,
                   n, te[0], te[1], te[2], tr[0], tr[1], tr[2]);
      std::fflush(csv);
      CK(cudaFree(temp));
      CK(cudaFree(out_e));
      CK(cudaFree(out_r));
    }
  std::printf("%ld shapes: tgm_reduce and the embedded call gave the same bits\n", checked);
  tgm_ctx_destroy(ctx);
  std::fclose(csv);
  return 0;
}

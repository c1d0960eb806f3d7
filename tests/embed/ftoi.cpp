// ftoi.cpp -- a codelet's float-to-integer conversions give a GPU's
// answer on the CPU as well (tests/ops/ftoi.tgm: the unsigned min of f32
// elements). C++ leaves the conversion of a NaN, a negative or a value
// beyond UINT_MAX undefined and x86 gives 0x80000000-like values for them;
// tgm writes each conversion as tgm_ftoi (NaN 0, below 0 0, above UINT_MAX
// UINT_MAX, else toward zero), so the CPU check and the GPU agree. The row
// and column calls of the embedded headers: on the simulator
// (embed.sim.ftoi.*, TGM_SIM) and, compiled by nvcc, on a GPU
// (embed.gpu.ftoi: exit 77 without one), the same values wanted in both.
#ifdef TGM_SIM
#include "sim_device.h"
#endif

#include "ftoi_cols_f32.h"
#include "ftoi_rows_f32.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

#ifdef TGM_HIP
#define DEV(x) hip##x
#define DEV_H2D hipMemcpyHostToDevice
#define DEV_D2H hipMemcpyDeviceToHost
#else
#define DEV(x) cuda##x
#define DEV_H2D cudaMemcpyHostToDevice
#define DEV_D2H cudaMemcpyDeviceToHost
#endif

static int failures;

// m rows of n elements; want[r]: the row's min as tgm_ftoi converts them.
struct Case {
  const char *name;
  float x[4];
  unsigned want;
};

static const Case cases[] = {
    {"-2", {-2.0f, -2.0f, -2.0f, -2.0f}, 0u},
    {"7.5", {7.5f, 7.5f, 7.5f, 7.5f}, 7u},
    {"NaN", {NAN, NAN, NAN, NAN}, 0u},
    {"5e9", {5e9f, 5e9f, 5e9f, 5e9f}, UINT_MAX},
    {"-0.5", {-0.5f, -0.5f, -0.5f, -0.5f}, 0u},
    {"5e9, 10", {5e9f, 10.0f, 5e9f, 5e9f}, 10u},
    {"3, NaN", {3.0f, NAN, 3.0f, 4.0f}, 0u},
    {"-inf, 9", {-INFINITY, 9.0f, 9.0f, 9.0f}, 0u},
    {"inf, 9", {INFINITY, 9.0f, 9.0f, 9.0f}, 9u},
    {"4294967040", {4294967040.0f, 4294967040.0f, 4294967040.0f, 4294967040.0f}, 4294967040u},
};
enum { M = sizeof cases / sizeof *cases, N = 4 };

template <typename Call>
static void run(const char *shape, Call call, const float *d_in, unsigned *d_out, size_t m,
                size_t n, size_t ld, bool rows) {
  size_t bytes = 0;
  if (call(nullptr, &bytes, d_in, d_out, m, n, ld) != 0) {
    std::printf("FAIL: %s: the size query\n", shape);
    failures++;
    return;
  }
  void *temp = nullptr;
  if (bytes && DEV(Malloc)(&temp, bytes) != 0)
    std::abort();
  unsigned out[M] = {0};
  if (call(temp, &bytes, d_in, d_out, m, n, ld) != 0 ||
      DEV(Memcpy)(out, d_out, sizeof out, DEV_D2H) != 0) {
    std::printf("FAIL: %s: the call\n", shape);
    failures++;
  }
  for (int r = 0; r < M; r++)
    if (out[r] != cases[r].want) {
      std::printf("FAIL: %s, %s {%s}: %u, want %u\n", shape, rows ? "row" : "column", cases[r].name,
                  out[r], cases[r].want);
      failures++;
    }
  if (temp)
    DEV(Free)(temp);
}

int main() {
#ifdef TGM_SIM
  fake::gpus.push_back({"sim H100", 9, 0, 132, 1024, 2619000, 5120});
  fake::current = 0;
#else
  int gpus = 0;
  if (DEV(GetDeviceCount)(&gpus) != 0 || gpus == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
#endif
  float x[M * N], t[M * N];
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      x[r * N + c] = cases[r].x[c]; // row r of the matrix
      t[c * M + r] = cases[r].x[c]; // column r of its transpose
    }
  float *d_in = nullptr, *d_t = nullptr;
  unsigned *d_out = nullptr;
  if (DEV(Malloc)(&d_in, sizeof x) || DEV(Malloc)(&d_t, sizeof t) || DEV(Malloc)(&d_out, M * 4) ||
      DEV(Memcpy)(d_in, x, sizeof x, DEV_H2D) || DEV(Memcpy)(d_t, t, sizeof t, DEV_H2D))
    std::abort();
  run(
      "rows", [](auto... a) { return (int)tgm_ftoi_rows_f32(a..., 0); }, d_in, d_out, M, N, N,
      true);
  run(
      "cols", [](auto... a) { return (int)tgm_ftoi_cols_f32(a..., 0); }, d_t, d_out, N, M, M,
      false);
  DEV(Free)(d_in);
  DEV(Free)(d_t);
  DEV(Free)(d_out);
  std::printf("%s: %d failures (%d rows, %d columns)\n", failures ? "FAILED" : "ok", failures, M,
              M);
  return failures ? 1 : 0;
}

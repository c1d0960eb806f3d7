// sim_ftoi.cpp -- a codelet's float-to-integer conversions give a GPU's
// answer on the CPU as well (tests/ops/ftoi.tgm: the unsigned min of f32
// elements). C++ leaves the conversion of a NaN, a negative or a value
// beyond UINT_MAX undefined and x86 gives 0x80000000-like values for them;
// tgm writes each conversion as tgm_ftoi (NaN 0, below 0 0, above UINT_MAX
// UINT_MAX, else toward zero), so the CPU check and the GPU agree. The row
// and column calls of the embedded headers, each on the simulator.
#include "sim_device.h"

#include "ftoi_cols_f32.h"
#include "ftoi_rows_f32.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

#ifdef TGM_HIP
#define DEV_MALLOC hipMalloc
#define DEV_FREE hipFree
#else
#define DEV_MALLOC cudaMalloc
#define DEV_FREE cudaFree
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
  if (bytes && DEV_MALLOC(&temp, bytes) != 0)
    std::abort();
  if (call(temp, &bytes, d_in, d_out, m, n, ld) != 0) {
    std::printf("FAIL: %s: the call\n", shape);
    failures++;
  }
  for (int r = 0; r < M; r++)
    if (d_out[r] != cases[r].want) {
      std::printf("FAIL: %s, %s {%s}: %u, want %u\n", shape, rows ? "row" : "column", cases[r].name,
                  d_out[r], cases[r].want);
      failures++;
    }
  if (temp)
    DEV_FREE(temp);
}

int main() {
  fake::gpus.push_back({"sim H100", 9, 0, 132, 1024, 2619000, 5120});
  fake::current = 0;
  float *d_in = nullptr, *d_t = nullptr;
  unsigned *d_out = nullptr;
  if (DEV_MALLOC(&d_in, M * N * 4) || DEV_MALLOC(&d_t, M * N * 4) || DEV_MALLOC(&d_out, M * 4))
    std::abort();
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      d_in[r * N + c] = cases[r].x[c]; // row r of the matrix
      d_t[c * M + r] = cases[r].x[c];  // column r of its transpose
    }
  run(
      "rows", [](auto... a) { return (int)tgm_ftoi_rows_f32(a..., 0); }, d_in, d_out, M, N, N,
      true);
  run(
      "cols", [](auto... a) { return (int)tgm_ftoi_cols_f32(a..., 0); }, d_t, d_out, N, M, M,
      false);
  DEV_FREE(d_in);
  DEV_FREE(d_t);
  DEV_FREE(d_out);
  std::printf("%s: %d failures (%d rows, %d columns)\n", failures ? "FAILED" : "ok", failures, M,
              M);
  return failures ? 1 : 0;
}

// int64.cpp -- the i64 calls take long long pointers; int64_t is long on
// LP64, and a program's int64_t buffers must work as CUB's do (probe15 05):
// the 1-D and the row call over int64_t, beside size queries with nullptr
// (which must still pick the calls themselves). On the simulator, against
// sums computed here; compiled by nvcc (-x cu) it runs on a GPU.
#ifdef TGM_SIM
#include "sim_device.h"
#endif

#include "int64_sum_i64.h"
#include "int64_sum_rows_i64.h"

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
#ifdef TGM_SIM
  fake::gpus.push_back({"sim H100", 9, 0, 132, 1024, 2619000, 5120});
  fake::current = 0;
#else
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
#endif
  const size_t m = 3, n = 1000;
  std::vector<int64_t> x(m * n);
  for (size_t i = 0; i < x.size(); i++)
    x[i] = (int64_t)i * 3000000000ll - 4000000000000ll; // past 32 bits either way
  int64_t *dx = nullptr, *out = nullptr;
  void *temp = nullptr;
  size_t b1 = 0, b2 = 0;
  if (tgm_sum_i64(nullptr, &b1, nullptr, nullptr, x.size()) != cudaSuccess ||
      tgm_sum_rows_i64(nullptr, &b2, nullptr, nullptr, m, n, n) != cudaSuccess ||
      cudaMalloc((void **)&dx, x.size() * 8) != cudaSuccess ||
      cudaMalloc((void **)&out, 8 * m) != cudaSuccess ||
      cudaMalloc(&temp, b1 > b2 ? b1 : b2) != cudaSuccess) {
    std::printf("FAILED: the size queries or the allocations\n");
    return 1;
  }
  cudaMemcpy(dx, x.data(), x.size() * 8, cudaMemcpyHostToDevice);
  int failures = 0;
  int64_t whole = 0, got = 0;
  for (int64_t v : x)
    whole += v;
  if (tgm_sum_i64(temp, &b1, dx, out, x.size()) != cudaSuccess ||
      cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost) != cudaSuccess || got != whole) {
    std::printf("FAILED: the 1-D call over int64_t: %lld, want %lld\n", (long long)got,
                (long long)whole);
    failures++;
  }
  int64_t rows[m];
  if (tgm_sum_rows_i64(temp, &b2, dx, out, m, n, n) != cudaSuccess ||
      cudaMemcpy(rows, out, sizeof rows, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("FAILED: the row call over int64_t\n");
    failures++;
  } else {
    for (size_t r = 0; r < m; r++) {
      int64_t want = 0;
      for (size_t c = 0; c < n; c++)
        want += x[r * n + c];
      if (rows[r] != want) {
        std::printf("FAILED: row %zu: %lld, want %lld\n", r, (long long)rows[r], (long long)want);
        failures++;
      }
    }
  }
  cudaFree(dx);
  cudaFree(out);
  cudaFree(temp);
  std::printf("%s: %d failures (int64_t, 1-D and rows)\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}

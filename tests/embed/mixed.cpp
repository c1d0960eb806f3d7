// mixed.cpp -- a codelet's max(a, b) compares in C++'s common type of its
// arguments, not in the accumulator's (tests/embed/mixed.tgm: an unsigned
// sum of max(in[i], 0) over int elements; probe9 #1). Its embedded 1-D call
// (DSL.VS.SV: vectors, the block's shuffles, the last block) and row call
// on the simulator, against the sums of std::max<int> computed here: with
// max compared as unsigned every negative element would be summed as
// 2^32 + x instead of 0. Compiled by nvcc (-x cu) it runs on a GPU.
#ifdef TGM_SIM
#include "sim_device.h"
#endif

#include "mixed_i32.h"
#include "mixed_rows_i32.h"

#include <algorithm>
#include <cstdio>
#include <vector>

static int failures;

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
  const size_t m = 7, n = 1001;
  std::vector<int> x(m * n);
  for (size_t i = 0; i < x.size(); i++)
    x[i] = (int)(i * 2654435761u % 2001) - 1000; // -1000..1000
  std::vector<unsigned> want(m + 1, 0);
  for (size_t r = 0; r < m; r++)
    for (size_t c = 0; c < n; c++) {
      want[r] += (unsigned)std::max(x[r * n + c], 0);
      want[m] += (unsigned)std::max(x[r * n + c], 0); // the whole matrix, 1-D
    }
  int *d_in = nullptr;
  unsigned *d_out = nullptr;
  if (cudaMalloc(&d_in, x.size() * sizeof(int)) || cudaMalloc(&d_out, (m + 1) * sizeof(unsigned)) ||
      cudaMemcpy(d_in, x.data(), x.size() * sizeof(int), cudaMemcpyHostToDevice))
    return 2;
  std::vector<unsigned> got(m + 1, 0);
  size_t bytes = 0;
  void *temp = nullptr;
  if (tgm_relu_sum_i32(nullptr, &bytes, d_in, d_out + m, m * n) ||
      (bytes && cudaMalloc(&temp, bytes)) ||
      tgm_relu_sum_i32(temp, &bytes, d_in, d_out + m, m * n)) {
    std::printf("FAIL: the 1-D call\n");
    failures++;
  }
  cudaFree(temp);
  temp = nullptr, bytes = 0;
  if (tgm_relu_sum_rows_i32(nullptr, &bytes, d_in, d_out, m, n, n) ||
      (bytes && cudaMalloc(&temp, bytes)) ||
      tgm_relu_sum_rows_i32(temp, &bytes, d_in, d_out, m, n, n)) {
    std::printf("FAIL: the row call\n");
    failures++;
  }
  cudaFree(temp);
  if (cudaMemcpy(got.data(), d_out, (m + 1) * sizeof(unsigned), cudaMemcpyDeviceToHost))
    return 2;
  for (size_t r = 0; r <= m; r++)
    if (got[r] != want[r]) {
      std::printf("FAIL: %s %zu: %u, want %u\n", r < m ? "row" : "1-D, all", r, got[r], want[r]);
      failures++;
    }
  cudaFree(d_in);
  cudaFree(d_out);
  std::printf("%s: %d failures (%zu rows and the whole)\n", failures ? "FAILED" : "ok", failures,
              m);
  return failures ? 1 : 0;
}

// The tuned sum, called like cub::DeviceReduce::Sum: query the temp size,
// allocate it, reduce. No tgm runtime is needed.
#include <cstdio>
#include <vector>

#include "tgm_sum_i32.cuh"

int main() {
  const size_t n = 10000019;
  std::vector<int32_t> h(n);
  long long want = 0;
  for (size_t i = 0; i < n; i++)
    want += h[i] = (int32_t)(i % 7) - 3;

  int32_t *d_in, *d_out;
  if (cudaMalloc(&d_in, n * sizeof(int32_t)) != cudaSuccess ||
      cudaMalloc(&d_out, sizeof(int32_t)) != cudaSuccess) {
    std::fprintf(stderr, "no GPU memory: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  cudaMemcpy(d_in, h.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice);

  size_t temp_bytes = 0;
  cudaError_t e = tgm_sum_i32(nullptr, &temp_bytes, d_in, d_out, n, 0); // how much temp?
  void *d_temp = nullptr;
  if (e == cudaSuccess)
    e = cudaMalloc(&d_temp, temp_bytes);
  if (e == cudaSuccess)
    e = tgm_sum_i32(d_temp, &temp_bytes, d_in, d_out, n, 0); // the reduction
  int32_t got = 0;
  if (e == cudaSuccess)
    e = cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "tgm_sum_i32: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::printf("sum of %zu ints: %d (expected %lld)\n", n, got, want);
  cudaFree(d_temp);
  cudaFree(d_in);
  cudaFree(d_out);
  return got == (int32_t)want ? 0 : 1;
}

// 8. Emitted host launcher code compiles and runs through TGM_LAUNCH (the
//    generated file only defines TGM_LAUNCH if it is not defined yet), and
//    cudaGetLastError()/hipGetLastError() report sim errors.
#include "check.h"

#include <string>
#include <vector>

// ---- what a generated file looks like -------------------------------------
#include <cuda_runtime.h>  // resolved to tests/sim/include/ (a stub)
#include <hip/hip_runtime.h>
#ifndef TGM_LAUNCH
#define TGM_LAUNCH(kernel, grid, block, stream, ...) \
  kernel<<<grid, block, 0, stream>>>(__VA_ARGS__)
#endif

__global__ void __launch_bounds__(256) tgm_sum_f32(const float* __restrict__ in, float* out,
                                                   int n) {
  __shared__ float warp_sums[8];
  float v = 0.0f;
  for (int i = int(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += int(gridDim.x * blockDim.x))
    v += in[i];
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

template <class T>
__global__ void scale(T* data, T factor, int n) {
  int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] *= factor;
}

__global__ void broken(float* out) {  // barrier divergence
  if (threadIdx.x < 32) __syncthreads();
  out[0] = 1.0f;
}

__global__ void no_args() { __shared__ int x; x = 1; (void)x; }

cudaError_t tgm_launch_sum_f32(const float* in, float* out, int n, cudaStream_t stream) {
  cudaError_t err = cudaMemsetAsync(out, 0, sizeof(float), stream);
  if (err != cudaSuccess) return err;
  const int block = 256, grid = (n + block - 1) / block < 64 ? (n + block - 1) / block : 64;
  TGM_LAUNCH(tgm_sum_f32, grid, block, stream, in, out, n);
  return cudaGetLastError();
}

hipError_t tgm_launch_sum_f32_hip(const float* in, float* out, int n, hipStream_t stream) {
  hipError_t err = hipMemsetAsync(out, 0, sizeof(float), stream);
  if (err != hipSuccess) return err;
  hipLaunchKernelGGL(tgm_sum_f32, dim3(8), dim3(256), 0, stream, in, out, n);
  return hipGetLastError();
}
// ---------------------------------------------------------------------------

// Device code's abs of every arithmetic type, as CUDA's headers give it (a
// generated file calls the unqualified abs of a codelet; probe9 #5).
__device__ float abs_of(float x) { return abs(x); }
__device__ long long abs_of(long long x) { return abs(x); }
__device__ double abs_of(double x) { return abs(x); }

int main() {
  CHECK(abs_of(-2.5f) == 2.5f);
  CHECK(abs_of(-5000000000LL) == 5000000000LL);
  CHECK(abs_of(-0.25) == 0.25);
  const int n = 100003;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 13);  // exact in float
  double expect = 0;
  for (float v : in) expect += v;
  float* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, sizeof(float)) == cudaSuccess);

  CHECK(tgm_launch_sum_f32(in.data(), d_out, n, nullptr) == cudaSuccess);
  CHECK(double(*d_out) == expect);
  CHECK(tgm_launch_sum_f32_hip(in.data(), d_out, n, nullptr) == hipSuccess);
  CHECK(double(*d_out) == expect);

  // template kernel, arguments deduced; arguments are evaluated once
  std::vector<double> data(1000, 2.0);
  int evaluated = 0;
  TGM_LAUNCH(scale, 4, 256, 0, (++evaluated, data.data()), 1.5, int(data.size()));
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(evaluated == 1 && data[0] == 3.0 && data[999] == 3.0);
  TGM_LAUNCH(scale<double>, 4, 256, 0, data.data(), 2.0, 1000);
  CHECK(data[500] == 6.0);
  TGM_LAUNCH(no_args, 1, 32, 0);
  CHECK(cudaGetLastError() == cudaSuccess);

  // a kernel error is reported by cudaGetLastError, then cleared
  TGM_LAUNCH(broken, 2, 64, 0, d_out);
  CHECK(cudaPeekAtLastError() == cudaErrorLaunchFailure);
  cudaError_t e = cudaGetLastError();
  CHECK(e == cudaErrorLaunchFailure);
  std::string text = cudaGetErrorString(e);
  std::printf("cudaGetErrorString: %s\n", text.c_str());
  CHECK(text.find("unspecified launch failure") != std::string::npos);
  CHECK(text.find("barrier divergence: 32 of 64 threads") != std::string::npos);
  CHECK(std::string(cudaGetErrorName(e)) == "cudaErrorLaunchFailure");
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(std::strstr(tgm_sim::last_error_text(), "barrier divergence") != nullptr);

  // the same through HIP names
  hipLaunchKernelGGL(broken, dim3(1), dim3(64), 0, 0, d_out);
  hipError_t he = hipGetLastError();
  CHECK(he == hipErrorLaunchFailure);
  CHECK(std::string(hipGetErrorName(he)) == "hipErrorLaunchFailure");
  CHECK(std::strstr(hipGetErrorString(he), "barrier divergence") != nullptr);
  CHECK(hipGetLastError() == hipSuccess);

  // invalid configuration
  TGM_LAUNCH(scale, 1, 2048, 0, data.data(), 1.0, 1);
  e = cudaGetLastError();
  CHECK(e == cudaErrorInvalidConfiguration);
  std::printf("cudaGetErrorString: %s\n", cudaGetErrorString(e));
  CHECK(tgm_sim::launch(dim3(0), 32, [] {}) == tgm_sim::status::invalid_configuration);

  // a successful launch clears last_error_text
  CHECK(tgm_launch_sum_f32(in.data(), d_out, n, nullptr) == cudaSuccess);
  CHECK(*tgm_sim::last_error_text() == '\0');
  CHECK(cudaFree(d_out) == cudaSuccess);
  return finish("host_launch");
}

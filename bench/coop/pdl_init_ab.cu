// pdl_init_ab.cu -- A/B: the node before a one-pass reduction (DTA's init
// of the output, DTL's and the columns' memset of the counters) against the
// same work in a small kernel that lets the reduction start at once
// (programmatic dependent launch: the small kernel triggers first thing, the
// reduction waits for it, cudaGridDependencySynchronize, only before its
// atomics). One kernel body for all (16-byte vectors, 4 loads in flight a
// thread, grid stride, a block's shuffle reduce), 1-D sum of f32, the three
// timings of tests/embed/gpu_timing.h (cold L2), CUB's DeviceReduce::Sum in
// the same process. Each kind is checked against a double sum first, and
// again from a graph replayed on other input.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 bench/coop/pdl_init_ab.cu -o pdl_init_ab
//   pdl_init_ab OUT.csv
//
// kinds:
//   atom          init<<<1, 1>>> (out = 0), then the kernel, atomicAdd a block (DTA)
//   atom_pdl      the same, the kernel launched early (PDL), its atomics after the init
//   last16        memset of 16 bytes (the counter), then the kernel; the last block folds (DTL)
//   last16k       the same with a memset of 16 KiB (the column call's counters)
//   clear_pdl     a kernel clears 16 KiB of counters, the kernel launched early (PDL)
//   last0         the kernel alone, its counter left zero by the call before (no contract)
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../../tests/embed/gpu_timing.h" // CK, the timings, the flush

enum { BLOCK = 256, COUNTERS = 4096 };

__device__ __forceinline__ float block_sum(float s) {
  __shared__ float warp[BLOCK / 32];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0)
    warp[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int w = 1; w < BLOCK / 32; w++)
      s += warp[w];
  return s;
}

__global__ void init_out(float *out) { *out = 0.f; }

__global__ void init_out_pdl(float *out) {
  cudaTriggerProgrammaticLaunchCompletion();
  *out = 0.f;
}

__global__ void clear_pdl(unsigned *counters) {
  cudaTriggerProgrammaticLaunchCompletion();
  for (unsigned i = threadIdx.x; i < COUNTERS; i += blockDim.x)
    counters[i] = 0;
}

// atomics into out (wait: whether the init was launched before it with PDL)
template <bool WAIT>
__global__ void __launch_bounds__(BLOCK) body_atom(const float *in, size_t n, float *out) {
  const size_t stride = (size_t)gridDim.x * BLOCK, first = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  float s = block_sum(plain_sum<4>(in, n, first, stride));
  if (WAIT)
    cudaGridDependencySynchronize();
  if (threadIdx.x == 0)
    atomicAdd(out, s);
}

// partials; the last block to finish folds them (counter: counters[0])
template <bool WAIT>
__global__ void __launch_bounds__(BLOCK) body_last(const float *in, size_t n, float *out, float *partials,
                                                   unsigned *counters) {
  const size_t stride = (size_t)gridDim.x * BLOCK, first = (size_t)blockIdx.x * BLOCK + threadIdx.x;
  float s = block_sum(plain_sum<4>(in, n, first, stride));
  __shared__ bool last;
  if (WAIT)
    cudaGridDependencySynchronize();
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s;
    __threadfence();
    last = atomicInc(counters, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  const volatile float *p = partials;
  float v = 0.f;
  for (unsigned i = threadIdx.x; i < gridDim.x; i += BLOCK)
    v += p[i];
  v = block_sum(v);
  if (threadIdx.x == 0)
    *out = v;
}

template <typename K, typename... Args>
static cudaError_t launch_pdl(K kernel, unsigned grid, cudaStream_t s, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = BLOCK;
  cfg.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pdl_init_ab OUT.csv\n");
    return 2;
  }
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  const unsigned sms = p.multiProcessorCount;
  const size_t len = ((size_t)1 << 24) * 21;
  std::vector<float> h(len);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x = (float)((double)(state >> 11) / 4503599627370496.0 - 1.0);
  }
  float *d, *out, *partials;
  unsigned *counters;
  CK(cudaMalloc(&d, len * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), len * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMalloc(&out, 64 * sizeof(float)));
  CK(cudaMalloc(&partials, 65536 * sizeof(float)));
  CK(cudaMalloc(&counters, COUNTERS * sizeof(unsigned)));
  CK(cudaMemset(counters, 0, COUNTERS * sizeof(unsigned)));
  Flush flush = flush_alloc();
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  void *cub_temp = nullptr;
  size_t cub_bytes = 0;
  CK(cub::DeviceReduce::Sum(cub_temp, cub_bytes, d, out, (int)len, s));
  CK(cudaMalloc(&cub_temp, cub_bytes));
  FILE *csv = std::fopen(argv[1], "w");
  if (!csv)
    return 2;
  std::fprintf(csv, "# %s, %u SMs; sum f32; us per call, cold L2\nn,kind,a_us,b_us,c_us\n", p.name, sms);
  long wrong = 0;
  const char *kinds[] = {"cub", "atom", "atom_pdl", "last16", "last16k", "clear_pdl", "last0"};
  for (int e = 12; e <= 24; e += 2) {
    const size_t n = (size_t)1 << e;
    const unsigned grid = (unsigned)std::min<size_t>((size_t)sms * 8, (n / 4 + BLOCK - 1) / BLOCK);
    for (int k = 0; k < 7; k++) {
      std::function<cudaError_t(const float *)> call = [&](const float *in) -> cudaError_t {
        switch (k) {
        case 0: return cub::DeviceReduce::Sum(cub_temp, cub_bytes, in, out, (int)n, s);
        case 1:
          init_out<<<1, 1, 0, s>>>(out);
          body_atom<false><<<grid, BLOCK, 0, s>>>(in, n, out);
          return cudaGetLastError();
        case 2:
          init_out_pdl<<<1, 1, 0, s>>>(out);
          return launch_pdl(body_atom<true>, grid, s, in, n, out);
        case 3:
        case 4:
          CK(cudaMemsetAsync(counters, 0, k == 3 ? 16 : COUNTERS * 4, s));
          body_last<false><<<grid, BLOCK, 0, s>>>(in, n, out, partials, counters);
          return cudaGetLastError();
        case 5:
          clear_pdl<<<1, BLOCK, 0, s>>>(counters);
          return launch_pdl(body_last<true>, grid, s, in, n, out, partials, counters);
        default: body_last<false><<<grid, BLOCK, 0, s>>>(in, n, out, partials, counters); return cudaGetLastError();
        }
      };
      // checked: plain, then from a graph replayed twice on other input
      for (int rep = 0; rep < 2; rep++) {
        const float *in = d + (size_t)rep * 4096 * 3;
        double want = 0, mag = 0;
        for (size_t i = 0; i < n; i++)
          want += in == d ? h[i] : h[i + 4096 * 3], mag += std::fabs(h[i]);
        if (rep == 0) {
          CK(call(in));
        } else {
          cudaGraph_t g;
          cudaGraphExec_t x;
          CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
          CK(call(in));
          CK(cudaStreamEndCapture(s, &g));
          CK(cudaGraphInstantiate(&x, g, 0));
          CK(cudaGraphLaunch(x, s));
          CK(cudaGraphLaunch(x, s));
          CK(cudaStreamSynchronize(s));
          CK(cudaGraphExecDestroy(x));
          CK(cudaGraphDestroy(g));
        }
        float got;
        CK(cudaMemcpyAsync(&got, out, sizeof got, cudaMemcpyDeviceToHost, s));
        CK(cudaStreamSynchronize(s));
        if (std::fabs(got - want) > 1e-5 * mag + 1e-3) {
          std::printf("WRONG %s 2^%d rep %d: %g want %g\n", kinds[k], e, rep, got, want);
          wrong++;
        }
      }
      double t[3];
      for (int how = 0; how < 3; how++)
        t[how] = time_us((Timing)how, [&](const float *in) { CK(call(in)); }, d, len, flush, n, s);
      std::fprintf(csv, "%zu,%s,%.3f,%.3f,%.3f\n", n, kinds[k], t[0], t[1], t[2]);
      std::fflush(csv);
    }
  }
  std::fclose(csv);
  std::printf("%ld wrong\n", wrong);
  return wrong ? 1 : 0;
}

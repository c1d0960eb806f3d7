// coop_ab.cu -- issue 11's question "a single pass with no memset and no
// init launch": what each way of finishing a one-kernel reduction costs, on
// the GPU at hand, for a 1-D sum of f32 at the even powers 2^10..2^30, in
// the three timings of tests/embed/gpu_timing.h ((a) stream, (b) one call
// after an L2 flush, (c) a CUDA graph; cold L2), side by side with CUB and
// tgm's embedded call (tests/embed/headers/sum_f32.h: the GPU tests'
// header, tuned in stream mode on the fixture) in the same process. Every
// kernel up to `one256` reads with the same body (16-byte vectors, 4 loads
// in flight a thread, grid stride) so that only the finish differs:
//   last    blocks write partials, the last block (a ticket: atomicInc on a
//           counter in temp storage) folds them; the counter must be zero
//           before the call, so CUB's contract (temp holds anything) costs a
//           cudaMemsetAsync before every launch -- what tgm's single-pass
//           variants do now
//   last0   the same kernel without the memset: the counters zero because
//           every call leaves them so (tgm_reduce's context); not CUB's
//           contract, the floor of the ticket
//   coop    a cooperative launch (cudaLaunchAttributeCooperative): blocks
//           write partials, cg::this_grid().sync(), block 0 folds them; the
//           grid is at most what is co-resident; no memset, no counter
//   cluster one thread-block cluster (sm_90: 8 or 16 blocks) reads all of
//           the input; each block's sum in its shared memory, the cluster's
//           barrier, block 0 reads the others' through distributed shared
//           memory; no memset, no global partials
//   two     CUB's way: a kernel writes a partial a block, a second (one
//           block) folds them; no memset, two launches
//   pdl     the same, the second launched early (programmatic dependent
//           launch, sm_90) and waiting in cudaGridDependencySynchronize
//   one     a single block of 1024 (no finish at all); one256: of 256
// and from 2^22, each finished by the one-block fold of `two`:
//   vec8    8 loads in flight a thread, one wave of blocks of 256 (vec8h:
//           half a wave)
//   bulkSxB bulk asynchronous copies (TMA, cp.async.bulk): S shared buffers
//           of B bytes a block, the grid what is co-resident
// Each result is checked against a double sum (bound: (n + 1) eps sum |x|)
// before it is timed, and again from a CUDA graph of the call replayed
// twice on another part of the input.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/coop/coop_ab.cu -o coop_ab
//   coop_ab OUT.csv
#include <cooperative_groups.h>
#include <cub/device/device_reduce.cuh>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "sum_f32.h"

#include "../../tests/embed/gpu_timing.h"

namespace cg = cooperative_groups;

// The block's sum in thread 0.
template <unsigned BLOCK> __device__ __forceinline__ float block_sum(float s) {
  __shared__ float warp[32];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (BLOCK > 32) {
    if (threadIdx.x % 32 == 0)
      warp[threadIdx.x / 32] = s;
    __syncthreads();
    s = threadIdx.x < BLOCK / 32 ? warp[threadIdx.x] : 0.f;
    if (threadIdx.x < 32)
      for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
  }
  return s;
}

// The block's share of a grid-stride plain read of in[0, n) (its threads'
// plain_sum, IN_FLIGHT loads in flight each), summed in thread 0. k_one's
// single block is the whole grid.
template <unsigned BLOCK, unsigned IN_FLIGHT = 4>
__device__ __forceinline__ float grid_share(const float *in, size_t n) {
  return block_sum<BLOCK>(
      plain_sum<IN_FLIGHT>(in, n, (size_t)blockIdx.x * BLOCK + threadIdx.x, (size_t)gridDim.x * BLOCK));
}

// Partials 0 .. count - 1 folded by the block (volatile: written in this kernel).
template <unsigned BLOCK> __device__ __forceinline__ float fold_partials(const float *partials, unsigned count) {
  const volatile float *p = partials;
  float s = 0.f;
  for (unsigned i = threadIdx.x; i < count; i += BLOCK)
    s += p[i];
  return block_sum<BLOCK>(s);
}

template <unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) k_last(const float *in, size_t n, float *partials, unsigned *counter,
                                                float *out) {
  __shared__ bool last;
  float s = grid_share<BLOCK>(in, n);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s;
    __threadfence();
    last = atomicInc(counter, gridDim.x - 1) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  s = fold_partials<BLOCK>(partials, gridDim.x);
  if (threadIdx.x == 0)
    out[0] = s;
}

template <unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) k_coop(const float *in, size_t n, float *partials, float *out) {
  float s = grid_share<BLOCK>(in, n);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = s;
  cg::this_grid().sync();
  if (blockIdx.x != 0)
    return;
  s = fold_partials<BLOCK>(partials, gridDim.x);
  if (threadIdx.x == 0)
    out[0] = s;
}

template <unsigned BLOCK> __global__ void __launch_bounds__(BLOCK) k_cluster(const float *in, size_t n, float *out) {
  __shared__ float mine;
  cg::cluster_group cluster = cg::this_cluster();
  float s = grid_share<BLOCK>(in, n);
  if (threadIdx.x == 0)
    mine = s;
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x < 32) {
    const unsigned blocks = cluster.num_blocks();
    float t = threadIdx.x < blocks ? *cluster.map_shared_rank(&mine, threadIdx.x) : 0.f;
    for (int o = 16; o > 0; o /= 2)
      t += __shfl_down_sync(0xffffffffu, t, o);
    if (threadIdx.x == 0)
      out[0] = t;
  }
  cluster.sync(); // the others' shared memory lives until block 0 has read it
}

// Two kernels, CUB's way: k_parts writes a partial a block, k_fold (one
// block) folds them. With programmatic dependent launch (sm_90: the second
// launch's attribute cudaLaunchAttributeProgrammaticStreamSerialization)
// k_fold is launched while k_parts runs and waits in
// cudaGridDependencySynchronize; k_parts lets it go when its partial is
// written (cudaTriggerProgrammaticLaunchCompletion).
template <unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK) k_fold(const float *partials, unsigned count, float *out) {
  cudaGridDependencySynchronize();
  float s = 0.f;
  for (unsigned i = threadIdx.x; i < count; i += BLOCK)
    s += partials[i];
  s = block_sum<BLOCK>(s);
  if (threadIdx.x == 0)
    out[0] = s;
}

// The body with IN_FLIGHT loads in flight a thread, a partial a block (the
// first pass of `two`).
template <unsigned BLOCK, unsigned IN_FLIGHT>
__global__ void __launch_bounds__(BLOCK) k_parts(const float *in, size_t n, float *partials) {
  float s = grid_share<BLOCK, IN_FLIGHT>(in, n);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = s;
  __syncthreads();
  cudaTriggerProgrammaticLaunchCompletion();
}

// The body by bulk asynchronous copies (sm_90 TMA, cp.async.bulk): a
// block's chunks of CB bytes (chunk blockIdx.x, + gridDim.x, ...) land in S
// shared buffers, each with its barrier; thread 0 issues chunk j + S as
// soon as the block has read buffer j % S; the threads sum from shared
// memory. The bytes past the last whole chunk: plain loads.
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
template <unsigned BLOCK, unsigned S, unsigned CB>
__global__ void __launch_bounds__(BLOCK) k_bulk(const float *in, size_t n, float *partials) {
  namespace cde = cuda::device::experimental;
  constexpr unsigned CV = CB / 16; // float4 a chunk
  __shared__ alignas(128) float4 buf[S][CV];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar[S];
  const size_t chunks = n * sizeof(float) / CB;
  const size_t mine = chunks > blockIdx.x ? (chunks - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  if (threadIdx.x == 0) {
    for (unsigned k = 0; k < S; k++)
      init(&bar[k], BLOCK);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  block_barrier::arrival_token tok[S];
  auto issue = [&](size_t j, unsigned k) {
    if (threadIdx.x == 0) {
      cde::fence_proxy_async_shared_cta(); // the block's reads of buf[k] before the copy's writes
      cde::cp_async_bulk_global_to_shared(buf[k], in + (blockIdx.x + j * gridDim.x) * (CB / sizeof(float)), CB,
                                          bar[k]);
      tok[k] = cuda::device::barrier_arrive_tx(bar[k], 1, CB);
    } else {
      tok[k] = bar[k].arrive();
    }
  };
#pragma unroll
  for (unsigned k = 0; k < S; k++)
    if (k < mine)
      issue(k, k);
  float s = 0.f;
  for (size_t j = 0; j < mine; j++) {
    const unsigned k = (unsigned)(j % S);
    bar[k].wait(std::move(tok[k]));
#pragma unroll 4
    for (unsigned i = threadIdx.x; i < CV; i += BLOCK) {
      const float4 x = buf[k][i];
      s += (x.x + x.y) + (x.z + x.w);
    }
    __syncthreads();
    if (j + S < mine)
      issue(j + S, k);
  }
  for (size_t i = chunks * (CB / sizeof(float)) + (size_t)blockIdx.x * BLOCK + threadIdx.x; i < n;
       i += (size_t)gridDim.x * BLOCK)
    s += in[i];
  s = block_sum<BLOCK>(s);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = s;
}

template <unsigned BLOCK> __global__ void __launch_bounds__(BLOCK) k_one(const float *in, size_t n, float *out) {
  float s = grid_share<BLOCK>(in, n);
  if (threadIdx.x == 0)
    out[0] = s;
}

struct Ctx {
  const std::vector<float> *h;
  const float *d;
  size_t d_len;
  Flush flush;
  cudaStream_t s;
  char *temp; // 16 KiB of counters, then partials
  float *out;
  int sms;
  FILE *csv;
};
static long failures;

static void one(Ctx &c, size_t n, const char *name, unsigned grid, double want, double bound,
                const std::function<cudaError_t(const float *)> &launch) {
  CK(cudaMemsetAsync(c.out, 0xff, sizeof(float), c.s));
  cudaError_t e = launch(c.d);
  if (e != cudaSuccess) {
    std::printf("%s at 2^%d: %s (skipped)\n", name, (int)std::log2((double)n), cudaGetErrorString(e));
    cudaGetLastError();
    return;
  }
  CK(cudaStreamSynchronize(c.s));
  float got;
  CK(cudaMemcpy(&got, c.out, sizeof got, cudaMemcpyDeviceToHost));
  if (!(std::fabs(got - want) <= bound)) {
    failures++;
    std::printf("WRONG %s n %zu: %.9g, want %.9g\n", name, n, got, want);
    return;
  }
  { // the same call captured in a graph and replayed twice, on another part of the input
    const size_t off = ((n + 63) / 64 * 64) * 3 + n <= c.d_len ? ((n + 63) / 64 * 64) * 3 : 0;
    double want2 = 0, bound2 = 0;
    for (size_t i = 0; i < n; i++)
      want2 += (*c.h)[off + i], bound2 += std::fabs((*c.h)[off + i]);
    bound2 = (n + 1) * 1.2e-7 * bound2 + 1e-30;
    cudaGraph_t g;
    cudaGraphExec_t ex;
    CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
    cudaError_t le = launch(c.d + off);
    cudaError_t ce = cudaStreamEndCapture(c.s, &g);
    if (le != cudaSuccess || ce != cudaSuccess) {
      std::printf("%s n %zu: not captured (%s / %s)\n", name, n, cudaGetErrorString(le), cudaGetErrorString(ce));
      cudaGetLastError();
      return;
    }
    CK(cudaGraphInstantiate(&ex, g, 0));
    for (int r = 0; r < 2; r++) {
      CK(cudaMemsetAsync(c.out, 0xff, sizeof(float), c.s));
      CK(cudaGraphLaunch(ex, c.s));
      CK(cudaStreamSynchronize(c.s));
      CK(cudaMemcpy(&got, c.out, sizeof got, cudaMemcpyDeviceToHost));
      if (!(std::fabs(got - want2) <= bound2)) {
        failures++;
        std::printf("WRONG %s n %zu in a graph, replay %d: %.9g, want %.9g\n", name, n, r, got, want2);
        return;
      }
    }
    CK(cudaGraphExecDestroy(ex));
    CK(cudaGraphDestroy(g));
  }
  double t[3];
  for (int k = 0; k < 3; k++)
    t[k] = time_us<float>((Timing)k, launch, c.d, c.d_len, c.flush, n, c.s);
  std::fprintf(c.csv, "%zu,%s,%u,%.3f,%.3f,%.3f\n", n, name, grid, t[0], t[1], t[2]);
  std::fflush(c.csv);
}

template <unsigned BLOCK> static unsigned resident(const void *kernel, int sms) {
  int per = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, BLOCK, 0));
  return (unsigned)(per * sms);
}

static cudaError_t launch_coop(unsigned grid, const float *in, size_t n, float *partials, float *out,
                               cudaStream_t s) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeCooperative;
  at[0].val.cooperative = 1;
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, k_coop<256>, in, n, partials, out);
}

static cudaError_t launch_two(unsigned grid, bool pdl, const float *in, size_t n, float *partials, float *out,
                              cudaStream_t s) {
  k_parts<256, 4><<<grid, 256, 0, s>>>(in, n, partials);
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cfg.attrs = at;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, k_fold<256>, (const float *)partials, grid, out);
}

template <unsigned BLOCK>
static cudaError_t launch_cluster(unsigned blocks, const float *in, size_t n, float *out, cudaStream_t s) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = blocks;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(BLOCK);
  cfg.stream = s;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, k_cluster<BLOCK>, in, n, out);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: coop_ab OUT.csv\n");
    return 2;
  }
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  Ctx c{};
  c.sms = p.multiProcessorCount;
  c.csv = std::fopen(argv[1], "w");
  if (!c.csv)
    return 2;
  std::fprintf(c.csv, "# %s, %d SMs; sum f32; us per call, cold L2: (a) stream, (b) one call, (c) graph\n", p.name,
               c.sms);
  std::fprintf(c.csv, "n,kind,grid,a_us,b_us,c_us\n");
  const size_t len = ((size_t)1 << 30) + 4096;
  std::vector<float> h(len);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x = (float)((double)(state >> 11) / 4503599627370496.0 - 1.0);
  }
  float *d;
  CK(cudaMalloc(&d, len * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), len * sizeof(float), cudaMemcpyHostToDevice));
  c.d = d;
  c.h = &h;
  c.d_len = len;
  c.flush = flush_alloc();
  CK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
  const size_t temp_bytes = (size_t)1 << 20;
  CK(cudaMalloc(&c.temp, temp_bytes));
  CK(cudaMemset(c.temp, 0, temp_bytes));
  CK(cudaMalloc(&c.out, 64));
  unsigned *counter = reinterpret_cast<unsigned *>(c.temp);
  float *partials = reinterpret_cast<float *>(c.temp + 16384);
  const unsigned wave = resident<256>((const void *)k_coop<256>, c.sms);
  const unsigned wave_last = resident<256>((const void *)k_last<256>, c.sms);
  CK(cudaFuncSetAttribute(k_cluster<1024>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::printf("%s: %d SMs, co-resident blocks of 256: %u (coop), %u (last)\n", p.name, c.sms, wave, wave_last);
  void *cub_temp = nullptr;
  size_t cub_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, cub_bytes, d, c.out, (int64_t)len, c.s));
  CK(cudaMalloc(&cub_temp, cub_bytes));
  size_t tgm_bytes = 0;
  CK(tgm_sum_f32(nullptr, &tgm_bytes, d, c.out, len, c.s));
  void *tgm_temp;
  CK(cudaMalloc(&tgm_temp, tgm_bytes));
  for (int e = 10; e <= 30; e += 2) {
    const size_t n = (size_t)1 << e;
    double want = 0, mag = 0;
    for (size_t i = 0; i < n; i++)
      want += h[i], mag += std::fabs(h[i]);
    const double bound = (n + 1) * 1.2e-7 * mag + 1e-30;
    const size_t nv = n / 4;
    // one wave at most; at least a block's 4 vectors a thread in flight
    const unsigned grid = (unsigned)std::max<size_t>(1, std::min<size_t>(wave, (nv + 1023) / 1024));
    one(c, n, "cub", 0, want, bound, [&](const float *in) {
      size_t b = cub_bytes;
      return cub::DeviceReduce::Sum(cub_temp, b, in, c.out, (int64_t)n, c.s);
    });
    one(c, n, "tgm", 0, want, bound, [&](const float *in) {
      size_t b = tgm_bytes;
      return tgm_sum_f32(tgm_temp, &b, in, c.out, n, c.s);
    });
    for (unsigned g : {grid, std::min(wave, 2 * grid)}) {
      one(c, n, "last", g, want, bound, [&](const float *in) {
        cudaError_t r = cudaMemsetAsync(counter, 0, 16, c.s);
        if (r != cudaSuccess)
          return r;
        k_last<256><<<g, 256, 0, c.s>>>(in, n, partials, counter, c.out);
        return cudaGetLastError();
      });
      one(c, n, "last0", g, want, bound, [&](const float *in) {
        k_last<256><<<g, 256, 0, c.s>>>(in, n, partials, counter, c.out);
        return cudaGetLastError();
      });
      one(c, n, "coop", g, want, bound,
          [&](const float *in) { return launch_coop(g, in, n, partials, c.out, c.s); });
      one(c, n, "two", g, want, bound,
          [&](const float *in) { return launch_two(g, false, in, n, partials, c.out, c.s); });
      one(c, n, "pdl", g, want, bound,
          [&](const float *in) { return launch_two(g, true, in, n, partials, c.out, c.s); });
      if (g == std::min(wave, 2 * grid))
        break;
    }
    if (e >= 22) { // the large sizes' bodies, each finished by k_fold (no memset)
      auto fold = [&](unsigned g) {
        k_fold<256><<<1, 256, 0, c.s>>>(partials, g, c.out);
        return cudaGetLastError();
      };
      one(c, n, "vec8", wave, want, bound, [&](const float *in) {
        k_parts<256, 8><<<wave, 256, 0, c.s>>>(in, n, partials);
        return fold(wave);
      });
      one(c, n, "vec8h", wave / 2, want, bound, [&](const float *in) {
        k_parts<256, 8><<<wave / 2, 256, 0, c.s>>>(in, n, partials);
        return fold(wave / 2);
      });
#define BULK(B, S, CB)                                                                                 \
  {                                                                                                    \
    const unsigned g = resident<B>((const void *)k_bulk<B, S, CB>, c.sms);                             \
    one(c, n, "bulk" #S "x" #CB, g, want, bound, [&](const float *in) {                                \
      k_bulk<B, S, CB><<<g, B, 0, c.s>>>(in, n, partials);                                             \
      return fold(g);                                                                                  \
    });                                                                                                \
  }
      BULK(256, 4, 8192)
      BULK(256, 5, 8192)
      BULK(256, 2, 16384)
      BULK(128, 4, 4096)
#undef BULK
    }
    if (e <= 20) {
      one(c, n, "cluster8", 8, want, bound,
          [&](const float *in) { return launch_cluster<1024>(8, in, n, c.out, c.s); });
      one(c, n, "cluster16", 16, want, bound,
          [&](const float *in) { return launch_cluster<1024>(16, in, n, c.out, c.s); });
      one(c, n, "one", 1, want, bound, [&](const float *in) {
        k_one<1024><<<1, 1024, 0, c.s>>>(in, n, c.out);
        return cudaGetLastError();
      });
      one(c, n, "one256", 1, want, bound, [&](const float *in) {
        k_one<256><<<1, 256, 0, c.s>>>(in, n, c.out);
        return cudaGetLastError();
      });
    }
  }
  std::fclose(c.csv);
  std::printf("%ld wrong\n", failures);
  return failures ? 1 : 0;
}

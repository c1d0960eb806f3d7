// l2hint_ab.cu -- A/B: what the load instruction's cache qualifiers do to a
// large read (issue 11's goal 3: 97 % of HBM peak at 2^30). One reduction
// body per layout, 16-byte loads, a block's shuffle reduce, atomicAdd of a
// block's sum into out (zeroed before the check, not while timing); only the load differs:
//
//   plain    the compiler's load of a const __restrict__ float4 (LDG.E.128.CONSTANT)
//   na       ld.global.nc.L1::no_allocate
//   p128     ld.global.nc.L2::128B          (the L2 fetches the 128-byte line pair)
//   p256     ld.global.nc.L2::256B
//   nap256   ld.global.nc.L1::no_allocate.L2::256B
//   ef256    nap256 with an L2 evict-first policy (createpolicy; the .L2::evict_first
//            qualifier itself wants 32-byte loads)
//   cs       ld.global.cs.nc (streaming)
//   bulkpf   plain loads, and thread 0 prefetches the block's chunk two
//            iterations ahead into L2 (cp.async.bulk.prefetch.L2, sm_90; the
//            grid-stride layout only)
//
// layouts:
//   t512x2   a block a tile of 512 threads x 2 vectors, no grid stride (the
//            tiled DTA.V.SV, tgm's large-n winner on the H100)
//   t256x4   a block a tile of 256 x 4 vectors
//   s256x4   8 blocks of 256 an SM (one wave), grid stride, 4 loads in flight
//            a thread (gpu_timing.h's bytes_floor); with plain loads also
//            s256x8 / s256x2 (8 / 2 loads in flight), s256x4w2 / w.5 (16 / 4
//            blocks an SM: two waves, half a wave), s1024x4 (2 blocks of 1024
//            an SM), s128x4 (16 blocks of 128), and tiles of 512 x 4, 512 x 8,
//            256 x 16 and 1024 x 4 vectors
//
// CUB's DeviceReduce::Sum in the same process (and, built with -DL2HINT_TGM
// -I DIR, the embedded call of DIR/sum_f32.h, "tgm"). Timing (b) of
// tests/embed/gpu_timing.h: one call after an L2 flush, median of 15; the
// whole list timed ROUNDS times in turn (noise). Each kind is checked against
// a double sum first.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 bench/coop/l2hint_ab.cu -o l2hint_ab
//   l2hint_ab OUT.csv [rounds]
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../../tests/embed/gpu_timing.h" // CK, the timings, the flush
#ifdef L2HINT_TGM // -DL2HINT_TGM -I DIR: also the embedded call of DIR/sum_f32.h ("tgm")
#include "sum_f32.h"
#endif

enum Hint { PLAIN, NA, P128, P256, NAP256, EF256, CS, BULKPF, HINTS };
static const char *const hint_names[] = {"plain", "na", "p128", "p256", "nap256", "ef256", "cs", "bulkpf"};

template <int H>
__device__ __forceinline__ float4 load(const float4 *__restrict__ p) {
  float4 v;
  if constexpr (H == PLAIN || H == BULKPF) {
    v = *p;
  } else if constexpr (H == NA) {
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else if constexpr (H == P128) {
    asm volatile("ld.global.nc.L2::128B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else if constexpr (H == P256) {
    asm volatile("ld.global.nc.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else if constexpr (H == NAP256) {
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else if constexpr (H == EF256) {
    unsigned long long policy;
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p), "l"(policy));
  } else {
    asm volatile("ld.global.cs.nc.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  }
  return v;
}

__device__ __forceinline__ float add4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

template <unsigned BLOCK>
__device__ __forceinline__ void block_add(float s, float *out) {
  __shared__ float warp[BLOCK / 32];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0)
    warp[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < BLOCK / 32; w++)
      s += warp[w];
    atomicAdd(out, s);
  }
}

// a block a tile of BLOCK x ITEMS vectors (n a multiple of 4 here)
template <unsigned BLOCK, unsigned ITEMS, int H>
__global__ void __launch_bounds__(BLOCK) tile(const float *__restrict__ in, size_t n, float *out) {
  const float4 *vin = reinterpret_cast<const float4 *>(in);
  const size_t nv = n / 4, lo = (size_t)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  float4 v[ITEMS];
  float s = 0.f;
  if (lo + (ITEMS - 1) * BLOCK < nv) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      v[j] = load<H>(vin + lo + j * BLOCK);
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      s += add4(v[j]);
  } else {
    for (unsigned j = 0; j < ITEMS; j++)
      if (lo + j * BLOCK < nv)
        s += add4(load<H>(vin + lo + j * BLOCK));
  }
  block_add<BLOCK>(s, out);
}

// grid stride, ITEMS loads in flight a thread
template <unsigned BLOCK, unsigned ITEMS, int H>
__global__ void __launch_bounds__(BLOCK) stride(const float *__restrict__ in, size_t n, float *out) {
  const float4 *vin = reinterpret_cast<const float4 *>(in);
  const size_t nv = n / 4, chunk = (size_t)BLOCK * ITEMS, step = (size_t)gridDim.x * chunk;
  float s = 0.f;
  size_t base = (size_t)blockIdx.x * chunk;
  for (; base + chunk <= nv; base += step) {
    if constexpr (H == BULKPF) {
      const size_t ahead = base + 2 * step;
      if (threadIdx.x == 0 && ahead + chunk <= nv)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(vin + ahead), "r"((unsigned)(chunk * 16))
                     : "memory");
    }
    float4 v[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      v[j] = load<H>(vin + base + threadIdx.x + j * BLOCK);
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      s += add4(v[j]);
  }
  for (size_t i = base + threadIdx.x; i < nv; i += BLOCK)
    s += add4(load<H>(vin + i));
  block_add<BLOCK>(s, out);
}

struct Kind {
  std::string name;
  std::function<void(const float *, size_t, float *, cudaStream_t)> run;
};

template <int H>
static void add_kinds(std::vector<Kind> &kinds, int sms) {
  const std::string h = hint_names[H];
  if (H != BULKPF) {
    kinds.push_back({"t512x2." + h, [](const float *in, size_t n, float *out, cudaStream_t s) {
                       unsigned grid = (unsigned)((n / 4 + 1023) / 1024);
                       tile<512, 2, H><<<grid, 512, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"t256x4." + h, [](const float *in, size_t n, float *out, cudaStream_t s) {
                       unsigned grid = (unsigned)((n / 4 + 1023) / 1024);
                       tile<256, 4, H><<<grid, 256, 0, s>>>(in, n, out);
                     }});
  }
  kinds.push_back({"s256x4." + h, [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                     stride<256, 4, H><<<sms * 8, 256, 0, s>>>(in, n, out);
                   }});
  if (H == PLAIN) { // more or fewer bytes in flight, plain loads: the loads a thread, the blocks
    kinds.push_back({"s256x8.plain", [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                       stride<256, 8, H><<<sms * 8, 256, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"s256x2.plain", [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                       stride<256, 2, H><<<sms * 8, 256, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"s256x4w2.plain", [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                       stride<256, 4, H><<<sms * 16, 256, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"s256x4w.5.plain", [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                       stride<256, 4, H><<<sms * 4, 256, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"s1024x4.plain", [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                       stride<1024, 4, H><<<sms * 2, 1024, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"s128x4.plain", [sms](const float *in, size_t n, float *out, cudaStream_t s) {
                       stride<128, 4, H><<<sms * 16, 128, 0, s>>>(in, n, out);
                     }});
    // larger tiles (DTA.VA2S.SV b512 i8 is the H200 tune's max f32 pick from 2^28)
    kinds.push_back({"t512x4.plain", [](const float *in, size_t n, float *out, cudaStream_t s) {
                       tile<512, 4, H><<<(unsigned)((n / 4 + 2047) / 2048), 512, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"t512x8.plain", [](const float *in, size_t n, float *out, cudaStream_t s) {
                       tile<512, 8, H><<<(unsigned)((n / 4 + 4095) / 4096), 512, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"t256x16.plain", [](const float *in, size_t n, float *out, cudaStream_t s) {
                       tile<256, 16, H><<<(unsigned)((n / 4 + 4095) / 4096), 256, 0, s>>>(in, n, out);
                     }});
    kinds.push_back({"t1024x4.plain", [](const float *in, size_t n, float *out, cudaStream_t s) {
                       tile<1024, 4, H><<<(unsigned)((n / 4 + 4095) / 4096), 1024, 0, s>>>(in, n, out);
                     }});
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT.csv [rounds]\n", argv[0]);
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  cudaDeviceProp prop;
  if (!gpu_props(&prop))
    return 77;
  const int sms = prop.multiProcessorCount;
  std::printf("device: %s, %d SMs\n", prop.name, sms);
  std::vector<Kind> kinds;
  add_kinds<PLAIN>(kinds, sms);
  add_kinds<NA>(kinds, sms);
  add_kinds<P128>(kinds, sms);
  add_kinds<P256>(kinds, sms);
  add_kinds<NAP256>(kinds, sms);
  add_kinds<EF256>(kinds, sms);
  add_kinds<CS>(kinds, sms);
  add_kinds<BULKPF>(kinds, sms);

  const size_t nmax = (size_t)1 << 30;
  float *d_in, *d_out;
  CK(cudaMalloc(&d_in, nmax * sizeof(float)));
  CK(cudaMalloc(&d_out, sizeof(float)));
  {
    std::vector<float> h(nmax);
    for (size_t i = 0; i < nmax; i++)
      h[i] = (float)(i % 7) * 0.25f;
    CK(cudaMemcpy(d_in, h.data(), nmax * sizeof(float), cudaMemcpyHostToDevice));
  }
  Flush flush = flush_alloc();
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  void *d_temp = nullptr;
  size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, (int64_t)nmax, st));
  CK(cudaMalloc(&d_temp, temp_bytes));
  kinds.push_back({"cub", [&](const float *in, size_t n, float *out, cudaStream_t s) {
                     size_t b = temp_bytes;
                     CK(cub::DeviceReduce::Sum(d_temp, b, in, out, (int64_t)n, s));
                   }});

#ifdef L2HINT_TGM
  size_t tgm_bytes = 0;
  CK(tgm_sum_f32(nullptr, &tgm_bytes, d_in, d_out, nmax, st));
  void *tgm_temp = nullptr;
  CK(cudaMalloc(&tgm_temp, tgm_bytes ? tgm_bytes : 16));
  kinds.push_back({"tgm", [&](const float *in, size_t n, float *out, cudaStream_t s) {
                     size_t b = tgm_bytes;
                     CK(tgm_sum_f32(tgm_temp, &b, in, out, n, s));
                   }});
#endif
  FILE *csv = std::fopen(argv[1], "w");
  if (!csv) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(csv, "round,kind,n,us,tbps\n");
  const size_t sizes[] = {(size_t)1 << 24, (size_t)1 << 26, (size_t)1 << 28, (size_t)1 << 30};
  int wrong = 0;
  for (size_t n : sizes) {
    // n * 0.25 * (0 + 1 + ... + 6) / 7, the partial last cycle aside
    double want = 0;
    for (size_t r = 0; r < n % 7; r++)
      want += r * 0.25;
    want += (double)(n / 7) * 0.25 * 21;
    for (auto &k : kinds) {
      CK(cudaMemsetAsync(d_out, 0, sizeof(float), st));
      k.run(d_in, n, d_out, st);
      float got;
      CK(cudaMemcpyAsync(&got, d_out, sizeof got, cudaMemcpyDeviceToHost, st));
      CK(cudaStreamSynchronize(st));
      if (std::fabs(got - want) > 1e-3 * want) {
        std::printf("WRONG %s n=%zu: %.6g, want %.6g\n", k.name.c_str(), n, got, want);
        wrong++;
      }
    }
  }
  for (int r = 0; r < rounds; r++)
    for (size_t n : sizes)
      for (auto &k : kinds) {
        // no zeroing of out while timing (checked above): the kernel alone
        auto call = [&](const float *in) { k.run(in, n, d_out, st); };
        double us = time_us(ONE, call, d_in, n, flush, n, st);
        double tbps = n * 4.0 / us * 1e-6;
        std::fprintf(csv, "%d,%s,%zu,%.3f,%.4f\n", r, k.name.c_str(), n, us, tbps);
        std::printf("%d %-14s 2^%d %10.3f us %.3f TB/s\n", r, k.name.c_str(), (int)std::log2((double)n), us,
                    tbps);
      }
  std::fclose(csv);
  std::printf("%d wrong\n", wrong);
  return wrong ? 1 : 0;
}

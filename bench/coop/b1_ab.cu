// b1_ab.cu -- issue 11's smallest sizes: why CUB's single-tile kernel is
// faster than tgm's one-block variants (B1) at 2^12, and what closes it.
// The generated kernels (generated/sum_{f32,i32}.cu, included as they are)
// against variants of their thread and block levels, for a 1-D sum at
// 2^10..2^13, in the three timings of tests/embed/gpu_timing.h ((a) stream,
// (b) one call, (c) graph; cold L2), CUB in the same process:
//   gen      the generated B1.<block>.SV kernel (V: shared-memory tree, VS:
//            shuffles, VR: redux.sync for i32, VW: shuffles and thread 0's
//            fold, VA1: shared atomics) at block x items
//   acc      striped loads, ITEMS in flight, each into its own accumulator;
//            only a thread's last, partial chunk tests its loads
//   blk      blocked loads: a thread's ITEMS consecutive vectors (CUB's
//            full tile)
//   .t0      the block level's warp step, then thread 0 folds the warps'
//            values in order (CUB's BLOCK_REDUCE_WARP_REDUCTIONS)
//   .cub     cub::BlockReduce as the block level
// Each result is checked against a double sum first (f32: bound (n + 1) eps
// sum |x|; i32 exact).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 bench/coop/b1_ab.cu -o b1_ab
//   b1_ab OUT.csv
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../../tests/embed/gpu_timing.h"

#include "../../generated/sum_f32.cu"
#include "../../generated/sum_i32.cu"

// The variants, in the generated file's namespace (its T, A, V and helpers).
// LOAD 0: striped (thread t: vectors t, t + BLOCK, ...; ITEMS in flight, each
// into its own accumulator; only a partial chunk tests its loads); 1: blocked
// (thread t: ITEMS consecutive vectors of a chunk, as CUB's full tile).
// LOAD 5: the generated thread level itself (tgm_values_DS_SV, items at run
// time). BR 3: the generated VW block level (FOLDFN).
// BR 0: the generated block level (BLOCKFN); 1: its warp step, then thread 0
// folds the warps' values from shared memory in order (CUB's
// BLOCK_REDUCE_WARP_REDUCTIONS); 2: cub::BlockReduce itself.
#define B1_VARIANTS(BLOCKFN, WARPFN, FOLDFN)                                                                   \
  template <unsigned BLOCK, unsigned ITEMS, int LOAD>                                                  \
  __device__ __forceinline__ A alt_vectors(const V *__restrict__ vin, tgm_size nv, unsigned t) {       \
    if (LOAD == 2)                                                                                     \
      return tgm_vectors<BLOCK, ITEMS>(vin, nv, 0, 1, t, 0);                                           \
    A acc[ITEMS];                                                                                      \
    _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) acc[j] = tgm_identity();                    \
    const tgm_size chunk = (tgm_size)BLOCK * ITEMS;                                                    \
    const tgm_size step = LOAD == 1 ? 1 : BLOCK;                                                       \
    tgm_size lo = LOAD == 1 ? (tgm_size)t * ITEMS : t;                                                 \
    if (LOAD == 4 && (ITEMS - 1) * BLOCK + t < nv) { /* the first chunk, before any other work */      \
      V v[ITEMS];                                                                                      \
      _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) v[j] = vin[t + j * BLOCK];                \
      _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) acc[j] = sum_scalar_vec(&v[j], 1, 1);     \
      lo += chunk;                                                                                     \
    }                                                                                                  \
    if (LOAD >= 3) {                                                                                   \
      _Pragma("unroll 1") for (; lo + (ITEMS - 1) * step < nv; lo += chunk) {                          \
        V v[ITEMS];                                                                                    \
        _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) v[j] = vin[lo + j * step];              \
        _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) acc[j] =                                \
            tgm_combine(acc[j], sum_scalar_vec(&v[j], 1, 1));                                          \
      }                                                                                                \
    } else {                                                                                           \
      for (; lo + (ITEMS - 1) * step < nv; lo += chunk) {                                              \
        V v[ITEMS];                                                                                    \
        _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) v[j] = vin[lo + j * step];              \
        _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) acc[j] =                                \
            tgm_combine(acc[j], sum_scalar_vec(&v[j], 1, 1));                                          \
      }                                                                                                \
    }                                                                                                  \
    _Pragma("unroll") for (unsigned j = 0; j < ITEMS; j++) if (lo + j * step < nv) acc[j] =            \
        tgm_combine(acc[j], sum_scalar_vec(&vin[lo + j * step], 1, 1));                                \
    A value = acc[0];                                                                                  \
    _Pragma("unroll") for (unsigned j = 1; j < ITEMS; j++) value = tgm_combine(value, acc[j]);         \
    return value;                                                                                      \
  }                                                                                                    \
  template <unsigned BLOCK, unsigned ITEMS, int LOAD, int BR>                                          \
  __global__ void __launch_bounds__(BLOCK) alt_b1(const T *__restrict__ in, tgm_size n, R *__restrict__ out,   \
                                                    unsigned items) {                                  \
    A value;                                                                                           \
    if (LOAD == 5) { /* the generated thread level: its run-time items switch */                       \
      value = tgm_values_DS_SV<BLOCK>(in, n, items, 0, 1, threadIdx.x);                                \
    } else {                                                                                           \
      tgm_size head = tgm_head(in, n), nv = (n - head) / TGM_VW;                                       \
      const V *vin = reinterpret_cast<const V *>(in + head);                                           \
      value = alt_vectors<BLOCK, ITEMS, LOAD>(vin, nv, threadIdx.x);                                   \
      value = tgm_combine(value, tgm_edges<BLOCK>(in, n, head, nv, threadIdx.x));                      \
    }                                                                                                  \
    if (BR == 0) {                                                                                     \
      value = BLOCKFN<BLOCK>(value);                                                                   \
    } else if (BR == 3) {                                                                              \
      value = FOLDFN<BLOCK>(value);                                                                    \
    } else if (BR == 1) {                                                                              \
      __shared__ A warps[BLOCK / 32];                                                                  \
      value = WARPFN(value);                                                                           \
      if (threadIdx.x % 32 == 0)                                                                       \
        warps[threadIdx.x / 32] = value;                                                               \
      __syncthreads();                                                                                 \
      if (threadIdx.x == 0)                                                                            \
        _Pragma("unroll") for (unsigned w = 1; w < BLOCK / 32; w++) value = tgm_combine(value, warps[w]); \
    } else {                                                                                           \
      using BlockR = cub::BlockReduce<A, BLOCK, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;                    \
      __shared__ typename BlockR::TempStorage tmp;                                                     \
      value = BlockR(tmp).Sum(value);                                                                  \
    }                                                                                                  \
    if (threadIdx.x == 0)                                                                              \
      out[0] = tgm_epilogue(value, n);                                                                 \
  }

namespace tgm_kernels_sum_f32 {
__device__ __forceinline__ A warp_sum(A v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
B1_VARIANTS(sum_coop_shfl, warp_sum, sum_coop_fold)
} // namespace tgm_kernels_sum_f32
namespace tgm_kernels_sum_i32 {
B1_VARIANTS(sum_coop_redux, tgm_warp_reduce, sum_coop_fold)
} // namespace tgm_kernels_sum_i32

template <typename T> struct Ctx {
  const T *d;
  size_t d_len;
  const std::vector<T> *h;
  Flush flush;
  cudaStream_t s;
  T *out;
  FILE *csv;
  const char *type;
};
static long failures = 0;

template <typename T, typename F>
static void one(Ctx<T> &c, size_t n, const char *name, unsigned block, unsigned items, F launch) {
  double want = 0, mag = 0;
  for (size_t i = 0; i < n; i++)
    want += (double)(*c.h)[i], mag += std::fabs((double)(*c.h)[i]);
  CK(cudaMemsetAsync(c.out, 0xff, sizeof(T), c.s));
  CK(launch(c.d));
  CK(cudaStreamSynchronize(c.s));
  T got;
  CK(cudaMemcpy(&got, c.out, sizeof got, cudaMemcpyDeviceToHost));
  const double bound = sizeof(T) == 4 && (T)0.5 != 0 ? (n + 1) * 1.2e-7 * mag : 0;
  if (!(std::fabs((double)got - want) <= bound)) {
    failures++;
    std::printf("WRONG %s %s %ux%u n %zu: %.9g, want %.9g\n", c.type, name, block, items, n, (double)got, want);
    return;
  }
  double t[3];
  for (int k = 0; k < 3; k++)
    t[k] = time_us<T>((Timing)k, launch, c.d, c.d_len, c.flush, n, c.s);
  std::fprintf(c.csv, "%s,%zu,%s,%u,%u,%.3f,%.3f,%.3f\n", c.type, n, name, block, items, t[0], t[1], t[2]);
  std::fflush(c.csv);
}

#define ALT(NS, BLOCK, ITEMS, LOAD, BR, NAME)                                                          \
  one(c, n, NAME, BLOCK, ITEMS, [&](const T *in) {                                                     \
    NS::alt_b1<BLOCK, ITEMS, LOAD, BR><<<1, BLOCK, 0, c.s>>>(in, n, c.out, ITEMS);                            \
    return cudaGetLastError();                                                                         \
  })
#define ALTS(K)                                                                                        \
  ALT(K, 256, 4, 2, 1, "gen.t0");                                                                      \
  ALT(K, 256, 4, 2, 3, "gen.VWfn");                                                                    \
  ALT(K, 256, 4, 5, 1, "switch.t0");                                                                   \
  ALT(K, 256, 4, 0, 1, "acc.t0");                                                                      \
  ALT(K, 256, 4, 3, 1, "acc1.t0");                                                                     \
  ALT(K, 256, 4, 4, 1, "peel.t0");                                                                     \
  ALT(K, 256, 4, 4, 0, "peel");                                                                        \
  ALT(K, 256, 4, 3, 0, "acc1");                                                                        \
  ALT(K, 512, 2, 4, 1, "peel.t0");                                                                     \
  ALT(K, 512, 2, 3, 1, "acc1.t0");                                                                     \
  ALT(K, 512, 4, 4, 1, "peel.t0");                                                                     \
  ALT(K, 1024, 1, 4, 1, "peel.t0")

template <typename T> static void sweep(Ctx<T> &c) {
  void *cub_temp = nullptr;
  size_t cub_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, cub_bytes, c.d, c.out, (int64_t)c.d_len, c.s));
  CK(cudaMalloc(&cub_temp, cub_bytes));
  for (int e = 10; e <= 13; e++) {
    const size_t n = (size_t)1 << e;
    { // what CUB launches at this size: its graph's kernel nodes
      cudaGraph_t g;
      CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
      size_t b = cub_bytes;
      CK(cub::DeviceReduce::Sum(cub_temp, b, c.d, c.out, (int64_t)n, c.s));
      CK(cudaStreamEndCapture(c.s, &g));
      size_t count = 0;
      CK(cudaGraphGetNodes(g, nullptr, &count));
      std::vector<cudaGraphNode_t> nodes(count);
      CK(cudaGraphGetNodes(g, nodes.data(), &count));
      for (auto nd : nodes) {
        cudaGraphNodeType ty;
        CK(cudaGraphNodeGetType(nd, &ty));
        if (ty != cudaGraphNodeTypeKernel)
          continue;
        cudaKernelNodeParams kp;
        CK(cudaGraphKernelNodeGetParams(nd, &kp));
        const char *name = "?";
        cudaFuncGetName(&name, kp.func);
        std::printf("CUB %s n=%zu: grid %u block %u: %.120s\n", c.type, n, kp.gridDim.x, kp.blockDim.x, name);
      }
      CK(cudaGraphDestroy(g));
    }
    one(c, n, "cub", 0, 0, [&](const T *in) {
      size_t b = cub_bytes;
      return cub::DeviceReduce::Sum(cub_temp, b, in, c.out, (int64_t)n, c.s);
    });
    if constexpr (sizeof(T) == 4 && std::is_same_v<T, float>) {
      namespace K = tgm_kernels_sum_f32;
      one(c, n, "gen.V", 256, 4, [&](const T *in) { return K::launch_sum_B1_V_SV<256>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VS", 256, 4, [&](const T *in) { return K::launch_sum_B1_VS_SV<256>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VS", 512, 4, [&](const T *in) { return K::launch_sum_B1_VS_SV<512>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VW", 256, 4, [&](const T *in) { return K::launch_sum_B1_VW_SV<256>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VW", 512, 4, [&](const T *in) { return K::launch_sum_B1_VW_SV<512>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      ALTS(K);
    } else {
      namespace K = tgm_kernels_sum_i32;
      one(c, n, "gen.VR", 256, 4, [&](const T *in) { return K::launch_sum_B1_VR_SV<256>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VR", 512, 4, [&](const T *in) { return K::launch_sum_B1_VR_SV<512>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VW", 256, 4, [&](const T *in) { return K::launch_sum_B1_VW_SV<256>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      one(c, n, "gen.VA1", 256, 4, [&](const T *in) { return K::launch_sum_B1_VA1_SV<256>(in, n, c.out, nullptr, 0, 4, 1, c.s); });
      ALTS(K);
    }
  }
  CK(cudaFree(cub_temp));
}

template <typename T> static void run(FILE *csv, const char *type, cudaStream_t s, const Flush &flush) {
  const size_t len = (size_t)1 << 22;
  std::vector<T> h(len);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    if constexpr (std::is_same_v<T, float>)
      x = (float)((double)(state >> 11) / 4503599627370496.0 - 1.0);
    else
      x = (int)(state >> 40) % 2001 - 1000;
  }
  T *d;
  CK(cudaMalloc(&d, len * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), len * sizeof(T), cudaMemcpyHostToDevice));
  Ctx<T> c{d, len, &h, flush, s, nullptr, csv, type};
  CK(cudaMalloc(&c.out, 64));
  sweep(c);
  CK(cudaFree(c.out));
  CK(cudaFree(d));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: b1_ab OUT.csv\n");
    return 2;
  }
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  FILE *csv = std::fopen(argv[1], "w");
  if (!csv)
    return 2;
  std::fprintf(csv, "# %s, %d SMs; sum; us per call, cold L2: (a) stream, (b) one call, (c) graph\n", p.name,
               p.multiProcessorCount);
  std::fprintf(csv, "type,n,kind,block,items,a_us,b_us,c_us\n");
  Flush flush = flush_alloc();
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  run<float>(csv, "f32", s, flush);
  run<int>(csv, "i32", s, flush);
  std::fclose(csv);
  std::printf("%ld wrong\n", failures);
  return failures ? 1 : 0;
}

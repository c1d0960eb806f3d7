// parts_ab.cu -- A/B: where the time of a column call in parts goes, and
// what a finish without a counter memset would give. The embedded column
// call (sum f32, tests/embed/headers) splits the rows of a matrix of many
// short rows over `parts` blocks a column tile; the last part to finish
// folds the parts' partials, its counter cleared by a memset first (CUB's
// temp storage holds anything). The cells of 2^20-2^24 elements in parts
// sit at 0.4-0.8 of the plain read (bench/results/2026-11-26-cols-narrow).
// Kinds, each checked against a host reference (double) before it is timed
// in the three ways of tests/embed/gpu_timing.h (cold L2):
//   read      the plain read of the m n elements (the floor)
//   pick      the embedded call (memset of 16 KiB, then CT.SV)
//   nomemset  the pick's CT.SV launch alone, its counters left zero by the
//             call before (not CUB's contract: a bound)
//   p.last    the prototype below in the pick's blocks, width and parts,
//             the last part folding (as CT.SV), after the same memset
//   p.last0   p.last without the memset (counters left zero: a bound)
//   p.two     the prototype writes its partials, a second kernel folds
//             them (no counter, no memset, no atomics): two launches
//   p.twopdl  the same, the second kernel launched early (programmatic
//             dependent launch): it waits for the first only before it
//             reads the partials
//   p.clrpdl  a small kernel clears the counters, the last-part prototype
//             launched early (PDL), waiting for the clear only before its
//             ticket
//   p.k1      the prototype's first kernel alone, partials written and not
//             folded (not a result: the bound of any finish; not checked);
//             p.k1.pQ the same in Q parts (half and twice the pick's)
//   p.tkt     p.k1 with the last-part ticket (fence, atomicInc), no fold;
//             p.tkt0 the same without the fence (not checked)
//   p.atom.pQ an init kernel sets out to 0, the prototype launched behind
//             it (PDL) in Q parts adds each part's values to out with
//             atomicAdd (the pick's parts, twice and four times them, and a
//             wave of 2048 threads an SM): what CA.SV became
// The prototype is CT.SV's body for ld = n, n a multiple of 4 (n = 2: the
// matrix taken as m / 2 rows of 4, columns c and c + 2 folded at the end):
// `width` groups of 4 columns a block, its BLOCK / width lanes and the
// parts' taking the rows in turn, four loads in flight, the lanes folded in
// shared memory; parts fold in order (deterministic, like CT.SV).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/cols/parts_ab.cu -o parts_ab
//   parts_ab OUT.csv [MxN ...]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sum_cols_f32.h"

#include "../../tests/embed/gpu_timing.h"

namespace cs = tgm_kernels_sum_f32_cols;

enum { COUNTERS = 4096 };

__device__ __forceinline__ float4 add4(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// groups g .. of one tile: thread (chunk, t) folds parts lo .. hi - 1 of
// group tile * width + t, then the chunks fold pairwise in shared memory;
// chunk 0 writes the group's 4 columns (n2: columns c and c + 2 folded)
template <unsigned BLOCK>
__device__ __forceinline__ void fold_parts(const float4 *partials, unsigned parts, unsigned groups, unsigned width,
                                           bool n2, float *out) {
  __shared__ float4 v[BLOCK];
  const unsigned chunks = BLOCK / width, t = threadIdx.x % width, chunk = threadIdx.x / width;
  const unsigned g = blockIdx.x * width + t;
  float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
  if (g < groups) {
    const volatile float4 *p = partials;
    unsigned lo = (unsigned)((unsigned long long)parts * chunk / chunks),
             hi = (unsigned)((unsigned long long)parts * (chunk + 1) / chunks), y = lo;
    for (; y + 4 <= hi; y += 4) {
      float4 x[4];
#pragma unroll
      for (unsigned u = 0; u < 4; u++) {
        const volatile float4 &q = p[(size_t)(y + u) * groups + g];
        x[u] = make_float4(q.x, q.y, q.z, q.w);
      }
#pragma unroll
      for (unsigned u = 0; u < 4; u++)
        a = add4(a, x[u]);
    }
    for (; y < hi; y++) {
      const volatile float4 &q = p[(size_t)y * groups + g];
      a = add4(a, make_float4(q.x, q.y, q.z, q.w));
    }
  }
  v[threadIdx.x] = a;
  for (unsigned s = 1; s < chunks; s *= 2) {
    __syncthreads();
    if (chunk % (2 * s) == 0 && chunk + s < chunks)
      v[threadIdx.x] = add4(v[threadIdx.x], v[threadIdx.x + s * width]);
  }
  __syncthreads();
  if (chunk == 0 && g < groups) {
    a = v[threadIdx.x];
    if (n2)
      reinterpret_cast<float2 *>(out)[0] = make_float2(a.x + a.z, a.y + a.w);
    else
      reinterpret_cast<float4 *>(out)[g] = a;
  }
}

// MODE 0: partials only (p.k1, p.two, p.twopdl); 1: the last part folds
// (p.last, p.last0); 2: as 1, waiting for the clear (PDL) before the ticket;
// 3: the fence and the ticket, no fold (p.tkt); 4: the ticket alone (p.tkt0);
// 5: each part adds its values to out with atomics (p.atom), waiting for
// out's init (PDL) only before them
template <unsigned BLOCK, int MODE>
__global__ void __launch_bounds__(BLOCK) proto(const float4 *in, size_t rows, unsigned groups, unsigned width, bool n2,
                                               float *out, float4 *partials, unsigned *counters) {
  if (MODE == 0)
    cudaTriggerProgrammaticLaunchCompletion(); // p.twopdl's fold may launch now
  __shared__ float4 lanes_v[BLOCK];
  __shared__ bool last;
  const unsigned lanes = BLOCK / width, lane = threadIdx.x / width, t = threadIdx.x % width;
  const unsigned g = blockIdx.x * width + t;
  const size_t step = (size_t)gridDim.y * lanes;
  float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
  if (g < groups) {
    size_t r = (size_t)blockIdx.y * lanes + lane;
    for (; r + 3 * step < rows; r += 4 * step) {
      float4 x[4];
#pragma unroll
      for (unsigned u = 0; u < 4; u++)
        x[u] = in[(r + u * step) * groups + g];
#pragma unroll
      for (unsigned u = 0; u < 4; u++)
        a = add4(a, x[u]);
    }
    for (; r < rows; r += step)
      a = add4(a, in[r * groups + g]);
  }
  lanes_v[threadIdx.x] = a;
  for (unsigned s = 1; s < lanes; s *= 2) {
    __syncthreads();
    if (lane % (2 * s) == 0 && lane + s < lanes)
      lanes_v[threadIdx.x] = add4(lanes_v[threadIdx.x], lanes_v[threadIdx.x + s * width]);
  }
  __syncthreads();
  if (gridDim.y == 1) {
    if (lane == 0 && g < groups) {
      a = lanes_v[threadIdx.x];
      if (n2)
        reinterpret_cast<float2 *>(out)[0] = make_float2(a.x + a.z, a.y + a.w);
      else
        reinterpret_cast<float4 *>(out)[g] = a;
    }
    return;
  }
  if (MODE == 5) {
    cudaGridDependencySynchronize(); // out's init
    if (lane == 0 && g < groups) {
      a = lanes_v[threadIdx.x];
      if (n2) {
        atomicAdd(out, a.x + a.z);
        atomicAdd(out + 1, a.y + a.w);
      } else {
        atomicAdd(out + 4 * g, a.x);
        atomicAdd(out + 4 * g + 1, a.y);
        atomicAdd(out + 4 * g + 2, a.z);
        atomicAdd(out + 4 * g + 3, a.w);
      }
    }
    return;
  }
  if (lane == 0 && g < groups)
    partials[(size_t)blockIdx.y * groups + g] = lanes_v[threadIdx.x];
  if (MODE == 0)
    return;
  if (MODE != 4)
    __threadfence();
  __syncthreads();
  if (MODE == 2)
    cudaGridDependencySynchronize();
  if (threadIdx.x == 0)
    last = atomicInc(counters + blockIdx.x, gridDim.y - 1) == gridDim.y - 1;
  __syncthreads();
  if (!last || MODE >= 3)
    return;
  __threadfence();
  fold_parts<BLOCK>(partials, gridDim.y, groups, width, n2, out);
}

// p.two's second kernel (PDL: waits for the first before it reads)
template <unsigned BLOCK, bool PDL>
__global__ void __launch_bounds__(BLOCK) fold(const float4 *partials, unsigned parts, unsigned groups, unsigned width,
                                              bool n2, float *out) {
  if (PDL)
    cudaGridDependencySynchronize();
  fold_parts<BLOCK>(partials, parts, groups, width, n2, out);
}

// p.atom's init of out (the identity), the column kernel launched behind it (PDL)
__global__ void init_pdl(float *out, unsigned count) {
  cudaTriggerProgrammaticLaunchCompletion();
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
    out[i] = 0.f;
}

__global__ void clear_pdl(unsigned *counters, unsigned count) {
  cudaTriggerProgrammaticLaunchCompletion();
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
    counters[i] = 0;
}

template <typename K, typename... Args>
static cudaError_t launch_ex(bool pdl, K kernel, dim3 grid, unsigned block, cudaStream_t s, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = at;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

struct Ctx {
  const float *d;
  size_t d_len;
  Flush flush;
  cudaStream_t s;
  void *temp;
  size_t temp_bytes;
  float *out;
  int sms;
  FILE *csv;
  long wrong;
};

static void reference(const std::vector<float> &h, size_t m, size_t n, std::vector<double> &want,
                      std::vector<double> &bound) {
  want.assign(n, 0);
  bound.assign(n, 0);
  for (size_t r = 0; r < m; r++)
    for (size_t c = 0; c < n; c++) {
      want[c] += h[r * n + c];
      bound[c] += std::fabs(h[r * n + c]);
    }
  for (auto &b : bound)
    b = b * (m + 1) * 1.2e-7 + 1e-30;
}

static void one(Ctx &c, size_t m, size_t n, const char *kind, const std::vector<double> &want,
                const std::vector<double> &bound, const std::function<cudaError_t(const float *)> &launch) {
  if (!want.empty()) {
    CK(cudaMemsetAsync(c.out, 0xff, n * sizeof(float), c.s));
    CK(launch(c.d));
    CK(cudaStreamSynchronize(c.s));
    std::vector<float> got(n);
    CK(cudaMemcpy(got.data(), c.out, n * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
      bad += !(std::fabs(got[i] - want[i]) <= bound[i]);
    if (bad) {
      c.wrong++;
      std::printf("WRONG %zu x %zu %s: %zu of %zu\n", m, n, kind, bad, n);
      return;
    }
  }
  double t[3];
  for (int how = 0; how < 3; how++)
    t[how] = time_us<float>((Timing)how, [&](const float *in) { CK(launch(in)); }, c.d, c.d_len, c.flush, m * n,
                            c.s);
  std::fprintf(c.csv, "%zu,%zu,%s,%.3f,%.3f,%.3f\n", m, n, kind, t[0], t[1], t[2]);
  std::fflush(c.csv);
}

static size_t lanes_of(unsigned block, unsigned width) { return block / width; }

template <unsigned BLOCK>
static void shape_b(Ctx &c, const std::vector<float> &h, size_t m, size_t n, const tgm_cols_pick &k) {
  std::vector<double> want, bound, none;
  reference(h, m, n, want, bound);
  const bool n2 = n == 2;
  const size_t rows = n2 ? m / 2 : m;
  const unsigned groups = n2 ? 1 : (unsigned)(n / 4), width = n2 ? 1 : k.groups, parts = k.parts;
  const unsigned tiles = (groups + width - 1) / width;
  unsigned *counters = static_cast<unsigned *>(c.temp);
  float4 *partials = reinterpret_cast<float4 *>(static_cast<char *>(c.temp) + COUNTERS * 4);
  const dim3 grid(tiles, parts);
  std::printf("%zu x %zu: pick b%u g%u p%u; prototype %u x %u blocks of %u\n", m, n, k.block, k.groups, k.parts,
              tiles, parts, BLOCK);
  one(c, m, n, "read", none, none, [&](const float *in) -> cudaError_t {
    bytes_floor<<<c.sms * 8, 256, 0, c.s>>>(in, m * n, nullptr, 0);
    return cudaGetLastError();
  });
  one(c, m, n, "pick", want, bound, [&](const float *in) {
    size_t bytes = c.temp_bytes;
    return tgm_sum_cols_f32(c.temp, &bytes, in, c.out, m, n, n, c.s);
  });
  CK(cudaMemset(c.temp, 0, COUNTERS * 4));
  one(c, m, n, "nomemset", want, bound, [&](const float *in) {
    return cs::launch_sum_CT_SV<BLOCK>(in, m, n, n, c.out, c.temp, c.temp_bytes, k.parts, k.groups, c.s);
  });
  if (n % 4 != 0 && !n2)
    return;
  auto in4 = [](const float *in) { return reinterpret_cast<const float4 *>(in); };
  // atomics instead of the last part's fold: out initialised by a kernel the
  // column kernel is launched behind (PDL); in the pick's parts (at least 2),
  // twice and four times them, and a wave (2048 threads an SM)
  {
    const unsigned wave = std::max(1u, (unsigned)(c.sms * 2048u / BLOCK / tiles));
    std::vector<unsigned> qs;
    for (unsigned q : {std::max(parts, 2u), parts * 2, parts * 4, wave})
      if (q >= 2 && q <= 65535 && (size_t)q * lanes_of(BLOCK, width) <= rows * 4 &&
          std::find(qs.begin(), qs.end(), q) == qs.end())
        qs.push_back(q);
    for (unsigned q : qs) {
      char kind[32];
      std::snprintf(kind, sizeof kind, "p.atom.p%u", q);
      one(c, m, n, kind, want, bound, [&](const float *in) {
        init_pdl<<<1, 256, 0, c.s>>>(c.out, (unsigned)n);
        return launch_ex(true, proto<BLOCK, 5>, dim3(tiles, q), BLOCK, c.s, in4(in), rows, groups, width, n2, c.out,
                         partials, counters);
      });
    }
  }
  one(c, m, n, "p.last", want, bound, [&](const float *in) {
    CK(cudaMemsetAsync(counters, 0, COUNTERS * 4, c.s));
    proto<BLOCK, 1><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
    return cudaGetLastError();
  });
  CK(cudaMemset(counters, 0, COUNTERS * 4));
  one(c, m, n, "p.last0", want, bound, [&](const float *in) {
    proto<BLOCK, 1><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
    return cudaGetLastError();
  });
  if (parts > 1) {
    one(c, m, n, "p.two", want, bound, [&](const float *in) {
      proto<BLOCK, 0><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
      return launch_ex(false, fold<BLOCK, false>, dim3(tiles), BLOCK, c.s, (const float4 *)partials, parts, groups,
                       width, n2, c.out);
    });
    one(c, m, n, "p.twopdl", want, bound, [&](const float *in) {
      proto<BLOCK, 0><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
      return launch_ex(true, fold<BLOCK, true>, dim3(tiles), BLOCK, c.s, (const float4 *)partials, parts, groups,
                       width, n2, c.out);
    });
    one(c, m, n, "p.clrpdl", want, bound, [&](const float *in) {
      clear_pdl<<<1, 256, 0, c.s>>>(counters, tiles);
      return launch_ex(true, proto<BLOCK, 2>, grid, BLOCK, c.s, in4(in), rows, groups, width, n2, c.out, partials,
                       counters);
    });
    one(c, m, n, "p.k1", none, none, [&](const float *in) {
      proto<BLOCK, 0><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
      return cudaGetLastError();
    });
    one(c, m, n, "p.tkt", none, none, [&](const float *in) {
      proto<BLOCK, 3><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
      return cudaGetLastError();
    });
    one(c, m, n, "p.tkt0", none, none, [&](const float *in) {
      proto<BLOCK, 4><<<grid, BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials, counters);
      return cudaGetLastError();
    });
    // the first kernel in half and twice the parts: the body's share
    for (unsigned q : {parts / 2, parts * 2}) {
      if (q < 2 || q > 65535 || (size_t)q * groups * 16 > c.temp_bytes - COUNTERS * 4)
        continue;
      char kind[32];
      std::snprintf(kind, sizeof kind, "p.k1.p%u", q);
      one(c, m, n, kind, none, none, [&](const float *in) {
        proto<BLOCK, 0><<<dim3(tiles, q), BLOCK, 0, c.s>>>(in4(in), rows, groups, width, n2, c.out, partials,
                                                           counters);
        return cudaGetLastError();
      });
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parts_ab OUT.csv [MxN ...]\n");
    return 2;
  }
  std::vector<std::pair<size_t, size_t>> shapes;
  for (int i = 2; i < argc; i++) {
    unsigned long long m = 0, n = 0;
    if (std::sscanf(argv[i], "%llux%llu", &m, &n) != 2 || m == 0 || n == 0 || m * n > (1ull << 26) ||
        (n != 2 && n % 4 != 0) || m % 2) {
      std::fprintf(stderr, "parts_ab: bad shape '%s' (MxN, m n <= 2^26, n = 2 or a multiple of 4, m even)\n",
                   argv[i]);
      return 2;
    }
    shapes.push_back({(size_t)m, (size_t)n});
  }
  if (shapes.empty())
    for (auto en : std::vector<std::pair<int, int>>{{20, 3}, {20, 9}, {22, 1}, {22, 3}, {22, 5}, {22, 9}, {22, 11},
                                                    {23, 3}, {24, 1}, {24, 3}, {24, 5}, {24, 7}, {24, 9}})
      shapes.push_back({(size_t)1 << (en.first - en.second), (size_t)1 << en.second});
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  Ctx c{};
  c.sms = p.multiProcessorCount;
  c.d_len = ((size_t)1 << 26) + 4096;
  std::vector<float> h(c.d_len);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x = (float)((double)(state >> 11) / 4503599627370496.0 - 1.0);
  }
  float *d;
  CK(cudaMalloc(&d, c.d_len * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), c.d_len * sizeof(float), cudaMemcpyHostToDevice));
  c.d = d;
  c.flush = flush_alloc();
  CK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
  c.temp_bytes = (size_t)64 << 20;
  CK(cudaMalloc(&c.temp, c.temp_bytes));
  CK(cudaMalloc(&c.out, ((size_t)1 << 24) * sizeof(float)));
  c.csv = std::fopen(argv[1], "w");
  if (!c.csv)
    return 2;
  std::fprintf(c.csv, "# %s, %d SMs; sum f32 columns; us per call, cold L2: (a) stream, (b) one call, (c) graph\n",
               p.name, c.sms);
  std::fprintf(c.csv, "m,n,kind,a_us,b_us,c_us\n");
  for (auto [m, n] : shapes) {
    const tgm_cols_pick k = tgm_cols_pick_of(m, n, (unsigned)c.sms, 4, 1);
    switch (k.block) {
    case 128: shape_b<128>(c, h, m, n, k); break;
    case 256: shape_b<256>(c, h, m, n, k); break;
    case 512: shape_b<512>(c, h, m, n, k); break;
    default: shape_b<1024>(c, h, m, n, k); break;
    }
  }
  std::fclose(c.csv);
  std::printf("%ld wrong\n", c.wrong);
  return c.wrong ? 1 : 0;
}

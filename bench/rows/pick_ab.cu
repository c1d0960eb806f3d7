// pick_ab.cu -- A/B of the embedded row and column picks (sum f32, or i32): for
// the shapes where bench/results/2026-11-25-embed-rows-h100 found tgm below
// its peer or below 2.9 TB/s, every setting of the committed kernels the
// launchers take (tests/embed/headers), two hand-written prototypes, and a
// plain read of the same bytes, each checked against a host reference
// before it is timed in ways (b) and (c) of tests/embed/gpu_timing.h.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers bench/rows/pick_ab.cu -o pick_ab
// (-DPICK_AB_I32: sum i32 instead of f32, integers of -8..8 checked exactly, without the
// prototypes, which read floats; the plain read reads the same bytes)
//   pick_ab OUT.csv [rows:MxN | cols:MxN[:bB,gG,pP] ...]
// (shapes given: those alone, without the plain read; a column shape's
// bB,gG,pP also times CT.SV in blocks of B, G groups, P parts, e.g. an
// earlier rule's pick, as "set bB gG pP"; PICK_AB_SET=ca: as CA.SV, "set-ca bB gG pP").
// Wherever the pick is in parts,
// "pick-ca" and "pick-ct" are its setting as CA.SV (out set to the
// identity, the parts' atomics) and as CT.SV is run (the counters cleared
// by a kernel with PDL on sm_90+, the last part folding), whichever of the
// two the pick is. The column settings grid times CT.SV in every setting
// and CA.SV in those of more than one part; PICK_AB_GRID=0 leaves it out.
// Rows of n >= 2048 on m < sms also time RL in blocks of 256 at floor and
// ceil of 2 sms / m blocks a row and at the count that fills the last wave
// of 2 sms blocks best; PICK_AB_GRID=0 leaves the rest of the rows' grid out.
// There, and for m < 2 sms, "rule-RL" is the rule's pick without atomics
// (RL, where it runs RA now) and "RA.VS.SV b256 i4 pP" the generated RA at
// 2, 4 and 8 sms blocks in all, launched as the embedded call does;
// PICK_AB_PROTO=0 leaves the prototypes P.rowsA and P.rowsA-init out.
// The rows' grid times RW (threads a row) for n < 2048, n < PICK_AB_RW_MAX where set;
// PICK_AB_RL=0 leaves its RL settings out (RB's alone for long rows).
// PICK_AB_REPICK=1 times a column shape's pick again after its grid ("pick-again"), and
// PICK_AB_B2=1 every pick's (b) twice in a row ("pick-b2"): how steady (b) is
// (bench/results/2026-11-28-cols-small).
//
// Rows also time CUB's DeviceSegmentedReduce::Sum ("cub", tests/embed/cub_rows.h).
// Rows of n < 4 (whatever PICK_AB_GRID) time a thread a row in blocks of 128, 256 and 512 as
// RW.SS (packed rows, file.tpl's tgm_rows_packed: a thread a vector of rows) and as RW.SV, and
// RW.SS's kernel over the grid of a thread a row, m threads ("grid-m").
//
// Prototypes (not generated; they measure what a composition would give):
//   P.rows  rows packed (ld = n, n = 2 or a multiple of 4 up to 128, 16-byte
//           aligned): the matrix read as one run of 16-byte vectors, grid
//           stride, ITEMS vectors in flight; n / 4 lanes a row folded by
//           shuffles (n = 2: a vector is two rows).
//   P.rowsA few long rows (m < sms, n a multiple of 4): gridDim.x blocks of
//           256 a row (blockIdx.y), each its grid-stride share of the row's
//           vectors, 4 loads in flight (gpu_timing.h's plain_sum), the block's
//           sum added to out[row] with an atomic after cudaMemsetAsync set
//           out to 0: RL without counters, ticket and last-block fold, as
//           CA.SV is for columns ("P.rowsA pP": P blocks a row; "P.rowsA-init
//           pP": out set by tgm_init_out instead, the row kernel launched
//           behind it with PDL as CA.SV is, sm_90+).
//   P.cols  few rows (m <= 64): a thread a group of 4 columns down all m
//           rows, 4 loads in flight, grid stride over the groups.
//   read    the m n elements read as 16-byte vectors, 4 in flight, grid of
//           sms x 2048 / 256 blocks of 256: the plain read (gpu_timing.h's
//           bytes_floor without results).
#include <cuda_runtime.h>

// -DPICK_AB_BK=VW: the RB, RL and RA launchers timed are those of block level VW (thread 0
// folds the warps' sums; the headers must hold RB.VW.SV, RL.VW.SV, RA.VW.SV), else VS's
#ifndef PICK_AB_BK
#define PICK_AB_BK VS
#endif
#define PICK_AB_NAME2(g, bk) launch_sum_##g##_##bk##_SV
#define PICK_AB_NAME(g, bk) PICK_AB_NAME2(g, bk)
#define PICK_AB_STR2(x) #x
#define PICK_AB_STR(x) PICK_AB_STR2(x)

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <type_traits>

#if defined(PICK_AB_I32)
#include "sum_rows_i32.h"
#include "sum_cols_i32.h"
typedef int32_t T;
namespace rs = tgm_kernels_sum_i32_rows;
namespace cs = tgm_kernels_sum_i32_cols;
#define SUM_ROWS tgm_sum_rows_i32
#define SUM_COLS tgm_sum_cols_i32
static const char *const TYPE_NAME = "i32";
#else
#include "sum_rows_f32.h"
#include "sum_cols_f32.h"
typedef float T;
namespace rs = tgm_kernels_sum_f32_rows;
namespace cs = tgm_kernels_sum_f32_cols;
#define SUM_ROWS tgm_sum_rows_f32
#define SUM_COLS tgm_sum_cols_f32
static const char *const TYPE_NAME = "f32";
#endif

#include "../../tests/embed/gpu_timing.h"
#include "../../tests/embed/cub_rows.h"

template <unsigned ITEMS>
__global__ void __launch_bounds__(256) proto_rows(const float4 *in, size_t nv, unsigned g, float *out) {
  const size_t stride = (size_t)gridDim.x * 256;
  // the loop is the warp's (its shuffles need every lane): lanes past nv load nothing
  for (size_t v = (size_t)blockIdx.x * 256 + threadIdx.x; v - threadIdx.x % 32 < nv; v += stride * ITEMS) {
    float4 x[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      if (v + j * stride < nv)
        x[j] = in[v + j * stride];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++) {
      const size_t w = v + j * stride;
      bool live = w < nv;
      if (g == 0) { // n = 2
        if (live)
          reinterpret_cast<float2 *>(out)[w] = make_float2(x[j].x + x[j].y, x[j].z + x[j].w);
        continue;
      }
      float s = live ? (x[j].x + x[j].y) + (x[j].z + x[j].w) : 0.f;
      for (unsigned o = g / 2; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o, g);
      if (live && threadIdx.x % g == 0)
        out[w / g] = s;
    }
  }
}

template <bool EARLY>
__global__ void __launch_bounds__(256) proto_rows_atomic(const float *in, size_t n, float *out) {
  const float *row = in + (size_t)blockIdx.y * n;
  float v = plain_sum<4>(row, n, (size_t)blockIdx.x * 256 + threadIdx.x, (size_t)gridDim.x * 256);
  for (unsigned o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  __shared__ float warps[8];
  if (threadIdx.x % 32 == 0)
    warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.f;
    for (unsigned w = 0; w < 8; w++)
      sum += warps[w];
    if (EARLY)
      cs::tgm_wait_prior_grids(); // out set by tgm_init_out, which this grid may start before
    atomicAdd(out + blockIdx.y, sum);
  }
}

__global__ void __launch_bounds__(256) proto_cols(const float4 *in, size_t m, size_t nv, float4 *out) {
  for (size_t j = (size_t)blockIdx.x * 256 + threadIdx.x; j < nv; j += (size_t)gridDim.x * 256) {
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    size_t r = 0;
    for (; r + 4 <= m; r += 4) {
      float4 x[4];
#pragma unroll
      for (unsigned u = 0; u < 4; u++)
        x[u] = in[(r + u) * nv + j];
#pragma unroll
      for (unsigned u = 0; u < 4; u++)
        a.x += x[u].x, a.y += x[u].y, a.z += x[u].z, a.w += x[u].w;
    }
    for (; r < m; r++) {
      float4 x = in[r * nv + j];
      a.x += x.x, a.y += x.y, a.z += x.z, a.w += x.w;
    }
    out[j] = a;
  }
}

struct Ctx {
  const T *d;
  size_t d_len;
  Flush flush;
  cudaStream_t s;
  void *temp;
  size_t temp_bytes;
  T *out;
  int sms;
  FILE *csv;
};

// want[i] and the bound of each output, in double
static void reference(const std::vector<T> &h, bool cols, size_t m, size_t n, std::vector<double> &want,
                      std::vector<double> &bound) {
  size_t len = cols ? n : m;
  want.assign(len, 0);
  bound.assign(len, 0);
  for (size_t r = 0; r < m; r++)
    for (size_t c = 0; c < n; c++) {
      double x = h[r * n + c];
      size_t i = cols ? c : r;
      want[i] += x;
      bound[i] += std::fabs(x);
    }
  size_t steps = cols ? m : n;
  for (auto &b : bound) // integers: exact
    b = std::is_floating_point<T>::value ? b * (steps + 1) * 1.2e-7 + 1e-30 : 0.5;
}

static long failures;

// Checks then times one setting; launch returns false where the setting does not apply.
// Whether the environment variable name is set to value.
static bool env_is(const char *name, const char *value) {
  const char *v = std::getenv(name);
  return v && std::strcmp(v, value) == 0;
}

static void one(Ctx &c, const char *shape, size_t m, size_t n, const std::string &name, const std::vector<double> &want,
                const std::vector<double> &bound, const std::function<cudaError_t(const T *)> &launch) {
  size_t len = want.size();
  CK(cudaMemsetAsync(c.out, 0xff, len * sizeof(T), c.s));
  cudaError_t e = launch(c.d);
  if (e == cudaErrorInvalidValue) {
    cudaGetLastError();
    return; // not a setting for this shape
  }
  CK(e);
  CK(cudaStreamSynchronize(c.s));
  std::vector<T> got(len);
  if (len)
    CK(cudaMemcpy(got.data(), c.out, len * sizeof(T), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < len; i++)
    if (!(std::fabs(got[i] - want[i]) <= bound[i]))
      bad++;
  if (bad) {
    failures++;
    std::printf("WRONG %s %zu x %zu %s: %zu of %zu\n", shape, m, n, name.c_str(), bad, len);
    return;
  }
  double b = time_us<T>(ONE, launch, c.d, c.d_len, c.flush, m * n, c.s);
  // PICK_AB_B2=1: the pick's (b) timed again at once, before any graph of it ("pick-b2")
  double bb = env_is("PICK_AB_B2", "1") && name == "pick" ? time_us<T>(ONE, launch, c.d, c.d_len, c.flush, m * n, c.s) : 0;
  double g = time_us<T>(GRAPH, launch, c.d, c.d_len, c.flush, m * n, c.s);
  std::fprintf(c.csv, "%s,%zu,%zu,%s,%.3f,%.3f\n", shape, m, n, name.c_str(), b, g);
  if (bb > 0)
    std::fprintf(c.csv, "%s,%zu,%zu,pick-b2,%.3f,%.3f\n", shape, m, n, bb, g);
  std::fflush(c.csv);
}

// PICK_AB_GRID=0: the picks alone (and, for rows, RL's blocks a row), no settings grid
static bool grid_off() { return env_is("PICK_AB_GRID", "0"); }

static void rows_shape(Ctx &c, const std::vector<T> &h, size_t m, size_t n) {
  std::vector<double> want, bound;
  reference(h, false, m, n, want, bound);
  char nm[96];
  {
    size_t bytes = c.temp_bytes;
    one(c, "rows", m, n, "pick", want, bound,
        [&](const T *in) { return SUM_ROWS(c.temp, &bytes, in, c.out, m, n, n, c.s); });
  }
  if (m > 0 && m <= (size_t)INT32_MAX) { // CUB's segmented reduce, its temp allocated once
    size_t cb = 0;
    void *ct = nullptr;
    CK(cub_rows<T>(0, nullptr, cb, c.d, c.out, m, n, n, c.s));
    CK(cudaMalloc(&ct, cb ? cb : 1));
    one(c, "rows", m, n, "cub", want, bound,
        [&](const T *in) { return cub_rows<T>(0, ct, cb, in, c.out, m, n, n, c.s); });
    CK(cudaFree(ct));
  }
  auto run = [&](tgm_rows_pick k) {
    static const char *kinds[] = {"RW", "RB", "RL"};
    std::snprintf(nm, sizeof nm, "%s.%s b%u i%u p%u", kinds[k.kind], k.vec ? "SV" : "SS", k.block, k.items,
                  k.per_row);
    one(c, "rows", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
      if (k.kind == 2)
        CK(cudaMemsetAsync(c.temp, 0, (size_t)m * 4, c.s));
      switch (k.kind * 10000 + k.vec * 5000 + k.block) {
#define RW(B)                                                                                                   \
  case B:                                                                                                       \
    return rs::launch_sum_RW_VS_SS<B>(in, m, n, n, c.out, c.temp, c.temp_bytes, k.items, k.per_row, c.s);        \
  case 5000 + B:                                                                                                \
    return rs::launch_sum_RW_VS_SV<B>(in, m, n, n, c.out, c.temp, c.temp_bytes, k.items, k.per_row, c.s);        \
  case 15000 + B: return rs::PICK_AB_NAME(RB, PICK_AB_BK)<B>(in, m, n, n, c.out, c.temp, c.temp_bytes, k.items, 0, c.s); \
  case 25000 + B:                                                                                               \
    return rs::PICK_AB_NAME(RL, PICK_AB_BK)<B>(in, m, n, n, c.out, c.temp, c.temp_bytes, k.items, k.per_row, c.s);
        RW(128) RW(256) RW(512) RW(1024)
#undef RW
      }
      return cudaErrorInvalidValue;
    });
  };
  if (n < 4) {
    // a thread a row: RW.SS (packed rows read as vectors, a thread a vector of rows) and RW.SV
    // (vector loads within a row), and RW.SS's kernel over the grid of a thread a row (m
    // threads: the threads past the vectors idle)
    for (unsigned b : {128u, 256u, 512u}) {
      run({0, 0, 1, b, 1, 0});
      run({0, 1, 1, b, 1, 0});
    }
    one(c, "rows", m, n, "RW.SS b256 i1 p1 grid-m", want, bound, [&](const T *in) -> cudaError_t {
      rs::sum_RW_VS_SS<256, 1><<<tgm_rows_grid_of(m, 256, 1), 256, 0, c.s>>>(in, m, n, n, c.out, 1);
      return cudaGetLastError();
    });
  }
  if (n >= 2048 && m < (size_t)c.sms) {
    // RL in blocks of 256 at blocks a row around two a SM: floor and ceil of 2 sms / m, and the
    // count whose last wave of 2 sms blocks is fullest (up to 4 ceil), ties to the fewer
    const unsigned s2 = 2 * (unsigned)c.sms, lo = std::max(1u, s2 / (unsigned)m), hi = (s2 + (unsigned)m - 1) / (unsigned)m;
    unsigned best = lo;
    double best_fill = 0;
    for (unsigned p = 1; p <= 4 * hi; p++) {
      size_t blocks = m * p, waves = (blocks + s2 - 1) / s2;
      double fill = (double)blocks / (double)(waves * s2);
      if (fill > best_fill + 1e-3)
        best = p, best_fill = fill;
    }
    std::vector<unsigned> counts = {lo};
    for (unsigned p : {hi, best})
      if (std::find(counts.begin(), counts.end(), p) == counts.end())
        counts.push_back(p);
    for (unsigned p : counts)
      if (m * p <= 32768)
        run({2, 1, p, 256, 4});
  }
  if (n >= 2048 && m < 2 * (size_t)c.sms) {
    // the rule without atomics (RL, as TGM_DETERMINISTIC has it for float sums; from sms rows the
    // rule's own pick)
    unsigned sms = 0, threads = 0, major = 0, sm_gbps = 0;
    CK(rs::tgm_device_limits(&sms, &threads, &major, &sm_gbps));
    tgm_rows_pick rl = tgm_rows_pick_of(m, n, sms, threads, sm_gbps, 0);
    if (rl.kind == 2) {
      std::snprintf(nm, sizeof nm, "rule-RL b%u i%u p%u", rl.block, rl.items, rl.per_row);
      one(c, "rows", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
        CK(cudaMemsetAsync(c.temp, 0, (size_t)m * 4, c.s));
        switch (rl.block) {
        case 256: return rs::PICK_AB_NAME(RL, PICK_AB_BK)<256>(in, m, n, n, c.out, c.temp, c.temp_bytes, 4, rl.per_row, c.s);
        case 1024: return rs::PICK_AB_NAME(RL, PICK_AB_BK)<1024>(in, m, n, n, c.out, c.temp, c.temp_bytes, 4, rl.per_row, c.s);
        }
        return cudaErrorInvalidValue;
      });
    }
    // the generated RA (RA.VS.SV) in blocks of 256, items 4, f sms blocks in all, launched as the
    // embedded call does: tgm_init_out, the row kernel behind it with PDL (sm_90+)
    // (PICK_AB_RA=wide: also blocks of 512 at 1 and 2 sms / m a row and 1024 at 1 sms / m, items 1 and 4)
    for (unsigned b : {256u, 512u, 1024u})
      for (unsigned f : {1u, 2u, 4u, 8u})
        for (unsigned it : {1u, 4u}) {
          const bool base = b == 256 && f >= 2 && it == 4;
          if (!base && !(env_is("PICK_AB_RA", "wide") && ((b == 512 && f <= 2) || (b == 1024 && f == 1))))
            continue;
          const unsigned p = std::max(1u, f * (unsigned)c.sms / (unsigned)m);
          std::snprintf(nm, sizeof nm, "RA." PICK_AB_STR(PICK_AB_BK) ".SV b%u i%u p%u", b, it, p);
          one(c, "rows", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
            switch (b) {
            case 256: return rs::PICK_AB_NAME(RA, PICK_AB_BK)<256>(in, m, n, n, c.out, c.temp, c.temp_bytes, it, p, c.s, true);
            case 512: return rs::PICK_AB_NAME(RA, PICK_AB_BK)<512>(in, m, n, n, c.out, c.temp, c.temp_bytes, it, p, c.s, true);
            default: return rs::PICK_AB_NAME(RA, PICK_AB_BK)<1024>(in, m, n, n, c.out, c.temp, c.temp_bytes, it, p, c.s, true);
            }
          });
        }
    if (n % 4 == 0 && !env_is("PICK_AB_PROTO", "0") && std::is_same<T, float>::value)
      for (unsigned f : {2u, 4u, 8u}) { // f sms blocks in all, at least 1 a row
        const unsigned p = std::max(1u, f * (unsigned)c.sms / (unsigned)m);
        std::snprintf(nm, sizeof nm, "P.rowsA p%u", p);
        one(c, "rows", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
          CK(cudaMemsetAsync(c.out, 0, m * sizeof(float), c.s));
          proto_rows_atomic<false><<<dim3(p, (unsigned)m), 256, 0, c.s>>>(reinterpret_cast<const float *>(in), n,
                                                                           reinterpret_cast<float *>(c.out));
          return cudaGetLastError();
        });
        // as CA.SV is launched: out set by tgm_init_out, the row kernel behind it with PDL (sm_90+)
        std::snprintf(nm, sizeof nm, "P.rowsA-init p%u", p);
        one(c, "rows", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
          TGM_LAUNCH(cs::tgm_init_out, tgm_init_out_grid(m), 256, c.s, c.out, (tgm_size)m);
          CK(cudaGetLastError());
          return cs::tgm_launch_early(proto_rows_atomic<true>, dim3(p, (unsigned)m), 256, c.s,
                                      reinterpret_cast<const float *>(in), (size_t)n,
                                      reinterpret_cast<float *>(c.out));
        });
      }
  }
  if (grid_off())
    return;
  const char *rw_max = std::getenv("PICK_AB_RW_MAX"); // RW's settings for n below it (default 2048)
  const size_t rw_below = rw_max ? std::strtoull(rw_max, nullptr, 10) : 2048;
  for (unsigned b : {128u, 256u, 512u, 1024u}) {
    if (n < rw_below)
      for (unsigned p = 1; p <= 32; p *= 2) {
        run({0, 0, p, b, 1});
        run({0, 1, p, b, 1});
        run({0, 1, p, b, 4});
      }
    if (n >= 128) {
      run({1, 1, 0, b, 1});
      run({1, 1, 0, b, 4});
      run({1, 1, 0, b, 16});
    }
    if (n >= 2048 && m <= 4096 && b >= 256 && !env_is("PICK_AB_RL", "0"))
      for (unsigned p : {2u, 4u, 8u, 16u, 33u, 66u, 132u})
        if (m * p <= 32768)
          run({2, 1, p, b, 4});
  }
  if ((n == 2 || (n % 4 == 0 && n <= 128)) && std::is_same<T, float>::value) {
    size_t nv = m * n / 4;
    unsigned g = n == 2 ? 0 : n / 4;
    for (unsigned waves : {1u, 2u, 4u})
      for (unsigned items : {1u, 4u}) {
        std::snprintf(nm, sizeof nm, "P.rows w%u i%u", waves, items);
        unsigned grid = (unsigned)std::min<size_t>((size_t)c.sms * 8 * waves, (nv + 255) / 256);
        one(c, "rows", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
          if (items == 4)
            proto_rows<4><<<grid, 256, 0, c.s>>>(reinterpret_cast<const float4 *>(in), nv, g,
                                                 reinterpret_cast<float *>(c.out));
          else
            proto_rows<1><<<grid, 256, 0, c.s>>>(reinterpret_cast<const float4 *>(in), nv, g,
                                                 reinterpret_cast<float *>(c.out));
          return cudaGetLastError();
        });
      }
  }
}

static void cols_shape(Ctx &c, const std::vector<T> &h, size_t m, size_t n, unsigned xb, unsigned xg,
                       unsigned xp) {
  std::vector<double> want, bound;
  reference(h, true, m, n, want, bound);
  char nm[96];
  {
    size_t bytes = c.temp_bytes;
    one(c, "cols", m, n, "pick", want, bound,
        [&](const T *in) { return SUM_COLS(c.temp, &bytes, in, c.out, m, n, n, c.s); });
  }
  tgm_cols_pick k0 = tgm_cols_pick_of(m, n, (unsigned)c.sms, 4, 1);
  // CT.SV in blocks of b, width w, p parts, after a memset of its first `clear` bytes of temp (the counters)
  // (early: the counters cleared by tgm_clear_counters, the column kernel launched behind it, as the
  // embedded call does on sm_90+)
  auto ct = [&](const T *in, unsigned b, unsigned w, unsigned p, size_t clear,
                bool early = false) -> cudaError_t {
    if (clear && early)
      TGM_LAUNCH(cs::tgm_clear_counters, 1, 256, c.s, static_cast<unsigned *>(c.temp), (unsigned)(clear / 4));
    else if (clear)
      CK(cudaMemsetAsync(c.temp, 0, clear, c.s));
    switch (b) {
    case 128: return cs::launch_sum_CT_SV<128>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    case 256: return cs::launch_sum_CT_SV<256>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    case 512: return cs::launch_sum_CT_SV<512>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    default: return cs::launch_sum_CT_SV<1024>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    }
  };
  int major = 0;
  CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  const bool early = major >= 9; // CA.SV launched behind its init (PDL)
  // CA.SV in blocks of b, width w, p parts (out set to the identity, the parts' atomics)
  auto ca = [&](const T *in, unsigned b, unsigned w, unsigned p) -> cudaError_t {
    switch (b) {
    case 128: return cs::launch_sum_CA_SV<128>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    case 256: return cs::launch_sum_CA_SV<256>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    case 512: return cs::launch_sum_CA_SV<512>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    default: return cs::launch_sum_CA_SV<1024>(in, m, n, n, c.out, c.temp, c.temp_bytes, p, w, c.s, early);
    }
  };
  if (k0.parts > 1) { // the pick's setting both ways: CT.SV as the call runs it (the counters
                      // cleared by a kernel the column kernel starts behind: PDL, sm_90+; the
                      // last part folding) and CA.SV (out set to the identity, the parts' atomics)
    one(c, "cols", m, n, "pick-ca", want, bound,
        [&](const T *in) { return ca(in, k0.block, k0.groups, k0.parts); });
    one(c, "cols", m, n, "pick-ct", want, bound, [&](const T *in) {
      return ct(in, k0.block, k0.groups, k0.parts, (size_t)TGM_ROWS_PARTS_MAX * 4, early);
    });
  }
  if (k0.parts > 1) { // the pick's launch with a memset of its tiles' counters alone (not all 4096)
    const size_t tiles = tgm_cols_grid_of((unsigned long long)c.d, n, k0.groups, 4, sizeof(T));
    one(c, "cols", m, n, "pick-memset-tiles", want, bound,
        [&](const T *in) { return ct(in, k0.block, k0.groups, k0.parts, (tiles * 4 + 15) / 16 * 16); });
    // the pick's launch without its memset (the counters zero from here on: each call leaves them so)
    CK(cudaMemset(c.temp, 0, (size_t)TGM_ROWS_PARTS_MAX * 4));
    one(c, "cols", m, n, "pick-nomemset", want, bound,
        [&](const T *in) { return ct(in, k0.block, k0.groups, k0.parts, 0); });
  }
  if (xb) { // the setting given with the shape (PICK_AB_SET=ca: as CA.SV)
    const bool as_ca = env_is("PICK_AB_SET", "ca");
    std::snprintf(nm, sizeof nm, "%s b%u g%u p%u", as_ca ? "set-ca" : "set", xb, xg, xp);
    one(c, "cols", m, n, nm, want, bound, [&](const T *in) {
      return as_ca ? ca(in, xb, xg, xp) : ct(in, xb, xg, xp, xp > 1 ? (size_t)TGM_ROWS_PARTS_MAX * 4 : 0);
    });
  }
  if (grid_off())
    return;
  std::vector<unsigned> widths = {k0.groups};
  if (k0.groups >= 8)
    widths.push_back(k0.groups / 4);
  for (unsigned b : {128u, 256u, 512u, 1024u})
    for (unsigned w : widths)
      for (unsigned p : {1u, 2u, 4u, 8u, 16u, 33u, 66u, 132u, 264u, 528u, 1056u, 2112u}) {
        if (w > b || (p > 1 && (size_t)p * n > (1u << 20)) || (size_t)p * 4 > m)
          continue;
        std::snprintf(nm, sizeof nm, "CT.SV b%u g%u p%u", b, w, p);
        one(c, "cols", m, n, nm, want, bound,
            [&](const T *in) { return ct(in, b, w, p, p > 1 ? (size_t)TGM_ROWS_PARTS_MAX * 4 : 0); });
        if (p == 1)
          continue;
        std::snprintf(nm, sizeof nm, "CA.SV b%u g%u p%u", b, w, p); // the parts' atomics, early on sm_90+
        one(c, "cols", m, n, nm, want, bound, [&](const T *in) { return ca(in, b, w, p); });
      }
  if (env_is("PICK_AB_REPICK", "1")) { // the pick again, last (the first setting follows the host's reference)
    size_t bytes = c.temp_bytes;
    one(c, "cols", m, n, "pick-again", want, bound,
        [&](const T *in) { return SUM_COLS(c.temp, &bytes, in, c.out, m, n, n, c.s); });
  }
  if (m <= 64 && n % 4 == 0 && std::is_same<T, float>::value)
    for (unsigned waves : {1u, 2u, 4u}) {
      size_t nv = n / 4;
      unsigned grid = (unsigned)std::min<size_t>((size_t)c.sms * 8 * waves, (nv + 255) / 256);
      std::snprintf(nm, sizeof nm, "P.cols w%u", waves);
      one(c, "cols", m, n, nm, want, bound, [&](const T *in) -> cudaError_t {
        proto_cols<<<grid, 256, 0, c.s>>>(reinterpret_cast<const float4 *>(in), m, nv,
                                          reinterpret_cast<float4 *>(c.out));
        return cudaGetLastError();
      });
    }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pick_ab OUT.csv [rows:MxN | cols:MxN ...]\n");
    return 2;
  }
  const size_t len = ((size_t)1 << 28) + 4096; // the matrix's elements, in host and device memory
  struct Job {
    bool cols;
    size_t m, n;
    unsigned xb, xg, xp; // a column setting to time too (xb = 0: none)
  };
  std::vector<Job> jobs; // the shapes given, else (empty) the default set
  for (int i = 2; i < argc; i++) {
    unsigned long long m = 0, n = 0;
    char kind[8] = "";
    unsigned xb = 0, xg = 0, xp = 0;
    int got = std::sscanf(argv[i], "%4[a-z]:%llux%llu:b%u,g%u,p%u", kind, &m, &n, &xb, &xg, &xp);
    if ((got != 3 && got != 6) || m == 0 || n == 0 || m * n > len - 4096 ||
        (std::strcmp(kind, "rows") && std::strcmp(kind, "cols")) ||
        (got == 6 && (kind[0] != 'c' || !tgm_cols_width_ok(xg, xb) || xp == 0 || xp > 65535 ||
                      (xb != 128 && xb != 256 && xb != 512 && xb != 1024))) ||
        (kind[0] == 'r' && m > (1ull << 27))) { // d_out holds 2^27 results
      std::fprintf(stderr, "pick_ab: bad shape '%s' (rows:MxN, cols:MxN or cols:MxN:bB,gG,pP)\n", argv[i]);
      return 2;
    }
    if (got == 3)
      xb = xg = xp = 0;
    jobs.push_back({kind[0] == 'c', (size_t)m, (size_t)n, xb, xg, xp});
  }
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  Ctx c{};
  c.sms = p.multiProcessorCount;
  c.csv = std::fopen(argv[1], "w");
  if (!c.csv)
    return 2;
  std::fprintf(c.csv, "# %s, %d SMs; sum %s; us per call, cold L2: (b) one call, (c) graph\n", p.name, c.sms,
               TYPE_NAME);
  std::fprintf(c.csv, "shape,m,n,setting,b_us,c_us\n");
  std::vector<T> h(len);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x = std::is_floating_point<T>::value ? (T)((double)(state >> 11) / 4503599627370496.0 - 1.0)
                                         : (T)((state >> 11) % 17) - (T)8;
  }
  T *d;
  CK(cudaMalloc(&d, len * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), len * sizeof(T), cudaMemcpyHostToDevice));
  c.d = d;
  c.d_len = len;
  c.flush = flush_alloc();
  CK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
  c.temp_bytes = (size_t)64 << 20;
  CK(cudaMalloc(&c.temp, c.temp_bytes));
  CK(cudaMalloc(&c.out, ((size_t)1 << 27) * sizeof(T)));
  if (jobs.empty()) { // the default set, after the plain read
    const std::vector<double> none;
    for (int e = 20; e <= 28; e += 2) {
      size_t nv = ((size_t)1 << e) / 4;
      one(c, "read", (size_t)1 << e, 1, "read", none, none, [&](const T *in) -> cudaError_t {
        bytes_floor<<<c.sms * 8, 256, 0, c.s>>>(reinterpret_cast<const float *>(in), nv * 4, nullptr, 0);
        return cudaGetLastError();
      });
    }
    auto add = [&](bool cols, int e, int k) { jobs.push_back({cols, (size_t)1 << (e - k), (size_t)1 << k, 0, 0, 0}); };
    for (int e : {22, 24})
      for (int k = 1; k <= e - 1; k += 2)
        add(false, e, k);
    for (int k : {1, 2, 3, 4, 5})
      add(false, 28, k);
    add(false, 26, 1);
    add(false, 26, 3);
    for (int e : {22, 24})
      for (int k = 1; k <= e - 1; k += 2)
        add(true, e, k);
    for (int k : {1, 2, 3, 4, 5})
      add(true, 28, k);
    for (auto ek : std::vector<std::pair<int, int>>{{20, 3}, {20, 9}, {20, 13}, {20, 17}, {18, 3}, {18, 11}, {26, 25}, {26, 15}})
      add(true, ek.first, ek.second);
  }
  for (const Job &j : jobs)
    if (j.cols)
      cols_shape(c, h, j.m, j.n, j.xb, j.xg, j.xp);
    else
      rows_shape(c, h, j.m, j.n);
  std::fclose(c.csv);
  std::printf("%ld wrong\n", failures);
  return failures ? 1 : 0;
}

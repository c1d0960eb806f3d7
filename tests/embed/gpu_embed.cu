// gpu_embed.cu -- the embedded headers on a real GPU, called as CUB is
// called, against a host reference and CUB in the same process (CTest label
// `gpu`: exit 77 without a GPU).
//
// Build and run (bash tests/embed/gpu.sh does both; the headers come from
// tgm-gen --embed, committed in tests/embed/headers, so no libclang is
// needed here):
//   nvcc -std=c++17 -O3 -arch=sm_90 -I HDR_DIR tests/embed/gpu_embed.cu -o gpu_embed
//   gpu_embed [--quick] [--bench FILE.md]
// For sum/max/min over i32 and f32:
// 1. graph: the first call of each header is made inside a stream capture
//    (its table choice must leave the capture valid); then at n = 0 and
//    2^k + k % 3 for k = 0..30 (every size bucket), the call is captured
//    once (its size query and cudaMalloc before) and the graph replayed
//    three times with new data in the same buffer (x, -x, 2x), every result
//    checked;
// 2. the table that runs on this GPU, printed;
// 3. sweep: every n to 4096, then about 2000 log-spaced sizes with their
//    neighbours to 2^24, offsets 0-3, each called exactly as CUB's
//    documentation shows (size query, cudaMalloc of exactly that size, the
//    call), against a host reference; the size is at least 1 byte and never
//    smaller for a larger n; then one cudaMalloc for the size of 2^24, used
//    by every n of the sweep;
// 4. against CUB: sizes 0, 1, 2, 31, 33, 4097, 2^20+3, 2^26 and 2^31+5
//    (i32 sum: 64-bit indexing), offsets 0-3, two streams at once, poisoned
//    output, temp of exactly the queried size filled with garbage.
// Integers exactly, float sums within (n+1)·eps·Σ|x| of a double reference
// (CUB's answer is held to the same bound), max/min exactly. --bench times
// the embedded call and cub::DeviceReduce for the even powers 2^10..2^30 in
// the ways users time (time_us: (a) back-to-back calls, (b) one call
// after an L2 flush, (c) calls in a CUDA graph, all with a cold L2; (d)
// back-to-back calls on one input, the L2 warm), a markdown table with the
// ratios and the bandwidth.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "sum_i32.h"
#include "max_i32.h"
#include "min_i32.h"
#include "sum_f32.h"
#include "max_f32.h"
#include "min_f32.h"

#include "gpu_timing.h"

enum Op { SUM, MAX, MIN };
static const char *op_names[] = {"sum", "max", "min"};
static long failures;

template <typename T> struct Fn {
  typedef cudaError_t (*Embedded)(void *, size_t *, const T *, T *, size_t, cudaStream_t);
};
template <typename T> static typename Fn<T>::Embedded embedded(Op op);
template <> Fn<int32_t>::Embedded embedded<int32_t>(Op op) {
  return op == SUM ? tgm_sum_i32 : op == MAX ? tgm_max_i32 : tgm_min_i32;
}
template <> Fn<float>::Embedded embedded<float>(Op op) {
  return op == SUM ? tgm_sum_f32 : op == MAX ? tgm_max_f32 : tgm_min_f32;
}
static const char *table_of(Op op, bool f32) {
  if (f32)
    return op == SUM ? tgm_sum_f32_table() : op == MAX ? tgm_max_f32_table() : tgm_min_f32_table();
  return op == SUM ? tgm_sum_i32_table() : op == MAX ? tgm_max_i32_table() : tgm_min_i32_table();
}

template <typename T>
static cudaError_t cub_reduce(Op op, void *temp, size_t &bytes, const T *in, T *out, size_t n,
                              cudaStream_t s) {
  if (op == SUM)
    return cub::DeviceReduce::Sum(temp, bytes, in, out, (int64_t)n, s);
  if (op == MAX)
    return cub::DeviceReduce::Max(temp, bytes, in, out, (int64_t)n, s);
  return cub::DeviceReduce::Min(temp, bytes, in, out, (int64_t)n, s);
}

template <typename T> static const char *tname() {
  return sizeof(T) == 4 && T(0.5) == 0 ? "i32" : "f32";
}

// Host reference over [in, in + n): exact for integers (wrapping like the
// GPU) and max/min; a double sum and Σ|x| for float sums.
template <typename T> struct Ref {
  T exact;
  double sum, mag;
};
template <typename T> static Ref<T> reference(Op op, const T *x, size_t n) {
  Ref<T> r{};
  if (op == SUM) {
    uint32_t wrap = 0;
    for (size_t i = 0; i < n; i++) {
      r.sum += (double)x[i];
      r.mag += std::fabs((double)x[i]);
      wrap += (uint32_t)(int64_t)x[i];
    }
    std::memcpy(&r.exact, &wrap, sizeof(T)); // integers only
  } else {
    T m = op == MAX ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    if (std::is_floating_point<T>::value)
      m = op == MAX ? -INFINITY : INFINITY;
    for (size_t i = 0; i < n; i++)
      m = op == MAX ? std::max(m, x[i]) : std::min(m, x[i]);
    r.exact = m;
  }
  return r;
}

template <typename T> static bool close_enough(Op op, const Ref<T> &r, T got, size_t n) {
  if (std::is_floating_point<T>::value && op == SUM)
    return std::fabs((double)got - r.sum) <= (double)(n + 1) * 1.1920929e-7 * r.mag + 1e-30;
  return std::memcmp(&got, &r.exact, sizeof(T)) == 0;
}

// The identity's result (n = 0): 0 for a sum, the lowest / highest value
// (-inf / inf for floats) for max / min.
template <typename T> static T identity(Op op) {
  if (op == SUM)
    return T(0);
  if (std::is_floating_point<T>::value)
    return op == MAX ? -INFINITY : INFINITY;
  return op == MAX ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// ------------------------------------------------------------------ graphs
template <typename T> __global__ void scale(T *x, size_t n, T f) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    x[i] *= f;
}

// The first call of a header, a size query, inside a stream capture: the
// table choice (device attributes, once the properties) must leave the
// capture valid.
template <typename T> static void first_call_in_capture(Op op, const T *d, T *out) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g = nullptr;
  size_t bytes = 0;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaError_t e = embedded<T>(op)(nullptr, &bytes, d, out, 4097, s);
  cudaError_t e2 = cudaStreamEndCapture(s, &g);
  if (e != cudaSuccess || e2 != cudaSuccess || bytes == 0) {
    ++failures;
    std::printf("FAIL %s %s: the first call inside a capture: %s, capture %s, %zu bytes\n",
                op_names[op], tname<T>(), cudaGetErrorString(e), cudaGetErrorString(e2), bytes);
  }
  if (g)
    CK(cudaGraphDestroy(g));
  cudaGetLastError();
  CK(cudaStreamDestroy(s));
}

// Captured once per size, replayed with x, -x and 2x in the same buffer.
template <typename T> static void graphs(Op op, const std::vector<T> &h, const T *d, size_t have) {
  std::vector<size_t> sizes = {0};
  for (int k = 0; k <= 30; k++)
    if (((size_t)1 << k) + k % 3 <= have)
      sizes.push_back(((size_t)1 << k) + k % 3);
  // the references at every size, in one pass: the sum and both extremes
  // (the extreme of -x is the other extreme of x, negated)
  std::vector<Ref<T>> sums;
  std::vector<T> his, los;
  {
    Ref<T> r{};
    uint32_t wrap = 0;
    T hi = identity<T>(MAX), lo = identity<T>(MIN);
    size_t i = 0;
    for (size_t n : sizes) {
      for (; i < n; i++) {
        r.sum += (double)h[i], r.mag += std::fabs((double)h[i]), wrap += (uint32_t)(int64_t)h[i];
        hi = std::max(hi, h[i]), lo = std::min(lo, h[i]);
      }
      if (!std::is_floating_point<T>::value)
        std::memcpy(&r.exact, &wrap, sizeof(T));
      sums.push_back(r), his.push_back(hi), los.push_back(lo);
    }
  }
  auto fn = embedded<T>(op);
  T *gin, *out;
  CK(cudaMalloc(&gin, sizes.back() * sizeof(T) + 16));
  CK(cudaMalloc(&out, sizeof(T)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int replays = 0;
  for (size_t k = 0; k < sizes.size(); k++) {
    size_t n = sizes[k];
    // on s: a device-to-device cudaMemcpy may still run when it returns, on
    // the legacy stream, which the non-blocking s does not wait for (replay
    // 0 read a half-copied input at 2^25 and up on the H100)
    CK(cudaMemcpyAsync(gin, d, n * sizeof(T), cudaMemcpyDeviceToDevice, s));
    size_t bytes = 0;
    void *temp = nullptr;
    CK(fn(nullptr, &bytes, gin, out, n, s));
    CK(cudaMalloc(&temp, bytes));
    cudaGraph_t g = nullptr;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaError_t e = fn(temp, &bytes, gin, out, n, s);
    cudaError_t e2 = cudaStreamEndCapture(s, &g);
    if (e != cudaSuccess || e2 != cudaSuccess) {
      ++failures;
      std::printf("FAIL %s %s n=%zu: capture: %s, %s\n", op_names[op], tname<T>(), n,
                  cudaGetErrorString(e), cudaGetErrorString(e2));
      cudaGetLastError();
      if (g)
        CK(cudaGraphDestroy(g));
      CK(cudaFree(temp));
      continue;
    }
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 3; r++) { // x, then -x, then 2x
      if (r > 0)
        scale<T><<<1024, 256, 0, s>>>(gin, n, r == 1 ? T(-1) : T(-2));
      CK(cudaMemsetAsync(out, 0x7f, sizeof(T), s)); // poisoned: the replay must write it
      CK(cudaGraphLaunch(ge, s));
      CK(cudaStreamSynchronize(s));
      T got;
      CK(cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost));
      Ref<T> want = sums[k]; // x, -x, 2x
      if (op == SUM && r > 0) {
        want.sum = r == 1 ? -sums[k].sum : 2 * sums[k].sum;
        want.mag = r == 1 ? sums[k].mag : 2 * sums[k].mag;
        uint32_t w;
        std::memcpy(&w, &sums[k].exact, sizeof w);
        w = r == 1 ? 0u - w : 2u * w; // wraps as the GPU does
        if (!std::is_floating_point<T>::value)
          std::memcpy(&want.exact, &w, sizeof w);
      } else if (op != SUM) {
        T same = op == MAX ? his[k] : los[k], other = op == MAX ? los[k] : his[k];
        want.exact = n == 0 ? identity<T>(op) : r == 0 ? same : r == 1 ? T(-other) : T(2 * same);
      }
      if (!close_enough(op, want, got, n) && ++failures < 20)
        std::printf("FAIL %s %s n=%zu: graph replay %d: %.9g, want %.9g\n", op_names[op],
                    tname<T>(), n, r, (double)got,
                    op == SUM && std::is_floating_point<T>::value ? want.sum : (double)want.exact);
      replays++;
      if (n == 0)
        break; // no data to change
    }
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(temp));
  }
  std::printf("graphs %s %s: %zu sizes (0, 2^k + k%%3 to 2^%d), %d replays with new data\n",
              op_names[op], tname<T>(), sizes.size(), (int)std::log2((double)sizes.back()),
              replays);
  CK(cudaStreamDestroy(s));
  CK(cudaFree(gin));
  CK(cudaFree(out));
}

// ------------------------------------------------------------------- sweep
static std::vector<size_t> sweep_sizes(size_t top) {
  std::set<size_t> s;
  for (size_t n = 1; n <= 4096; n++)
    s.insert(n);
  const double lo = std::log(4096.0), hi = std::log((double)top);
  for (int i = 0; i <= 2000; i++) {
    size_t n = (size_t)std::exp(lo + (hi - lo) * i / 2000);
    for (size_t m : {n - 1, n, n + 1})
      if (m <= top)
        s.insert(m);
  }
  for (int k = 1; ((size_t)1 << k) <= top; k++)
    for (size_t m : {((size_t)1 << k) - 1, (size_t)1 << k, ((size_t)1 << k) + 1})
      if (m <= top)
        s.insert(m);
  s.insert(top);
  return std::vector<size_t>(s.begin(), s.end());
}

// References over [off, off + n), off < 4, from prefixes: sums and Σ|x|
// from 0, max/min from element 4 on (the first four taken one by one).
template <typename T> struct Prefix {
  std::vector<uint32_t> wrap;
  std::vector<double> sum, mag;
  std::vector<T> max4, min4;
  const T *x;
  Prefix(const std::vector<T> &h, size_t top) : x(h.data()) {
    size_t n = top + 5;
    wrap.resize(n + 1), sum.resize(n + 1), mag.resize(n + 1), max4.resize(n + 1),
        min4.resize(n + 1);
    T hi = identity<T>(MAX), lo = identity<T>(MIN);
    for (size_t i = 0; i <= n; i++) {
      if (i > 0) {
        wrap[i] = wrap[i - 1] + (uint32_t)(int64_t)h[i - 1];
        sum[i] = sum[i - 1] + (double)h[i - 1];
        mag[i] = mag[i - 1] + std::fabs((double)h[i - 1]);
        if (i > 4)
          hi = std::max(hi, h[i - 1]), lo = std::min(lo, h[i - 1]);
      }
      max4[i] = hi, min4[i] = lo;
    }
  }
  Ref<T> of(Op op, size_t off, size_t n) const {
    Ref<T> r{};
    if (op == SUM) {
      uint32_t w = wrap[off + n] - wrap[off];
      std::memcpy(&r.exact, &w, sizeof(T));
      r.sum = sum[off + n] - sum[off];
      r.mag = mag[off + n] - mag[off];
      return r;
    }
    T m = op == MAX ? max4[off + n] : min4[off + n];
    for (size_t i = off; i < off + n && i < 4; i++)
      m = op == MAX ? std::max(m, x[i]) : std::min(m, x[i]);
    r.exact = m;
    return r;
  }
};

// Every size as CUB's documentation shows (query, cudaMalloc of exactly
// that size, call); then one allocation for the largest size for all.
template <typename T>
static void sweep(Op op, const Prefix<T> &pre, const T *d, const std::vector<size_t> &sizes) {
  auto fn = embedded<T>(op);
  const size_t batch = 256;
  T *out;
  CK(cudaMalloc(&out, batch * sizeof(T)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  size_t prev = 0, prev_n = 0, shrinks = 0, zeros = 0, wrong = 0;
  size_t top_bytes = 0;
  CK(fn(nullptr, &top_bytes, d, out, sizes.back(), s));
  void *shared = nullptr;
  CK(cudaMalloc(&shared, top_bytes));
  for (int once = 0; once < 2;
       once++) { // 0: a buffer per call, of its size; 1: one for the largest
    for (size_t b0 = 0; b0 < sizes.size(); b0 += batch) {
      size_t nb = std::min(batch, sizes.size() - b0);
      std::vector<void *> temps(nb, nullptr);
      CK(cudaMemsetAsync(out, 0x7f, batch * sizeof(T), s)); // poisoned
      for (size_t j = 0; j < nb; j++) {
        size_t n = sizes[b0 + j], off = (b0 + j) % 4, bytes = top_bytes;
        void *temp = shared;
        if (!once) {
          CK(fn(nullptr, &bytes, d + off, out + j, n, s));
          if (bytes == 0 && ++zeros < 5)
            std::printf("FAIL %s %s n=%zu: 0 temp bytes\n", op_names[op], tname<T>(), n);
          if (bytes < prev && ++shrinks < 5)
            std::printf("FAIL %s %s: %zu temp bytes for n=%zu, %zu for n=%zu\n", op_names[op],
                        tname<T>(), bytes, n, prev, prev_n);
          prev = bytes, prev_n = n;
          CK(cudaMalloc(&temps[j], bytes));
          temp = temps[j];
        }
        cudaError_t e = fn(temp, &bytes, d + off, out + j, n, s);
        if (e != cudaSuccess && ++wrong < 20)
          std::printf("FAIL %s %s n=%zu offset %zu%s: %s\n", op_names[op], tname<T>(), n, off,
                      once ? " (temp of the largest n)" : "", cudaGetErrorString(e));
      }
      CK(cudaStreamSynchronize(s));
      std::vector<T> got(nb);
      CK(cudaMemcpy(got.data(), out, nb * sizeof(T), cudaMemcpyDeviceToHost));
      for (size_t j = 0; j < nb; j++) {
        size_t n = sizes[b0 + j], off = (b0 + j) % 4;
        Ref<T> r = pre.of(op, off, n);
        if (!close_enough(op, r, got[j], n) && ++wrong < 20)
          std::printf("FAIL %s %s n=%zu offset %zu%s: %.9g, want %.9g\n", op_names[op], tname<T>(),
                      n, off, once ? " (temp of the largest n)" : "", (double)got[j],
                      op == SUM && std::is_floating_point<T>::value ? r.sum : (double)r.exact);
        if (temps[j])
          CK(cudaFree(temps[j]));
      }
    }
  }
  failures += (long)(zeros + shrinks + wrong);
  std::printf("sweep %s %s: %zu sizes 1..%zu, offsets 0-3, as CUB shows and with one temp of %zu "
              "bytes: "
              "%zu wrong, %zu zero sizes, %zu shrinking sizes\n",
              op_names[op], tname<T>(), sizes.size(), sizes.back(), top_bytes, wrong, zeros,
              shrinks);
  CK(cudaFree(shared));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(out));
}

template <typename T> static void check(Op op, const std::vector<T> &h, T *d, bool quick) {
  std::vector<size_t> sizes = {0, 1, 2, 31, 33, 4097, (1u << 20) + 3, (size_t)1 << 26};
  if (quick)
    sizes.resize(7);
  size_t big = ((size_t)1 << 31) + 5;
  bool do_big = !quick && op == SUM && !std::is_floating_point<T>::value && h.size() >= big + 3;
  if (do_big)
    sizes.push_back(big);
  auto fn = embedded<T>(op);
  T *out, *cub_out;
  CK(cudaMalloc(&out, 4 * sizeof(T)));
  CK(cudaMalloc(&cub_out, sizeof(T)));
  cudaStream_t s[2];
  CK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
  for (size_t n : sizes) {
    for (int off = 0; off < 4; off++) {
      if (off && n > ((size_t)1 << 26))
        continue; // 2^31+5: offset 0 only (the reference is slow)
      size_t bytes = 0, cub_bytes = 0;
      CK(fn(nullptr, &bytes, d + off, out, n, s[0]));
      CK(cub_reduce<T>(op, nullptr, cub_bytes, d + off, cub_out, n, s[0]));
      void *temp[2] = {nullptr, nullptr}, *cub_temp = nullptr;
      // exactly the sizes asked for, as CUB's documentation shows; the second
      // stream's n - 1 elements are served by the size for n
      CK(cudaMalloc(&temp[0], bytes));
      CK(cudaMalloc(&temp[1], bytes));
      CK(cudaMalloc(&cub_temp, cub_bytes));
      CK(cudaMemset(temp[0], 0xab, bytes));     // garbage: the entry point owns its temp
      CK(cudaMemset(out, 0x7f, 4 * sizeof(T))); // poisoned
      // two streams at once: the same reduction on two offsets' worth of data
      CK(fn(temp[0], &bytes, d + off, out, n, s[0]));
      size_t n2 = n ? n - 1 : 0;
      CK(fn(temp[1], &bytes, d + 3 - off, out + 2, n2, s[1]));
      CK(cub_reduce<T>(op, cub_temp, cub_bytes, d + off, cub_out, n, s[0]));
      CK(cudaDeviceSynchronize());
      T got[4], cub_got;
      CK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&cub_got, cub_out, sizeof(T), cudaMemcpyDeviceToHost));
      Ref<T> r = reference(op, h.data() + off, n), r2 = reference(op, h.data() + 3 - off, n2);
      T poison;
      std::memset(&poison, 0x7f, sizeof poison);
      // n = 0: tgm writes the operator's identity (-inf for a float max); CUB
      // writes numeric_limits::lowest(), so it is not compared there.
      bool ok = close_enough(op, r, got[0], n) && close_enough(op, r2, got[2], n2) &&
                std::memcmp(&got[1], &poison, sizeof(T)) == 0 &&
                (n == 0 || close_enough(op, r, cub_got, n));
      if (!ok && ++failures < 20)
        std::printf("FAIL %s %s n=%zu offset=%d: tgm %.9g (2nd stream %.9g), cub %.9g, ref %.9g\n",
                    op_names[op], tname<T>(), n, off, (double)got[0], (double)got[2],
                    (double)cub_got,
                    op == SUM && std::is_floating_point<T>::value ? r.sum : (double)r.exact);
      CK(cudaFree(temp[0]));
      CK(cudaFree(temp[1]));
      CK(cudaFree(cub_temp));
    }
  }
  std::printf("checked %s %s: %zu sizes x offsets 0-3, two streams%s\n", op_names[op], tname<T>(),
              sizes.size(), do_big ? ", incl. 2^31+5" : "");
  CK(cudaStreamDestroy(s[0]));
  CK(cudaStreamDestroy(s[1]));
  CK(cudaFree(out));
  CK(cudaFree(cub_out));
}

template <typename T> static void bench(Op op, T *d, size_t d_len, FILE *md) {
  auto fn = embedded<T>(op);
  Flush flush = flush_alloc();
  T *out;
  CK(cudaMalloc(&out, sizeof(T)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::fprintf(md,
               "\n### %s %s\n\n| n | (a) tgm µs | (a) CUB µs | (a) CUB/tgm | (b) tgm µs | (b) CUB "
               "µs | "
               "(b) CUB/tgm | (b) tgm TB/s | (c) tgm µs | (c) CUB µs | (c) CUB/tgm | (d) tgm µs | "
               "(d) CUB µs | (d) CUB/tgm |\n"
               "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
               op_names[op], tname<T>());
  double log_sum[4] = {0, 0, 0, 0}, worst[4] = {1e9, 1e9, 1e9, 1e9};
  int log_n = 0;
  for (int e = 10; e <= 30; e += 2) {
    size_t n = (size_t)1 << e, bytes = 0, cub_bytes = 0;
    CK(fn(nullptr, &bytes, d, out, n, s));
    CK(cub_reduce<T>(op, nullptr, cub_bytes, d, out, n, s));
    void *temp, *cub_temp;
    CK(cudaMalloc(&temp, bytes));
    CK(cudaMalloc(&cub_temp, cub_bytes));
    double t[4], c[4];
    for (int h = 0; h < 4; h++) {
      t[h] = time_us<T>((Timing)h, [&](const T *in) { CK(fn(temp, &bytes, in, out, n, s)); }, d,
                        d_len, flush, n, s);
      c[h] = time_us<T>((Timing)h,
                        [&](const T *in) {
                          CK(cub_reduce<T>(op, cub_temp, cub_bytes, in, out, n, s));
                        },
                        d, d_len, flush, n, s);
      if (e <= 22)
        log_sum[h] += std::log(c[h] / t[h]);
      worst[h] = std::min(worst[h], c[h] / t[h]);
    }
    log_n += e <= 22;
    std::fprintf(md,
                 "| 2^%d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | "
                 "%.2f "
                 "| %.2f | %.2f |\n",
                 e, t[0], c[0], c[0] / t[0], t[1], c[1], c[1] / t[1], n * sizeof(T) / t[1] / 1e6,
                 t[2], c[2], c[2] / t[2], t[3], c[3], c[3] / t[3]);
    CK(cudaFree(temp));
    CK(cudaFree(cub_temp));
  }
  for (int h = 0; h < 4; h++)
    std::fprintf(md, "\n%s: geomean CUB/tgm over 2^10..2^22 %.2f, lowest %.2f", timing_names[h],
                 std::exp(log_sum[h] / log_n), worst[h]);
  std::fprintf(md, "\n");
  CK(cudaStreamDestroy(s));
  flush_free(flush);
  CK(cudaFree(out));
}

template <typename T> static void run(bool quick, const char *bench_path, bool big) {
  size_t n = big ? ((size_t)1 << 31) + 16 : ((size_t)1 << 30) + 16; // the benchmark goes to 2^30
  std::vector<T> h(n);
  uint64_t state = 0x9e3779b97f4a7c15ull; // xorshift: 2^31 values in seconds
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x = std::is_floating_point<T>::value ? (T)((double)(state >> 11) / 4503599627370496.0 - 1.0)
                                         : (T)((int64_t)(state % 2001) - 1000);
  }
  T *d;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  bool f32 = std::is_floating_point<T>::value;
  T *out;
  CK(cudaMalloc(&out, sizeof(T)));
  for (Op op : {SUM, MAX, MIN}) // before any other call of these headers
    first_call_in_capture<T>(op, d, out);
  CK(cudaFree(out));
  for (Op op : {SUM, MAX, MIN})
    std::printf("%s %s: table %s\n", op_names[op], tname<T>(),
                table_of(op, f32) ? table_of(op, f32) : "(none)");
  for (Op op : {SUM, MAX, MIN})
    graphs<T>(op, h, d, std::min(n - 16, quick ? (size_t)1 << 24 : ((size_t)1 << 30) + 2));
  {
    std::vector<size_t> sizes = sweep_sizes(quick ? (size_t)1 << 20 : (size_t)1 << 24);
    Prefix<T> pre(h, sizes.back());
    for (Op op : {SUM, MAX, MIN})
      sweep<T>(op, pre, d, sizes);
  }
  for (Op op : {SUM, MAX, MIN})
    check<T>(op, h, d, quick);
  if (bench_path) {
    FILE *md = std::fopen(bench_path, "a");
    for (Op op : {SUM, MAX, MIN})
      bench<T>(op, d, n - 16, md);
    std::fclose(md);
  }
  CK(cudaFree(d));
}

int main(int argc, char **argv) {
  bool quick = false;
  const char *bench_path = nullptr;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--bench") && i + 1 < argc)
      bench_path = argv[++i];
  }
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  std::printf("device: %s, sm_%d%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
  if (bench_path) {
    FILE *md = std::fopen(bench_path, "w");
    std::fprintf(md,
                 "# Embedded tgm headers vs cub::DeviceReduce (same process)\n\ndevice: %s, "
                 "sm_%d%d, %d SMs\n",
                 p.name, p.major, p.minor, p.multiProcessorCount);
    std::fclose(md);
  }
  run<int32_t>(quick, bench_path, !quick);
  run<float>(quick, bench_path, false);
  std::printf("%s: %ld failures\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}

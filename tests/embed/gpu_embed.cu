// gpu_embed.cu -- the embedded headers on a real GPU, against CUB in the
// same process (CTest label `gpu`: exit 77 without a GPU).
//
// Build (the headers come from tgm-gen --embed, into HDR_DIR):
//   nvcc -std=c++17 -O3 -arch=native -I HDR_DIR tests/embed/gpu_embed.cu -o gpu_embed
// Run:
//   gpu_embed [--quick] [--bench FILE.md]
// Checks, for sum/max/min over i32 and f32: sizes 0, 1, 2, 31, 33, 4097,
// 2^20+3, 2^26 and 2^31+5 (i32 sum: 64-bit indexing), input offsets of 0-3
// elements, two streams at once, poisoned output; integers exactly, float
// sums within (n+1)·eps·Σ|x| of a double reference (CUB's answer is held to
// the same bound), max/min exactly. --bench times the embedded call and
// cub::DeviceReduce for 2^10..2^30 (stream mode: back-to-back launches,
// cold L2, median of many batches) and writes a markdown table.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sum_i32.h"
#include "max_i32.h"
#include "min_i32.h"
#include "sum_f32.h"
#include "max_f32.h"
#include "min_f32.h"

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

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

template <typename T>
static cudaError_t cub_reduce(Op op, void *temp, size_t &bytes, const T *in, T *out, size_t n,
                              cudaStream_t s) {
  if (op == SUM)
    return cub::DeviceReduce::Sum(temp, bytes, in, out, (int64_t)n, s);
  if (op == MAX)
    return cub::DeviceReduce::Max(temp, bytes, in, out, (int64_t)n, s);
  return cub::DeviceReduce::Min(temp, bytes, in, out, (int64_t)n, s);
}

template <typename T> static const char *tname() { return sizeof(T) == 4 && T(0.5) == 0 ? "i32" : "f32"; }

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
      CK(cudaMalloc(&temp[0], bytes + 16));
      CK(cudaMalloc(&temp[1], bytes + 16));
      CK(cudaMalloc(&cub_temp, cub_bytes + 16));
      CK(cudaMemset(temp[0], 0xab, bytes + 16)); // garbage: the entry point owns its temp
      CK(cudaMemset(out, 0x7f, 4 * sizeof(T)));  // poisoned
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
                std::memcmp(&got[1], &poison, sizeof(T)) == 0 && (n == 0 || close_enough(op, r, cub_got, n));
      if (!ok && ++failures < 20)
        std::printf("FAIL %s %s n=%zu offset=%d: tgm %.9g (2nd stream %.9g), cub %.9g, ref %.9g\n",
                    op_names[op], tname<T>(), n, off, (double)got[0], (double)got[2],
                    (double)cub_got, op == SUM && std::is_floating_point<T>::value ? r.sum : (double)r.exact);
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

// Reading every line of a buffer twice the L2 evicts the input (cold L2)
// without leaving dirty lines behind.
__global__ void flush_l2(const int4 *p, size_t n, int *sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    acc.x ^= p[i].x;
  if (acc.x == 0x12345678)
    *sink = acc.x;
}

template <typename T, typename F>
static double time_us(F launch, const int4 *flush, size_t flush_n, int *sink, size_t n, cudaStream_t s) {
  int batch = n <= (1u << 16) ? 20 : n <= (1u << 22) ? 5 : 1; // amortise launch gaps for small n
  std::vector<float> samples;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; i++)
    launch(); // warm-up
  for (int rep = 0; rep < 25; rep++) {
    flush_l2<<<1024, 256, 0, s>>>(flush, flush_n, sink);
    CK(cudaEventRecord(a, s));
    for (int k = 0; k < batch; k++)
      launch();
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    samples.push_back(ms * 1000 / batch);
  }
  std::sort(samples.begin(), samples.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return samples[samples.size() / 2];
}

template <typename T> static void bench(Op op, T *d, FILE *md) {
  auto fn = embedded<T>(op);
  int l2 = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  size_t flush_n = 2 * (size_t)l2 / sizeof(int4);
  int4 *flush;
  int *sink;
  CK(cudaMalloc(&flush, flush_n * sizeof(int4)));
  CK(cudaMemset(flush, 1, flush_n * sizeof(int4)));
  CK(cudaMalloc(&sink, sizeof(int)));
  T *out;
  CK(cudaMalloc(&out, sizeof(T)));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  std::fprintf(md, "\n### %s %s\n\n| n | tgm µs | tgm GB/s | CUB µs | CUB/tgm |\n|---:|---:|---:|---:|---:|\n",
               op_names[op], tname<T>());
  double log_sum = 0;
  int log_n = 0;
  for (int e = 10; e <= 30; e++) {
    size_t n = (size_t)1 << e, bytes = 0, cub_bytes = 0;
    CK(fn(nullptr, &bytes, d, out, n, s));
    CK(cub_reduce<T>(op, nullptr, cub_bytes, d, out, n, s));
    void *temp, *cub_temp;
    CK(cudaMalloc(&temp, bytes + 16));
    CK(cudaMalloc(&cub_temp, cub_bytes + 16));
    double t = time_us<T>([&] { CK(fn(temp, &bytes, d, out, n, s)); }, flush, flush_n, sink, n, s);
    double c = time_us<T>([&] { CK(cub_reduce<T>(op, cub_temp, cub_bytes, d, out, n, s)); }, flush,
                          flush_n, sink, n, s);
    std::fprintf(md, "| 2^%d | %.2f | %.0f | %.2f | %.2f |\n", e, t, n * sizeof(T) / t / 1e3, c, c / t);
    if (e >= 14 && e <= 22)
      log_sum += std::log(c / t), log_n++;
    CK(cudaFree(temp));
    CK(cudaFree(cub_temp));
  }
  std::fprintf(md, "\ngeomean CUB/tgm over 2^14..2^22: %.2f\n", std::exp(log_sum / log_n));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(flush));
  CK(cudaFree(sink));
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
  for (Op op : {SUM, MAX, MIN})
    check<T>(op, h, d, quick);
  if (bench_path) {
    FILE *md = std::fopen(bench_path, "a");
    for (Op op : {SUM, MAX, MIN})
      bench<T>(op, d, md);
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
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no GPU: skipped\n");
    return 77;
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s, sm_%d%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
  if (bench_path) {
    FILE *md = std::fopen(bench_path, "w");
    std::fprintf(md, "# Embedded tgm headers vs cub::DeviceReduce (same process)\n\ndevice: %s, sm_%d%d, %d SMs\n",
                 p.name, p.major, p.minor, p.multiProcessorCount);
    std::fclose(md);
  }
  run<int32_t>(quick, bench_path, !quick);
  run<float>(quick, bench_path, false);
  std::printf("%s: %ld failures\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}

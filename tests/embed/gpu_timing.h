// gpu_timing.h -- how the GPU tests and benchmarks of the embedded calls
// time a call (tests/embed/gpu_embed.cu, gpu_rows.cu, bench/rows,
// bench/coop): the three ways users time with a cold L2, a fourth with a
// warm one, and the plain read every reduction is measured against. CK (a CUDA call that must
// succeed, else exit 1) is the includer's where it defines one first.
#ifndef TGM_GPU_TIMING_H
#define TGM_GPU_TIMING_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef CK
#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)
#endif

// Device 0's properties into *p; false (said on stdout: "no GPU: skipped")
// where there is no GPU, and the caller exits 77.
[[maybe_unused]] static bool gpu_props(cudaDeviceProp *p) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no GPU: skipped\n");
    return false;
  }
  CK(cudaGetDeviceProperties(p, 0));
  return true;
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

// A thread's share of a plain read of the n floats at in: vectors first,
// first + stride, ... of the 16-byte vectors (in 16-byte aligned), IN_FLIGHT
// loads issued before any is added, then the elements past the last vector.
template <unsigned IN_FLIGHT>
__device__ __forceinline__ float plain_sum(const float *in, size_t n, size_t first, size_t stride) {
  const size_t nv = n / 4;
  const float4 *vin = reinterpret_cast<const float4 *>(in);
  float s = 0.f;
  size_t v = first;
  for (; v + (IN_FLIGHT - 1) * stride < nv; v += IN_FLIGHT * stride) {
    float4 x[IN_FLIGHT];
#pragma unroll
    for (unsigned u = 0; u < IN_FLIGHT; u++)
      x[u] = vin[v + u * stride];
#pragma unroll
    for (unsigned u = 0; u < IN_FLIGHT; u++)
      s += (x[u].x + x[u].y) + (x[u].z + x[u].w);
  }
  for (; v < nv; v += stride)
    s += (vin[v].x + vin[v].y) + (vin[v].z + vin[v].w);
  for (size_t i = nv * 4 + first; i < n; i += stride)
    s += in[i];
  return s;
}

// The bytes every reduction of a shape must move, at a plain kernel's rate:
// the n 4-byte elements at in read (plain_sum, 4 loads in flight a thread)
// and out_n 4-byte results written. Launched as bytes_floor<<<sms * 8,
// 256>>> (one wave of 2048 threads an SM), timed as a call is, it is the
// floor a reduction's time is measured against (bench/rows/heatmap.py);
// with out_n = 0, the plain read.
__global__ void __launch_bounds__(256)
    bytes_floor(const float *in, size_t n, float *out, size_t out_n) {
  const size_t stride = (size_t)gridDim.x * 256, first = (size_t)blockIdx.x * 256 + threadIdx.x;
  const float s = plain_sum<4>(in, n, first, stride);
  for (size_t j = first; j < out_n; j += stride)
    out[j] = s;
}

// The flush buffer (twice the L2 of device 0) that flush_l2 reads, and its sink.
struct Flush {
  int4 *buf;
  size_t n;
  int *sink;
};
[[maybe_unused]] static Flush flush_alloc() {
  int l2 = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  Flush f{nullptr, 2 * (size_t)l2 / sizeof(int4), nullptr};
  CK(cudaMalloc(&f.buf, f.n * sizeof(int4)));
  CK(cudaMemset(f.buf, 1, f.n * sizeof(int4)));
  CK(cudaMalloc(&f.sink, sizeof(int)));
  return f;
}
[[maybe_unused]] static void flush_free(Flush &f) {
  CK(cudaFree(f.buf));
  CK(cudaFree(f.sink));
}

// The three ways users time a reduction, each the median of 15
// samples, the L2 flushed before every sample (cold):
//   (a) stream: a batch of back-to-back calls, each on its own copy of the
//       input, so that all of a call's host cost shows (the tuner's stream
//       mode); time / batch
//   (b) one: a single call after the flush kernel, whose run hides the
//       call's launch latency: the GPU time of one call
//   (c) graph: the batch captured in one CUDA graph and replayed; time / batch
// and one more, with a warm L2, the loop a user times without flushing:
//   (d) warm: the batch of back-to-back calls on the one input, never
//       flushed (the L2 holds what fits of it, as in a plain timing loop)
// launch(in) makes one call on the input at in.
enum Timing { STREAM, ONE, GRAPH, WARM };
[[maybe_unused]] static const char *const timing_names[] = {"(a) stream", "(b) one call",
                                                            "(c) graph", "(d) warm"};

template <typename T, typename F>
static double time_us(Timing how, F launch, const T *d, size_t d_len, const Flush &flush, size_t n,
                      cudaStream_t s) {
  size_t stride = (n + 63) / 64 * 64; // 256-byte apart copies, in d
  const bool warm = how == WARM;
  int batch = how == ONE ? 1 : (int)std::min<size_t>(20, std::max<size_t>(1, d_len / stride));
  if (n > ((size_t)1 << 24))
    batch = 1;
  if (warm)
    batch = 20;
  cudaGraphExec_t exec = nullptr;
  if (how == GRAPH) {
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < batch; k++)
      launch(d + (size_t)k * stride);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&exec, g, 0));
    CK(cudaGraphDestroy(g));
    CK(cudaGraphLaunch(exec, s)); // upload, warm
  }
  for (int i = 0; i < 3; i++)
    launch(d); // warm-up
  std::vector<float> samples;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int rep = 0; rep < 15; rep++) {
    if (!warm)
      flush_l2<<<1024, 256, 0, s>>>(flush.buf, flush.n, flush.sink);
    CK(cudaEventRecord(a, s));
    if (exec)
      CK(cudaGraphLaunch(exec, s));
    else
      for (int k = 0; k < batch; k++)
        launch(warm ? d : d + (size_t)k * stride);
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    samples.push_back(ms * 1000 / batch);
  }
  std::sort(samples.begin(), samples.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  if (exec)
    CK(cudaGraphExecDestroy(exec));
  return samples[samples.size() / 2];
}

#endif

// variants.cu -- every variant of one generated file, run on a real GPU and
// checked against the spectrum's own reference: its scalar codelet run
// sequentially by one GPU thread (tgm_reference), on the same inputs.
//
// nvcc -O2 -arch=sm_90 -I GEN -DTGM_FILE='"dot_f32.cu"' -DTGM_NS=tgm_kernels_dot_f32 \
//      -DTGM_VARIANTS=TGM_VARIANTS_dot_f32 -DTGM_NIN=2 [-DTGM_PARAM='(T)0.25f'] variants.cu
// Sizes 0 ... 2^24+3, an input offset of one element, the output poisoned,
// temp storage zeroed before each call as the embedded call clears its
// counter (that the counter resets itself is the CPU simulator's test). Integers exact; floating point within a bound that grows with n
// (the reference is itself a float sum in another order). Exit 0: all pass;
// 1: a failure (printed); 77: no GPU.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include TGM_FILE

namespace ns = TGM_NS;
using T = ns::T;
using R = ns::R;
#ifdef TGM_PARAM // one scalar parameter's value (nvcc splits -D values at commas)
#define TGM_PARAMS , TGM_PARAM
#else
#define TGM_PARAMS
#endif
#if TGM_NIN == 1
#define TGM_INS(p, off) (p) + (off)
#else
#define TGM_INS(p, off) (p) + (off), (p) + (off) + 7
#endif

// out[0]: the reference; out[1], out[2]: the epilogue of the accumulated
// value -/+ bound, for floating point.
__global__ void reference_kernel(const T *p, unsigned long long off, unsigned long long n,
                                 double bound, R *out) {
  out[0] = ns::tgm_reference(TGM_INS(p, off), n TGM_PARAMS);
  ns::A acc = ns::tgm_accumulate(TGM_INS(p, off), n, 1 TGM_PARAMS);
  out[1] = ns::tgm_epilogue((ns::A)(acc - bound), n TGM_PARAMS);
  out[2] = ns::tgm_epilogue((ns::A)(acc + bound), n TGM_PARAMS);
}

// mag[i] = |the transform of element i|, for the float error bound.
__global__ void magnitude_kernel(const T *p, unsigned long long off, unsigned long long n,
                                 double *mag) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    double t = (double)ns::tgm_accumulate(TGM_INS(p + i, off), 1, 1 TGM_PARAMS);
    mag[i] = t < 0 ? -t : t;
  }
}

static const unsigned long long sizes[] =
    {0, 1, 31, 33, 1000, 4097, 70001, (1ull << 20) + 3, (1ull << 24) + 3};
static T *d_data;
static R *d_out;
static double *d_mag;
static std::vector<double> h_mag;
static long runs, failures;
static R wants[sizeof sizes / sizeof sizes[0]][3]; // per size: reference, low, high

// Integers: exact. Floating point: got lies between the epilogue of the
// accumulated value -/+ 2 (n + 1) eps sum |t_i| (both orders of summation
// are within (n - 1) eps sum |t_i| of the exact sum), or equals the reference.
// At 2^24 f32 elements that bound is as large as the sum itself: a
// sequential float sum is that far off (l2norm: 2340.2 against the tree
// sums' 2364.7, whose exact value is about 2364.8).
static bool close_enough(R got, const R want[3]) {
  if (std::is_integral<R>::value)
    return got == want[0];
  double g = (double)got;
  if (std::isnan(g) || std::isnan((double)want[0]))
    return std::isnan(g) && std::isnan((double)want[0]);
  double w = (double)want[0], a = (double)want[1], b = (double)want[2];
  if (std::isnan(a) || std::isnan(b)) { // the bound left the epilogue's domain (sqrt(< 0)):
    double end = std::isnan(a) ? b : a; // as far from the reference as the other end
    return std::isnan(end) || std::fabs(g - w) <= std::fabs(end - w);
  }
  return g == w || (g >= std::fmin(a, b) && g <= std::fmax(a, b));
}

static double float_bound(unsigned long long n) {
  if (!std::is_floating_point<ns::A>::value || n == 0)
    return 0;
  magnitude_kernel<<<1024, 256>>>(d_data, 1, n, d_mag);
  h_mag.resize(n);
  cudaMemcpy(h_mag.data(), d_mag, n * sizeof(double), cudaMemcpyDeviceToHost);
  long double m = 0;
  for (double x : h_mag)
    m += x;
  double eps = sizeof(ns::A) == 4 ? 1.1920929e-7 : 2.220446049250313e-16;
  return 2.0 * (double)(n + 1) * eps * (double)m;
}

template <unsigned BLOCK, typename Launch, typename TempBytes>
static void run(const char *id, Launch launch, TempBytes temp_bytes, unsigned items, unsigned cap) {
  size_t tb = 0;
  for (unsigned it : {items, 16u})
    tb = std::max(tb, temp_bytes(sizes[sizeof sizes / sizeof sizes[0] - 1], it, cap));
  void *temp = nullptr;
  if (tb)
    cudaMalloc(&temp, tb), cudaMemset(temp, 0, tb);
  for (const unsigned long long &n : sizes) {
    unsigned it = n > 100000 ? 16 : items;
    const R *want = wants[&n - sizes];
    R got;
    cudaMemset(d_out, 0x7f, sizeof(R));
    if (temp)
      cudaMemset(temp, 0, tb);
    cudaError_t e = launch(TGM_INS(d_data, 1), n, d_out, temp, tb, it, cap TGM_PARAMS, nullptr);
    cudaError_t e2 = cudaDeviceSynchronize();
    cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost);
    runs++;
    if (e || e2 || !close_enough(got, want)) {
      if (++failures <= 20)
        std::printf("FAIL %s block=%u n=%llu: got %.17g want %.17g in [%.17g, %.17g] (%s)\n", id,
                    BLOCK, n, (double)got, (double)want[0], (double)want[1], (double)want[2],
                    cudaGetErrorString(e ? e : e2));
    }
  }
  if (temp)
    cudaFree(temp);
}

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no GPU\n");
    return 77;
  }
  size_t total = sizes[sizeof sizes / sizeof sizes[0] - 1] + 16;
  std::vector<T> h(total);
  std::mt19937_64 rng(20261123);
  for (auto &x : h) {
    if (std::is_floating_point<T>::value)
      x = (T)std::uniform_real_distribution<double>(-1, 1)(rng);
    else if (std::is_signed<T>::value)
      x = (T)((long long)(rng() % 2001) - 1000);
    else
      x = (T)(rng() % 2001);
  }
  cudaMalloc(&d_data, total * sizeof(T));
  cudaMalloc(&d_out, 4 * sizeof(R));
  cudaMalloc(&d_mag, total * sizeof(double));
  cudaMemcpy(d_data, h.data(), total * sizeof(T), cudaMemcpyHostToDevice);
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) { // one GPU thread: once per size
    reference_kernel<<<1, 1>>>(d_data, 1, sizes[i], float_bound(sizes[i]), d_out + 1);
    cudaMemcpy(wants[i], d_out + 1, sizeof wants[i], cudaMemcpyDeviceToHost);
  }
  int variants = 0;
#define RUN(id, name, det)                                                      \
  variants++;                                                                   \
  run<256>(id, ns::launch_##name<256>, ns::temp_bytes_##name<256>, 4, 132 * 4); \
  run<256>(id, ns::launch_##name<256>, ns::temp_bytes_##name<256>, 1, 132);
  TGM_VARIANTS(RUN)
#undef RUN
  std::printf("%s: %d variants, %ld runs, %ld failed\n", TGM_FILE, variants, runs, failures);
  return failures ? 1 : 0;
}

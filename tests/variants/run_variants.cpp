// run_variants.cpp -- every emitted variant, run on the CPU sim (sim),
// checked against a host reference.
//
// Compiled once per generated file and dialect with
//   -DTGM_FILE="sum_i32.cu" -DTGM_NS=tgm_kernels_sum_i32 -DTGM_VARIANTS=TGM_VARIANTS_sum_i32
//   -DTGM_OP=0|1|2 (sum, max, min)   [-D__AMDGCN_WAVEFRONT_SIZE=32|64 for HIP]
// For every variant, two launch configurations (block size, items per thread,
// grid cap, input offset, block and thread order) and the sizes below: random
// data (negative values too, never all zero), the output poisoned first and
// a canary after it, the result compared exactly for integers and within
// n * eps * sum|x| for floating-point sums. Temp storage is allocated and
// zeroed once per variant and reused, so a counter that failed to reset
// itself shows up. A failure names the variant, type, op, size and config.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include TGM_FILE

namespace ns = TGM_NS;
using T = ns::T;

static const unsigned long long sizes[] = {0,   1,    2,    31,    32,    33,          255,
                                           256, 257,  1000, 4097,  65537, (1u << 20) + 3};

static const char *op_name() { return TGM_OP == 0 ? "sum" : TGM_OP == 1 ? "max" : "min"; }

static const char *type_name() {
  if (std::is_same<T, int>::value) return "i32";
  if (std::is_same<T, unsigned>::value) return "u32";
  if (std::is_same<T, long long>::value) return "i64";
  if (std::is_same<T, float>::value) return "f32";
  return "f64";
}

struct Check {
  bool ok;
  double got, want, bound;
};

template <typename X> static Check reference(const X *x, unsigned long long n, X got) {
  using T = X;
  if constexpr (std::is_floating_point<T>::value) {
    if (TGM_OP == 0) {
      long double s = 0, mag = 0;
      for (unsigned long long i = 0; i < n; i++)
        s += x[i], mag += std::fabs((long double)x[i]);
      double eps = std::is_same<T, float>::value ? 1.1920929e-7 : 2.220446049250313e-16;
      double bound = (double)(n + 1) * eps * (double)mag;
      return {std::fabs((double)got - (double)s) <= bound, (double)got, (double)s, bound};
    }
    T m = TGM_OP == 1 ? -INFINITY : INFINITY;
    for (unsigned long long i = 0; i < n; i++)
      m = TGM_OP == 1 ? (m < x[i] ? x[i] : m) : (x[i] < m ? x[i] : m);
    return {std::memcmp(&m, &got, sizeof(T)) == 0, (double)got, (double)m, 0};
  } else {
  using U = typename std::make_unsigned<T>::type;
  U s = 0;
  T m = TGM_OP == 1 ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  for (unsigned long long i = 0; i < n; i++) {
    s += (U)x[i]; // wraps like the GPU's two's complement
    m = TGM_OP == 1 ? (m < x[i] ? x[i] : m) : (x[i] < m ? x[i] : m);
  }
  T want = TGM_OP == 0 ? (T)s : m;
  return {want == got, (double)got, (double)want, 0};
  }
}

struct Config {
  unsigned block, items, grid_cap, offset;
  tgm_sim::order blocks, threads;
  const char *name;
};

static const Config configs[] = {
    {128, 1, 8, 0, tgm_sim::order::forward, tgm_sim::order::forward, "block=128 items=1 cap=8 offset=0"},
    {256, 4, 64, 1, tgm_sim::order::random, tgm_sim::order::reverse, "block=256 items=4 cap=64 offset=1 random"},
};

static std::vector<T> data;
static long runs, failures;

template <unsigned BLOCK, typename Launch, typename TempBytes>
static void run(const char *id, Launch launch, TempBytes temp_bytes, const Config &cf) {
  unsigned long long max_n = sizes[sizeof sizes / sizeof sizes[0] - 1];
  size_t tb = 0;
  for (unsigned items : {cf.items, 16u})
    tb = std::max(tb, temp_bytes(max_n, items, cf.grid_cap));
  std::vector<unsigned char> temp(tb + 64, 0); // zeroed once, reused by every run
  tgm_sim::set_block_order(cf.blocks, 7);
  tgm_sim::set_thread_order(cf.threads, 11);
  for (unsigned long long n : sizes) {
    unsigned items = n > 100000 ? 16 : cf.items;
    const T *in = data.data() + cf.offset;
    T out[2];
    std::memset(out, 0x7f, sizeof out); // poison, and a canary after the result
    auto rc = launch(in, n, out, tb ? temp.data() : nullptr, tb, items, cf.grid_cap, nullptr);
    runs++;
    bool canary = [&] {
      T c;
      std::memset(&c, 0x7f, sizeof c);
      return std::memcmp(&c, &out[1], sizeof c) == 0;
    }();
    Check ck = reference(in, n, out[0]);
    if (rc != 0 || !ck.ok || !canary) {
      if (++failures <= 30)
        std::printf("FAIL %s %s %s n=%llu (%s): %s got %.17g want %.17g bound %.3g%s\n", id,
                    type_name(), op_name(), n, cf.name,
                    rc ? tgm_sim::last_error_text() : "", ck.got, ck.want, ck.bound,
                    canary ? "" : " (wrote past out[0])");
    }
  }
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : nullptr;
  std::mt19937_64 rng(20261122);
  data.resize(sizes[sizeof sizes / sizeof sizes[0] - 1] + 8);
  for (auto &x : data) {
    if (std::is_floating_point<T>::value)
      x = (T)std::uniform_real_distribution<double>(-1, 1)(rng);
    else if (std::is_signed<T>::value)
      x = (T)((long long)(rng() % 2001) - 1000);
    else
      x = (T)(rng() % 2001);
  }
  int variants = 0;
#define RUN(id, name, det)                                                                      \
  if (!only || std::strcmp(only, id) == 0) {                                                    \
    variants++;                                                                                 \
    run<128>(id, ns::launch_##name<128>, ns::temp_bytes_##name<128>, configs[0]);               \
    run<256>(id, ns::launch_##name<256>, ns::temp_bytes_##name<256>, configs[1]);               \
  }
  TGM_VARIANTS(RUN)
#undef RUN
  std::printf("%s %s (%s, warp %d): %d variants, %ld runs, %ld failed\n", op_name(), type_name(),
              TGM_DIALECT, tgm_sim::get_warp_size(), variants, runs, failures);
  tgm_sim::release_resources();
  return failures || variants == 0 ? 1 : 0;
}

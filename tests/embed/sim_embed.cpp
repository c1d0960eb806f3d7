// sim_embed.cpp -- the embedded headers' contract, on the CPU simulator
// (sim/): the header is compiled as it is, its kernels run on the CPU, and
// only the device queries are fakes (sim_device.h: GPUs with a name, a
// compute capability and an SM count).
//
// Built per dialect against the six headers sum/max/min x i32/f32 made by
// tgm-gen --embed from a database of several GPUs (tests/embed/gpus_db.sh):
//   CUDA: the H100 (bench/results) and a synthetic H200, mode stream;
//   HIP (-DTGM_HIP): two synthetic AMD GPUs.
// Checks, on every fake GPU:
// - the table: each GPU of a tuned name, compute capability and SM count
//   runs its own, any other the portable one; the choice is made once per
//   GPU (the properties are read once), also by 8 threads racing at the
//   first call;
// - the temp size, over a dense sweep of n (every n to 4096, then about
//   2000 log-spaced sizes with their neighbours, to 2^40, and 2^k - 1..2^k + 1
//   to 2^62): at least 1 byte, never smaller for a larger n, and enough for
//   n's own bucket;
// - calls made as CUB's documentation shows (size query, an allocation of
//   exactly that size, which is NULL for 0 bytes as with cudaMalloc, the
//   call) at sizes in every bucket up to 2^17 and offsets 0-3, the result
//   against a host reference; then one allocation for the largest of those
//   sizes, reused by every smaller one; and every choice of every table run
//   directly at 2^13 + 5 elements (the buckets of large n included);
// - errors: no temp_bytes, a temp smaller than the bucket needs, a failing
//   device query.
#include "sim_device.h"

#include "sum_i32.h"
#include "max_i32.h"
#include "min_i32.h"
#include "sum_f32.h"
#include "max_f32.h"
#include "min_f32.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#ifdef TGM_HIP
typedef hipStream_t stream_t;
static const int err_invalid = hipErrorInvalidValue;
#define DEV_MALLOC hipMalloc
#define DEV_FREE hipFree
#define DEV_MEMSET hipMemset
#else
typedef cudaStream_t stream_t;
static const int err_invalid = cudaErrorInvalidValue;
#define DEV_MALLOC cudaMalloc
#define DEV_FREE cudaFree
#define DEV_MEMSET cudaMemset
#endif

static long failures;
#define FAIL(...)                        \
  do {                                   \
    if (++failures <= 40)                \
      std::printf("FAIL: " __VA_ARGS__); \
  } while (0)

enum Op { SUM, MAX, MIN };

// One header, type-erased: the entry point and, for white-box checks, the
// pieces of its namespace.
struct Header {
  const char *name;
  Op op;
  bool is_float;
  int (*call)(void *temp, size_t *bytes, const void *in, void *out, size_t n);
  // tgm::DeviceReduce::Sum (Max, Min) as CUB's documentation calls
  // cub::DeviceReduce's: the size by reference, the stream left out
  int (*call_cub)(void *temp, size_t &bytes, const void *in, void *out, size_t n);
  const char *(*table)();
  size_t (*own_need)(unsigned long long n); // the bucket of n needs this much at n
  void (*choices)(std::set<int> *out);      // every choice of every table
  size_t (*choice_need)(int c, unsigned long long n);
  int (*choice_run)(int c, const void *in, unsigned long long n, void *out, void *temp,
                    size_t bytes);
};

#define HEADER(NAME, TYPE, OP, CUB)                                                              \
  Header {                                                                                       \
#NAME, OP, std::is_floating_point<TYPE>::value,                                                \
        [](void *temp, size_t *bytes, const void *in, void *out, size_t n) {                      \
          return (int)tgm_##NAME(temp, bytes, (const TYPE *)in, (TYPE *)out, n, stream_t());       \
        },                                                                                         \
        [](void *temp, size_t &bytes, const void *in, void *out, size_t n) {                      \
          return (int)tgm::DeviceReduce::CUB(temp, bytes, (const TYPE *)in, (TYPE *)out, n);       \
        },                                                                                         \
        [] { return tgm_##NAME##_table(); },                                                       \
        [](unsigned long long n) -> size_t {                                                       \
          namespace ns = tgm_kernels_##NAME;                                                       \
          const ns::tgm_table *t = nullptr;                                                        \
          unsigned sms = 0;                                                                        \
          if (ns::tgm_current(&t, &sms) != 0)                                                      \
            return SIZE_MAX;                                                                       \
          return ns::tgm_choice_temp(t->buckets[ns::tgm_bucket_of(t, n)].choice, n, sms);          \
        },                                                                                         \
        [](std::set<int> *out) {                                                                   \
          namespace ns = tgm_kernels_##NAME;                                                       \
          for (const ns::tgm_table &t : ns::tgm_tables)                                            \
            for (int b = 0; b < t.count; b++)                                                      \
              out->insert(t.buckets[b].choice);                                                    \
        },                                                                                         \
        [](int c, unsigned long long n) -> size_t {                                                \
          namespace ns = tgm_kernels_##NAME;                                                       \
          const ns::tgm_table *t = nullptr;                                                        \
          unsigned sms = 0;                                                                        \
          ns::tgm_current(&t, &sms);                                                               \
          return ns::tgm_choice_temp(c, n, sms);                                                   \
        },                                                                                         \
        [](int c, const void *in, unsigned long long n, void *out, void *temp, size_t bytes) {     \
          namespace ns = tgm_kernels_##NAME;                                                       \
          const ns::tgm_table *t = nullptr;                                                        \
          unsigned sms = 0;                                                                        \
          ns::tgm_current(&t, &sms);                                                               \
          return (int)ns::tgm_choice_run(c, (const TYPE *)in, n, (TYPE *)out, temp, bytes, sms,   \
                                         stream_t());                                              \
        }, \
  }

static const Header headers[] = {
    HEADER(sum_i32, int32_t, SUM, Sum), HEADER(max_i32, int32_t, MAX, Max),
    HEADER(min_i32, int32_t, MIN, Min), HEADER(sum_f32, float, SUM, Sum),
    HEADER(max_f32, float, MAX, Max),   HEADER(min_f32, float, MIN, Min),
};

struct Gpu {
  fake::Gpu gpu;
  const char *label; // the table it must run
  bool named;        // a table has its compute capability and SM count: the name is read
};

#ifdef TGM_HIP
static const Gpu gpus[] = {
    {{"AMD Instinct MI250X", 9, 0, 110}, "AMD Instinct MI250X, cc 9.0, 110 SMs", true},
    {{"AMD Radeon RX 6900 XT", 10, 3, 40}, "AMD Radeon RX 6900 XT, cc 10.3, 40 SMs", true},
    {{"AMD Instinct MI250", 9, 0, 110}, "portable", true},   // another name
    {{"AMD Instinct MI250X", 9, 0, 104}, "portable", false}, // another SM count
    {{"AMD Instinct MI300X", 9, 4, 304}, "portable", false}, // nothing alike
};
#else
static const Gpu gpus[] = {
    {{"NVIDIA H100 80GB HBM3", 9, 0, 132}, "NVIDIA H100 80GB HBM3, cc 9.0, 132 SMs", true},
    {{"NVIDIA H200", 9, 0, 132}, "NVIDIA H200, cc 9.0, 132 SMs", true},
    {{"NVIDIA H200 NVL", 9, 0, 132}, "portable", true},        // a longer name
    {{"NVIDIA H100 80GB HBM3", 9, 0, 114}, "portable", false}, // another SM count
    {{"NVIDIA H200", 8, 0, 132}, "portable", false},           // another compute capability
    {{"NVIDIA A100-SXM4-80GB", 8, 0, 108}, "portable", false}, // nothing alike
};
#endif
static const int n_gpus = (int)(sizeof gpus / sizeof gpus[0]);

// ------------------------------------------------------------- references
struct Data {
  std::vector<int32_t> i;
  std::vector<float> f;
};

static bool right(const Header &h, const Data &d, int off, unsigned long long n, const void *got_p,
                  double *got_out, double *want_out) {
  if (h.is_float) {
    const float *x = d.f.data() + off;
    float got;
    std::memcpy(&got, got_p, sizeof got);
    *got_out = got;
    if (h.op == SUM) {
      double s = 0, mag = 0;
      for (unsigned long long k = 0; k < n; k++)
        s += x[k], mag += std::fabs(x[k]);
      *want_out = s;
      return std::fabs(got - s) <= (double)(n + 1) * 1.1920929e-7 * mag;
    }
    float m = h.op == MAX ? -INFINITY : INFINITY;
    for (unsigned long long k = 0; k < n; k++)
      m = h.op == MAX ? std::max(m, x[k]) : std::min(m, x[k]);
    *want_out = m;
    return std::memcmp(&m, &got, sizeof m) == 0;
  }
  const int32_t *x = d.i.data() + off;
  int32_t got;
  std::memcpy(&got, got_p, sizeof got);
  uint32_t s = 0;
  int32_t m = h.op == MAX ? std::numeric_limits<int32_t>::lowest()
                          : std::numeric_limits<int32_t>::max();
  for (unsigned long long k = 0; k < n; k++) {
    s += (uint32_t)x[k];
    m = h.op == MAX ? std::max(m, x[k]) : std::min(m, x[k]);
  }
  int32_t want = h.op == SUM ? (int32_t)s : m;
  *got_out = got, *want_out = want;
  return got == want;
}

// As cudaMalloc / hipMalloc: 0 bytes gives NULL (the sim's own allocator
// would give a buffer, hiding a 0-byte size).
static void *device_alloc(size_t bytes) {
  void *p = nullptr;
  if (bytes && DEV_MALLOC(&p, bytes) != 0)
    std::abort();
  return p;
}

// One call as CUB's documentation shows it (the size by reference, the
// default stream); bytes_given: 0 = the size for n
// from the query, else a buffer of that many bytes (queried for a larger n).
static void cub_style(const Header &h, const Data &d, const void *d_in, int off,
                      unsigned long long n, void *out, void *temp, size_t temp_bytes,
                      const char *how) {
  void *mine = nullptr;
  size_t bytes = temp_bytes;
  if (!temp) {
    bytes = 0;
    if (h.call_cub(nullptr, bytes, nullptr, out, n) != 0) {
      FAIL("%s %s n=%llu: the size query failed\n", h.name, how, n);
      return;
    }
    temp = mine = device_alloc(bytes);
  }
  DEV_MEMSET(out, 0x7f, 8); // poisoned
  const char *in = (const char *)d_in + off * 4;
  int e = h.call_cub(temp, bytes, in, out, n);
  double got = 0, want = 0;
  if (e != 0)
    FAIL("%s %s n=%llu offset %d: error %d (temp %zu bytes)\n", h.name, how, n, off, e, bytes);
  else if (!right(h, d, off, n, out, &got, &want))
    FAIL("%s %s n=%llu offset %d: got %.9g, want %.9g (temp %zu bytes, table %s)\n", h.name, how, n,
         off, got, want, bytes, h.table());
  if (mine)
    DEV_FREE(mine);
}

// --------------------------------------------------------------- the sweep
static std::vector<unsigned long long> sweep_sizes() {
  std::set<unsigned long long> s;
  for (unsigned long long n = 0; n <= 4096; n++)
    s.insert(n);
  const double lo = std::log(4096.0), hi = std::log(std::ldexp(1.0, 40));
  for (int i = 0; i <= 2000; i++) {
    unsigned long long n = (unsigned long long)std::exp(lo + (hi - lo) * i / 2000);
    s.insert(n - 1), s.insert(n), s.insert(n + 1);
  }
  for (int k = 1; k <= 62; k++) {
    unsigned long long p = 1ull << k;
    s.insert(p - 1), s.insert(p), s.insert(p + 1);
  }
  return std::vector<unsigned long long>(s.begin(), s.end());
}

static void check_sizes(const Header &h, const std::vector<unsigned long long> &sizes, int g) {
  size_t prev = 0;
  unsigned long long prev_n = 0;
  for (unsigned long long n : sizes) {
    size_t bytes = 0;
    if (h.call(nullptr, &bytes, nullptr, nullptr, n) != 0) {
      FAIL("%s on %s: the size query for n=%llu failed\n", h.name, gpus[g].gpu.name, n);
      continue;
    }
    if (bytes == 0)
      FAIL("%s on %s: 0 temp bytes for n=%llu\n", h.name, gpus[g].gpu.name, n);
    if (bytes < prev)
      FAIL("%s on %s: %zu temp bytes for n=%llu, but %zu for n=%llu\n", h.name, gpus[g].gpu.name,
           bytes, n, prev, prev_n);
    size_t own = h.own_need(n);
    if (own > bytes)
      FAIL("%s on %s: n=%llu is told %zu temp bytes, but its bucket needs %zu\n", h.name,
           gpus[g].gpu.name, n, bytes, own);
    prev = bytes, prev_n = n;
  }
}

// Sizes in every bucket of the table that runs now, up to `limit`.
static std::vector<unsigned long long> bucket_sizes(unsigned long long limit) {
  std::set<unsigned long long> s = {0, 1, 2, 31, 33, 1000, 4097};
  for (int k = 0; k < 64; k++) {
    unsigned long long lo = 1ull << k;
    if (lo > limit)
      break;
    s.insert(lo);
    if (lo + 3 < 2 * lo && lo + 3 <= limit)
      s.insert(lo + 3);
  }
  return std::vector<unsigned long long>(s.begin(), s.end());
}

static void run_buckets(const Header &h, const Data &d, const void *d_in, void *out, int g) {
  const unsigned long long limit = 1ull << 17; // the sim runs about 1M threads a second
  std::vector<unsigned long long> sizes = bucket_sizes(limit);
  int i = 0;
  for (unsigned long long n : sizes)
    cub_style(h, d, d_in, i++ % 4, n, out, nullptr, 0, "as CUB shows");
  // one allocation for the largest n, used by every smaller one
  size_t bytes = 0;
  h.call(nullptr, &bytes, nullptr, out, sizes.back());
  void *temp = device_alloc(bytes);
  i = 1;
  for (unsigned long long n : sizes)
    cub_style(h, d, d_in, i++ % 4, n, out, temp, bytes, "with the temp of the largest n");
  DEV_FREE(temp);
  (void)g;
}

static void run_choices(const Header &h, const Data &d, const void *d_in, void *out) {
  std::set<int> choices;
  h.choices(&choices);
  const unsigned long long n = (1u << 13) + 5;
  for (int c : choices) {
    size_t bytes = h.choice_need(c, n);
    void *temp = device_alloc(bytes ? bytes : 1);
    DEV_MEMSET(temp, 0, bytes ? bytes : 1);
    DEV_MEMSET(out, 0x7f, 8);
    int e = h.choice_run(c, (const char *)d_in + 4, n, out, temp, bytes);
    double got = 0, want = 0;
    if (e != 0)
      FAIL("%s choice %d n=%llu: error %d\n", h.name, c, n, e);
    else if (!right(h, d, 1, n, out, &got, &want))
      FAIL("%s choice %d n=%llu: got %.9g, want %.9g\n", h.name, c, n, got, want);
    DEV_FREE(temp);
  }
  std::printf("  %s: %zu choices run directly at n=%llu\n", h.name, choices.size(), n);
}

// ---------------------------------------------------------------- the table
// 8 threads race to make the first calls of sum_i32 on every GPU.
static void race_first_calls() {
  const Header &h = headers[0];
  std::vector<std::thread> ts;
  std::atomic<int> wrong{0};
  for (int k = 0; k < 8; k++)
    ts.emplace_back([&, k] {
      for (int j = 0; j < n_gpus; j++) {
        fake::current = (j + k) % n_gpus;
        size_t bytes = 0;
        const char *label = h.table();
        if (!label || std::strcmp(label, gpus[fake::current].label) != 0 ||
            h.call(nullptr, &bytes, nullptr, nullptr, 1000) != 0 || bytes == 0)
          wrong++;
      }
    });
  for (auto &t : ts)
    t.join();
  if (wrong)
    FAIL("%d wrong tables or sizes when 8 threads made the first calls\n", wrong.load());
  int named = 0;
  for (const Gpu &g : gpus)
    named += g.named;
  int calls = fake::props_calls.load();
  if (calls < named || calls > 8 * named)
    FAIL("the properties were read %d times for %d GPUs whose name matters\n", calls, named);
  // from now on, nothing is queried but the current device
  int props = fake::props_calls.load(), attrs = fake::attribute_calls.load();
  for (int r = 0; r < 100; r++)
    for (int j = 0; j < n_gpus; j++) {
      fake::current = j;
      size_t bytes = 0;
      h.call(nullptr, &bytes, nullptr, nullptr, (size_t)r * 1000);
      h.table();
    }
  if (fake::props_calls.load() != props || fake::attribute_calls.load() != attrs)
    FAIL("later calls queried the GPU again (%d property reads, %d attribute reads)\n",
         fake::props_calls.load() - props, fake::attribute_calls.load() - attrs);
  fake::current = 0;
}

static void check_errors(const Header &h, const void *d_in, void *out) {
  if (h.call(nullptr, nullptr, d_in, out, 10) != err_invalid)
    FAIL("%s: no temp_bytes is not an error\n", h.name);
  for (unsigned long long n = 1; n < (1ull << 40); n = n * 3 + 1) {
    size_t own = h.own_need(n);
    if (own == 0)
      continue;
    size_t small = own - 1;
    char byte;
    if (h.call(&byte, &small, d_in, out, n) != err_invalid)
      FAIL("%s: %zu temp bytes where n=%llu needs %zu is not an error\n", h.name, small, n, own);
    break;
  }
  // d_out inside the input (an in-place call): refused at the input's first
  // and last element, which stay as they were (the global atomics would add
  // into d_out while other blocks still read it); just past it, it runs
  {
    const size_t n = 5000;
    char *buf = (char *)device_alloc((n + 4) * 4);
    std::memcpy(buf, d_in, n * 4);
    size_t need = 0;
    h.call(nullptr, &need, buf, buf, n);
    void *temp = device_alloc(need);
    for (size_t at : {(size_t)0, n - 1}) {
      size_t bytes = need;
      if (h.call(temp, &bytes, buf, buf + at * 4, n) != err_invalid ||
          std::memcmp(buf, d_in, n * 4) != 0)
        FAIL("%s: d_out at element %zu of the input is not refused\n", h.name, at);
    }
    size_t bytes = need;
    if (h.call(temp, &bytes, buf, buf + n * 4, n) != 0)
      FAIL("%s: d_out just past the input is an error\n", h.name);
    DEV_FREE(temp);
    DEV_FREE(buf);
  }
  fake::fail = true;
  size_t bytes = 0;
  if (h.call(nullptr, &bytes, d_in, out, 10) == 0 || h.table() != nullptr)
    FAIL("%s: a failing device query is not returned\n", h.name);
  fake::fail = false;
}

int main() {
  for (const Gpu &g : gpus)
    fake::gpus.push_back(g.gpu);
  race_first_calls();

  Data d;
  const size_t N = (1u << 17) + 16;
  std::mt19937 rng(7);
  d.i.resize(N), d.f.resize(N);
  for (size_t k = 0; k < N; k++) {
    d.i[k] = (int32_t)(rng() % 2001) - 1000;
    d.f[k] = (float)((double)rng() / 2147483648.0 - 1.0);
  }
  void *d_i = device_alloc(N * 4), *d_f = device_alloc(N * 4), *out = device_alloc(16);
  std::memcpy(d_i, d.i.data(), N * 4);
  std::memcpy(d_f, d.f.data(), N * 4);

  std::vector<unsigned long long> sizes = sweep_sizes();
  std::printf("%zu sizes in the sweep, 0..2^62\n", sizes.size());
  for (const Header &h : headers) {
    const void *d_in = h.is_float ? d_f : d_i;
    std::set<std::string> ran;
    for (int g = 0; g < n_gpus; g++) {
      fake::current = g;
      const char *label = h.table();
      if (!label || std::strcmp(label, gpus[g].label) != 0) {
        FAIL("%s on %s: table '%s', want '%s'\n", h.name, gpus[g].gpu.name,
             label ? label : "(null)", gpus[g].label);
        continue;
      }
      check_sizes(h, sizes, g);
      if (ran.insert(label).second) { // each table once
        std::printf("%s on %s: table %s\n", h.name, gpus[g].gpu.name, label);
        run_buckets(h, d, d_in, out, g);
        run_choices(h, d, d_in, out);
      }
    }
    fake::current = 0;
    check_errors(h, d_in, out);
  }
  DEV_FREE(d_i);
  DEV_FREE(d_f);
  DEV_FREE(out);
  std::printf("%s: %ld failures\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}

// gpu_rows.cu -- the embedded row and column calls (tgm-gen --rows/--cols
// --embed) on a real GPU, called as CUB is called, against a host reference
// and, for rows, CUB's DeviceSegmentedReduce in the same process (CTest
// label `gpu`: exit 77 without a GPU).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -I tests/embed/headers tests/embed/gpu_rows.cu -o gpu_rows
//   gpu_rows [--quick] [--bench FILE.csv [--sweep] [--set issue|rule|rb|mid|sweep]]
// (bash tests/embed/gpu.sh --rows ... builds and runs it; --quick: shapes
// up to 2^21 elements, for compute-sanitizer.)
//
// For sum/max/min over i32 and f32, rows and columns:
// 1. shapes: m = 1 and n = 1, n = 3, 31, 33, 127, 128, 1023, 1024, 8191,
//    8192, short and long rows, few and many, that reach every kind the
//    pick names on this GPU (RA at 1 x 2^20 and 3 x 2^19 under --quick too;
//    5000 x 2000, 600 x 8000: the column rule's
//    few tiles of 2^22-2^24 in parts); ld = n and n + 1 (misaligned rows), the matrix
//    at an aligned and a misaligned address (rows of 2 packed into vectors also 2
//    elements past a boundary); the temp buffer filled with
//    garbage and d_out poisoned before each call; every row or column
//    against a host reference (integers exactly, float sums within
//    (len + 1) eps sum |x| of a double sum, max/min exactly). Rows: CUB's
//    answer too, held to the same reference.
// 2. graphs: a call per kind captured once and replayed with new data (x,
//    then 2x) in the same buffers; two streams at once, each with its temp.
// 3. --bench: the nine shapes of issue 12 (all six type/ops), rows at the
//    row rule's boundaries of n (set "rule", all six), with --set rb alone
//    the block-a-row shapes where CUB is the peer (all six), with --set mid
//    alone sms to 2 sms rows of 8192 and more (all six), and with
//    --sweep m n = 2^10..2^28 (even powers) by n = 2^1, 2^3, ... (sum f32
//    and i32), timed in the three ways of gpu_timing.h (cold L2): tgm's
//    rows against CUB's segmented reduce (fixed-size segments through an
//    offsets iterator), tgm's columns alone (CUB has none; torch is timed by
//    bench/rows/torch_rows.py). One CSV line per shape, type, op, shape kind
//    and peer, with what the pick ran, and the shape's floor (gpu_timing.h
//    bytes_floor: its bytes at a plain read's rate, (b)); each shape's
//    results are checked before it is timed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "sum_rows_i32.h"
#include "max_rows_i32.h"
#include "min_rows_i32.h"
#include "sum_rows_f32.h"
#include "max_rows_f32.h"
#include "min_rows_f32.h"
#include "sum_cols_i32.h"
#include "max_cols_i32.h"
#include "min_cols_i32.h"
#include "sum_cols_f32.h"
#include "max_cols_f32.h"
#include "min_cols_f32.h"

static char where[160];       // the call under way, for CK's message
static const char *bench_set; // --set: the one set of shapes --bench times (all: nullptr)
#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_), \
                   where);                                                                         \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

#include "gpu_timing.h"
#include "cub_rows.h"

enum Op { SUM, MAX, MIN };
static const char *op_names[] = {"sum", "max", "min"};
static long failures;
#define FAIL(...)                        \
  do {                                   \
    if (++failures <= 40)                \
      std::printf("FAIL: " __VA_ARGS__); \
  } while (0)

template <typename T>
using Call = cudaError_t (*)(void *, size_t *, const T *, T *, size_t, size_t, size_t,
                             cudaStream_t);
template <typename T> static Call<T> embedded(Op op, bool cols);
template <> Call<int32_t> embedded<int32_t>(Op op, bool cols) {
  if (cols)
    return op == SUM ? tgm_sum_cols_i32 : op == MAX ? tgm_max_cols_i32 : tgm_min_cols_i32;
  return op == SUM ? tgm_sum_rows_i32 : op == MAX ? tgm_max_rows_i32 : tgm_min_rows_i32;
}
template <> Call<float> embedded<float>(Op op, bool cols) {
  if (cols)
    return op == SUM ? tgm_sum_cols_f32 : op == MAX ? tgm_max_cols_f32 : tgm_min_cols_f32;
  return op == SUM ? tgm_sum_rows_f32 : op == MAX ? tgm_max_rows_f32 : tgm_min_rows_f32;
}
template <typename T> static const char *tname() {
  return std::is_floating_point<T>::value ? "f32" : "i32";
}

// What the pick runs: the headers' own (templates/launch_rule.tpl, read
// through sum f32's tgm_pick; sum, max and min have CA.SV and RA alike).
static std::string pick_text(bool cols, size_t m, size_t n) {
  char buf[96];
  bool early = false;
  if (cols) {
    tgm_cols_pick k;
    CK(tgm_kernels_sum_f32_cols::tgm_pick(m, n, &k, &early));
    std::snprintf(buf, sizeof buf, "%s b%u g%u p%u", k.atomic ? "CA.SV" : "CT.SV", k.block,
                  k.groups, k.parts);
  } else {
    tgm_rows_pick k;
    CK(tgm_kernels_sum_f32_rows::tgm_pick(m, n, &k, &early));
    static const char *kinds[] = {"RW", "RB", "RL"};
    std::snprintf(buf, sizeof buf, "%s%s b%u i%u p%u", k.atomic ? "RA" : kinds[k.kind],
                  k.vec ? ".SV" : ".SS", k.block, k.items, k.per_row);
  }
  return buf;
}

// ------------------------------------------------------------- references
// Row or column j of the matrix at x: len elements, `step` apart.
template <typename T>
static bool right(Op op, const T *x, size_t step, size_t len, T got, double *want_out) {
  if (std::is_floating_point<T>::value && op == SUM) {
    double s = 0, mag = 0;
    for (size_t i = 0; i < len; i++)
      s += (double)x[i * step], mag += std::fabs((double)x[i * step]);
    *want_out = s;
    return std::fabs((double)got - s) <= (double)(len + 1) * 1.1920929e-7 * mag;
  }
  if (op == SUM) {
    uint32_t s = 0;
    for (size_t i = 0; i < len; i++)
      s += (uint32_t)x[i * step];
    *want_out = (int32_t)s;
    return (int32_t)s == (int32_t)got;
  }
  T m = op == MAX ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  if (std::is_floating_point<T>::value)
    m = op == MAX ? -INFINITY : INFINITY;
  for (size_t i = 0; i < len; i++)
    m = op == MAX ? std::max(m, x[i * step]) : std::min(m, x[i * step]);
  *want_out = (double)m;
  return std::memcmp(&m, &got, sizeof m) == 0;
}

// Every output of a call on the matrix at h (host) against the reference;
// false at the first wrong one (printed with `what`).
template <typename T>
static bool check(Op op, bool cols, const T *h, size_t m, size_t n, size_t ld,
                  const std::vector<T> &got, const char *what) {
  size_t outs = cols ? n : m;
  for (size_t j = 0; j < outs; j++) {
    double want = 0;
    const T *x = cols ? h + j : h + j * ld;
    if (!right(op, x, cols ? ld : 1, cols ? m : n, got[j], &want)) {
      FAIL("%s %s %s %zu x %zu ld %zu (%s): %s %zu is %.9g, want %.9g\n", what, op_names[op],
           tname<T>(), m, n, ld, pick_text(cols, m, n).c_str(), cols ? "column" : "row", j,
           (double)got[j], want);
      return false;
    }
  }
  return true;
}

struct Shape {
  size_t m, n;
};

// One call as CUB's documentation shows it, on d + off with garbage temp and
// poisoned output, checked; CUB's too for rows when `with_cub`.
template <typename T>
static void one(Op op, bool cols, const std::vector<T> &h, const T *d, Shape sh, size_t ld,
                size_t off, void *temp, size_t bytes, T *out, bool with_cub, cudaStream_t s) {
  size_t outs = cols ? sh.n : sh.m;
  std::snprintf(where, sizeof where, "%s %s %s %zu x %zu ld %zu offset %zu", cols ? "cols" : "rows",
                op_names[op], tname<T>(), sh.m, sh.n, ld, off);
  CK(cudaMemsetAsync(temp, 0xff, bytes, s));
  CK(cudaMemsetAsync(out, 0x7f, (outs + 1) * sizeof(T), s));
  size_t b = bytes;
  cudaError_t e = embedded<T>(op, cols)(temp, &b, d + off, out, sh.m, sh.n, ld, s);
  if (e != cudaSuccess) {
    FAIL("%s %s %s %zu x %zu ld %zu offset %zu: %s\n", cols ? "cols" : "rows", op_names[op],
         tname<T>(), sh.m, sh.n, ld, off, cudaGetErrorString(e));
    return;
  }
  std::vector<T> got(outs + 1);
  CK(cudaMemcpyAsync(got.data(), out, got.size() * sizeof(T), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  check(op, cols, h.data() + off, sh.m, sh.n, ld, got, cols ? "cols" : "rows");
  unsigned char past;
  std::memcpy(&past, &got[outs], 1);
  if (past != 0x7f)
    FAIL("%s %zu x %zu: wrote past d_out[%zu]\n", cols ? "cols" : "rows", sh.m, sh.n, outs);
  if (with_cub && !cols && sh.m > 0) {
    size_t cb = 0;
    void *ct;
    CK(cub_rows<T>(op, nullptr, cb, d + off, out, sh.m, sh.n, ld, s));
    CK(cudaMalloc(&ct, cb));
    CK(cub_rows<T>(op, ct, cb, d + off, out, sh.m, sh.n, ld, s));
    CK(cudaMemcpyAsync(got.data(), out, sh.m * sizeof(T), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaFree(ct));
    check(op, cols, h.data() + off, sh.m, sh.n, ld, got, "CUB rows");
  }
}

static const Shape shapes[] = {
    {1, 1},        {1, 3},       {3, 1},        {2, 31},     {7, 33},      {5, 127},
    {5, 128},      {1, 1023},    {1, 1024},     {3, 8191},   {3, 8192},    {200, 8192},
    {400, 9000},   {1000, 1023}, {1000, 1024},  {4096, 31},  {70000, 2},   {70000, 5},
    {70000, 64},   {1, 1 << 20}, {25, 1 << 20}, {16, 128},   {768, 4096},  {1 << 20, 8},
    {1 << 20, 32}, {4096, 4096}, {131, 3000},   {132, 3000}, {5000, 2000}, {600, 8000},
    {3, 1 << 19}, // RA (blocks a row, atomics) within --quick's 2^21
    {70001, 1},   // packed rows of 1 (and of 2 above): a vector a thread, the edges' rows
    {12, 4000},   // columns: a lane's last rows loaded together (3 rows a lane)
    {100, 640},   // columns, one part of few tiles of 16-512 rows: a quarter of the
    {512, 520},   //   groups a block, lanes for 4 rows (m, n not powers of two)
    {131100, 32}, // rows of 8, 16, 32 from 2^22 on a GPU of 32 GB/s a SM or more (H200):
    {262150, 16}, //   n / 16 threads a row, vectors, items 4; a thread a row of 8
    {524300, 8},  //   (and n = 8)
    {33, 262150}, // fewer than 0.3 sms rows of 2^23 elements or more there: RA, rows misaligned
};
static const Shape big_shapes[] = {{4, 1 << 26}, {1 << 24, 4}, {1 << 22, 64}};

template <typename T> static void correctness(const std::vector<T> &h, const T *d, bool quick) {
  // one allocation for every call: the row size (the same for every shape)
  // or the column size for the widest matrix here, 2^26 columns
  size_t bytes = 0, col_bytes = 0;
  CK(embedded<T>(SUM, false)(nullptr, &bytes, nullptr, nullptr, 1, 1, 1, 0));
  CK(embedded<T>(SUM, true)(nullptr, &col_bytes, nullptr, nullptr, 1, (size_t)1 << 26,
                            (size_t)1 << 26, 0));
  bytes = std::max(bytes, col_bytes);
  void *temp;
  T *out;
  CK(cudaMalloc(&temp, bytes));
  CK(cudaMalloc(&out, ((size_t)1 << 26) * sizeof(T) + 64)); // the most outputs: 4 x 2^26 columns
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  long calls = 0;
  for (int c = 0; c < 2; c++)
    for (int o = 0; o < 3; o++) {
      for (const Shape &sh : shapes)
        for (size_t pad : {0, 1})
          for (size_t off : {0, 1, 2}) {
            // off 2: rows of 2 packed into vectors with a row before the first boundary (off
            // 1 puts the boundaries inside rows)
            if ((quick && sh.m * sh.n > ((size_t)1 << 21)) || (off == 2 && (sh.n != 2 || pad)))
              continue;
            one<T>((Op)o, c == 1, h, d, sh, sh.n + pad, off, temp, bytes, out, pad == 0 && off == 0,
                   s);
            calls++;
          }
      if (!quick)
        for (const Shape &sh : big_shapes) {
          one<T>((Op)o, c == 1, h, d, sh, sh.n, 0, temp, bytes, out, false, s);
          calls++;
        }
    }
  std::printf("shapes %s: %ld calls, rows and columns, sum/max/min\n", tname<T>(), calls);

  // graphs: captured once, replayed with new data in the same buffers
  for (int c = 0; c < 2; c++)
    for (const Shape &sh :
         {Shape{5, 127}, Shape{1000, 300}, Shape{1000, 4096}, Shape{3, 100000}, Shape{5000, 4}}) {
      size_t len = sh.m * sh.n;
      T *x;
      CK(cudaMalloc(&x, len * sizeof(T)));
      cudaGraph_t g;
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      size_t b = bytes;
      CK(embedded<T>(SUM, c == 1)(temp, &b, x, out, sh.m, sh.n, sh.n, s));
      CK(cudaStreamEndCapture(s, &g));
      cudaGraphExec_t ge;
      CK(cudaGraphInstantiate(&ge, g, 0));
      for (int rep = 1; rep <= 2; rep++) {
        std::vector<T> hx(h.begin(), h.begin() + len);
        for (auto &v : hx)
          v = (T)(v * rep);
        CK(cudaMemcpyAsync(x, hx.data(), len * sizeof(T), cudaMemcpyHostToDevice, s));
        CK(cudaMemsetAsync(temp, 0xff, bytes, s));
        CK(cudaGraphLaunch(ge, s));
        std::vector<T> got(c == 1 ? sh.n : sh.m);
        CK(cudaMemcpyAsync(got.data(), out, got.size() * sizeof(T), cudaMemcpyDeviceToHost, s));
        CK(cudaStreamSynchronize(s));
        check(SUM, c == 1, hx.data(), sh.m, sh.n, sh.n, got,
              rep == 1 ? "graph replay 1" : "graph replay 2");
      }
      CK(cudaGraphExecDestroy(ge));
      CK(cudaGraphDestroy(g));
      CK(cudaFree(x));
    }
  // two streams at once, each with its own temp
  {
    cudaStream_t s2;
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    void *temp2;
    T *out2;
    CK(cudaMalloc(&temp2, bytes));
    CK(cudaMalloc(&out2, 70000 * sizeof(T)));
    size_t b1 = bytes, b2 = bytes;
    for (int rep = 0; rep < 4; rep++) {
      CK(embedded<T>(MAX, false)(temp, &b1, d, out, 20, 200000, 200000, s)); // RL
      CK(embedded<T>(SUM, true)(temp2, &b2, d, out2, 60000, 64, 64, s2));    // CT in parts
    }
    std::vector<T> g1(20), g2(64);
    CK(cudaMemcpyAsync(g1.data(), out, 20 * sizeof(T), cudaMemcpyDeviceToHost, s));
    CK(cudaMemcpyAsync(g2.data(), out2, 64 * sizeof(T), cudaMemcpyDeviceToHost, s2));
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamSynchronize(s2));
    check(MAX, false, h.data(), 20, 200000, 200000, g1, "two streams");
    check(SUM, true, h.data(), 60000, 64, 64, g2, "two streams");
    CK(cudaFree(temp2));
    CK(cudaFree(out2));
    CK(cudaStreamDestroy(s2));
  }
  std::printf("graphs and streams %s: done\n", tname<T>());
  CK(cudaStreamDestroy(s));
  CK(cudaFree(temp));
  CK(cudaFree(out));
}

// ---------------------------------------------------------------- the bench
template <typename T>
static void bench_shape(FILE *csv, const char *set, Op op, bool cols, const std::vector<T> &h,
                        const T *d, size_t d_len, Shape sh, const Flush &flush) {
  size_t bytes = 0, m = sh.m, n = sh.n;
  auto fn = embedded<T>(op, cols);
  CK(fn(nullptr, &bytes, nullptr, nullptr, m, n, n, 0));
  void *temp;
  T *out;
  CK(cudaMalloc(&temp, bytes));
  CK(cudaMalloc(&out, (std::max(m, n) + 1) * sizeof(T)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  one<T>(op, cols, h, d, sh, n, 0, temp, bytes, out, false, s); // checked before it is timed
  double t[3], c[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++)
    t[k] = time_us<T>((Timing)k, [&](const T *in) { CK(fn(temp, &bytes, in, out, m, n, n, s)); }, d,
                      d_len, flush, m * n, s);
  if (!cols) {
    size_t cb = 0;
    void *ct;
    CK(cub_rows<T>(op, nullptr, cb, d, out, m, n, n, s));
    CK(cudaMalloc(&ct, cb));
    for (int k = 0; k < 3; k++)
      c[k] = time_us<T>((Timing)k,
                        [&](const T *in) { CK(cub_rows<T>(op, ct, cb, in, out, m, n, n, s)); }, d,
                        d_len, flush, m * n, s);
    CK(cudaFree(ct));
  }
  // the floor: the shape's bytes (m n read, m or n written) at a plain read's rate, (b)
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t out_n = cols ? n : m;
  double floor_b = time_us<T>(
      ONE,
      [&](const T *in) {
        bytes_floor<<<sms * 8, 256, 0, s>>>(reinterpret_cast<const float *>(in), m * n,
                                            reinterpret_cast<float *>(out), out_n);
        CK(cudaGetLastError());
      },
      d, d_len, flush, m * n, s);
  std::fprintf(csv, "%s,%s,%s,%s,%zu,%zu,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", set,
               cols ? "cols" : "rows", tname<T>(), op_names[op], m, n,
               pick_text(cols, m, n).c_str(), t[0], t[1], t[2], c[0], c[1], c[2], floor_b);
  std::fflush(csv);
  CK(cudaStreamDestroy(s));
  CK(cudaFree(temp));
  CK(cudaFree(out));
}

template <typename T>
static void bench(FILE *csv, bool sweep, const std::vector<T> &h, const T *d, size_t d_len) {
  Flush flush = flush_alloc();
  static const Shape nine[] = {{16, 128},    {768, 4096},   {25, 1 << 20},
                               {1 << 20, 8}, {1 << 20, 32}, {4096, 4096},
                               {4, 1 << 26}, {1 << 24, 4},  {1 << 22, 64}};
  auto timed = [](const char *set) { return !bench_set || !std::strcmp(bench_set, set); };
  for (int c = 0; c < 2 && timed("issue"); c++)
    for (int o = 0; o < 3; o++)
      for (const Shape &sh : nine)
        bench_shape<T>(csv, "issue", (Op)o, c == 1, h, d, d_len, sh, flush);
  // rows either side of the boundaries of n in launch_rule.tpl's tgm_rows_pick_of, every op
  static const Shape rule[] = {{300, 1024},  {1000, 1024}, {16384, 1024}, {8192, 1536},
                               {2000, 1800}, {1000, 2048}, {1000, 4096}};
  for (int o = 0; o < 3 && timed("rule"); o++)
    for (const Shape &sh : rule)
      bench_shape<T>(csv, "rule", (Op)o, false, h, d, d_len, sh, flush);
  // a block a row (RB) where CUB's segmented reduce is the peer: n = 1536-131072, every op
  // (only when asked for: --set rb)
  static const Shape rb[] = {{200, 4096},  {768, 4096},   {1000, 4096},  {4096, 4096}, {512, 8192},
                             {2048, 8192}, {8192, 8192},  {8192, 1536},  {2000, 1800}, {1000, 2048},
                             {2048, 2048}, {32768, 2048}, {2048, 32768}, {512, 131072}};
  for (int o = 0; o < 3 && bench_set && !std::strcmp(bench_set, "rb"); o++)
    for (const Shape &sh : rb)
      bench_shape<T>(csv, "rb", (Op)o, false, h, d, d_len, sh, flush);
  // sms to 2 sms rows (132 SMs) of 8192 and more, around the rule's n <= 262144 for a fast
  // memory, every op (only when asked for: --set mid)
  static const Shape mid[] = {{160, 16384},  {200, 16384},  {256, 16384},  {256, 8192},
                              {132, 65536},  {200, 32768},  {256, 32768},  {140, 65536},
                              {200, 65540},  {200, 131072}, {140, 131072}, {256, 131072},
                              {200, 262144}, {200, 262150}, {140, 524288}};
  for (int o = 0; o < 3 && bench_set && !std::strcmp(bench_set, "mid"); o++)
    for (const Shape &sh : mid)
      bench_shape<T>(csv, "mid", (Op)o, false, h, d, d_len, sh, flush);
  if (sweep && timed("sweep"))
    for (int c = 0; c < 2; c++)
      for (int e = 10; e <= 28; e += 2)
        for (int k = 1; k <= std::min(e, 26); k += 2) {
          Shape sh = {(size_t)1 << (e - k), (size_t)1 << k};
          bench_shape<T>(csv, "sweep", SUM, c == 1, h, d, d_len, sh, flush);
        }
  flush_free(flush);
}

template <typename T> static void run(bool quick, FILE *csv, bool sweep) {
  size_t len = ((size_t)1 << 28) + 4096;
  std::vector<T> h(len);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (auto &x : h) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    x = std::is_floating_point<T>::value ? (T)((double)(state >> 11) / 4503599627370496.0 - 1.0)
                                         : (T)((int64_t)(state % 2001) - 1000);
  }
  T *d;
  CK(cudaMalloc(&d, len * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), len * sizeof(T), cudaMemcpyHostToDevice));
  correctness<T>(h, d, quick);
  if (csv)
    bench<T>(csv, sweep, h, d, len);
  CK(cudaFree(d));
}

int main(int argc, char **argv) {
  bool quick = false, sweep = false;
  const char *bench_path = nullptr;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--sweep"))
      sweep = true;
    else if (!std::strcmp(argv[i], "--bench") && i + 1 < argc)
      bench_path = argv[++i];
    else if (!std::strcmp(argv[i], "--set") && i + 1 < argc)
      bench_set = argv[++i];
    else {
      std::fprintf(stderr, "usage: gpu_rows [--quick] [--bench FILE.csv [--sweep] [--set "
                           "issue|rule|rb|mid|sweep]]\n");
      return 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  cudaDeviceProp p;
  if (!gpu_props(&p))
    return 77;
  std::printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  FILE *csv = nullptr;
  if (bench_path) {
    csv = std::fopen(bench_path, "w");
    if (!csv) {
      std::perror(bench_path);
      return 2;
    }
    std::fprintf(csv, "# %s, %d SMs; us per call, cold L2: (a) stream, (b) one call, (c) graph\n",
                 p.name, p.multiProcessorCount);
    std::fprintf(csv, "set,shape,type,op,m,n,pick,tgm_a,tgm_b,tgm_c,cub_a,cub_b,cub_c,floor_b\n");
  }
  run<float>(quick, csv, sweep);
  run<int32_t>(quick, csv, sweep);
  if (csv)
    std::fclose(csv);
  if (failures) {
    std::printf("%ld failure(s)\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}

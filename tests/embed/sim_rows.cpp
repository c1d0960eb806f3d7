// sim_rows.cpp -- the embedded row and column calls (tgm-gen --rows/--cols
// --embed) on the CPU simulator: the headers compiled as they are, their
// kernels run on the CPU, the device queries answered by fake GPUs
// (sim_device.h). Built for CUDA and, with -DTGM_HIP against --hip headers,
// for HIP (warps of 64 in the simulator).
//
// Headers (made by tgm-gen at build time): rows of sum f32, max i32, argmax
// f32 (a pair), count_if f32 (a parameter, an unsigned result) and l2norm
// f32 (an epilogue); columns of sum f32, min i32, mean f32 (an epilogue
// reading m) and dot f32 (two inputs).
//
// On a GPU of 4 SMs and one of 132, for shapes that reach every kind the
// pick names (RW with scalar and vector loads, RB, RL, RA; columns with one part
// and several), ld = n and ld > n, the matrix at an aligned and a
// misaligned address, and a temp buffer filled with garbage before each
// call (CUB's temp holds anything): every row or column against a host
// reference. Then the contract: one temp size for every shape (rows; for
// columns one for each n, serving every m and smaller n), a size query
// only with a NULL d_temp, d_temp at any address, errors for no temp_bytes,
// a short temp, ld < n, a misaligned d_out and a failing device query; m = 0
// (rows) and n = 0 (columns) write nothing.
//
// -DTGM_TUNED: the row and column calls of sum f32 made with --embed=DB from
// tests/embed/fixture-shapes.db.json (cells tuned on the fake H100), the
// same runs over shapes that fall in those cells too, and the cells found
// where they should be: on the H100, for a shape of the cell whose setting
// fits the temp storage; not for one whose does not, nor on another GPU.
#include "sim_device.h"

#include "sum_rows_f32.h"
#include "sum_cols_f32.h"
#ifndef TGM_TUNED
#include "max_rows_i32.h"
#include "argmax_rows_f32.h"
#include "count_if_rows_f32.h"
#include "l2norm_rows_f32.h"
#include "min_cols_i32.h"
#include "mean_cols_f32.h"
#include "dot_cols_f32.h"
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

// The runtime's names in the dialect the headers are in (-DTGM_HIP: hip*).
#ifdef TGM_HIP
typedef hipStream_t stream_t;
#define DEV(x) hip##x
#else
typedef cudaStream_t stream_t;
#define DEV(x) cuda##x
#endif

static long failures;
#define FAIL(...)                        \
  do {                                   \
    if (++failures <= 40)                \
      std::printf("FAIL: " __VA_ARGS__); \
  } while (0)

enum Op { SUM, MAX, MIN, ARGMAX, COUNT_IF, L2NORM, MEAN, DOT };

// One header, type-erased.
struct Header {
  const char *name;
  Op op;
  bool cols, is_float;
  size_t out_bytes;
  int (*call)(void *temp, size_t *bytes, const void *x, const void *y, void *out, size_t m,
              size_t n, size_t ld);
  size_t (*temp_bytes)(size_t n); // rows: the same for every n
  int (*pick)(size_t m,
              size_t n); // rows: 0 RW scalar, 1 RW vector, 2 RB, 4 RL, 5 RA; columns: the parts
};

#define ROWS_PICK(NS)                                                  \
  [](size_t m, size_t n) {                                             \
    tgm_rows_pick k;                                                   \
    bool early = false;                                                \
    return NS::tgm_pick(m, n, &k, &early) != DEV(Success) ? -1         \
           : k.kind == 0                                  ? (int)k.vec \
                                                          : 2 * k.kind + (int)k.atomic;                 \
  }
#define COLS_PICK(NS)                                                          \
  [](size_t m, size_t n) {                                                     \
    tgm_cols_pick k;                                                           \
    bool early = false;                                                        \
    return NS::tgm_pick(m, n, &k, &early) != DEV(Success) ? -1 : (int)k.parts; \
  }
#define ROWS_TEMP(FN) [](size_t) { return FN##_temp_bytes(); }
#define COLS_TEMP(FN) [](size_t n) { return FN##_temp_bytes(n); }
#define HEADER(FN, NS, T, R, OP, COLS, ARGS, PICK, TEMP)                                          \
  Header {                                                                                        \
#FN, OP, COLS, std::is_floating_point<T>::value, sizeof(R),                                     \
        [](void *temp, size_t *bytes, const void *x, const void *y, void *out, size_t m, size_t n, \
           size_t ld) {                                                                            \
          (void)y;                                                                                 \
          return (int)FN ARGS;                                                                     \
        },                                                                                         \
        TEMP(FN), PICK(NS), \
  }

static const Header headers[] = {
    HEADER(tgm_sum_rows_f32, tgm_kernels_sum_f32_rows, float, float, SUM, false,
           (temp, bytes, (const float *)x, (float *)out, m, n, ld, stream_t()), ROWS_PICK,
           ROWS_TEMP),
    HEADER(tgm_sum_cols_f32, tgm_kernels_sum_f32_cols, float, float, SUM, true,
           (temp, bytes, (const float *)x, (float *)out, m, n, ld, stream_t()), COLS_PICK,
           COLS_TEMP),
#ifndef TGM_TUNED
    HEADER(tgm_max_rows_i32, tgm_kernels_max_i32_rows, int32_t, int32_t, MAX, false,
           (temp, bytes, (const int32_t *)x, (int32_t *)out, m, n, ld, stream_t()), ROWS_PICK,
           ROWS_TEMP),
    HEADER(tgm_argmax_rows_f32, tgm_kernels_argmax_f32_rows, float,
           tgm_kernels_argmax_f32_rows::tgm_arg, ARGMAX, false,
           (temp, bytes, (const float *)x, (tgm_kernels_argmax_f32_rows::tgm_arg *)out, m, n, ld,
            stream_t()),
           ROWS_PICK, ROWS_TEMP),
    HEADER(tgm_count_if_rows_f32, tgm_kernels_count_if_f32_rows, float, unsigned, COUNT_IF, false,
           (temp, bytes, (const float *)x, (unsigned *)out, m, n, ld, 0.5f, stream_t()), ROWS_PICK,
           ROWS_TEMP),
    HEADER(tgm_l2norm_rows_f32, tgm_kernels_l2norm_f32_rows, float, float, L2NORM, false,
           (temp, bytes, (const float *)x, (float *)out, m, n, ld, stream_t()), ROWS_PICK,
           ROWS_TEMP),
    HEADER(tgm_min_cols_i32, tgm_kernels_min_i32_cols, int32_t, int32_t, MIN, true,
           (temp, bytes, (const int32_t *)x, (int32_t *)out, m, n, ld, stream_t()), COLS_PICK,
           COLS_TEMP),
    HEADER(tgm_mean_cols_f32, tgm_kernels_mean_f32_cols, float, float, MEAN, true,
           (temp, bytes, (const float *)x, (float *)out, m, n, ld, stream_t()), COLS_PICK,
           COLS_TEMP),
    HEADER(tgm_dot_cols_f32, tgm_kernels_dot_f32_cols, float, float, DOT, true,
           (temp, bytes, (const float *)x, (const float *)y, (float *)out, m, n, ld, stream_t()),
           COLS_PICK, COLS_TEMP),
#endif
};

// ------------------------------------------------------------- references
// Integer-valued data in [-1000, 1000]: every f32 sum here is exact in any
// order, so sums, maxima and counts compare exactly.
static float value_at(size_t k, int salt) {
  return (float)((int)(((uint32_t)k * 2654435761u + (uint32_t)salt * 40503u) >> 8) % 2001 - 1000);
}

// argmax's NaNs: every fourth line (row, or column) only NaNs, the next but
// one NaNs but for one number.
static void nan_lines(std::vector<float> &x, size_t off, size_t m, size_t n, size_t ld, bool cols) {
  for (size_t r = 0; r < m; r++)
    for (size_t c = 0; c < n; c++) {
      size_t line = cols ? c : r, at = cols ? r : c, len = cols ? m : n;
      if (line % 4 == 1 || (line % 4 == 3 && at != line * 7 % len))
        x[off + r * ld + c] = NAN;
    }
}

// Element i of row or column `which` (rows: x[which * ld + i]).
struct Line {
  const float *x, *y;
  size_t ld, which, len;
  bool cols;
  size_t at(size_t i) const { return cols ? i * ld + which : which * ld + i; }
};

static bool check_one(const Header &h, const Line &l, const unsigned char *got, double *g,
                      double *w) {
#ifndef TGM_TUNED
  if (h.op == ARGMAX) {
    tgm_kernels_argmax_f32_rows::tgm_arg a;
    std::memcpy(&a, got, sizeof a);
    // the first of the largest numbers; with none, the first NaN (README)
    unsigned long long key = ~0ull;
    float best = -INFINITY;
    for (size_t i = 0; i < l.len; i++) {
      float x = l.x[l.at(i)];
      if (key == ~0ull || x > best || (std::isnan(best) && !std::isnan(x)))
        best = x, key = i;
    }
    *g = (double)a.key, *w = (double)key;
    return a.key == key &&
           (l.len == 0 || a.value == best || (std::isnan(a.value) && std::isnan(best)));
  }
#endif
  if (h.op == COUNT_IF) {
    unsigned c = 0, v;
    for (size_t i = 0; i < l.len; i++)
      c += l.x[l.at(i)] > 0.5f;
    std::memcpy(&v, got, sizeof v);
    *g = v, *w = c;
    return v == c;
  }
  if (!h.is_float) {
    int32_t v, r = h.op == MAX ? INT32_MIN : INT32_MAX;
    for (size_t i = 0; i < l.len; i++) {
      int32_t e = (int32_t)l.x[l.at(i)];
      r = h.op == MAX ? (e > r ? e : r) : (e < r ? e : r);
    }
    std::memcpy(&v, got, sizeof v);
    *g = v, *w = r;
    return v == r;
  }
  double s = 0;
  for (size_t i = 0; i < l.len; i++) {
    double e = l.x[l.at(i)];
    s += h.op == L2NORM ? e * e : h.op == DOT ? e * l.y[l.at(i)] : e;
  }
  float v;
  std::memcpy(&v, got, sizeof v);
  double want = h.op == L2NORM ? std::sqrt(s)
                : h.op == MEAN ? (l.len ? s / (double)l.len : 0)
                               : s; // mean.tgm: 0 for no rows
  *g = v, *w = want;
  if (std::isnan(want))
    return std::isnan(v);
  return std::fabs(v - want) <=
         1e-6 * std::fabs(want) + (h.op == L2NORM || h.op == MEAN ? 1e-6 : 0);
}

struct Shape {
  size_t m, n;
};
// -DTGM_TUNED: the fixture's cells, each shape in one (the last of each
// list in a cell whose setting does not fit it: the rule's pick runs)
#ifdef TGM_TUNED
#define TUNED_ROWS \
  , {2, 70000}, {20, 1500}, {1500, 40}, {100, 4100}, {20, 20000}, { 200, 4100 }
#define TUNED_COLS \
  , {2, 300}, {100, 20}, {6000, 6}, {5, 65536}, {600, 100}, { 5, 70000 }
#else
#define TUNED_ROWS
#define TUNED_COLS
#endif
static const Shape row_shapes[] = {{0, 5},
                                   {3, 0},
                                   {1, 1},
                                   {1, 3},
                                   {7, 31},
                                   {7, 33},
                                   {300, 33},
                                   {40, 300},
                                   {40, 1030},
                                   {2, 9000},
                                   {5, 8200},
                                   {10, 8200},
                                   {1, 127},
                                   {1, 128},
                                   {3, 2048},
                                   {16, 128},
                                   {2, 70000}, // RA on 132 SMs (RB on 4)
                                   {200, 12},
                                   // from 2^22 on a GPU of 32 GB/s a SM or more: n / 16 threads
                                   // a row, vectors, items 4 for n = 16 and 32
                                   {131100, 32},
                                   {262150, 16},
                                   // and there, with atomics, RA for fewer than 0.3 sms rows of
                                   // 2^23 elements or more (RB of 512 on the H100)
                                   {33, 262150} TUNED_ROWS};
static const Shape col_shapes[] = {{5000, 4},
                                   {100, 300},
                                   {3, 7},
                                   {1, 1},
                                   {64, 33},
                                   {0, 5},
                                   {5, 0},
                                   {700, 64},
                                   {9000, 3},
                                   {40, 1030},
                                   {3, 5000},
                                   {2000, 64},
                                   {20000, 3} TUNED_COLS};

static void *device_alloc(size_t bytes) {
  void *p = nullptr;
  if (DEV(Malloc)(&p, bytes ? bytes : 1) != DEV(Success))
    std::abort();
  return p;
}

// Every shape of h's kind, ld = n and n + 3, at offsets 0 and 1 element,
// with a temp buffer of garbage; the picks seen go into picks.
static void run_shapes(const Header &h, const char *gpu, std::set<int> *picks) {
  const Shape *shapes = h.cols ? col_shapes : row_shapes;
  size_t count = h.cols ? sizeof col_shapes / sizeof *col_shapes
                        : sizeof row_shapes / sizeof *row_shapes;
  size_t widest = 0, bytes = 0;
  for (size_t s = 0; s < count; s++)
    widest = std::max(widest, shapes[s].n);
  // one allocation, for the widest matrix, serves every shape
  if (h.call(nullptr, &bytes, nullptr, nullptr, nullptr, 1, widest, widest) != 0 ||
      bytes != h.temp_bytes(widest)) {
    FAIL("%s on %s: the size query gave %zu, the header says %zu\n", h.name, gpu, bytes,
         h.temp_bytes(widest));
    return;
  }
  char *temp = (char *)device_alloc(bytes);
  for (size_t s = 0; s < count; s++) {
    size_t m = shapes[s].m, n = shapes[s].n;
    picks->insert(h.pick(m, n));
    for (size_t pad : {0, 3})
      for (size_t off : {0, 1}) {
        size_t ld = n + pad, elems = off + m * ld + 8;
        std::vector<float> hx(elems), hy(elems);
        for (size_t k = 0; k < elems; k++)
          hx[k] = value_at(k, (int)s), hy[k] = value_at(k, 7 + (int)s);
        if (h.op == ARGMAX)
          nan_lines(hx, off, m, n, ld, h.cols);
        float *dx = (float *)device_alloc(elems * 4), *dy = (float *)device_alloc(elems * 4);
        std::vector<int32_t> hi(elems);
        for (size_t k = 0; k < elems; k++)
          hi[k] = (int32_t)hx[k];
        DEV(Memcpy)
        (dx, h.is_float || h.op == ARGMAX ? (const void *)hx.data() : (const void *)hi.data(),
         elems * 4, DEV(MemcpyHostToDevice));
        DEV(Memcpy)(dy, hy.data(), elems * 4, DEV(MemcpyHostToDevice));
        size_t outs = h.cols ? n : m;
        unsigned char *dout = (unsigned char *)device_alloc((outs + 1) * h.out_bytes);
        DEV(Memset)(dout, 0x7f, (outs + 1) * h.out_bytes); // poisoned
        DEV(Memset)(temp, 0xff, bytes);                    // CUB's temp holds anything
        size_t b = bytes;
        int e = h.call(temp, &b, dx + off, dy + off, dout, m, n, ld);
        std::vector<unsigned char> got((outs + 1) * h.out_bytes);
        DEV(Memcpy)(got.data(), dout, got.size(), DEV(MemcpyDeviceToHost));
        if (e != 0)
          FAIL("%s on %s, %zu x %zu, ld %zu, offset %zu: error %d\n", h.name, gpu, m, n, ld, off,
               e);
        for (size_t j = 0; e == 0 && j < outs; j++) {
          Line l = {hx.data() + off, hy.data() + off, ld, j, h.cols ? m : n, h.cols};
          double g = 0, w = 0;
          if (!check_one(h, l, got.data() + j * h.out_bytes, &g, &w)) {
            FAIL("%s on %s, %zu x %zu, ld %zu, offset %zu (pick %d): %s %zu is %.9g, want %.9g\n",
                 h.name, gpu, m, n, ld, off, h.pick(m, n), h.cols ? "column" : "row", j, g, w);
            break;
          }
        }
        if (got[outs * h.out_bytes] != 0x7f)
          FAIL("%s on %s, %zu x %zu: wrote past d_out[%zu]\n", h.name, gpu, m, n, outs);
        DEV(Free)(dx), DEV(Free)(dy), DEV(Free)(dout);
      }
  }
  DEV(Free)(temp);
}

// The contract's edges, on the current GPU.
static void contract(const Header &h) {
  // rows: one size for every shape; columns: a size for each n, the same
  // for every m, never smaller for a larger n
  size_t need = h.temp_bytes(64), bytes = 0, last = 0;
  for (size_t n : {(size_t)0, (size_t)1, (size_t)4, (size_t)64, (size_t)255, (size_t)256,
                   (size_t)4097, (size_t)1 << 20, (size_t)1 << 26, (size_t)1 << 40})
    for (size_t m : {(size_t)0, (size_t)1, (size_t)3, (size_t)1 << 20, (size_t)1 << 30}) {
      bytes = 0;
      if (h.call(nullptr, &bytes, nullptr, nullptr, nullptr, m, n, n) != 0 ||
          bytes != h.temp_bytes(n) || bytes < 1 || bytes < last || (!h.cols && bytes != need))
        FAIL("%s: the size for %zu x %zu is %zu (the header's %zu, the last %zu)\n", h.name, m, n,
             bytes, h.temp_bytes(n), last);
      last = bytes;
    }
  if (h.call(nullptr, nullptr, nullptr, nullptr, nullptr, 1, 1, 1) == 0)
    FAIL("%s: no temp_bytes is not an error\n", h.name);
  std::vector<float> hx(64 * 64);
  for (size_t k = 0; k < hx.size(); k++)
    hx[k] = value_at(k, 3);
  std::vector<int32_t> hi(hx.begin(), hx.end());
  float *dx = (float *)device_alloc(hx.size() * 4);
  DEV(Memcpy)
  (dx, h.is_float || h.op == ARGMAX ? (const void *)hx.data() : (const void *)hi.data(),
   hx.size() * 4, DEV(MemcpyHostToDevice));
  char *temp = (char *)device_alloc(need + 16);
  unsigned char *out = (unsigned char *)device_alloc(65 * h.out_bytes + 1);
  bytes = need - 1;
  if (h.call(temp, &bytes, dx, dx, out, 64, 64, 64) == 0)
    FAIL("%s: a temp of %zu bytes, one short, is not an error\n", h.name, bytes);
  bytes = need;
  if (h.call(temp, &bytes, dx, dx, out, 8, 64, 63) == 0)
    FAIL("%s: ld < n is not an error\n", h.name);
  if (h.call(temp, &bytes, dx, dx, out + 1, 8, 8, 8) == 0)
    FAIL("%s: a misaligned d_out is not an error\n", h.name);
  // d_out inside the matrix (an in-place call): refused; just past it, it runs
  {
    float *dm = (float *)device_alloc(256 * 4);
    DEV(Memset)(dm, 0, 256 * 4);
    if (h.call(temp, &bytes, dm, dm, (unsigned char *)(dm + 32), 8, 8, 8) == 0)
      FAIL("%s: d_out inside the matrix is not an error\n", h.name);
    if (h.call(temp, &bytes, dm, dm, (unsigned char *)(dm + 64), 8, 8, 8) != 0)
      FAIL("%s: d_out just past the matrix is an error\n", h.name);
    DEV(Free)(dm);
  }
  // d_out needs its type's alignment, not its size: an Arg's 8 of 16 bytes
  if (h.out_bytes == 16 && h.call(temp, &bytes, dx, dx, out + 8, 8, 8, 8) != 0)
    FAIL("%s: a d_out 8 bytes past 16-byte alignment (its type's) is an error\n", h.name);
  // d_temp at any address: 3 bytes in, of a buffer 3 bytes longer
  for (size_t skew : {1, 3, 15}) {
    bytes = need;
    DEV(Memset)(temp, 0xff, need + 16);
    DEV(Memset)(out, 0x7f, 65 * h.out_bytes);
    int e = h.call(temp + skew, &bytes, dx, dx, out, 64, 64, 64);
    std::vector<unsigned char> got(64 * h.out_bytes);
    DEV(Memcpy)(got.data(), out, got.size(), DEV(MemcpyDeviceToHost));
    Line l = {hx.data(), hx.data(), 64, 5, 64, h.cols};
    double g, w;
    if (e != 0 || !check_one(h, l, got.data() + 5 * h.out_bytes, &g, &w))
      FAIL("%s: d_temp %zu bytes past an alignment: error %d\n", h.name, skew, e);
  }
  // nothing to write: m = 0 rows, n = 0 columns
  DEV(Memset)(out, 0x7f, 65 * h.out_bytes);
  bytes = need;
  int e = h.cols ? h.call(temp, &bytes, dx, dx, out, 64, 0, 0)
                 : h.call(temp, &bytes, dx, dx, out, 0, 64, 64);
  unsigned char first = 0;
  DEV(Memcpy)(&first, out, 1, DEV(MemcpyDeviceToHost));
  if (e != 0 || first != 0x7f)
    FAIL("%s: an empty output: error %d, or it was written\n", h.name, e);
  // and, as CUB's no segments, whatever the rest: no d_in or d_out, ld < n,
  // a temp too small
  bytes = 1;
  e = h.cols ? h.call(temp, &bytes, nullptr, nullptr, nullptr, 64, 0, 0)
             : h.call(temp, &bytes, nullptr, nullptr, nullptr, 0, 64, 3);
  if (e != 0)
    FAIL("%s: an empty output with NULL pointers, ld < n and a temp of 1 byte: error %d\n", h.name,
         e);
  fake::fail = true;
  bytes = need;
  if (h.call(temp, &bytes, dx, dx, out, 8, 8, 8) == 0)
    FAIL("%s: a failing device query is not an error\n", h.name);
  fake::fail = false;
  DEV(Free)(dx), DEV(Free)(temp), DEV(Free)(out);
}

#ifdef TGM_TUNED
// The fixture's cells found on the H100 for the shapes in them whose
// setting fits (block and knobs as the fixture has them), for no other
// shape, and on no other GPU.
template <typename Cell>
static void expect_cell(const char *what, cudaError_t e, const Cell *cell, bool tuned,
                        unsigned block, unsigned knob) {
  if (e != DEV(Success) || (cell != nullptr) != tuned ||
      (cell && (cell->block != block || (cell->per_row ? cell->per_row : cell->parts) != knob)))
    FAIL("%s: error %d, cell %s (block %u), want %s\n", what, (int)e, cell ? "found" : "none",
         cell ? (unsigned)cell->block : 0u, tuned ? "the fixture's" : "none");
}

static void tuned_cells() {
  namespace r = tgm_kernels_sum_f32_rows;
  namespace c = tgm_kernels_sum_f32_cols;
  const struct {
    bool cols;
    size_t m, n;
    bool tuned;
    unsigned block, knob; // knob: RW/RL per_row, CT parts
  } want[] = {{false, 2, 70000, true, 256, 16},   {false, 3, 131071, true, 256, 16},
              {false, 20, 1500, true, 256, 0},    {false, 1500, 40, true, 128, 4},
              {false, 100, 4100, true, 128, 256}, {false, 200, 4100, false, 0, 0},
              {false, 4, 70000, false, 0, 0},     {false, 20, 1000, false, 0, 0},
              {false, 0, 1500, false, 0, 0},      {true, 2, 300, true, 256, 1},
              {true, 100, 20, true, 512, 8},      {true, 6000, 6, true, 256, 64},
              {true, 5, 65536, true, 512, 16},    {true, 5, 70000, false, 0, 0},
              {true, 100, 0, false, 0, 0},        {false, 20, 20000, true, 512, 3},
              {true, 600, 100, true, 256, 4}}; // the atomic kinds: RA, CA.SV
  for (int g = 0; g < (int)fake::gpus.size(); g++) {
    fake::current = g;
    const bool h100 = std::strcmp(fake::gpus[(size_t)g].name, "NVIDIA H100 80GB HBM3") == 0;
    for (const auto &w : want) {
      char what[128];
      std::snprintf(what, sizeof what, "%s %s %zu x %zu", fake::gpus[(size_t)g].name,
                    w.cols ? "columns" : "rows", w.m, w.n);
      if (w.cols) {
        const c::tgm_cell *cell = nullptr;
        cudaError_t e = c::tgm_cell_of(w.m, w.n, &cell);
        expect_cell(what, e, cell, h100 && w.tuned, w.block, w.knob);
      } else {
        const r::tgm_cell *cell = nullptr;
        cudaError_t e = r::tgm_cell_of(w.m, w.n, &cell);
        expect_cell(what, e, cell, h100 && w.tuned, w.block, w.knob);
      }
    }
  }
}
#endif

// The row rule's input from the memory (launch_rule.tpl's tgm_sm_gbps): rows
// of 8, 16 and 32 from 2^22 elements read more bytes a thread, few long rows
// spread over every SM, and sms to 2 sms rows of 8192-262144 take a block of
// 256 a row, where a SM's share of the bandwidth is 32 GB/s or more
// (the fake H200: 37), not on the H100 (its memory unknown here: the query
// fails, and the call still runs).
static void bandwidth_picks() {
  namespace r = tgm_kernels_sum_f32_rows;
  // the whole pick: kind (0 RW, 1 RB, 2 RA here), vec, per_row, block, items, atomic
  const struct {
    int gpu;
    size_t m, n;
    int kind, vec;
    unsigned per_row, block, items, atomic;
  } want[] = {{2, 131100, 32, 0, 1, 2, 128, 4, 0},
              {2, 524300, 8, 0, 0, 1, 128, 1, 0},
              {2, 262150, 16, 0, 1, 1, 128, 4, 0},
              {2, 131000, 32, 0, 0, 8, 128, 1, 0},
              {2, 105000, 40, 0, 0, 8, 128, 1, 0},
              {2, 500000, 12, 0, 0, 2, 128, 1, 0},
              {2, 70000, 64, 0, 0, 8, 128, 1, 0},
              {1, 131100, 32, 0, 0, 8, 128, 1, 0},
              {1, 524300, 8, 0, 0, 2, 128, 1, 0},
              {0, 131100, 32, 0, 0, 8, 128, 1, 0},
              // fewer than 0.3 sms rows of 2^23 elements or more, with atomics: RA's 8 sms
              // blocks on the H200, a block of 512 a row where the memory is slower or unknown
              // (on four SMs 33 rows are not few: a block of 128 a row)
              {2, 33, 262150, 2, 1, 32, 256, 4, 1},
              {2, 32, 524288, 2, 1, 33, 256, 4, 1},
              {2, 40, 524288, 1, 1, 0, 512, 1, 0},
              {2, 32, 131072, 1, 1, 0, 512, 1, 0},
              {1, 33, 262150, 1, 1, 0, 512, 1, 0},
              {0, 33, 262150, 1, 1, 0, 128, 1, 0},
              // sms to 2 sms rows of 8192-262144: a block of 256 a row on the H200, RA's 8 sms
              // blocks on the H100 (and on the H200 for longer rows)
              {2, 256, 16384, 1, 1, 0, 256, 1, 0},
              {2, 132, 65536, 1, 1, 0, 256, 1, 0},
              {2, 263, 8192, 1, 1, 0, 256, 1, 0},
              {2, 200, 8191, 1, 1, 0, 128, 1, 0},
              {2, 200, 65540, 1, 1, 0, 256, 1, 0},
              {2, 140, 262144, 1, 1, 0, 256, 1, 0},
              {2, 200, 262150, 2, 1, 5, 256, 4, 1},
              {1, 256, 16384, 2, 1, 4, 256, 4, 1}};
  for (const auto &w : want) {
    fake::current = w.gpu;
    tgm_rows_pick k = {};
    bool early = false;
    if (r::tgm_pick(w.m, w.n, &k, &early) != DEV(Success) || k.kind != w.kind || k.vec != w.vec ||
        k.per_row != w.per_row || k.block != w.block || k.items != w.items || k.atomic != w.atomic)
      FAIL("%s, %zu x %zu: pick kind %d vec %d per_row %u block %u items %u atomic %u, want %d %d "
           "%u %u %u %u\n",
           fake::gpus[(size_t)w.gpu].name, w.m, w.n, k.kind, k.vec, k.per_row, k.block, k.items,
           k.atomic, w.kind, w.vec, w.per_row, w.block, w.items, w.atomic);
  }
  fake::current = 0;
}

// A kernel starts early (programmatic dependent launch) only where the
// program's code for the GPU has the waits it needs: on an sm_90 GPU running
// code built for sm_80 (from its PTX), where `griddepcontrol.wait` is
// compiled out, the counters are cleared first as on older GPUs (found by a
// probe). HIP never starts one early.
static void early_needs_sm90_code() {
  namespace r = tgm_kernels_sum_f32_rows;
  const size_t first = fake::gpus.size();
  fake::gpus.push_back({"sm_90, code for sm_80", 9, 0, 132, 1024, 0, 0, 80});
  fake::gpus.push_back({"sm_90, code for sm_90", 9, 0, 132, 1024, 0, 0, 90});
  fake::gpus.push_back({"sm_80", 8, 0, 108});
#ifdef TGM_HIP
  const bool want[] = {false, false, false};
#else
  const bool want[] = {false, true, false};
#endif
  for (size_t g = 0; g < 3; g++) {
    fake::current = (int)(first + g);
    tgm_rows_pick k = {};
    bool early = !want[g];
    if (r::tgm_pick(40, 524288, &k, &early) != DEV(Success) || early != want[g])
      FAIL("%s: early %d, want %d\n", fake::gpus[first + g].name, (int)early, (int)want[g]);
  }
  fake::current = 0;
  fake::gpus.resize(first);
}

int main() {
  // the H200 with its memory: 2 x 3.2 GHz x 768 bytes over 132 SMs, 37 GB/s a SM
  fake::gpus = {{"four SMs", 9, 0, 4},
                {"NVIDIA H100 80GB HBM3", 9, 0, 132},
                {"NVIDIA H200", 9, 0, 132, 1024, 3201000, 6144}};
#ifdef TGM_TUNED
  tuned_cells();
#endif
  bandwidth_picks();
  early_needs_sm90_code();
  for (const Header &h : headers) {
    std::set<int> picks;
    for (int g = 0; g < (int)fake::gpus.size(); g++) {
      fake::current = g;
      run_shapes(h, fake::gpus[(size_t)g].name, &picks);
      contract(h);
    }
    // every kind the pick names was run
    // RA, where the spectrum has it (its result the accumulator, no epilogue), wherever RL would run
    const bool ra = !h.cols && (h.op == SUM || h.op == MAX || h.op == COUNT_IF);
    const std::set<int> want = h.cols ? std::set<int>{1}
                               : ra   ? std::set<int>{0, 1, 2, 5}
                                      : std::set<int>{0, 1, 2, 4};

    for (int k : want)
      if (!picks.count(k))
        FAIL("%s: pick %d never ran\n", h.name, k);
    if (h.cols && picks.size() < 2)
      FAIL("%s: no shape ran columns in several parts\n", h.name);
    std::printf("%s: %zu picks\n", h.name, picks.size());
  }
  if (failures) {
    std::printf("%ld failure(s)\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}

// {{harness}} -- tgm-gen {{version}} --check --rows or --cols: the row (or
// column) variants of {{file}}
// run on the CPU simulator ({{dialect}}, warp {{warp}}) against the
// spectrum's scalar codelet run sequentially over each row
// (tgm_reference_kernel). Generated; tgm-gen compiles it with the simulator,
// runs it and deletes it.
//
// Every variant runs in a child process of its own (a crash or a hang is that
// variant's failure), under each setting below, for each shape below and
// each per_row (RW: threads a row; RL: blocks a row): random data, the
// temp storage zeroed once and reused (RL's counters must reset
// themselves), the elements between a
// row's end and the next row (ld > n) poisoned with values that change any
// result they enter, the output poisoned with a canary after out[m - 1],
// blocks and threads in several orders; for a plain fold also sparse data:
// each row the identity but for one element; for a floating-point element
// also NaN elements. With --cols the same, each
// column against the scalar codelet over the column gathered (m elements);
// a launch's `items` is then its parts down the rows, `per_row` its width.
// The reference of each row must agree with the scalar codelet compiled as
// C++ (the oracle, last in this file): ORACLE FAIL otherwise.
// Output, one line per variant: RESULT <tab> id <tab> ok | FAIL <tab> what.
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>
#include <vector>

#include "{{file}}"

namespace ns = {{namespace}};
using T = ns::T;
using A = ns::A;
using R = ns::R;

// The scalar parameters' values
{{#params}}
static const {{ctype}} {{name}} = {{value}};
{{/params}}

enum { NIN = {{nin}}, SECONDS = 300 };
static const bool COLS = {{cols_bool}}; // outputs: a column's each (n), else a row's (m)

// m rows of n elements, ld apart, the first at element `offset` of the buffer
// (1: rows off 16-byte alignment, and with ld odd every row differently);
// cols_only: a shape for the column paths alone (rows skip it); rw_only:
// for the rows' RW variants alone (RB, RL and RA skip it: the packed rows of
// RW.SS, which cost a block of 1024 a row there and test nothing of theirs:
// a third of the row checks' run time).
struct Shape {
  unsigned long long m, n, ld, offset;
  bool cols_only, rw_only;
};
static const Shape shapes[] = {
    {0, 5, 5, 0},    {1, 0, 0, 0},   {3, 0, 4, 0},    {1, 1, 1, 0},      {1, 33, 33, 0},
    {5, 3, 3, 1},    {7, 31, 31, 0}, {9, 33, 40, 1},  {64, 2, 2, 0},     {33, 4, 4, 0},
    {130, 17, 19, 1}, {40, 64, 67, 0}, {3, 4097, 4099, 1}, {2, 9000, 9000, 0},
    // ld a multiple of 4 with the matrix 1 and 2 elements past a 16-byte
    // boundary: CT.SV's vector loads with partial groups at both edges
    {21, 30, 32, 1}, {100, 9, 12, 2}, {67, 64, 64, 0},
    // rows packed (ld = n), fewer columns than a vector: CT.SV reads the
    // matrix as one run of vectors, the head and tail off the boundary
    // (1000 rows a block each would make the row checks 2x slower)
    {45, 2, 2, 1, true}, {300, 1, 1, 3, true}, {1000, 2, 2, 0, true},
    // rows packed into vectors (RW.SS a thread a row: tgm_rows_packed): a row before the first
    // 16-byte boundary and one after the last; one row, before it; 4-byte types: 1 and 3 rows
    // of one element before the first boundary, 8-byte: 1 (and 2 rows a vector); 130 rows of 1
    // in fewer blocks than a thread a row takes (the kernel and the launcher must agree)
    {46, 2, 2, 2, false, true}, {1, 2, 2, 2}, {37, 1, 1, 3, false, true}, {38, 1, 1, 1, false, true},
    {130, 1, 1, 0, false, true},
};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

struct Setting {
  unsigned items;
  tgm_sim::order blocks, threads;
  bool sparse, nan;
  const char *name;
};
static const Setting settings[] = {
    {1, tgm_sim::order::forward, tgm_sim::order::forward, false, false, "items=1"},
    {4, tgm_sim::order::random, tgm_sim::order::reverse, false, false,
     "items=4, blocks in random order, threads in reverse"},
    // the vector kernels' third path of loads in flight (a kernel each: file.tpl's tgm_values_DS_SV)
    {16, tgm_sim::order::reverse, tgm_sim::order::forward, false, false, "items=16, blocks in reverse"},
{{?sparse}}
    {4, tgm_sim::order::random, tgm_sim::order::forward, true, false,
     "items=4, sparse data: each row the identity but for one element"},
{{/sparse}}
{{?float_elem}}
    {4, tgm_sim::order::forward, tgm_sim::order::random, false, true,
     "items=4, NaN elements (a row's third of every third row, and every 1009th{{?pair}}; every fourth line only NaNs from line 1, NaNs but one number from line 3{{/pair}}), threads in random order"},
{{/float_elem}}
};
enum { NSETTINGS = sizeof settings / sizeof settings[0] };

// A run of results: std::vector<R> but for a bool R too (std::vector<bool>
// packs bits and has no data())
struct Results {
  std::unique_ptr<R[]> p;
  void resize(size_t k) { p.reset(new R[k]()); }
  R *data() { return p.get(); }
  R &operator[](size_t k) { return p[k]; }
};

// per setting and shape: the inputs, and each row's reference and the
// epilogue of its accumulated value -/+ the float bound
static std::vector<T> data[NSETTINGS][NSHAPES][NIN];
static Results wants[NSETTINGS][NSHAPES];
{{compare}}

// One variant in blocks of `block` threads, every setting, shape and group:
// 0 when right, else 1 after its RESULT line (FAIL, and the block it ran in).
// per_items: its kernel is compiled for its loads in flight, one a path (1,
// 4, 16); the others run the same code for items 4 and 16.
template <typename Launch, typename TempBytes>
static int run_variant(const char *id, unsigned block, Launch launch, TempBytes temp_bytes, const unsigned *groups,
                       int ngroups, bool per_items) {
  size_t tb = 0;
  for (int i = 0; i < NSHAPES; i++)
    for (int gi = 0; gi < ngroups; gi++)
      for (int s = 0; s < NSETTINGS; s++)
        tb = std::max(tb, temp_bytes(shapes[i].m, shapes[i].n, settings[s].items, groups[gi]));
  std::vector<unsigned long long> temp(tb / 8 + 2, 0); // zeroed once, 16-byte aligned
  for (int s = 0; s < NSETTINGS; s++) {
    if (block != {{full_block}} && s != 1) // another block: its block level, on one setting
      continue;
    const Setting &st = settings[s];
    if (st.items == 16 && !per_items)
      continue;
    tgm_sim::set_block_order(st.blocks, 7);
    tgm_sim::set_thread_order(st.threads, 11);
    for (int i = 0; i < NSHAPES; i++)
      for (int gi = 0; gi < ngroups; gi++) {
        if (block != {{full_block}} && gi != ngroups - 1) // and on one group: the widest
          continue;
        const Shape &sh = shapes[i];
        if (sh.cols_only && !COLS)
          continue;
        if (sh.rw_only && !COLS && !(id[0] == 'R' && id[1] == 'W'))
          continue;
        const unsigned long long m = sh.m, n = sh.n, ld = sh.ld, off = sh.offset;
        const T *x[NIN + 1];
        for (int k = 0; k < NIN; k++)
          x[k] = data[s][i][k].data() + off;
        if (COLS && st.items > 1 && (n + groups[gi] - 1) / groups[gi] > TGM_ROWS_PARTS_MAX)
          continue; // several parts take a counter a tile of columns: at most TGM_ROWS_PARTS_MAX
        const unsigned long long nout = COLS ? n : m;
        Results out;
        out.resize(nout + 1);
        R canary;
        std::memset(out.data(), 0x7f, sizeof(R) * (nout + 1));
        std::memset(&canary, 0x7f, sizeof canary);
        auto rc = launch({{ins}}, m, n, ld, out.data(), tb ? (void *)temp.data() : nullptr, tb, st.items,
                         groups[gi]{{param_args}}, nullptr);
        for (unsigned long long r = 0; r <= nout; r++) {
          const R *want = &wants[s][i][3 * r];
          bool bad = rc != 0 || (r < nout ? !close_enough(out[r], want)
                                          : std::memcmp(&out[nout], &canary, sizeof(R)) != 0);
          if (!bad)
            continue;
          std::printf("RESULT\t%s\tFAIL\tblock=%u m=%llu n=%llu ld=%llu %s=%u (%s): ", id, block, m, n, ld,
                      COLS ? "width" : "per_row", groups[gi], st.name);
          if (rc != 0)
            std::printf("the launch failed: %s\n", rc == 1 ? "invalid value" : tgm_sim::last_error_text());
          else if (r == nout)
            std::printf("wrote past the last output\n");
          else {
            std::printf("%s %llu: ", COLS ? "column" : "row", r);
            print_got(out[r], want);
          }
          return 1;
        }
      }
  }
  return 0;
}

// Between rows: far outside the data's range, alternately high and low, so
// that a variant that reads past a row's end changes its result.
static T poison(unsigned long long j) {
  if (std::is_signed<T>::value || std::is_floating_point<T>::value)
    return (T)(j % 2 ? 7777 : -7777);
  return (T)(j % 2 ? 7777 : 0);
}

int main() {
  std::mt19937_64 rng(20261125);
  for (int s = 0; s < NSETTINGS; s++)
    for (int i = 0; i < NSHAPES; i++) {
      const Shape &sh = shapes[i];
      const unsigned long long m = sh.m, n = sh.n, ld = sh.ld, off = sh.offset;
      const unsigned long long len = off + (m ? (m - 1) * ld + n : 0) + 16;
      for (int k = 0; k < NIN; k++) {
        std::vector<T> &d = data[s][i][k];
        d.resize(len);
        for (unsigned long long j = 0; j < len; j++)
          d[j] = poison(j);
        for (unsigned long long r = 0; r < m; r++)
          for (unsigned long long c = 0; c < n; c++)
            d[off + r * ld + c] = random_value(rng);
{{?pair}}
        // argmax, argmin: ties in floating point too (multiples of 1/8), a
        // NaN now and then (a number wins over it); each row's first element the
        // identity's value, which ties with the identity when n = 1.
        bool fp = std::is_floating_point<T>::value;
        T lowest = fp ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
        T highest = fp ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
        (void)lowest, (void)highest;
        for (unsigned long long r = 0; r < m; r++)
          for (unsigned long long c = 0; c < n; c++) {
            T &e = d[off + r * ld + c];
            if (fp)
              e = (r + c) % 23 == 11 ? (T)NAN : (T)((double)((long long)(rng() % 2001) - 1000) / 8);
            if (c == 0)
              e = {{pair_extreme}};
          }
{{/pair}}
        // a NaN is an element too: max and min pass it over, a sum takes it
        // (a column's: column 2 at every third row)
        if (settings[s].nan)
          for (unsigned long long r = 0; r < m; r++)
            for (unsigned long long c = 0; c < n; c++)
              if ((c == 2 && r % 3 == 0) || (r * ld + c) % 1009 == 500)
                d[off + r * ld + c] = (T)NAN;
{{?pair}}
        // argmax, argmin: every fourth output's line (a row, or a column)
        // only NaNs (the first NaN wins), the next but one NaNs but for one
        // number (it wins over the others' NaNs in every order of combines)
        if (settings[s].nan && fp)
          for (unsigned long long r = 0; r < m; r++)
            for (unsigned long long c = 0; c < n; c++) {
              const unsigned long long line = COLS ? c : r, at = COLS ? r : c, len = COLS ? m : n;
              if (line % 4 == 1 || (line % 4 == 3 && at != (line * 7) % len))
                d[off + r * ld + c] = (T)NAN;
              else if (line % 4 == 3)
                d[off + r * ld + c] = (T)(double)((long long)(line % 2001) - 1000);
            }
{{/pair}}
{{?sparse}}
        if (settings[s].sparse) // a plain fold: A is T, and the identity an element
          for (unsigned long long r = 0; r < m; r++) {
            for (unsigned long long c = 0; c < n; c++)
              d[off + r * ld + c] = (T)ns::tgm_identity();
            if (n > 0) {
              T x;
              do
                x = random_value(rng);
              while (x == (T)ns::tgm_identity());
{{?sparse_zero}}
              x = (T)0; // a logical and: only a 0 changes an identity of 1
{{/sparse_zero}}
              d[off + r * ld + rng() % n] = x;
            }
          }
{{/sparse}}
      }
      // one simulated thread runs the scalar codelet over each row (each
      // column, gathered)
      const unsigned long long nout = COLS ? n : m, ref_n = COLS ? m : n;
      wants[s][i].resize(3 * (nout + 1));
      std::vector<T> gathered[NIN];
      for (unsigned long long r = 0; r < nout; r++) {
        R *w = &wants[s][i][3 * r];
        const T *x[NIN + 1];
        for (int k = 0; k < NIN; k++) {
          x[k] = data[s][i][k].data() + off + r * ld;
          if (COLS) {
            gathered[k].assign(m + 1, T());
            for (unsigned long long e = 0; e < m; e++)
              gathered[k][e] = data[s][i][k][off + e * ld + r];
            x[k] = gathered[k].data();
          }
        }
        tgm_reference_n = ref_n;
        tgm_reference_guard(true);
        if (tgm_sim::launch(dim3(1), dim3(1), [&] { ns::tgm_reference_kernel({{ins}}, ref_n, w{{param_args}}); }) !=
            tgm_sim::status::success) {
          std::printf("the reference failed: %s\n", tgm_sim::last_error_text());
          return 1;
        }
        char where[256];
        std::snprintf(where, sizeof where, "%s, %s %llu of %llu x %llu (ld %llu)", settings[s].name,
                      COLS ? "column" : "row", r, m, n, ld);
        if (!tgm_oracle_agrees(x, ref_n, w, where))
          return 0; // no variant runs: tgm-gen reports the ORACLE line
        tgm_reference_guard(false);
      }
    }
  // per_row: RW's threads a row, RL's blocks a row (1: one block; 3: parts
  // of unequal size, and a counter that wraps at 2), RB's 0
  // (--cols: the width, columns a block, its parts the setting's items: 1, 4)
  static const unsigned row_groups[] = {1, 2, 4, 8, 16, 32}, row_parts[] = {1, 3}, block_groups[] = {0},
                        col_widths[] = {1, 4, 32, 128};
  (void)row_groups, (void)row_parts, (void)block_groups, (void)col_widths;
{{#variants}}
  // the launcher's own arguments (a column launcher's early left to its default)
  isolated("{{id}}", [] { return {{runs}}report_ok("{{id}}"); });
{{/variants}}
  return 0;
}

{{oracle}}

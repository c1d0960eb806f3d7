// {{harness}} -- tgm-gen {{version}} --check: variants of {{file}} run on the
// CPU simulator ({{dialect}}, warp {{warp}}) against the spectrum's scalar
// codelet run sequentially (tgm_reference). Generated; tgm-gen compiles it
// with the simulator, runs it and deletes it.
//
// Every variant runs in a child process of its own (a crash or a hang is that
// variant's failure), under each setting below, at each size below:
//   random data, the output poisoned with a canary after it, the temp storage
//   zeroed once and reused (a counter must reset itself), blocks and threads
//   in several orders; for a plain fold also sparse data: the identity but
//   for one element, so that an operator whose result saturates on random
//   data (|, &, ||, a float product) still sees a variant that drops it; for
//   a floating-point element, NaN elements (max(x, NaN) and max(NaN, x)
//   differ). The reference is tgm_reference_kernel: exact for
//   integers and max/min; for floating-point sums and products, a range that
//   grows with n. The reference itself must agree with the scalar codelet
//   compiled as C++ (the oracle, last in this file): ORACLE FAIL otherwise.
// Output, one line per variant: RESULT <tab> id <tab> ok | FAIL <tab> what.
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
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

enum { NIN = {{nin}} };
static const unsigned long long sizes[] = {0, 1, 31, 33, 4097, 70001};
enum { NSIZES = sizeof sizes / sizeof sizes[0], SECONDS = 300 };

struct Setting {
  unsigned items, grid_cap, offset;
  tgm_sim::order blocks, threads;
  bool sparse, nan;
  const char *name;
};
static const Setting settings[] = {
    {1, 2, 0, tgm_sim::order::forward, tgm_sim::order::forward, false, false, "items=1 grid_cap=2"},
    {4, 3, 1, tgm_sim::order::random, tgm_sim::order::reverse, false, false,
     "items=4 grid_cap=3, input 1 element past 16-byte alignment, blocks in random order"},
    // the vector kernels' third path of loads in flight (a kernel each: file.tpl's tgm_values_DS_SV)
    {16, 2, 0, tgm_sim::order::reverse, tgm_sim::order::random, false, false,
     "items=16 grid_cap=2, blocks in reverse, threads in random order"},
{{?sparse}}
    {4, 3, 0, tgm_sim::order::random, tgm_sim::order::forward, true, false,
     "items=4 grid_cap=3, sparse data: the identity but for one element, blocks in random order"},
{{/sparse}}
{{?float_elem}}
    {4, 3, 0, tgm_sim::order::forward, tgm_sim::order::random, false, true,
     "items=4 grid_cap=3, NaN elements (at 2 and every 1009th{{?pair}}; n = 31, 4097: only NaNs; 33, 70001: NaNs but one number{{/pair}}), threads in random order"},
{{/float_elem}}
};
enum { NSETTINGS = sizeof settings / sizeof settings[0] };

// per setting and size: the inputs (random data, or sparse)
static std::vector<T> data[NSETTINGS][NSIZES][NIN];
// per setting and size: the reference, and the epilogue of the accumulated
// value -/+ the float bound
static R wants[NSETTINGS][NSIZES][3];
{{compare}}

// One variant in blocks of `block` threads, every setting and size: 0 when
// right, else 1 after its RESULT line (FAIL, and the block it ran in).
// per_items: its kernel is compiled for its loads in flight, one a path (1,
// 4, 16); the others run the same code for items 4 and 16.
template <typename Launch, typename TempBytes>
static int run_variant(const char *id, unsigned block, Launch launch, TempBytes temp_bytes, bool per_items) {
  for (int s = 0; s < NSETTINGS; s++) {
    if (block != {{full_block}} && s != 1) // another block: its block level, on one setting
      continue;
    const Setting &st = settings[s];
    if (st.items == 16 && !per_items)
      continue;
    const unsigned long long off = st.offset;
    tgm_sim::set_block_order(st.blocks, 7);
    tgm_sim::set_thread_order(st.threads, 11);
    size_t tb = 0;
    for (unsigned long long n : sizes)
      tb = std::max(tb, (size_t)temp_bytes(n, st.items, st.grid_cap));
    std::vector<unsigned char> temp(tb + 64, 0); // zeroed once, reused by every size
    for (int i = 0; i < NSIZES; i++) {
      unsigned long long n = sizes[i];
      R out[2], canary;
      std::memset(out, 0x7f, sizeof out);
      std::memset(&canary, 0x7f, sizeof canary);
      auto rc = launch({{ins}}, n, out, tb ? temp.data() : nullptr, tb, st.items, st.grid_cap{{param_args}},
                       nullptr);
      const R *want = wants[s][i];
      if (rc != 0 || !close_enough(out[0], want) || std::memcmp(&out[1], &canary, sizeof(R)) != 0) {
        std::printf("RESULT\t%s\tFAIL\tblock=%u n=%llu (%s): ", id, block, n, st.name);
        if (rc != 0)
          std::printf("the launch failed: %s\n", tgm_sim::last_error_text());
        else if (std::memcmp(&out[1], &canary, sizeof(R)) != 0)
          std::printf("wrote past the result\n");
        else
          print_got(out[0], want);
        return 1;
      }
    }
  }
  return 0;
}

int main() {
  std::mt19937_64 rng(20261123);
  size_t len = sizes[NSIZES - 1] + 16;
  std::vector<T> dense[NIN];
  for (int k = 0; k < NIN; k++) {
    dense[k].resize(len);
    for (auto &x : dense[k])
      x = random_value(rng);
  }
{{?pair}}
  // argmax, argmin: ties in floating point too (multiples of 1/8), a NaN now
  // and then (a number wins over it), and at 0 and 1 the identity's value, which
  // ties with the identity when n = 1 (the element must win).
  for (int k = 0; k < NIN; k++) {
    bool fp = std::is_floating_point<T>::value;
    if (fp)
      for (size_t j = 0; j < len; j++)
        dense[k][j] = j % 1009 == 500 ? (T)NAN : (T)((double)((long long)(rng() % 2001) - 1000) / 8);
    T lowest = fp ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    T highest = fp ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    (void)lowest, (void)highest;
    dense[k][0] = dense[k][1] = {{pair_extreme}};
  }
{{/pair}}
  for (int s = 0; s < NSETTINGS; s++)
    for (int i = 0; i < NSIZES; i++)
      for (int k = 0; k < NIN; k++) {
        data[s][i][k] = dense[k];
        if (settings[s].nan) // a NaN is an element too: max and min pass it over, a sum takes it
          for (size_t j = 0; j < data[s][i][k].size(); j++)
            if (j == settings[s].offset + 2 || j % 1009 == 500)
              data[s][i][k][j] = (T)NAN;
{{?pair}}
        // argmax, argmin: only NaNs (n = 31, 4097: the first NaN wins), or
        // NaNs but for one number (n = 33, 70001: it wins over the other
        // threads' and blocks' NaNs in every order of combines)
        if (settings[s].nan && std::is_floating_point<T>::value && i >= 2) {
          std::fill(data[s][i][k].begin(), data[s][i][k].end(), (T)NAN);
          if (i % 2 == 1)
            data[s][i][k][settings[s].offset + rng() % sizes[i]] = (T)(double)((long long)(rng() % 2001) - 1000);
        }
{{/pair}}
{{?sparse}}
        if (settings[s].sparse) { // a plain fold: A is T, and the identity an element
          const unsigned long long off = settings[s].offset, n = sizes[i];
          std::fill(data[s][i][k].begin(), data[s][i][k].end(), (T)ns::tgm_identity());
          if (n > 0) {
            T x;
            do
              x = random_value(rng);
            while (x == (T)ns::tgm_identity());
{{?sparse_zero}}
            x = (T)0; // a logical and: only a 0 changes an identity of 1
{{/sparse_zero}}
            data[s][i][k][off + rng() % n] = x;
          }
        }
{{/sparse}}
      }
  tgm_reference_guard(true);
  for (int s = 0; s < NSETTINGS; s++)
    for (int i = 0; i < NSIZES; i++) {
      const unsigned long long off = settings[s].offset, n = sizes[i];
      R *w = wants[s][i]; // one simulated thread runs the scalar codelet
      tgm_reference_n = n;
      if (tgm_sim::launch(dim3(1), dim3(1), [&] { ns::tgm_reference_kernel({{ins}}, n, w{{param_args}}); }) !=
          tgm_sim::status::success) {
        std::printf("the reference failed: %s\n", tgm_sim::last_error_text());
        return 1;
      }
      const T *x[NIN] = { {{ins}} };
      if (!tgm_oracle_agrees(x, n, w, settings[s].name))
        return 0; // no variant runs: tgm-gen reports the ORACLE line
    }
  tgm_reference_guard(false);
{{#variants}}
  isolated("{{id}}", [] { return {{runs}}report_ok("{{id}}"); });
{{/variants}}
  return 0;
}

{{oracle}}

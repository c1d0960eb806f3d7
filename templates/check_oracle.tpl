// The oracle: {{spectrum}}'s scalar codelet as the user wrote it
// ({{source_name}}, the other codelets' bodies blanked: oracle.h), compiled
// here as C++ under sim/tgm_oracle.h (the language's meaning on a CPU), not
// translated by tgm. Run over the reference's data, it must agree with
// tgm_reference as a variant must (close_enough): else tgm's translation of
// the codelet, which every variant shares, is wrong and nothing is written.
// Last in the file: the codelet file's macros reach nothing after it.
// Every standard header a codelet file may include (front.c's std_paths),
// here first: the file's own #include then adds nothing inside the namespace.
#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <float.h>
#include <limits>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <type_traits>

namespace tgm_oracle {
typedef ::T T;
typedef {{oracle_value}} tgm_value_t; // what Lowest() and Highest() give
#include "sim/tgm_oracle.h"
#define std tgm_oracle_std
#include "oracle.h"
#undef std
} // namespace tgm_oracle

template <typename X> static R tgm_oracle_result(X x) { return (R)x; }
{{?pair}}
static R tgm_oracle_result(tgm_oracle::Arg x) {
  R r;
  r.key = x.key;
  r.value = x.value;
  return r;
}
{{/pair}}

// A float converted to an integer out of its range (or a NaN): C++ leaves
// it undefined (tgm gives the GPU's answer, tgm_ftoi), and the harness is
// built with -fsanitize=float-cast-overflow trapping there (SIGILL): no
// answer to compare with at that n.
static sigjmp_buf tgm_oracle_trap;
static void tgm_oracle_on_trap(int) { siglongjmp(tgm_oracle_trap, 1); }

static bool tgm_oracle_agrees(const T *const *x, unsigned long long n, const R *want, const char *where) {
  (void)x;
  struct sigaction on_trap = {}, was;
  on_trap.sa_handler = tgm_oracle_on_trap;
  sigaction(SIGILL, &on_trap, &was);
  if (sigsetjmp(tgm_oracle_trap, 1)) {
    sigaction(SIGILL, &was, nullptr);
    return true;
  }
  const R got = tgm_oracle_result({{oracle_call}});
  sigaction(SIGILL, &was, nullptr);
  if (close_enough(got, want))
    return true;
  std::printf("ORACLE\tFAIL\t%s, n = %llu: ", where, n);
  print_got(got, want);
  return false;
}

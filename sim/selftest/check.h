// check.h - tiny assertion helpers for the sim self-tests.
#pragma once
#include <cstdio>
#include <cstring>

static int g_failures = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                                 \
    }                                                                               \
  } while (0)

// The launch succeeded; print the sim's error text if not.
#define CHECK_OK(st)                                                         \
  do {                                                                       \
    if ((st) != tgm_sim::status::success) {                                  \
      std::fprintf(stderr, "%s:%d: launch failed: %s\n", __FILE__, __LINE__, \
                   tgm_sim::last_error_text());                              \
      ++g_failures;                                                          \
    }                                                                        \
  } while (0)

// The launch failed with a kernel error whose text contains `needle`.
#define CHECK_FAILS_WITH(st, needle)                                                      \
  do {                                                                                    \
    if ((st) != tgm_sim::status::kernel_error ||                                          \
        !std::strstr(tgm_sim::last_error_text(), (needle))) {                             \
      std::fprintf(stderr, "%s:%d: expected a kernel error containing \"%s\", got: %s\n", \
                   __FILE__, __LINE__, (needle), tgm_sim::last_error_text());             \
      ++g_failures;                                                                       \
    }                                                                                     \
  } while (0)

static const tgm_sim::order kOrders[] = {tgm_sim::order::forward, tgm_sim::order::reverse,
                                         tgm_sim::order::random};

static inline const char *order_name(tgm_sim::order o) {
  return o == tgm_sim::order::forward   ? "forward"
         : o == tgm_sim::order::reverse ? "reverse"
                                        : "random";
}

static inline int finish(const char *name) {
  if (g_failures)
    std::fprintf(stderr, "%s: %d check(s) failed\n", name, g_failures);
  else
    std::printf("%s: all checks passed\n", name);
  return g_failures ? 1 : 0;
}

// check.h — a few assertion macros for the runtime unit tests.
#ifndef TGM_TEST_CHECK_H
#define TGM_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                     \
  do {                                                                         \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (a_ != b_) {                                                            \
      fprintf(stderr, "%s:%d: %s == %lld, want %lld\n", __FILE__, __LINE__, #a, a_, b_); \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_DONE()                                                           \
  do {                                                                         \
    if (check_failures)                                                        \
      fprintf(stderr, "%d check(s) failed\n", check_failures);                 \
    return check_failures ? 1 : 0;                                             \
  } while (0)
#endif

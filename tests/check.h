// check.h — the tests' assertion macros (one copy for every C test): each
// failed check prints its place and counts; CHECK_DONE() ends main with
// "ok" and 0, or the count and 1.
#ifndef TGM_TEST_CHECK_H
#define TGM_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      check_failures++;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                               \
  do {                                                                                   \
    long long a_ = (long long)(a), b_ = (long long)(b);                                  \
    if (a_ != b_) {                                                                      \
      fprintf(stderr, "%s:%d: %s == %lld, want %lld\n", __FILE__, __LINE__, #a, a_, b_); \
      check_failures++;                                                                  \
    }                                                                                    \
  } while (0)

#define CHECK_STR(a, b)                                                                      \
  do {                                                                                       \
    const char *a_ = (a), *b_ = (b);                                                         \
    if (strcmp(a_, b_)) {                                                                    \
      fprintf(stderr, "%s:%d: %s == \"%s\", want \"%s\"\n", __FILE__, __LINE__, #a, a_, b_); \
      check_failures++;                                                                      \
    }                                                                                        \
  } while (0)

#define CHECK_HAS(s, sub)                                                                       \
  do {                                                                                          \
    const char *s_ = (s), *sub_ = (sub);                                                        \
    if (!strstr(s_, sub_)) {                                                                    \
      fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, s_, sub_); \
      check_failures++;                                                                         \
    }                                                                                           \
  } while (0)

// A failure with its own message (printf-style).
#define CHECK_FAIL(...)                             \
  do {                                              \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                   \
    fputc('\n', stderr);                            \
    check_failures++;                               \
  } while (0)

// The end of main.
#define CHECK_DONE()                                           \
  do {                                                         \
    if (check_failures)                                        \
      fprintf(stderr, "%d check(s) failed\n", check_failures); \
    else                                                       \
      printf("ok\n");                                          \
    return check_failures ? 1 : 0;                             \
  } while (0)
#endif

/* Unit tests of the arena, vectors and text buffers. */
#include "../check.h"
#include "tgm.h"

#include <stdint.h>
#include <string.h>

static void test_alloc_zeroed_aligned(void) {
  Arena *a = arena_new();
  for (size_t size = 1; size < 5000; size = size * 3 + 1) {
    unsigned char *p = arena_alloc(a, size);
    CHECK(((uintptr_t)p & 15) == 0);
    int zero = 1;
    for (size_t i = 0; i < size; i++)
      zero &= p[i] == 0;
    CHECK(zero);
    memset(p, 0xab, size); /* must not overlap the next allocation */
  }
  arena_free(a);
}

static void test_large_and_many(void) {
  Arena *a = arena_new();
  char *big = arena_alloc(a, 1 << 20); /* larger than a chunk */
  big[(1 << 20) - 1] = 'x';
  char *prev = NULL;
  for (int i = 0; i < 100000; i++) { /* many small ones across chunks */
    char *p = arena_alloc(a, 24);
    CHECK(p != prev);
    p[0] = (char)i;
    prev = p;
  }
  CHECK(big[(1 << 20) - 1] == 'x');
  arena_free(a);
}

static void test_strings(void) {
  Arena *a = arena_new();
  CHECK(strcmp(arena_strdup(a, "codelet"), "codelet") == 0);
  CHECK(strcmp(arena_strndup(a, "codelet", 4), "code") == 0);
  CHECK(strcmp(arena_printf(a, "%s#%d", "sum", 3), "sum#3") == 0);
  char *s = arena_printf(a, "%0500d", 7); /* longer than any fixed buffer */
  CHECK(strlen(s) == 500 && s[499] == '7');
  arena_free(a);
}

static void test_vec(void) {
  Arena *a = arena_new();
  PtrVec v = {0};
  int xs[1000];
  for (int i = 0; i < 1000; i++)
    vec_push(a, &v, &xs[i]);
  CHECK(v.len == 1000);
  int ordered = 1;
  for (int i = 0; i < 1000; i++)
    ordered &= v.items[i] == &xs[i];
  CHECK(ordered);
  arena_free(a);
}

static void test_buf(void) {
  Buf b = {0};
  for (int i = 0; i < 1000; i++)
    buf_printf(&b, "%d,", i);
  buf_puts(&b, "end");
  CHECK(strncmp(b.data, "0,1,2,", 6) == 0);
  CHECK(b.len == strlen(b.data));
  CHECK(strcmp(b.data + b.len - 7, "999,end") == 0);
  buf_free(&b);
  CHECK(b.data == NULL && b.len == 0);
}

int main(void) {
  test_alloc_zeroed_aligned();
  test_large_and_many();
  test_strings();
  test_vec();
  test_buf();
  CHECK_DONE();
}

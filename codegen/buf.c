/* buf.c -- growable text buffers (heap, so large outputs do not bloat the
 * arena). */
#include "tgm.h"

#include <stdlib.h>
#include <string.h>

static void buf_reserve(Buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1)
    cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    fputs("tgm-gen: out of memory\n", stderr);
    abort();
  }
  b->data = p;
  b->cap = cap;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void buf_puts(Buf *b, const char *s) {
  size_t n = strlen(s);
  buf_reserve(b, n);
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

void buf_free(Buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

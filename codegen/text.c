/* text.c -- outside text (a path, a database name) made safe inside a
 * comment of generated C, C++, CUDA or HIP.
 *
 * A path may hold any byte but NUL. Printed raw into a `//` comment, a
 * newline or carriage return ends the comment and makes the rest live code
 * (`#error`, `#include`, anything); a trailing backslash, or the trigraph
 * that spells one, splices the next generated line into the comment; a
 * star and a slash end a block comment, and a slash and a star warn inside
 * one. So every such byte is written as %XX (two upper-case hex digits),
 * which reads plainly and stays on one line:
 *
 *   bytes 0x00-0x1f and 0x7f    control characters (newline, CR, tab, ...)
 *   `\`                         line splices
 *   `/` after `*`, `*` after `/`   comment delimiters
 *   `?` after `?`               trigraphs
 *   a byte of invalid UTF-8     (compilers may warn about the encoding)
 *
 * Everything else, valid UTF-8 included, is kept. */
#include "tgm.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at p (1..4), or 0. */
static size_t utf8_len(const unsigned char *p) {
  unsigned char c = p[0];
  size_t n;
  unsigned min;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, min = 0x10000;
  else
    return 0;
  unsigned cp = c & (0x7f >> n);
  for (size_t i = 1; i < n; i++) {
    if ((p[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (p[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

const char *text_comment_safe(Arena *a, const char *s) {
  if (!s)
    return "";
  const unsigned char *p = (const unsigned char *)s;
  size_t len = strlen(s);
  char *out = arena_alloc(a, 3 * len + 1), *o = out;
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < len;) {
    unsigned char c = p[i];
    unsigned char prev = i ? p[i - 1] : 0;
    int esc = c < 0x20 || c == 0x7f || c == '\\' || (c == '/' && prev == '*') ||
              (c == '*' && prev == '/') || (c == '?' && prev == '?');
    if (c >= 0x80) {
      size_t n = utf8_len(p + i);
      if (n) {
        memcpy(o, p + i, n);
        o += n, i += n;
        continue;
      }
      esc = 1;
    }
    if (esc) {
      *o++ = '%';
      *o++ = hex[c >> 4];
      *o++ = hex[c & 15];
    } else {
      *o++ = (char)c;
    }
    i++;
  }
  *o = 0;
  return out;
}

const char *text_file_name(Arena *a, const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return text_comment_safe(a, slash ? slash + 1 : path);
}

const char *text_user_spelling(Arena *a, const char *s) {
  static const char *const map[][2] = {{"tgm_arg(", "Arg("},
                                       {"tgm_lowest()", "Lowest()"},
                                       {"tgm_highest()", "Highest()"}};
  if (!s)
    return "";
  Buf b = {0};
  while (*s) {
    size_t i = 0;
    while (i < COUNT_OF(map) && strncmp(s, map[i][0], strlen(map[i][0])) != 0)
      i++;
    if (i < COUNT_OF(map)) {
      buf_puts(&b, map[i][1]);
      s += strlen(map[i][0]);
    } else {
      buf_printf(&b, "%c", *s++);
    }
  }
  const char *r = arena_strndup(a, b.data ? b.data : "", b.len);
  buf_free(&b);
  return r;
}

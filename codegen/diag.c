/* diag.c -- source files and diagnostics.
 *
 *   codelets/sum.tgm:12:5: error: message
 *       accum -= in[i];
 *       ^
 *
 * Each distinct diagnostic is printed once (the front end parses a file
 * once per codelet, so clang may report the same problem several times).
 * Between diag_limit_begin and diag_limit_end (one file's parses) at most
 * a few errors are shown, their notes with them, and one line counts the
 * rest: a cascade stops early, its root cause on top. */
#include "tgm.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_FILE_BYTES = 16 << 20 };

void diag_init(Diag *d, Arena *a, FILE *out) {
  memset(d, 0, sizeof *d);
  d->arena = a;
  d->out = out;
}

void diag_add_file(Diag *d, SrcFile *f) { vec_push(d->arena, &d->files, f); }

static const SrcFile *find_file(Diag *d, const char *path) {
  if (!path)
    return NULL;
  for (int i = 0; i < d->files.len; i++) {
    SrcFile *f = d->files.items[i];
    if (strcmp(f->path, path) == 0)
      return f;
  }
  return NULL;
}

/* The start of loc's line in its file, or NULL. */
static const char *line_of(const SrcFile *f, Loc loc) {
  if (!f || loc.line < 1)
    return NULL;
  const char *p = f->text, *end = f->text + f->len;
  for (int line = 1; line < loc.line && p < end; p++)
    if (*p == '\n')
      line++;
  return p >= end && loc.line > 1 ? NULL : p;
}

/* Is p[i] a byte that starts no character on screen: a UTF-8 continuation
 * byte, or the byte order mark at the start of the file? */
static bool hidden_byte(const SrcFile *f, const char *p, int i) {
  unsigned char c = (unsigned char)p[i];
  if (c >= 0x80 && c < 0xc0)
    return true;
  return p + i == f->text && f->len >= 3 && !memcmp(f->text, "\xef\xbb\xbf", 3);
}

/* clang counts columns in bytes; the reader counts characters: a UTF-8
 * name or a byte order mark before loc moved the column and the caret. */
static int display_col(const SrcFile *f, const char *p, int col) {
  int shown = 1;
  for (int i = 0; i < col - 1 && p[i] && p[i] != '\n'; i++)
    shown += !hidden_byte(f, p, i);
  return shown;
}

/* Prints the source line of loc and a caret under its column. */
static void print_caret(Diag *d, Loc loc) {
  const SrcFile *f = find_file(d, loc.file);
  const char *p = line_of(f, loc);
  if (!p)
    return;
  const char *end = f->text + f->len;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  if (!eol)
    eol = end;
  int n = (int)(eol - p);
  if (n > 0 && p[n - 1] == '\r')
    n--;
  if (n > 300) /* do not flood the terminal with a minified line */
    n = 300;
  fprintf(d->out, "%.*s\n", n, p);
  for (int i = 0; i < loc.col - 1 && i < n; i++)
    if (!hidden_byte(f, p, i))
      fputc(p[i] == '\t' ? '\t' : ' ', d->out);
  fputs("^\n", d->out);
}

void diag_report(Diag *d, const char *severity, Loc loc, const char *msg) {
  bool note = strcmp(severity, "note") == 0;
  char *key = arena_printf(d->arena, "%s:%d:%d:%s:%s", loc.file ? loc.file : "", loc.line, loc.col,
                           severity, msg);
  for (int i = 0; i < d->seen.len; i++)
    if (strcmp(d->seen.items[i], key) == 0) {
      if (!note) /* a repeated error hides its repeated notes too */
        d->hiding = true;
      return;
    }
  vec_push(d->arena, &d->seen, key);
  if (note && d->hiding)
    return;
  d->hiding = false;

  if (strcmp(severity, "error") == 0) {
    d->nerrors++;
    if (d->limit > 0 && d->shown >= d->limit) {
      d->suppressed++;
      d->hiding = true;
      return;
    }
    d->shown++;
  } else if (strcmp(severity, "warning") == 0) {
    d->nwarnings++;
  }
  const SrcFile *f = find_file(d, loc.file);
  const char *line = line_of(f, loc);
  if (loc.file && loc.line > 0)
    fprintf(d->out, "%s:%d:%d: %s: %s\n", loc.file, loc.line,
            line ? display_col(f, line, loc.col) : loc.col, severity, msg);
  else if (loc.file)
    fprintf(d->out, "%s: %s: %s\n", loc.file, severity, msg);
  else
    fprintf(d->out, "tgm-gen: %s: %s\n", severity, msg);
  print_caret(d, loc);
}

void diag_limit_begin(Diag *d, int max) {
  d->limit = max;
  d->shown = d->suppressed = 0;
  d->hiding = false;
}

void diag_limit_end(Diag *d, const char *file) {
  int n = d->suppressed;
  d->limit = d->shown = d->suppressed = 0;
  d->hiding = false;
  if (n > 0)
    fprintf(d->out, "%s: note: %d more error%s in this file not shown\n", file, n,
            n == 1 ? "" : "s");
}

void diag_origin(Diag *d, const char *stem, Loc loc) {
  Origin *o = arena_alloc(d->arena, sizeof *o);
  o->stem = arena_strdup(d->arena, stem);
  o->loc = loc;
  vec_push(d->arena, &d->origins, o);
}

const Origin *diag_find_origin(const Diag *d, const char *stem, const char *file) {
  for (int i = d->origins.len - 1; i >= 0; i--) {
    const Origin *o = d->origins.items[i];
    if (strcmp(o->stem, stem) == 0 && o->loc.file && file && strcmp(o->loc.file, file) == 0)
      return o;
  }
  return NULL;
}

static void report_v(Diag *d, const char *severity, Loc loc, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  diag_report(d, severity, loc, msg);
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_v(d, "error", loc, fmt, ap);
  va_end(ap);
}

void diag_warning(Diag *d, Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_v(d, "warning", loc, fmt, ap);
  va_end(ap);
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_v(d, "note", loc, fmt, ap);
  va_end(ap);
}

/* Codelet files are text: a NUL or another control character (other than
 * tab, newline, carriage return, vertical tab and form feed) means binary.
 * Returns the first such byte and its location, or -1. */
static int find_binary_byte(const char *text, size_t len, Loc *at) {
  int line = 1, col = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '\n') {
      line++;
      col = 1;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r' && c != '\v' && c != '\f') || c == 0x7f) {
      at->line = line;
      at->col = col;
      return c;
    }
    col++;
  }
  return -1;
}

SrcFile *diag_read_file(Diag *d, const char *path) {
  Loc where = {path, 0, 0};
  struct stat st;
  if (stat(path, &st) != 0) {
    diag_error(d, where, "cannot open: %s", strerror(errno));
    return NULL;
  }
  if (S_ISDIR(st.st_mode)) {
    diag_error(d, where, "is a directory, not a codelet file");
    return NULL;
  }
  if (st.st_size > MAX_FILE_BYTES) {
    diag_error(d, where, "file too large (%lld bytes; codelet files are limited to %d MiB)",
               (long long)st.st_size, MAX_FILE_BYTES >> 20);
    return NULL;
  }
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    diag_error(d, where, "cannot open: %s", strerror(errno));
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *text = arena_alloc(d->arena, cap + 1);
  size_t n;
  while (len < cap && (n = fread(text + len, 1, cap - len, fp)) > 0)
    len += n;
  bool err = ferror(fp);
  fclose(fp);
  if (err || len > (size_t)st.st_size) {
    diag_error(d, where, err ? "read error" : "file changed while being read");
    return NULL;
  }
  text[len] = '\0';
  SrcFile *f = arena_alloc(d->arena, sizeof *f);
  f->path = arena_strdup(d->arena, path);
  f->text = text;
  f->len = len;
  Loc at = {f->path, 0, 0};
  int byte = find_binary_byte(text, len, &at);
  if (byte >= 0) {
    diag_error(d, at, "binary file: control byte 0x%02x; a codelet file must be text", byte);
    return NULL;
  }
  diag_add_file(d, f);
  d->current = f;
  return f;
}

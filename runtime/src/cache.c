// cache.c — hashing, atomic file writes and the on-disk cache of compiled
// images.
//
// A cache entry is one file, KEY.bin, written atomically:
//   "TGMC1\n" N "\n" then N lines "LOWERED_NAME\n", then the image bytes.
// KEY is a 128-bit hash of everything that decides the image (the caller's
// choice; tgm_compile hashes source, names, options, compiler and target).
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tgm__hash_init(tgm__hash *h) {
  h->h[0] = 0xcbf29ce484222325ull;
  h->h[1] = 0x84222325cbf29ce4ull;
}

void tgm__hash_add(tgm__hash *h, const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t a = h->h[0], b = h->h[1];
  for (size_t i = 0; i < len; i++) {
    a = (a ^ p[i]) * 0x100000001b3ull;
    b = (b ^ p[i]) * 0x100000001b3ull;
    b ^= b >> 29;
  }
  h->h[0] = a, h->h[1] = b;
}

void tgm__hash_str(tgm__hash *h, const char *s) { tgm__hash_add(h, s, strlen(s) + 1); }

void tgm__hash_hex(const tgm__hash *h, char out[33]) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->h[0],
           (unsigned long long)h->h[1]);
}

static int mkdirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = 0;
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
      return -1;
    *p = '/';
  }
  return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

char *tgm__cache_dir(const char *dir) {
  char buf[4096];
  if (dir && !*dir)
    return NULL;
  if (!dir)
    dir = getenv("TGM_CACHE_DIR");
  if (dir && !*dir)
    return NULL;
  if (dir)
    snprintf(buf, sizeof buf, "%s", dir);
  else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
    snprintf(buf, sizeof buf, "%s/tgm", getenv("XDG_CACHE_HOME"));
  else if (getenv("HOME") && *getenv("HOME"))
    snprintf(buf, sizeof buf, "%s/.cache/tgm", getenv("HOME"));
  else
    return NULL;
  if (mkdirs(buf) != 0)
    return NULL;
  return strdup(buf);
}

char *tgm__read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf)
      break;
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap)
      break;
    char *nb = realloc(buf, cap * 2 + 1);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb, cap *= 2;
  }
  int err = ferror(f);
  fclose(f);
  if (!buf || err) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  if (len)
    *len = n;
  return buf;
}

tgm_status tgm__write_atomic(const char *path, const void *data, size_t len) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return tgm__fail(TGM_ERR_IO, "%s: %s", tmp, strerror(errno));
  int ok = fwrite(data, 1, len, f) == len;
  ok &= fflush(f) == 0;
  ok &= fsync(fileno(f)) == 0;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(e));
  }
  return TGM_OK;
}

int tgm__cache_read(const char *dir, const char *key, int n_names, tgm_compile_result *r) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.bin", dir, key);
  size_t len;
  char *buf = tgm__read_file(path, &len);
  if (!buf)
    return 0;
  char *p = buf, *end = buf + len;
  int n;
  if (len < 8 || memcmp(p, "TGMC1\n", 6) != 0 || sscanf(p + 6, "%d", &n) != 1 || n != n_names)
    goto bad;
  p = memchr(p + 6, '\n', (size_t)(end - p - 6));
  if (!p)
    goto bad;
  p++;
  char **names = calloc((size_t)n, sizeof *names);
  for (int i = 0; i < n; i++) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) {
      for (int j = 0; j < i; j++)
        free(names[j]);
      free(names);
      goto bad;
    }
    names[i] = strndup(p, (size_t)(nl - p));
    p = nl + 1;
  }
  r->n_lowered = n;
  r->lowered = names;
  r->image_size = (size_t)(end - p);
  r->image = malloc(r->image_size ? r->image_size : 1);
  memcpy(r->image, p, r->image_size);
  r->from_cache = 1;
  r->status = TGM_OK;
  free(buf);
  return 1;
bad:
  free(buf);
  return 0;
}

void tgm__cache_write(const char *dir, const char *key, const tgm_compile_result *r) {
  size_t len = 32 + r->image_size;
  for (int i = 0; i < r->n_lowered; i++)
    len += strlen(r->lowered[i]) + 1;
  char *buf = malloc(len), *p = buf;
  if (!buf)
    return;
  p += sprintf(p, "TGMC1\n%d\n", r->n_lowered);
  for (int i = 0; i < r->n_lowered; i++)
    p += sprintf(p, "%s\n", r->lowered[i]);
  memcpy(p, r->image, r->image_size);
  p += r->image_size;
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.bin", dir, key);
  tgm__write_atomic(path, buf, (size_t)(p - buf)); // a failed cache write is no error
  free(buf);
}

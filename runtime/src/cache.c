// cache.c — atomic file writes and the on-disk cache of compiled
// images.
//
// A cache entry is one file, KEY.bin, that serves only when it proves
// itself whole and made for KEY:
//   "TGMC2 KEY N NAMES_LEN IMAGE_LEN CHECK\n"   (one line, canonical form)
//   NAMES_LEN bytes: the N lowered names, each ended by a NUL
//   IMAGE_LEN bytes: the image
// CHECK is a 128-bit hash of the key, the three numbers, the names and the
// image; the file is exactly that long. Anything else (cut, flipped,
// another key's entry, an old format) is a miss: the job is compiled again
// and the entry replaced, atomically (a temp file with a unique name, then
// rename), so a reader sees the old entry or the new one, never a mix.
//
// KEY is a 128-bit hash of everything that decides the image: the
// backend's compile environment (compiler identity down to the library's
// build id, built-in options, prelude text), the target and the whole job
// (source, its name, name expressions, options). See tgm__cache_key.
#define _GNU_SOURCE // dladdr, dl_iterate_phdr
#include "internal.h"
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void hash_int(tgm__hash *h, long long v) { tgm__hash_add(h, &v, sizeof v); }

// ------------------------------------------------------ compile environment
tgm_status tgm__env_option(tgm__compile_env *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
  char **more = s ? realloc(e->options, (size_t)(e->n_options + 1) * sizeof *more) : NULL;
  if (!more) {
    free(s);
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  }
  va_start(ap, fmt);
  vsnprintf(s, (size_t)len + 1, fmt, ap);
  va_end(ap);
  e->options = more;
  e->options[e->n_options++] = s;
  return TGM_OK;
}

void tgm__env_free(tgm__compile_env *e) {
  free(e->compiler);
  for (int i = 0; i < e->n_options; i++)
    free(e->options[i]);
  free(e->options);
  memset(e, 0, sizeof *e);
}

typedef struct {
  uintptr_t addr;
  char build_id[65]; // hex, "" when none
} phdr_search;

// dl_iterate_phdr callback: the object whose loaded segments hold addr, and
// the NT_GNU_BUILD_ID note among its PT_NOTE segments.
static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  phdr_search *s = arg;
  int mine = 0;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    mine = ph->p_type == PT_LOAD && s->addr >= lo && s->addr < lo + ph->p_memsz;
  }
  if (!mine)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    size_t align = ph->p_align == 8 ? 8 : 4;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      size_t name = (n->n_namesz + align - 1) & ~(align - 1);
      size_t desc = (n->n_descsz + align - 1) & ~(align - 1);
      const unsigned char *nm = p + sizeof *n, *d = nm + name;
      if (name > (size_t)(end - nm) || desc > (size_t)(end - d))
        break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(nm, "GNU", 4)) {
        size_t k = 0;
        for (size_t j = 0; j < n->n_descsz && k + 2 < sizeof s->build_id; j++, k += 2)
          snprintf(s->build_id + k, 3, "%02x", d[j]);
        return 1;
      }
      p = d + desc;
    }
  }
  return 1;
}

char *tgm__library_id(const void *addr) {
  Dl_info dl;
  if (!addr || !dladdr(addr, &dl) || !dl.dli_fname)
    return NULL;
  char real[PATH_MAX];
  const char *path = realpath(dl.dli_fname, real) ? real : dl.dli_fname;
  struct stat st;
  if (stat(path, &st) != 0)
    memset(&st, 0, sizeof st);
  phdr_search s = {.addr = (uintptr_t)addr};
  dl_iterate_phdr(find_build_id, &s);
  const char *fmt = "%s (%lld bytes, mtime %lld.%09ld, build-id %s)";
  long long size = (long long)st.st_size, sec = (long long)st.st_mtim.tv_sec;
  long nsec = st.st_mtim.tv_nsec;
  const char *id = s.build_id[0] ? s.build_id : "none";
  int len = snprintf(NULL, 0, fmt, path, size, sec, nsec, id);
  char *out = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (out)
    snprintf(out, (size_t)len + 1, fmt, path, size, sec, nsec, id);
  return out;
}

// ------------------------------------------------------------------- files
static int mkdirs(const char *path) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    return -1;
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
  int n;
  if (dir && !*dir)
    return NULL;
  if (!dir)
    dir = getenv("TGM_CACHE_DIR");
  if (dir && !*dir)
    return NULL;
  if (dir)
    n = snprintf(buf, sizeof buf, "%s", dir);
  else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
    n = snprintf(buf, sizeof buf, "%s/tgm", getenv("XDG_CACHE_HOME"));
  else if (getenv("HOME") && *getenv("HOME"))
    n = snprintf(buf, sizeof buf, "%s/.cache/tgm", getenv("HOME"));
  else
    return NULL;
  struct stat st;
  if (n < 0 || n >= (int)sizeof buf - 64 || mkdirs(buf) != 0 || stat(buf, &st) != 0 ||
      !S_ISDIR(st.st_mode))
    return NULL; // a path too long for its entries' names, or a file there, is no cache
  return strdup(buf);
}

char *tgm__read_file(const char *path, size_t *len) {
  // a regular file only: a FIFO opened for reading would wait for a writer
  // for ever (O_NONBLOCK opens it at once, and fstat tells it apart)
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    close(fd);
    errno = EINVAL;
    return NULL;
  }
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0)
      close(fd);
    return NULL;
  }
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

// Temp files are PATH.tmp.PID.N: unique between processes (PID) and the
// threads of one (N), and tgm__cache_sweep knows a killed writer's by PID.
static atomic_uint tmp_counter;

tgm_status tgm__write_atomic(const char *path, const void *data, size_t len) {
  char tmp[4200];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
               atomic_fetch_add(&tmp_counter, 1)) >= (int)sizeof tmp)
    return tgm__fail(TGM_ERR_IO, "%s: path too long", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return tgm__fail(TGM_ERR_IO, "%s: %s", tmp, strerror(errno));
  const char *p = data;
  size_t left = len;
  int ok = 1;
  while (ok && left) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR)
      continue;
    ok = w > 0;
    if (ok)
      p += w, left -= (size_t)w;
  }
  int e = errno;
  ok = ok && fsync(fd) == 0;
  if (!ok)
    e = errno;
  if (close(fd) != 0 && ok)
    ok = 0, e = errno;
  if (ok && rename(tmp, path) != 0)
    ok = 0, e = errno;
  if (!ok) {
    unlink(tmp);
    return tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(e ? e : EIO));
  }
  return TGM_OK;
}

// A temp file is a killed writer's when its process is gone, or when it is
// a day old (a process of another PID namespace, or a PID used again).
void tgm__cache_sweep(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  time_t now = time(NULL);
  struct dirent *de;
  while ((de = readdir(d))) {
    const char *t = strstr(de->d_name, ".bin.tmp.");
    if (!t)
      continue;
    char *end;
    errno = 0;
    long pid = strtol(t + 9, &end, 10);
    if (errno || end == t + 9 || *end != '.' || pid <= 0 || pid > INT_MAX)
      continue;
    char path[4400];
    if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path)
      continue;
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    int gone = pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
    if (gone || now - st.st_mtime > 24 * 3600)
      unlink(path);
  }
  closedir(d);
}

// --------------------------------------------------------------- the cache
void tgm__cache_key(const tgm_backend *b, const tgm_compile_job *j, char key[33]) {
  const tgm__compile_env *e = &b->env;
  tgm__hash h;
  tgm__hash_init(&h);
  tgm__hash_str(&h, "tgm-cache-2");
  tgm__hash_str(&h, b->info.compiler);
  tgm__hash_str(&h, e->compiler);
  tgm__hash_str(&h, b->info.arch);
  hash_int(&h, e->n_options);
  for (int i = 0; i < e->n_options; i++)
    tgm__hash_str(&h, e->options[i]);
  tgm__hash_str(&h, e->prelude_name);
  tgm__hash_str(&h, e->prelude_text);
  tgm__hash_str(&h, j->source_name);
  tgm__hash_str(&h, j->source);
  hash_int(&h, j->n_names);
  for (int i = 0; i < j->n_names; i++)
    tgm__hash_str(&h, j->names[i]);
  hash_int(&h, j->n_options);
  for (int i = 0; i < j->n_options; i++)
    tgm__hash_str(&h, j->options[i]);
  tgm__hash_hex(&h, key);
}

// The check of an entry: its key, its numbers, its names and its image.
static void entry_check(const char *key, int n, size_t names_len, size_t image_len,
                        const char *names, const void *image, char out[33]) {
  tgm__hash h;
  tgm__hash_init(&h);
  tgm__hash_str(&h, "tgm-entry-2");
  tgm__hash_str(&h, key);
  hash_int(&h, n);
  hash_int(&h, (long long)names_len);
  hash_int(&h, (long long)image_len);
  tgm__hash_add(&h, names, names_len);
  tgm__hash_add(&h, image, image_len);
  tgm__hash_hex(&h, out);
}

static int entry_header(char *out, size_t cap, const char *key, int n, size_t names_len,
                        size_t image_len, const char check[33]) {
  return snprintf(out, cap, "TGMC2 %s %d %zu %zu %s\n", key, n, names_len, image_len, check);
}

static void free_names(char **names, int n) {
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

int tgm__cache_read(const char *dir, const char *key, int n_names, tgm_compile_result *r) {
  char path[4200];
  if (snprintf(path, sizeof path, "%s/%s.bin", dir, key) >= (int)sizeof path)
    return 0;
  size_t len;
  char *buf = tgm__read_file(path, &len);
  if (!buf)
    return 0;
  // the header: parsed, then printed again and compared, so only the
  // canonical form of a whole line is taken
  char fkey[33], check[33], want[33], head[160];
  int n;
  size_t names_len, image_len;
  char **names = NULL;
  char *nl = memchr(buf, '\n', len < sizeof head ? len : sizeof head);
  if (!nl ||
      sscanf(buf, "TGMC2 %32s %d %zu %zu %32s", fkey, &n, &names_len, &image_len, check) != 5)
    goto miss;
  size_t head_len = (size_t)(nl - buf) + 1;
  if (strcmp(fkey, key) != 0 || n != n_names || n < 0 ||
      entry_header(head, sizeof head, fkey, n, names_len, image_len, check) != (int)head_len ||
      memcmp(head, buf, head_len) != 0)
    goto miss;
  // exactly as long as it says
  if (names_len > len - head_len || image_len != len - head_len - names_len)
    goto miss;
  const char *nm = buf + head_len, *image = nm + names_len;
  entry_check(key, n, names_len, image_len, nm, image, want);
  if (strcmp(want, check) != 0)
    goto miss;
  // n names, each ended by a NUL, filling the block
  names = calloc((size_t)(n ? n : 1), sizeof *names);
  if (!names)
    goto miss;
  const char *p = nm;
  for (int i = 0; i < n; i++) {
    const char *z = memchr(p, 0, (size_t)(image - p));
    if (!z || !(names[i] = strdup(p))) {
      free_names(names, i);
      goto miss;
    }
    p = z + 1;
  }
  if (p != image) {
    free_names(names, n);
    goto miss;
  }
  void *img = malloc(image_len ? image_len : 1);
  if (!img) {
    free_names(names, n);
    goto miss;
  }
  memcpy(img, image, image_len);
  r->n_lowered = n;
  r->lowered = names;
  r->image = img;
  r->image_size = image_len;
  r->from_cache = 1;
  r->status = TGM_OK;
  free(buf);
  return 1;
miss:
  free(buf);
  return 0;
}

void tgm__cache_write(const char *dir, const char *key, const tgm_compile_result *r) {
  size_t names_len = 0;
  for (int i = 0; i < r->n_lowered; i++)
    names_len += strlen(r->lowered[i]) + 1;
  char *names = malloc(names_len ? names_len : 1), *p = names;
  if (!names)
    return;
  for (int i = 0; i < r->n_lowered; i++) {
    size_t l = strlen(r->lowered[i]) + 1;
    memcpy(p, r->lowered[i], l);
    p += l;
  }
  char check[33], head[160];
  entry_check(key, r->n_lowered, names_len, r->image_size, names, r->image, check);
  int head_len = entry_header(head, sizeof head, key, r->n_lowered, names_len, r->image_size,
                              check);
  size_t len = (size_t)head_len + names_len + r->image_size;
  char *buf = head_len > 0 && head_len < (int)sizeof head ? malloc(len) : NULL;
  char path[4200];
  if (buf && snprintf(path, sizeof path, "%s/%s.bin", dir, key) < (int)sizeof path) {
    memcpy(buf, head, (size_t)head_len);
    memcpy(buf + head_len, names, names_len);
    if (r->image_size)
      memcpy(buf + head_len + names_len, r->image, r->image_size);
    tgm_status s = tgm__write_atomic(path, buf, len);
    (void)s; // a failed cache write is no error: the next run compiles again
  }
  free(buf);
  free(names);
}

// db.c — the tuning database: one JSON file (jansson), shared safely by
// tgm-tune processes and threads, read one entry at a time.
//
//   {"tgm_db": 1, "entries": [{"key": {...}, "results": [...], "buckets": [...]}]}
//
// An entry's key is everything a result depends on (device, compute
// capability, SM count, driver and compiler versions, type, op, mode, the
// manifest's source hash, --deterministic, --hot). Entries of other keys are
// kept as they are, so one file can hold several GPUs.
//
// Rows and columns are entries of their own: the key has "shape": "rows" or
// "cols" (1-D keys have no such member, so 1-D files are as before), a row is
// the cell 2^log2m x 2^log2n with three more knobs (per_row, width, parts)
// and the default plan's time ("formula"), and the buckets are one a cell.
//
// Every change (tune_db_put, tune_db_finish) is one transaction:
//
//   lock PATH.lock (flock; and a mutex, for this process's threads)
//   -> remove temp files of writers that were killed (under the lock no
//      live writer has one) -> read PATH again -> change this key's entry,
//      copy every other entry through -> write PATH.tmp.PID.THREAD.N, fsync
//   -> rename it over PATH -> fsync the folder -> unlock.
//
// So writers of other keys (two GPUs, two types, one file) lose nothing, a
// writer killed at any point leaves the old file or the new one, and the
// next writer removes what it left. A file that is not JSON is corrupt; JSON
// that is not a tgm database (or a newer version) is foreign; both are left
// alone. Entries and their rows and buckets are checked as strictly on the
// way in as tgm-tune writes them.
//
// Memory: the file is mapped and parsed one entry at a time; only the
// entries of the keys asked for stay in memory as JSON, the others are
// copied through as text. A big database costs page cache, not heap.
#define _DEFAULT_SOURCE // flock
#include "tune.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/internal.h" // tgm__fail

struct tune_db {
  char *path;
  json_t *kept;  // the entries of the keys asked for so far (get/put/finish)
  int n_entries; // entries in the file when it was last read
};

// ------------------------------------------------------------------ reading
// The file, mapped, and where each entry's text lies in it.
typedef struct {
  const char *text;
  size_t len;
  size_t *off, *end; // entry i is text[off[i], end[i])
  int n, cap;
  size_t *xoff, *xend; // other top-level members ("name": value), copied through
  int nx, capx;
} db_file;

// Called for each entry that passed its check (borrowed; incref to keep).
typedef void (*entry_fn)(void *arg, int i, json_t *entry);

static void file_free(db_file *f) {
  if (f->text && f->len)
    munmap((void *)f->text, f->len);
  free(f->off);
  free(f->end);
  free(f->xoff);
  free(f->xend);
  memset(f, 0, sizeof *f);
}

static size_t skip_ws(const db_file *f, size_t p) {
  while (p < f->len &&
         (f->text[p] == ' ' || f->text[p] == '\t' || f->text[p] == '\n' || f->text[p] == '\r'))
    p++;
  return p;
}

// One JSON value at p; *next is the offset after it.
static json_t *value_at(const db_file *f, size_t p, size_t *next, json_error_t *err) {
  json_t *v = json_loadb(f->text + p, f->len - p, JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, err);
  if (v)
    *next = p + (size_t)err->position;
  return v;
}

static void line_col(const db_file *f, size_t at, int *line, int *col) {
  *line = 1, *col = 1;
  for (size_t i = 0; i < at && i < f->len; i++) {
    if (f->text[i] == '\n')
      ++*line, *col = 1;
    else
      ++*col;
  }
}

static int is_int(json_t *v, long long lo, long long hi) {
  return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

static int is_id(json_t *v) {
  const char *s = json_string_value(v);
  if (!s || !*s || strlen(s) > TUNE_ID_MAX)
    return 0;
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f)
      return 0;
  return 1;
}

// A row's or bucket's place in a rows or columns entry: log2m, then log2n
// (both 0..63 once checked).
static long long cell_of(json_t *o) {
  return json_integer_value(json_object_get(o, "log2m")) * 64 +
         json_integer_value(json_object_get(o, "log2n"));
}

// A rows or columns result's "formula": what the default plan runs in the
// cell (a setting) and its time.
static int formula_ok(json_t *f) {
  static const char *knobs[] = {"block", "items", "per_row", "width", "parts"};
  json_t *us = json_object_get(f, "us");
  int ok = json_is_object(f) && is_id(json_object_get(f, "variant")) && json_is_number(us) &&
           isfinite(json_number_value(us)) && json_number_value(us) > 0;
  for (int k = 0; k < 5; k++)
    ok = ok && is_int(json_object_get(f, knobs[k]), 0, 65536);
  return ok;
}

// What is wrong with an entry, or NULL: the rows and buckets as tgm-tune
// writes them.
static const char *entry_problem(json_t *e, char *buf, size_t cap) {
  json_t *res = json_object_get(e, "results"), *bs = json_object_get(e, "buckets"), *o;
  if (!json_is_object(e) || !json_is_object(json_object_get(e, "key")) || !json_is_array(res))
    return "has no key or results";
  if (bs && !json_is_array(bs))
    return "has buckets that are not a list";
  // rows and columns: cells of log2m x log2n, and three more knobs
  json_t *shape = json_object_get(json_object_get(e, "key"), "shape");
  const char *sh = json_string_value(shape);
  if (shape && (!sh || (strcmp(sh, "rows") && strcmp(sh, "cols"))))
    return "has a key whose shape is not \"rows\" or \"cols\"";
  static const char *knobs[] = {"block", "items", "grid_cap_per_sm", "per_row", "width", "parts"};
  int nk = shape ? 6 : 3;
  long long last = -1;
  size_t i;
  json_array_foreach(res, i, o) {
    if (!is_int(json_object_get(o, "log2n"), 0, 63) || !is_id(json_object_get(o, "variant"))) {
      snprintf(buf, cap, "result %zu has no size (log2n 0..63) or no variant (1..%d characters)", i,
               TUNE_ID_MAX);
      return buf;
    }
    if (shape) {
      if (!is_int(json_object_get(o, "log2m"), 0, 63)) {
        snprintf(buf, cap, "result %zu has no rows (log2m 0..63)", i);
        return buf;
      }
      // tgm-tune keeps them in cell order, one a cell, as the buckets
      // tune_db_finish makes of them (one a row) must be
      if (cell_of(o) <= last) {
        snprintf(buf, cap, "result %zu repeats a cell or is out of (log2m, log2n) order", i);
        return buf;
      }
      last = cell_of(o);
    }
    json_t *ru = json_object_get(o, "runner_up");
    for (int k = 0; k < 2 * nk; k++) {
      json_t *x = json_object_get(k < nk ? o : ru, knobs[k % nk]);
      if (x && !is_int(x, 0, 65536)) {
        snprintf(buf, cap, "result %zu: %s%s is not a count of 0..65536", i,
                 k < nk ? "" : "runner_up.", knobs[k % nk]);
        return buf;
      }
    }
    json_t *f = json_object_get(o, "formula");
    if (shape && f && !formula_ok(f)) {
      snprintf(buf, cap, "result %zu: formula is not {variant, knobs of 0..65536, us > 0}", i);
      return buf;
    }
    // the runner-up and the margin (tgm-tune since the margins; optional)
    if (ru && (!json_is_object(ru) || !is_id(json_object_get(ru, "variant")))) {
      snprintf(buf, cap, "result %zu: runner_up has no variant", i);
      return buf;
    }
    json_t *mg = json_object_get(o, "margin"), *by = json_object_get(o, "chosen_by");
    static const char *parts[] = {"median", "lo", "hi"};
    for (int k = 0; mg && k < 3; k++)
      if (!json_is_object(mg) || !json_is_number(json_object_get(mg, parts[k])) ||
          !isfinite(json_number_value(json_object_get(mg, parts[k]))) ||
          json_number_value(json_object_get(mg, "lo")) >
              json_number_value(json_object_get(mg, "hi"))) {
        snprintf(buf, cap, "result %zu: margin is not {median, lo, hi}, finite, lo <= hi", i);
        return buf;
      }
    static const char *graph[] = {"us_graph", "cub_us_graph"}; // --mode both (optional)
    for (int k = 0; k < 2; k++) {
      json_t *x = json_object_get(o, graph[k]);
      if (x && (!json_is_number(x) || !isfinite(json_number_value(x)))) {
        snprintf(buf, cap, "result %zu: %s is not a finite number", i, graph[k]);
        return buf;
      }
    }
    if (by && (!json_is_string(by) || strlen(json_string_value(by)) >= 48)) {
      snprintf(buf, cap, "result %zu: chosen_by is not a string of under 48 characters", i);
      return buf;
    }
  }
  last = -1;
  json_array_foreach(bs, i, o) {
    if (shape) { // one bucket a cell, no ranges
      if (!is_int(json_object_get(o, "log2m"), 0, 63) ||
          !is_int(json_object_get(o, "log2n"), 0, 63)) {
        snprintf(buf, cap, "bucket %zu has no cell (log2m and log2n, 0..63)", i);
        return buf;
      }
      if (cell_of(o) <= last) {
        snprintf(buf, cap, "bucket %zu repeats a cell or is out of (log2m, log2n) order", i);
        return buf;
      }
      last = cell_of(o);
      for (int k = 3; k < 6; k++)
        if (!is_int(json_object_get(o, knobs[k]), 0, 65536)) {
          snprintf(buf, cap, "bucket %zu has no %s (0..65536)", i, knobs[k]);
          return buf;
        }
    } else {
      json_t *from = json_object_get(o, "from_log2n"), *to = json_object_get(o, "to_log2n");
      if (!is_int(from, 0, 63) || !is_int(to, 0, 63) ||
          json_integer_value(from) > json_integer_value(to)) {
        snprintf(buf, cap, "bucket %zu has no size range (from_log2n <= to_log2n, 0..63)", i);
        return buf;
      }
      if (json_integer_value(from) <= last) {
        snprintf(buf, cap, "bucket %zu overlaps the one before or is out of order", i);
        return buf;
      }
      last = json_integer_value(to);
    }
    json_t *cap_ = json_object_get(o, "grid_cap_per_sm");
    if (!is_id(json_object_get(o, "variant")) || !is_int(json_object_get(o, "block"), 1, 65536) ||
        !is_int(json_object_get(o, "items"), 1, 65536) || (cap_ && !is_int(cap_, 0, 65536))) {
      snprintf(buf, cap, "bucket %zu has no variant, block or items", i);
      return buf;
    }
  }
  return NULL;
}

static void push(size_t **a, size_t **b, int *n, int *cap, size_t x, size_t y) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    *a = realloc(*a, (size_t)*cap * sizeof **a);
    *b = realloc(*b, (size_t)*cap * sizeof **b);
    if (!*a || !*b)
      abort(); // out of memory for two offsets per entry
  }
  (*a)[*n] = x, (*b)[*n] = y, ++*n;
}

// Reads and checks PATH, calling fn for each entry. A missing file gives
// TGM_ERR_NOT_FOUND (f empty); on any failure f is freed.
static tgm_status file_read(const char *path, db_file *f, entry_fn fn, void *arg) {
  memset(f, 0, sizeof *f);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); // a FIFO: at once, then "not a file"
  if (fd < 0)
    return errno == ENOENT ? TGM_ERR_NOT_FOUND
                           : tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return tgm__fail(TGM_ERR_IO, "%s: not a file", path);
  }
  f->len = (size_t)st.st_size;
  if (f->len) {
    void *m = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      close(fd);
      f->len = 0;
      return tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(errno));
    }
    f->text = m;
  }
  close(fd);

  json_error_t err;
  long long version = -1;
  int have_entries = 0, shape = 1; // shape: the layout of a tgm database so far
  size_t bad_at = 0;               // the first entry that failed its check
  const char *bad = NULL;
  char why[160];
  int bad_i = -1;
  size_t p = skip_ws(f, 0), q;
  if (p >= f->len || f->text[p] != '{')
    shape = 0;
  else
    p = skip_ws(f, p + 1);
  if (shape && p < f->len && f->text[p] == '}')
    p++; // {}: no version, no entries
  else
    while (shape) {
      size_t name_at = p;
      json_t *name = value_at(f, p, &q, &err);
      if (!json_is_string(name)) {
        json_decref(name);
        shape = 0;
        break;
      }
      p = skip_ws(f, q);
      if (p >= f->len || f->text[p] != ':') {
        json_decref(name);
        shape = 0;
        break;
      }
      p = skip_ws(f, p + 1);
      int is_entries = !strcmp(json_string_value(name), "entries");
      int is_version = !strcmp(json_string_value(name), "tgm_db");
      json_decref(name);
      if (is_entries && (have_entries || p >= f->len || f->text[p] != '[')) {
        shape = 0; // twice, or not a list
        break;
      }
      if (is_entries) {
        have_entries = 1;
        p = skip_ws(f, p + 1);
        if (p < f->len && f->text[p] == ']')
          p++;
        else
          for (;;) {
            json_t *e = value_at(f, p, &q, &err);
            if (!e) {
              int line, col;
              line_col(f, p + (size_t)(err.position > 0 ? err.position : 0), &line, &col);
              file_free(f);
              return tgm__fail(TGM_ERR_DB_CORRUPT,
                               "%s:%d:%d: corrupt tuning database (%s); move it away or pass "
                               "another --db",
                               path, line, col, err.text);
            }
            const char *problem = bad ? NULL : entry_problem(e, why, sizeof why);
            if (problem)
              bad = problem, bad_at = p, bad_i = f->n;
            if (!bad && fn)
              fn(arg, f->n, e);
            json_decref(e);
            push(&f->off, &f->end, &f->n, &f->cap, p, q);
            p = skip_ws(f, q);
            if (p < f->len && f->text[p] == ',') {
              p = skip_ws(f, p + 1);
              continue;
            }
            if (p < f->len && f->text[p] == ']') {
              p++;
              break;
            }
            shape = 0;
            break;
          }
        if (!shape)
          break;
      } else {
        json_t *v = value_at(f, p, &q, &err);
        if (!v) {
          shape = 0;
          break;
        }
        if (is_version) {
          if (version != -1 || !json_is_integer(v)) {
            json_decref(v);
            shape = 0;
            break;
          }
          version = json_integer_value(v);
        } else {
          push(&f->xoff, &f->xend, &f->nx, &f->capx, name_at, q);
        }
        json_decref(v);
        p = q;
      }
      p = skip_ws(f, p);
      if (p < f->len && f->text[p] == ',') {
        p = skip_ws(f, p + 1);
        continue;
      }
      if (p < f->len && f->text[p] == '}') {
        p++;
        break;
      }
      shape = 0;
    }
  if (shape && skip_ws(f, p) != f->len)
    shape = 0; // something after the object
  if (!shape) {
    // not laid out as a database: the whole file says whether it is JSON
    json_t *all = json_loadb(f->text ? f->text : "", f->len, 0, &err);
    file_free(f);
    if (!all)
      return tgm__fail(TGM_ERR_DB_CORRUPT,
                       "%s:%d:%d: corrupt tuning database (%s); move it away or pass another --db",
                       path, err.line, err.column, err.text);
    json_decref(all);
    return tgm__fail(TGM_ERR_DB_FOREIGN,
                     "%s: not a tgm tuning database (no \"tgm_db\" version and \"entries\" list); "
                     "it is left alone",
                     path);
  }
  if (version < 0 || !have_entries) {
    file_free(f);
    return tgm__fail(TGM_ERR_DB_FOREIGN,
                     "%s: not a tgm tuning database (no \"tgm_db\" version and \"entries\" list); "
                     "it is left alone",
                     path);
  }
  if (version != 1) {
    file_free(f);
    return tgm__fail(TGM_ERR_DB_FOREIGN,
                     "%s: tuning database version %lld, this tgm reads 1; it is left alone", path,
                     version);
  }
  if (bad) {
    int line, col;
    line_col(f, bad_at, &line, &col);
    file_free(f);
    return tgm__fail(TGM_ERR_DB_CORRUPT,
                     "%s:%d:%d: entry %d %s; move the file away or pass another --db", path, line,
                     col, bad_i, bad);
  }
  return TGM_OK;
}

// ------------------------------------------------------------------ keys
static json_t *key_json(const tune_key *k) {
  json_t *j = json_pack("{s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:s,s:s,s:b,s:b}", "device", k->device, "cc",
                        k->cc, "sm_count", k->sm_count, "driver", k->driver, "compiler",
                        k->compiler, "type", k->type, "op", k->op, "mode", k->mode, "source_hash",
                        k->source_hash, "deterministic", k->deterministic, "hot_l2", k->hot);
  if (k->params[0]) // parameters change the choice: part of the key (absent: none)
    json_object_set_new(j, "params", json_string(k->params));
  if (k->shape[0]) // rows or columns (absent: 1-D, so 1-D keys are as before)
    json_object_set_new(j, "shape", json_stringn(k->shape, strnlen(k->shape, sizeof k->shape)));
  return j;
}

static tgm_status set_field(char *dst, size_t cap, const char *src, const char *what) {
  size_t n = strlen(src ? src : "");
  if (n >= cap)
    return tgm__fail(TGM_ERR_INVALID, "the %s '%.40s...' is %zu characters long; the limit is %zu",
                     what, src, n, cap - 1);
  memcpy(dst, src ? src : "", n + 1);
  return TGM_OK;
}

tgm_status tune_key_make(tune_key *k, const tgm_device_info *info, const char *type, const char *op,
                         const char *mode, const char *source_hash, int deterministic, int hot) {
  memset(k, 0, sizeof *k);
  char cc[32];
  snprintf(cc, sizeof cc, "%d.%d", info->cc_major, info->cc_minor);
  tgm_status s;
  if ((s = set_field(k->device, sizeof k->device, info->name, "device name")) ||
      (s = set_field(k->cc, sizeof k->cc, cc, "compute capability")) ||
      (s = set_field(k->compiler, sizeof k->compiler, info->compiler, "compiler version")) ||
      (s = set_field(k->type, sizeof k->type, type, "type")) ||
      (s = set_field(k->op, sizeof k->op, op, "op")) ||
      (s = set_field(k->mode, sizeof k->mode, mode, "mode")) ||
      (s = set_field(k->source_hash, sizeof k->source_hash, source_hash, "source hash")))
    return s;
  k->sm_count = info->sm_count;
  k->driver = info->driver_version;
  k->deterministic = deterministic;
  k->hot = hot;
  return TGM_OK;
}

// ------------------------------------------------------------------ writing
static pthread_mutex_t lock_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint tmp_counter;
static atomic_uint thread_counter;
static _Thread_local unsigned thread_no;

// Locks PATH.lock; returns its descriptor (>= 0), or -1 with the error set.
static int lock_db(const char *path) {
  pthread_mutex_lock(&lock_mutex);
  size_t n = strlen(path) + 8;
  char *lp = malloc(n);
  snprintf(lp, n, "%s.lock", path);
  int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  int e = errno;
  free(lp);
  if (fd >= 0) {
    while (flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) {
        e = errno;
        close(fd);
        fd = -1;
        break;
      }
    }
  }
  if (fd < 0) {
    pthread_mutex_unlock(&lock_mutex);
    tgm__fail(TGM_ERR_IO, "%s.lock: cannot lock the database (%s)", path, strerror(e));
  }
  return fd;
}

static void unlock_db(int fd) {
  flock(fd, LOCK_UN);
  close(fd);
  pthread_mutex_unlock(&lock_mutex);
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  if (slash == path)
    return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

// Under the lock: every PATH.tmp.* is a killed writer's.
static void remove_stale(const char *path) {
  char *dir = dir_of(path);
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t bl = strlen(base);
  DIR *d = opendir(dir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (!strncmp(de->d_name, base, bl) && !strncmp(de->d_name + bl, ".tmp.", 5)) {
      size_t n = strlen(dir) + strlen(de->d_name) + 2;
      char *p = malloc(n);
      snprintf(p, n, "%s/%s", dir, de->d_name);
      unlink(p);
      free(p);
    }
  }
  if (d)
    closedir(d);
  free(dir);
}

static int put_text(FILE *out, const char *s, size_t n) {
  return fwrite(s, 1, n, out) == n ? 0 : -1;
}

// Writes the file: f's entries, with entry `at` replaced by `entry` (at ==
// f->n: appended; entry NULL: no change), then temp -> fsync -> rename ->
// fsync the folder.
static tgm_status write_db(const char *path, const db_file *f, int at, json_t *entry) {
  if (!thread_no)
    thread_no = atomic_fetch_add(&thread_counter, 1) + 1;
  size_t n = strlen(path) + 64;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%s.tmp.%ld.%u.%u", path, (long)getpid(), thread_no,
           atomic_fetch_add(&tmp_counter, 1));
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    tgm_status s = tgm__fail(TGM_ERR_IO, "%s: %s", tmp, strerror(errno));
    free(tmp);
    return s;
  }
  FILE *out = fdopen(fd, "w");
  char *text = NULL;
  if (entry) {
    text = json_dumps(entry, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    if (!text) {
      if (out)
        fclose(out);
      else
        close(fd);
      unlink(tmp);
      free(tmp);
      return tgm__fail(TGM_ERR_MEMORY, "cannot serialise the database entry");
    }
  }
  int bad = !out || fputs("{\n \"tgm_db\": 1,\n", out) < 0;
  for (int i = 0; !bad && i < f->nx; i++)
    bad = fputc(' ', out) < 0 || put_text(out, f->text + f->xoff[i], f->xend[i] - f->xoff[i]) ||
          fputs(",\n", out) < 0;
  int total = f->n + (entry && at == f->n);
  bad = bad || fputs(total ? " \"entries\": [\n" : " \"entries\": []\n}\n", out) < 0;
  for (int i = 0; !bad && i < total; i++) {
    bad = fputs("  ", out) < 0;
    if (entry && i == at) {
      for (const char *c = text; !bad && *c; c++) // indented two more, as inside the whole file
        bad = fputc(*c, out) < 0 || (*c == '\n' && fputs("  ", out) < 0);
    } else if (!bad) {
      bad = put_text(out, f->text + f->off[i], f->end[i] - f->off[i]);
    }
    bad = bad || fputs(i + 1 < total ? ",\n" : "\n ]\n}\n", out) < 0;
  }
  free(text);
  bad = bad || fflush(out) != 0 || fsync(fileno(out)) != 0;
  int e = errno;
  if (out)
    bad |= fclose(out) != 0;
  else
    close(fd);
  if (!bad && rename(tmp, path) != 0)
    bad = 1, e = errno;
  if (bad) {
    unlink(tmp);
    free(tmp);
    return tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(e ? e : EIO));
  }
  free(tmp);
  // the rename itself is durable once the folder is
  char *dir = dir_of(path);
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(dir);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return TGM_OK;
}

// ------------------------------------------------------------------ the API

static tgm_status db_open_at(const char *path, tune_db **out);

// The file a database path names: path, or where its symbolic links lead
// (a link is written through, a dangling one makes its target: rename
// replaced the link with a file, and the target never came). malloc'd.
static char *db_resolve(const char *path) {
  char *p = strdup(path);
  for (int hop = 0; p && hop < 40; hop++) {
    struct stat st;
    char target[4096];
    ssize_t n;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode) ||
        (n = readlink(p, target, sizeof target - 1)) <= 0)
      break;
    target[n] = '\0';
    const char *slash = strrchr(p, '/');
    char *next = malloc(strlen(p) + (size_t)n + 2);
    if (next && target[0] != '/' && slash)
      sprintf(next, "%.*s/%s", (int)(slash - p), p, target);
    else if (next)
      strcpy(next, target);
    free(p);
    p = next;
  }
  return p;
}

tgm_status tune_db_open(const char *given, tune_db **out) {
  *out = NULL;
  if (!given[0])
    return tgm__fail(TGM_ERR_IO, "--db: an empty path");
  char *path = db_resolve(given);
  if (!path)
    return tgm__fail(TGM_ERR_IO, "out of memory");
  tgm_status s = db_open_at(path, out);
  free(path);
  return s;
}

static tgm_status db_open_at(const char *path, tune_db **out) {
  // a folder, a device or a FIFO where the database should be is refused
  // before its lock file is made beside it
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return tgm__fail(TGM_ERR_IO, "%s: not a file", path);
  int lk = lock_db(path);
  if (lk < 0)
    return TGM_ERR_IO;
  remove_stale(path);
  db_file f;
  tgm_status s = file_read(path, &f, NULL, NULL);
  if (s ==
      TGM_ERR_NOT_FOUND) // a new file: written now, so an unwritable path fails before any work
    s = write_db(path, &f, 0, NULL);
  unlock_db(lk);
  if (s != TGM_OK) {
    file_free(&f);
    return s;
  }
  tune_db *db = calloc(1, sizeof *db);
  db->path = strdup(path);
  db->kept = json_array();
  db->n_entries = f.n;
  file_free(&f);
  *out = db;
  return TGM_OK;
}

void tune_db_close(tune_db *db) {
  if (!db)
    return;
  json_decref(db->kept);
  free(db->path);
  free(db);
}

int tune_db_entries(tune_db *db) { return db->n_entries; }

typedef struct {
  json_t *want;  // the key
  json_t *found; // its entry (a reference), the first with that key
  int at;
} finder;

static void find_key(void *arg, int i, json_t *e) {
  finder *fd = arg;
  if (!fd->found && json_equal(json_object_get(e, "key"), fd->want)) {
    fd->found = json_incref(e);
    fd->at = i;
  }
}

static json_t *kept_entry(tune_db *db, json_t *want, size_t *index) {
  size_t i;
  json_t *e;
  json_array_foreach(db->kept, i, e) {
    if (json_equal(json_object_get(e, "key"), want)) {
      *index = i;
      return e;
    }
  }
  return NULL;
}

static json_t *new_entry(json_t *key) {
  return json_pack("{s:O,s:[],s:[]}", "key", key, "results", "buckets");
}

static int result_of(json_t *o, tune_result *r) {
  memset(r, 0, sizeof *r);
  const char *v = json_string_value(json_object_get(o, "variant"));
  if (!v || strlen(v) >= sizeof r->variant || !json_is_integer(json_object_get(o, "log2n")))
    return 0;
  r->log2n = (int)json_integer_value(json_object_get(o, "log2n"));
  memcpy(r->variant, v, strlen(v) + 1);
  r->block = (unsigned)json_integer_value(json_object_get(o, "block"));
  r->items = (unsigned)json_integer_value(json_object_get(o, "items"));
  r->cap = (unsigned)json_integer_value(json_object_get(o, "grid_cap_per_sm"));
  r->us = json_number_value(json_object_get(o, "us"));
  r->us_p25 = json_number_value(json_object_get(o, "us_p25"));
  r->us_p75 = json_number_value(json_object_get(o, "us_p75"));
  r->gbps = json_number_value(json_object_get(o, "gbps"));
  r->cub_us = json_number_value(json_object_get(o, "cub_us"));
  r->us_graph = json_number_value(json_object_get(o, "us_graph"));
  r->cub_us_graph = json_number_value(json_object_get(o, "cub_us_graph"));
  json_t *ru = json_object_get(o, "runner_up"), *mg = json_object_get(o, "margin");
  const char *ruv = json_string_value(json_object_get(ru, "variant"));
  const char *by = json_string_value(json_object_get(o, "chosen_by"));
  if (ruv && strlen(ruv) < sizeof r->runner_up) {
    memcpy(r->runner_up, ruv, strlen(ruv) + 1);
    r->ru_block = (unsigned)json_integer_value(json_object_get(ru, "block"));
    r->ru_items = (unsigned)json_integer_value(json_object_get(ru, "items"));
    r->ru_cap = (unsigned)json_integer_value(json_object_get(ru, "grid_cap_per_sm"));
    r->ru_per_row = (unsigned)json_integer_value(json_object_get(ru, "per_row"));
    r->ru_width = (unsigned)json_integer_value(json_object_get(ru, "width"));
    r->ru_parts = (unsigned)json_integer_value(json_object_get(ru, "parts"));
  }
  r->margin = json_number_value(json_object_get(mg, "median"));
  r->margin_lo = json_number_value(json_object_get(mg, "lo"));
  r->margin_hi = json_number_value(json_object_get(mg, "hi"));
  if (by && strlen(by) < sizeof r->chosen_by)
    memcpy(r->chosen_by, by, strlen(by) + 1);
  // rows and columns (absent in 1-D rows: 0)
  r->log2m = (int)json_integer_value(json_object_get(o, "log2m"));
  r->per_row = (unsigned)json_integer_value(json_object_get(o, "per_row"));
  r->width = (unsigned)json_integer_value(json_object_get(o, "width"));
  r->parts = (unsigned)json_integer_value(json_object_get(o, "parts"));
  json_t *f = json_object_get(o, "formula");
  const char *fv = json_string_value(json_object_get(f, "variant"));
  if (fv && strlen(fv) < sizeof r->f_variant) {
    memcpy(r->f_variant, fv, strlen(fv) + 1);
    r->f_block = (unsigned)json_integer_value(json_object_get(f, "block"));
    r->f_items = (unsigned)json_integer_value(json_object_get(f, "items"));
    r->f_per_row = (unsigned)json_integer_value(json_object_get(f, "per_row"));
    r->f_width = (unsigned)json_integer_value(json_object_get(f, "width"));
    r->f_parts = (unsigned)json_integer_value(json_object_get(f, "parts"));
    r->f_us = json_number_value(json_object_get(f, "us"));
  }
  return 1;
}

// key's entry (borrowed from db->kept); the first look at a key reads the
// file for it, once.
static json_t *entry_of(tune_db *db, const tune_key *key) {
  json_t *want = key_json(key);
  size_t index;
  json_t *e = kept_entry(db, want, &index);
  if (!e) {
    db_file f;
    finder fd = {want, NULL, -1};
    if (file_read(db->path, &f, find_key, &fd) == TGM_OK)
      db->n_entries = f.n;
    file_free(&f);
    e = fd.found ? fd.found : new_entry(want);
    json_array_append_new(db->kept, e);
  }
  json_decref(want);
  return e;
}

int tune_db_get(tune_db *db, const tune_key *key, int log2n, tune_result *out) {
  json_t *o;
  size_t i;
  json_array_foreach(json_object_get(entry_of(db, key), "results"), i, o) {
    if (json_integer_value(json_object_get(o, "log2n")) == log2n)
      return result_of(o, out);
  }
  return 0;
}

int tune_db_get_shape(tune_db *db, const tune_key *key, int log2m, int log2n, tune_result *out) {
  json_t *o;
  size_t i;
  json_array_foreach(json_object_get(entry_of(db, key), "results"), i, o) {
    json_t *m = json_object_get(o, "log2m"); // 1-D rows have none
    if (json_is_integer(m) && json_integer_value(m) == log2m &&
        json_integer_value(json_object_get(o, "log2n")) == log2n)
      return result_of(o, out);
  }
  return 0;
}

// One transaction on key's entry: lock, read, edit(entry), write, unlock.
typedef tgm_status (*edit_fn)(json_t *entry, const void *arg);

static tgm_status update(tune_db *db, const tune_key *key, edit_fn edit, const void *arg) {
  // the reader refuses any other shape: never write one
  if (key->shape[0] && strncmp(key->shape, "rows", sizeof key->shape) &&
      strncmp(key->shape, "cols", sizeof key->shape))
    return tgm__fail(TGM_ERR_INVALID,
                     "a key of shape '%.*s': shapes are \"rows\" and \"cols\" (\"\": 1-D)",
                     (int)sizeof key->shape, key->shape);
  json_t *want = key_json(key);
  if (!want)
    return tgm__fail(TGM_ERR_INVALID, "a key that is not valid UTF-8");
  int lk = lock_db(db->path);
  if (lk < 0) {
    json_decref(want);
    return TGM_ERR_IO;
  }
  remove_stale(db->path);
  db_file f;
  finder fd = {want, NULL, -1};
  tgm_status s = file_read(db->path, &f, find_key, &fd);
  if (s == TGM_ERR_NOT_FOUND) // removed meanwhile: start it again
    s = TGM_OK;
  json_t *e = NULL;
  if (s == TGM_OK) {
    // this key's entry as the file has it now (another writer may have
    // added to it), else this process's
    size_t index;
    json_t *mine = kept_entry(db, want, &index);
    e = fd.found ? json_deep_copy(fd.found) : mine ? json_deep_copy(mine) : new_entry(want);
    s = edit(e, arg);
  }
  if (s == TGM_OK)
    s = write_db(db->path, &f, fd.found ? fd.at : f.n, e);
  if (s == TGM_OK) {
    db->n_entries = f.n + !fd.found;
    size_t index;
    if (kept_entry(db, want, &index))
      json_array_set(db->kept, index, e);
    else
      json_array_append(db->kept, e);
  }
  unlock_db(lk);
  file_free(&f);
  json_decref(fd.found);
  json_decref(e);
  json_decref(want);
  return s;
}

static tgm_status check_result(const tune_key *key, const tune_result *r) {
  if (r->log2n < 0 || r->log2n > 63)
    return tgm__fail(TGM_ERR_INVALID, "a result for size 2^%d: sizes are 2^0..2^63", r->log2n);
  size_t n = strnlen(r->variant, sizeof r->variant);
  if (n == 0 || n >= sizeof r->variant)
    return tgm__fail(TGM_ERR_INVALID, "2^%d: a result without a variant", r->log2n);
  const struct {
    const char *name;
    double v;
  } t[] = {{"us", r->us},
           {"us_p25", r->us_p25},
           {"us_p75", r->us_p75},
           {"gbps", r->gbps},
           {"cub_us", r->cub_us},
           {"margin", r->margin},
           {"margin_lo", r->margin_lo},
           {"margin_hi", r->margin_hi},
           {"us_graph", r->us_graph},
           {"cub_us_graph", r->cub_us_graph}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!isfinite(t[i].v))
      return tgm__fail(TGM_ERR_INVALID, "2^%d: %s of %s is %s; the result is not written", r->log2n,
                       t[i].name, r->variant, isnan(t[i].v) ? "NaN" : "infinite");
  if (!(r->us > 0))
    return tgm__fail(TGM_ERR_INVALID, "2^%d: %s took %g us; the result is not written", r->log2n,
                     r->variant, r->us);
  if (!key->shape[0])
    return TGM_OK;
  // rows and columns: only what the reader accepts (entry_problem), so that
  // no write leaves a file it would refuse
  if (r->log2m < 0 || r->log2m > 63)
    return tgm__fail(TGM_ERR_INVALID, "a result for 2^%d rows: row counts are 2^0..2^63", r->log2m);
  int m = r->log2m, has_f = r->f_variant[0] != 0;
  if (strnlen(r->f_variant, sizeof r->f_variant) >= sizeof r->f_variant)
    return tgm__fail(TGM_ERR_INVALID, "2^%d x 2^%d: the formula's variant is over %d characters", m,
                     r->log2n, TUNE_ID_MAX);
  if (!isfinite(r->f_us) || (has_f && !(r->f_us > 0)))
    return tgm__fail(TGM_ERR_INVALID,
                     "2^%d x 2^%d: the formula took %g us; the result is not written", m, r->log2n,
                     r->f_us);
  const struct {
    const char *name;
    unsigned v, lo;
    int written;
  } k[] = {{"block", r->block, 1, 1}, // the cell's bucket needs a block and items
           {"items", r->items, 1, 1},
           {"grid_cap_per_sm", r->cap, 0, 1},
           {"per_row", r->per_row, 0, 1},
           {"width", r->width, 0, 1},
           {"parts", r->parts, 0, 1},
           {"runner_up.block", r->ru_block, 0, r->runner_up[0] != 0},
           {"runner_up.items", r->ru_items, 0, r->runner_up[0] != 0},
           {"runner_up.grid_cap_per_sm", r->ru_cap, 0, r->runner_up[0] != 0},
           {"runner_up.per_row", r->ru_per_row, 0, r->runner_up[0] != 0},
           {"runner_up.width", r->ru_width, 0, r->runner_up[0] != 0},
           {"runner_up.parts", r->ru_parts, 0, r->runner_up[0] != 0},
           {"formula.block", r->f_block, 0, has_f},
           {"formula.items", r->f_items, 0, has_f},
           {"formula.per_row", r->f_per_row, 0, has_f},
           {"formula.width", r->f_width, 0, has_f},
           {"formula.parts", r->f_parts, 0, has_f}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (k[i].written && (k[i].v < k[i].lo || k[i].v > 65536))
      return tgm__fail(TGM_ERR_INVALID, "2^%d x 2^%d: %s of %s is %u, not %u..65536", m, r->log2n,
                       k[i].name, r->variant, k[i].v, k[i].lo);
  return TGM_OK;
}

// An entry of rows or columns (its key has a shape).
static int shaped(json_t *e) { return json_object_get(json_object_get(e, "key"), "shape") != NULL; }

static tgm_status edit_put(json_t *e, const void *arg) {
  const tune_result *r = arg;
  int shape = shaped(e);
  json_t *res = json_object_get(e, "results"), *o;
  // one layout; a 1-D row drops the members of rows and columns, which
  // leaves it as it was before they were (the others keep their order)
  static const char *shape_only[] = {"log2m", "per_row", "width", "parts"};
  json_t *row = json_pack("{s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:f}", "log2m",
                          r->log2m, "log2n", r->log2n, "variant", r->variant, "block",
                          (int)r->block, "items", (int)r->items, "grid_cap_per_sm", (int)r->cap,
                          "per_row", (int)r->per_row, "width", (int)r->width, "parts",
                          (int)r->parts, "us", r->us, "us_p25", r->us_p25, "us_p75", r->us_p75,
                          "gbps", r->gbps, "cub_us", r->cub_us);
  for (int k = 0; row && !shape && k < 4; k++)
    json_object_del(row, shape_only[k]);
  if (row && r->runner_up[0]) {
    json_t *ru = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:i}", "variant", r->runner_up, "block",
                           (int)r->ru_block, "items", (int)r->ru_items, "grid_cap_per_sm",
                           (int)r->ru_cap, "per_row", (int)r->ru_per_row, "width", (int)r->ru_width,
                           "parts", (int)r->ru_parts);
    for (int k = 1; ru && !shape && k < 4; k++)
      json_object_del(ru, shape_only[k]);
    json_object_set_new(row, "runner_up", ru);
    json_object_set_new(row, "margin",
                        json_pack("{s:f,s:f,s:f}", "median", r->margin, "lo", r->margin_lo, "hi",
                                  r->margin_hi));
  }
  if (row && r->chosen_by[0])
    json_object_set_new(row, "chosen_by", json_string(r->chosen_by));
  if (row && r->us_graph > 0) { // --mode both: the graph mode's times
    json_object_set_new(row, "us_graph", json_real(r->us_graph));
    json_object_set_new(row, "cub_us_graph", json_real(r->cub_us_graph));
  }
  if (row && shape && r->f_variant[0])
    json_object_set_new(row, "formula",
                        json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:f}", "variant", r->f_variant, "block",
                                  (int)r->f_block, "items", (int)r->f_items, "per_row",
                                  (int)r->f_per_row, "width", (int)r->f_width, "parts",
                                  (int)r->f_parts, "us", r->f_us));
  if (!row)
    return tgm__fail(TGM_ERR_INVALID, "2^%d: the result of %s cannot be written as JSON", r->log2n,
                     r->variant);
  // results are kept in order of size (rows and columns: of cell), one a size
  long long want = shape ? cell_of(row) : r->log2n;
  size_t i, at = json_array_size(res);
  json_array_foreach(res, i, o) {
    long long l = shape ? cell_of(o) : json_integer_value(json_object_get(o, "log2n"));
    if (l == want) {
      json_array_set_new(res, i, row);
      return TGM_OK;
    }
    if (l > want && at == json_array_size(res))
      at = i;
  }
  json_array_insert_new(res, at, row);
  return TGM_OK;
}

tgm_status tune_db_put(tune_db *db, const tune_key *key, const tune_result *r) {
  tgm_status s = check_result(key, r);
  return s != TGM_OK ? s : update(db, key, edit_put, r);
}

static tgm_status edit_finish(json_t *e, const void *arg) {
  (void)arg;
  int shape = shaped(e);
  json_t *res = json_object_get(e, "results"), *o;
  json_t *buckets = json_array();
  json_t *cur = NULL;
  size_t i;
  json_array_foreach(res, i, o) {
    tune_result r;
    if (!result_of(o, &r))
      continue;
    if (shape) { // one bucket a cell: a cell's neighbours lie in two directions, nothing to merge
      json_array_append_new(buckets,
                            json_pack("{s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:i}", "log2m", r.log2m,
                                      "log2n", r.log2n, "variant", r.variant, "block", (int)r.block,
                                      "items", (int)r.items, "per_row", (int)r.per_row, "width",
                                      (int)r.width, "parts", (int)r.parts));
      continue;
    }
    if (cur && !strcmp(json_string_value(json_object_get(cur, "variant")), r.variant) &&
        json_integer_value(json_object_get(cur, "block")) == r.block &&
        json_integer_value(json_object_get(cur, "items")) == r.items &&
        json_integer_value(json_object_get(cur, "grid_cap_per_sm")) == r.cap &&
        json_integer_value(json_object_get(cur, "to_log2n")) == r.log2n - 1) {
      json_object_set_new(cur, "to_log2n", json_integer(r.log2n));
      continue;
    }
    cur = json_pack("{s:i,s:i,s:s,s:i,s:i,s:i}", "from_log2n", r.log2n, "to_log2n", r.log2n,
                    "variant", r.variant, "block", (int)r.block, "items", (int)r.items,
                    "grid_cap_per_sm", (int)r.cap);
    json_array_append_new(buckets, cur);
  }
  json_object_set_new(e, "buckets", buckets);
  return TGM_OK;
}

tgm_status tune_db_finish(tune_db *db, const tune_key *key) {
  return update(db, key, edit_finish, NULL);
}

// ------------------------------------------------------------ for readers
typedef struct {
  json_t *entries;
  const char *shape; // "": the 1-D reduction's
} bucket_loader;

static void keep_buckets(void *arg, int i, json_t *e) {
  (void)i;
  bucket_loader *bl = arg;
  json_t *bs = json_object_get(e, "buckets");
  const char *shape = json_string_value(json_object_get(json_object_get(e, "key"), "shape"));
  if (json_array_size(bs) && !strcmp(shape ? shape : "", bl->shape))
    json_array_append_new(bl->entries,
                          json_pack("{s:O,s:O}", "key", json_object_get(e, "key"), "buckets", bs));
}

typedef struct {
  const char *shape;
  int n;
} unfinished_counter;

static void count_unfinished(void *arg, int i, json_t *e) {
  (void)i;
  unfinished_counter *u = arg;
  const char *shape = json_string_value(json_object_get(json_object_get(e, "key"), "shape"));
  if (!json_array_size(json_object_get(e, "buckets")) &&
      json_array_size(json_object_get(e, "results")) && !strcmp(shape ? shape : "", u->shape))
    u->n++;
}

int tune_db_unfinished(const char *path, const char *shape) {
  unfinished_counter u = {shape ? shape : "", 0};
  db_file f;
  tgm_status s = file_read(path, &f, count_unfinished, &u);
  file_free(&f);
  return s == TGM_OK ? u.n : 0;
}

tgm_status tune_db_load_buckets(const char *path, const char *shape, json_t **out) {
  *out = NULL;
  bucket_loader bl = {json_array(), shape ? shape : ""};
  db_file f;
  tgm_status s = file_read(path, &f, keep_buckets, &bl);
  file_free(&f);
  if (s == TGM_ERR_NOT_FOUND)
    s = tgm__fail(TGM_ERR_NOT_FOUND, "%s: no such file", path);
  if (s != TGM_OK) {
    json_decref(bl.entries);
    return s;
  }
  *out = json_pack("{s:i,s:o}", "tgm_db", 1, "entries", bl.entries);
  return TGM_OK;
}

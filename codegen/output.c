/* output.c -- output files, all or nothing.
 *
 * Every output is built in memory first. outputs_commit() writes each one
 * to a temporary file beside its destination, and only when all of them
 * were written renames them into place; on any failure the temporaries are
 * removed, so an error never leaves a half-written file. */
#include "tgm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Two outputs with one name: the second input's would overwrite the first's.
 * Reported once per pair of inputs and stem (sum_i32.cu, .hip and .json
 * are one collision), at the second input's codelet where the front end
 * recorded it. */
static void report_collision(Outputs *o, const char *path, const char *first, const char *second) {
  Diag *d = o->diag;
  size_t n = strcspn(path, ".");
  const char *stem = arena_strndup(o->arena, path, n);
  const Origin *here = diag_find_origin(d, stem, second);
  const Origin *there = diag_find_origin(d, stem, first);
  Loc loc = here ? here->loc : (Loc){second, 0, 0};
  if (strcmp(first, second) == 0) {
    diag_error(d, loc, "outputs '%s.*' are made twice from %s: is it named twice?", stem, second);
    return;
  }
  diag_error(d, loc, "outputs '%s.*' are made from both %s and %s: %s", stem, first, second,
             here ? "each defines this spectrum for this type; rename one"
                  : "they would overwrite each other");
  if (there)
    diag_note(d, there->loc, "%s defines it here", first);
}

/* A file that cannot be written, at the codelet whose spectrum names it
 * where the front end recorded one (a name too long for the file system). */
static void report_write(Outputs *o, int i, const char *dst, int err) {
  const char *path = o->names.items[i], *from = o->from.items[i];
  const Origin *at = o->diag
                         ? diag_find_origin(o->diag,
                                            arena_strndup(o->arena, path, strcspn(path, ".")), from)
                         : NULL;
  if (!at) {
    fprintf(stderr, "tgm-gen: error: cannot write '%s': %s\n", dst, strerror(err));
    return;
  }
  diag_error(o->diag, at->loc, "cannot write '%s': %s%s", dst, strerror(err),
             err == ENAMETOOLONG ? " (the spectrum's name makes the file's: shorten it)" : "");
}

Buf *outputs_add(Outputs *o, const char *path) {
  const char *from = o->diag && o->diag->current ? o->diag->current->path : "";
  for (int i = 0; i < o->names.len; i++)
    if (strcmp(o->names.items[i], path) == 0 && o->diag)
      report_collision(o, path, o->from.items[i], from);
  Buf *b = arena_alloc(o->arena, sizeof *b);
  vec_push(o->arena, &o->names, arena_strdup(o->arena, path));
  vec_push(o->arena, &o->bufs, b);
  vec_push(o->arena, &o->from, (void *)from);
  return b;
}

static int write_all(const char *path, const Buf *b) {
  FILE *fp = fopen(path, "wb");
  if (!fp)
    return -1;
  size_t n = b->len ? fwrite(b->data, 1, b->len, fp) : 0;
  int err = n != b->len || fflush(fp) != 0 || fsync(fileno(fp)) != 0;
  if (fclose(fp) != 0)
    err = 1;
  return err ? -1 : 0;
}

int outputs_usable(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "tgm-gen: error: output path '%s' is not a directory\n", dir);
    return -1;
  }
  if (stat(dir, &st) == 0) {
    if (access(dir, W_OK) != 0) {
      fprintf(stderr, "tgm-gen: error: cannot write in output directory '%s': %s\n", dir,
              strerror(errno));
      return -1;
    }
    return 0;
  }
  /* made at the end: its parent must be there (and writable) */
  const char *slash = strrchr(dir, '/');
  size_t len = slash ? (size_t)(slash - dir) : 0;
  char parent[4096];
  if (len >= sizeof parent)
    len = sizeof parent - 1;
  memcpy(parent, slash ? dir : ".", slash ? len : 1);
  parent[slash ? len : 1] = '\0';
  if (!parent[0])
    strcpy(parent, "/");
  if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode) || access(parent, W_OK) != 0) {
    fprintf(stderr, "tgm-gen: error: cannot create output directory '%s': %s\n", dir,
            stat(parent, &st) != 0 ? strerror(errno)
            : !S_ISDIR(st.st_mode) ? "its parent is not a directory"
                                   : "its parent is not writable");
    return -1;
  }
  return 0;
}

int outputs_commit(Outputs *o, const char *dir) {
  if (o->names.len == 0)
    return 0;
  int n = o->names.len;
  for (int i = 0; i < n; i++) /* without a Diag, a collision is caught here */
    for (int j = 0; j < i; j++)
      if (strcmp(o->names.items[i], o->names.items[j]) == 0) {
        fprintf(stderr, "tgm-gen: error: two outputs named '%s'; nothing written\n",
                (char *)o->names.items[i]);
        return -1;
      }
  struct stat st;
  if (stat(dir, &st) != 0) {
    if (mkdir(dir, 0777) != 0) {
      fprintf(stderr, "tgm-gen: error: cannot create output directory '%s': %s\n", dir,
              strerror(errno));
      return -1;
    }
  } else if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "tgm-gen: error: output path '%s' is not a directory\n", dir);
    return -1;
  }
  char **tmp = arena_alloc(o->arena, sizeof(char *) * (size_t)n);
  char **dst = arena_alloc(o->arena, sizeof(char *) * (size_t)n);
  int written = 0, rc = 0;
  for (; written < n; written++) {
    dst[written] = arena_printf(o->arena, "%s/%s", dir, (char *)o->names.items[written]);
    tmp[written] = arena_printf(o->arena, "%s.tmp.%ld", dst[written], (long)getpid());
    if (write_all(tmp[written], o->bufs.items[written]) != 0) {
      report_write(o, written, dst[written], errno);
      unlink(tmp[written]);
      rc = -1;
      break;
    }
  }
  if (rc != 0) {
    for (int i = 0; i < written; i++)
      unlink(tmp[i]);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (rename(tmp[i], dst[i]) != 0) {
      fprintf(stderr, "tgm-gen: error: cannot rename into '%s': %s\n", dst[i], strerror(errno));
      for (int j = i; j < n; j++)
        unlink(tmp[j]);
      return -1;
    }
  }
  return 0;
}

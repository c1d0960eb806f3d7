/* output.c -- output files, all or nothing.
 *
 * Every output is built in memory first. outputs_commit() takes the output
 * folder's lock (runs into one folder commit whole sets, one after
 * another), checks every destination (a regular file or nothing, no input
 * of the run; a symbolic link is written through), writes each output to a
 * new temporary file beside it, and only when all of them were written
 * renames them into place; on any failure the temporaries are removed, so
 * an error never leaves a half-written file. */
#include "tgm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* b into a new temporary file beside target (mkstemp: a name no one else
 * has, never through a link planted there), mode 0666 less the umask as
 * fopen would; its name, or NULL with errno set. */
static char *write_temp(Arena *a, const char *target, const Buf *b) {
  char *tmp = arena_printf(a, "%s.tmp.XXXXXX", target);
  int fd = mkstemp(tmp);
  if (fd < 0)
    return NULL;
  mode_t mask = umask(0);
  umask(mask);
  int err = fchmod(fd, 0666 & ~mask) != 0;
  for (size_t done = 0; !err && done < b->len;) {
    ssize_t w = write(fd, b->data + done, b->len - done);
    if (w < 0 && errno == EINTR)
      continue;
    err = w <= 0;
    done += w > 0 ? (size_t)w : 0;
  }
  err = err || fsync(fd) != 0;
  int e = errno;
  if (close(fd) != 0 && !err)
    err = 1, e = errno;
  if (err) {
    unlink(tmp);
    errno = e;
    return NULL;
  }
  return tmp;
}

/* The file an output replaces: dst itself, or the file its symbolic link
 * names (written through: the link stays); *st its status when it exists
 * (st_nlink 0 when not). Refused, NULL after a message: anything but a
 * regular file (a device such as /dev/null, a FIFO, a folder: renaming over
 * it would replace it), a link to nothing, and an input of this run (the
 * database of --embed=DB, a codelet file). */
static const char *target_of(Outputs *o, const char *dst, struct stat *st) {
  struct stat lst;
  memset(st, 0, sizeof *st);
  if (lstat(dst, &lst) != 0) {
    if (errno == ENOENT || errno == ENAMETOOLONG) /* the latter reported at its codelet */
      return dst;
    fprintf(stderr, "tgm-gen: error: cannot write '%s': %s\n", dst, strerror(errno));
    return NULL;
  }
  const char *target = dst;
  if (S_ISLNK(lst.st_mode)) {
    char *r = realpath(dst, NULL);
    if (!r) {
      fprintf(stderr, "tgm-gen: error: '%s' is a symbolic link to nothing (%s)\n", dst,
              strerror(errno));
      return NULL;
    }
    target = arena_strdup(o->arena, r);
    free(r);
    if (stat(target, st) != 0) {
      if (errno == ENOENT)
        return target;
      fprintf(stderr, "tgm-gen: error: cannot write '%s': %s\n", target, strerror(errno));
      return NULL;
    }
  } else {
    *st = lst;
  }
  if (!S_ISREG(st->st_mode)) {
    fprintf(stderr,
            "tgm-gen: error: '%s' is %s, not a file: tgm-gen writes a file by replacing it, "
            "and would replace this\n",
            dst,
            S_ISDIR(st->st_mode)                           ? "a folder"
            : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
            : S_ISFIFO(st->st_mode)                        ? "a FIFO"
                                                           : "a special file");
    return NULL;
  }
  for (int i = 0; i < o->inputs.len; i++) {
    struct stat in;
    if (stat(o->inputs.items[i], &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino) {
      fprintf(stderr, "tgm-gen: error: '%s' is an input of this run (%s): write elsewhere\n", dst,
              (const char *)o->inputs.items[i]);
      return NULL;
    }
  }
  return target;
}

void outputs_input(Outputs *o, const char *path) {
  vec_push(o->arena, &o->inputs, arena_strdup(o->arena, path));
}

int outputs_usable(Outputs *o, const char *dir, const char *file) {
  struct stat st;
  if (file && !target_of(o, file, &st))
    return -1;
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

/* Temporaries a killed run left beside our outputs (NAME.tmp.XXXXXX, or
 * NAME.tmp.PID of older versions): under the folder's lock no live run has
 * any. */
static void sweep_temps(Outputs *o, const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d));)
    for (int i = 0; i < o->names.len; i++) {
      const char *name = o->names.items[i];
      size_t n = strlen(name);
      if (strncmp(e->d_name, name, n) != 0 || strncmp(e->d_name + n, ".tmp.", 5) != 0)
        continue;
      const char *x = e->d_name + n + 5; /* mkstemp's 6 characters, or an older PID */
      size_t xl = strlen(x);
      bool ours = xl > 0 && strspn(x, "0123456789") == xl;
      ours = ours || (xl == 6 && strspn(x, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                           "0123456789") == 6);
      if (ours) {
        unlinkat(dirfd(d), e->d_name, 0);
        break;
      }
    }
  closedir(d);
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
  /* several runs may make it at once: one that finds it made goes on */
  if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
    fprintf(stderr, "tgm-gen: error: %s '%s': %s\n",
            errno == EEXIST ? "output path is not a directory:" : "cannot create output directory",
            dir, errno == EEXIST ? "it exists" : strerror(errno));
    return -1;
  }
  /* the folder's lock: runs writing into one folder commit one whole set
     after another, never interleaved */
  int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock >= 0)
    while (flock(lock, LOCK_EX) != 0 && errno == EINTR)
      ;
  sweep_temps(o, dir);
  char **tmp = arena_alloc(o->arena, sizeof(char *) * (size_t)n);
  const char **target = arena_alloc(o->arena, sizeof(char *) * (size_t)n);
  int rc = 0, written = 0;
  /* every destination first: one that cannot be replaced fails the run
     before any file is (a folder in the way was found after the others) */
  for (int i = 0; i < n && rc == 0; i++) {
    const char *dst = arena_printf(o->arena, "%s/%s", dir, (char *)o->names.items[i]);
    if (!(target[i] = target_of(o, dst, &st)))
      rc = -1;
  }
  for (; rc == 0 && written < n; written++)
    if (!(tmp[written] = write_temp(o->arena, target[written], o->bufs.items[written]))) {
      report_write(o, written, target[written], errno);
      rc = -1;
      break;
    }
  if (rc != 0)
    for (int i = 0; i < written; i++)
      unlink(tmp[i]);
  for (int i = 0; rc == 0 && i < n; i++)
    if (rename(tmp[i], target[i]) != 0) {
      fprintf(stderr, "tgm-gen: error: cannot rename into '%s': %s\n", target[i], strerror(errno));
      for (int j = i; j < n; j++)
        unlink(tmp[j]);
      rc = -1;
    }
  if (lock >= 0)
    close(lock); /* and its lock */
  return rc;
}

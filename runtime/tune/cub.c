// cub.c — the CUB baseline of a spectrum: tgm-gen's NAME_TYPE.cub.cu, built
// with nvcc into a shared library that the compile cache keeps, and loaded.
// nvcc runs in the background while the variants compile and verify.
#define _GNU_SOURCE
#include "../src/internal.h"
#include "tune.h"
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct tune_cub {
  pid_t pid;     // nvcc, while it runs
  char *so;      // the library: in the cache, or in tmpdir
  char *tmp;     // what nvcc writes, renamed to so once it succeeds
  char *log;     // nvcc's output
  char *tmpdir;  // without a cache: a folder of ours, removed at the end
  char *command; // the nvcc command, for the report
  void *lib;
  tune_cub_fn fn;
  int cached; // the library was in the cache: no nvcc ran
};

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s/%s", a, b);
  return s;
}

// $TGM_NVCC, else nvcc on $PATH, else the toolkit's usual place (malloc'd).
static char *find_nvcc(void) {
  const char *env = getenv("TGM_NVCC");
  if (env && *env)
    return access(env, X_OK) == 0 ? strdup(env) : NULL;
  const char *path = getenv("PATH");
  char *copy = strdup(path ? path : "");
  for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    char *p = join(*d ? d : ".", "nvcc");
    if (p && access(p, X_OK) == 0) {
      free(copy);
      return p;
    }
    free(p);
  }
  free(copy);
  return access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ? strdup("/usr/local/cuda/bin/nvcc") : NULL;
}

static void hash_file(tgm__hash *h, const char *path, int *ok) {
  size_t len = 0;
  char *text = tgm__read_file(path, &len);
  if (!text) {
    *ok = 0;
    return;
  }
  tgm__hash_add(h, text, len);
  free(text);
}

// Removes cub-*.so.tmp.PID[.log] of writers that are gone (killed while
// nvcc ran); a live writer's are left alone.
static void sweep(const char *cdir) {
  DIR *d = opendir(cdir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    const char *t = strstr(de->d_name, ".so.tmp.");
    if (strncmp(de->d_name, "cub-", 4) || !t)
      continue;
    long pid = strtol(t + 8, NULL, 10);
    if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
      char *p = join(cdir, de->d_name);
      if (p)
        unlink(p);
      free(p);
    }
  }
  if (d)
    closedir(d);
}

tgm_status tune_cub_start(const char *dir, const char *cub_source, const char *cuda_source,
                          int cc_major, int cc_minor, const char *cache, tune_cub **out) {
  *out = NULL;
  if (!cub_source || !cuda_source)
    return tgm__fail(TGM_ERR_MANIFEST, "the manifest names no CUB baseline or CUDA source");
  char *src = join(dir, cub_source), *cu = join(dir, cuda_source), *nvcc = find_nvcc();
  tune_cub *b = calloc(1, sizeof *b);
  tgm_status s = TGM_OK;
  if (!src || !cu || !b) {
    s = tgm__fail(TGM_ERR_MEMORY, "out of memory");
    goto out;
  }
  if (!nvcc) {
    s = tgm__fail(TGM_ERR_NOT_FOUND,
                  "no nvcc (not on $PATH nor in /usr/local/cuda/bin; set "
                  "$TGM_NVCC) to build %s",
                  src);
    goto out;
  }
  char arch[32];
  snprintf(arch, sizeof arch, "-arch=sm_%d%d", cc_major, cc_minor);
  const char *flags[] = {"-O3",   "-std=c++17", arch,     "-shared",        "-Xcompiler",
                         "-fPIC", "-cudart",    "static", "-diag-suppress", "177"};
  enum { NFLAGS = sizeof flags / sizeof flags[0] };
  // the key: both sources, the flags, nvcc's identity (path, size, mtime)
  tgm__hash h;
  tgm__hash_init(&h);
  int ok = 1;
  hash_file(&h, src, &ok);
  hash_file(&h, cu, &ok);
  if (!ok) {
    s = tgm__fail(TGM_ERR_IO, "%s or %s: cannot read", src, cu);
    goto out;
  }
  for (int i = 0; i < NFLAGS; i++)
    tgm__hash_str(&h, flags[i]);
  struct stat st;
  char id[512];
  if (stat(nvcc, &st) == 0)
    snprintf(id, sizeof id, "%s %lld %lld.%09ld", nvcc, (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  else
    snprintf(id, sizeof id, "%s", nvcc);
  tgm__hash_str(&h, id);
  char key[33], name[64];
  tgm__hash_hex(&h, key);
  snprintf(name, sizeof name, "cub-%s.so", key);
  char *cdir = tgm__cache_dir(cache);
  if (cdir && mkdir(cdir, 0777) != 0 && errno != EEXIST) {
    free(cdir);
    cdir = NULL;
  }
  if (cdir) {
    sweep(cdir);
    b->so = join(cdir, name);
    free(cdir);
  } else {
    char tdir[] = "/tmp/tgm-cub-XXXXXX";
    if (!mkdtemp(tdir)) {
      s = tgm__fail(TGM_ERR_IO, "cannot make a folder for the CUB build (%s)", strerror(errno));
      goto out;
    }
    b->tmpdir = strdup(tdir);
    b->so = join(tdir, name);
  }
  size_t n = strlen(b->so) + 48;
  b->tmp = malloc(n), b->log = malloc(n);
  snprintf(b->tmp, n, "%s.tmp.%ld", b->so, (long)getpid());
  snprintf(b->log, n, "%s.tmp.%ld.log", b->so, (long)getpid());
  char *incl = malloc(strlen(dir) + 3);
  snprintf(incl, strlen(dir) + 3, "-I%s", dir);
  const char *argv[NFLAGS + 6];
  int a = 0;
  argv[a++] = nvcc;
  for (int i = 0; i < NFLAGS; i++)
    argv[a++] = flags[i];
  argv[a++] = incl;
  argv[a++] = src;
  argv[a++] = "-o";
  argv[a++] = b->tmp;
  argv[a] = NULL;
  size_t cl = 0;
  for (int i = 0; i < a; i++)
    cl += strlen(argv[i]) + 1;
  b->command = malloc(cl + 1);
  b->command[0] = 0;
  for (int i = 0; i < a; i++)
    strcat(strcat(b->command, i ? " " : ""), i == a - 1 ? b->so : argv[i]);
  if (access(b->so, R_OK) == 0) { // built before
    b->cached = 1;
    free(incl);
    goto out;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, b->log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  int e = posix_spawn(&b->pid, nvcc, &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  free(incl);
  if (e != 0) {
    b->pid = 0;
    s = tgm__fail(TGM_ERR_IO, "cannot run %s (%s)", nvcc, strerror(e));
  }
out:
  free(src);
  free(cu);
  free(nvcc);
  if (s != TGM_OK) {
    tune_cub_free(b);
    return s;
  }
  *out = b;
  return TGM_OK;
}

tgm_status tune_cub_finish(tune_cub *b, tune_cub_fn *fn) {
  *fn = NULL;
  if (b->fn) {
    *fn = b->fn;
    return TGM_OK;
  }
  if (b->pid) {
    int status = 0;
    pid_t w;
    while ((w = waitpid(b->pid, &status, 0)) < 0 && errno == EINTR)
      ;
    b->pid = 0;
    if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      char first[300] = "";
      FILE *f = fopen(b->log, "r");
      while (f && fgets(first, sizeof first, f) && !strstr(first, "error"))
        ;
      if (f)
        fclose(f);
      first[strcspn(first, "\n")] = 0;
      unlink(b->tmp);
      unlink(b->log);
      return tgm__fail(TGM_ERR_COMPILE, "nvcc failed on the CUB baseline (exit %d): %s",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1, first);
    }
    unlink(b->log);
    if (access(b->tmp, R_OK) != 0) {
      unlink(b->log);
      return tgm__fail(TGM_ERR_COMPILE, "nvcc wrote no library (%s)", b->tmp);
    }
    if (rename(b->tmp, b->so) != 0) {
      unlink(b->tmp);
      return tgm__fail(TGM_ERR_IO, "%s: %s", b->so, strerror(errno));
    }
  }
  b->lib = dlopen(b->so, RTLD_NOW | RTLD_LOCAL);
  if (!b->lib)
    return tgm__fail(TGM_ERR_IO, "%s: %s", b->so, dlerror());
  *(void **)&b->fn = dlsym(b->lib, "tgm_cub_run");
  if (!b->fn)
    return tgm__fail(TGM_ERR_IO, "%s: no tgm_cub_run", b->so);
  *fn = b->fn;
  return TGM_OK;
}

const char *tune_cub_command(const tune_cub *b) { return b->command; }

int tune_cub_cached(const tune_cub *b) { return b->cached; }

void tune_cub_free(tune_cub *b) {
  if (!b)
    return;
  if (b->pid) { // never waited for: stop it
    kill(b->pid, SIGTERM);
    while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
      ;
    unlink(b->tmp);
    unlink(b->log);
  }
  // the library stays loaded (CUDA's static runtime inside it is torn down
  // at exit, not by dlclose)
  if (b->tmpdir) {
    unlink(b->so);
    rmdir(b->tmpdir);
  }
  free(b->so);
  free(b->tmp);
  free(b->log);
  free(b->tmpdir);
  free(b->command);
  free(b);
}

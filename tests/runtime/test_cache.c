// test_cache.c — the compile cache serves only what it verifies, with no
// GPU: tgm_compile over a fake backend whose compiler counts its calls and
// makes an image from everything it was given.
//   truncation  an entry cut anywhere is a miss: compiled again, replaced
//   bit flips   one flipped bit anywhere (header, names, image) is a miss;
//               so is another key's entry under this key's name
//   stale keys  a changed user option, built-in option, prelude, compiler
//               identity (patch level), target, source or source name is a
//               miss; the same inputs again are a hit
//   killed      a writer killed in the middle (by SIGXFSZ, in the cache's
//               own write) leaves no entry and no temp file after the next
//               compile; an entry left half-written by a killed writer that
//               wrote in place is a miss and is replaced
// Then, where NVRTC / hiprtc are installed (no device needed): the real
// backends' environments name the compiler library and their built-in
// options, and a real compile goes through the cache.
#include "../check.h"
#include "internal.h"
#include <dirent.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

// ------------------------------------------------------------ fake backend
static atomic_int compiles;

// The image: a function of everything the compile sees, so a stale entry
// served for changed inputs shows as a wrong image too. Its size comes from
// an option "size=N" (default 20000).
static size_t fake_image(const tgm_backend *b, const tgm_compile_job *j, unsigned char **out) {
  tgm__hash h;
  tgm__hash_init(&h);
  tgm__hash_str(&h, b->env.compiler);
  tgm__hash_str(&h, b->info.arch);
  for (int i = 0; i < b->env.n_options; i++)
    tgm__hash_str(&h, b->env.options[i]);
  tgm__hash_str(&h, b->env.prelude_text);
  tgm__hash_str(&h, j->source_name);
  tgm__hash_str(&h, j->source);
  size_t size = 20000;
  for (int i = 0; i < j->n_options; i++) {
    tgm__hash_str(&h, j->options[i]);
    if (!strncmp(j->options[i], "size=", 5))
      size = strtoul(j->options[i] + 5, NULL, 10);
  }
  unsigned char *img = malloc(size ? size : 1);
  uint64_t x = h.h[0] | 1;
  for (size_t i = 0; i < size; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    img[i] = (unsigned char)x;
  }
  *out = img;
  return size;
}

static void fake_compile(tgm_backend *b, const tgm_compile_job *j, tgm_compile_result *r) {
  atomic_fetch_add(&compiles, 1);
  r->image_size = fake_image(b, j, (unsigned char **)&r->image);
  r->n_lowered = j->n_names;
  r->lowered = calloc((size_t)(j->n_names ? j->n_names : 1), sizeof *r->lowered);
  for (int i = 0; i < j->n_names; i++) {
    r->lowered[i] = malloc(strlen(j->names[i]) + 3);
    sprintf(r->lowered[i], "_Z%s", j->names[i]);
  }
  r->status = TGM_OK;
}

static const tgm__ops fake_ops = {.compile = fake_compile};

static const char *names[] = {"tgm_sum_i32::sum_DT_V_ST<256>", "tgm_sum_i32::sum_DS_V_ST<128>"};
static const char *user_opts[] = {"-DTGM_X=1", "size=20000"};

static void fake_backend(tgm_backend *b) {
  memset(b, 0, sizeof *b);
  b->ops = &fake_ops;
  b->offline = 1;
  snprintf(b->info.arch, sizeof b->info.arch, "sm_90");
  snprintf(b->info.compiler, sizeof b->info.compiler, "nvrtc 13.0");
  b->env.compiler = strdup("nvrtc 13.0 /lib/libnvrtc.so.13 (1000 bytes, build-id 0a0b)");
  tgm__env_option(&b->env, "-arch=sm_90");
  tgm__env_option(&b->env, "--std=c++17");
  b->env.prelude_name = "tgm_rtc_prelude.h";
  b->env.prelude_text = "#define TGM_PRELUDE 1\n";
}

static tgm_compile_job job_of(const char *source) {
  tgm_compile_job j = {0};
  j.source = source;
  j.source_name = "sum_i32.cu";
  j.names = names;
  j.n_names = 2;
  j.options = user_opts;
  j.n_options = 2;
  return j;
}

static char dir[256];

// Compiles j through the cache; checks the result is exactly what the fake
// compiler makes for these inputs. Returns 1 for a hit, 0 for a miss, -1 bad.
static int compile(tgm_backend *b, const tgm_compile_job *j) {
  tgm_compile_result r;
  memset(&r, 0xab, sizeof r);
  if (tgm_compile(b, j, 1, 1, dir, &r) != TGM_OK || r.status != TGM_OK)
    return -1;
  unsigned char *want;
  size_t size = fake_image(b, j, &want);
  int ok = r.image_size == size && r.image && !memcmp(r.image, want, size) &&
           r.n_lowered == j->n_names;
  for (int i = 0; ok && i < j->n_names; i++)
    ok = !strncmp(r.lowered[i], "_Z", 2) && !strcmp(r.lowered[i] + 2, j->names[i]);
  if (!ok)
    fprintf(stderr, "  wrong result: %zu bytes (want %zu)%s\n", r.image_size, size,
            r.from_cache ? " from the cache" : "");
  free(want);
  int hit = r.from_cache;
  tgm_compile_result_free(&r);
  return ok ? hit : -1;
}

// A hit or a miss, and whether the compiler ran for it.
#define EXPECT(b, j, want_hit)                                          \
  do {                                                                  \
    int before_ = atomic_load(&compiles);                               \
    int got_ = compile((b), (j));                                       \
    CHECK_EQ_INT(got_, (want_hit));                                     \
    CHECK_EQ_INT(atomic_load(&compiles) - before_, (want_hit) ? 0 : 1); \
  } while (0)

static void entry_path(tgm_backend *b, const tgm_compile_job *j, char *out, size_t cap) {
  char key[33];
  tgm__cache_key(b, j, key);
  snprintf(out, cap, "%s/%s.bin", dir, key);
}

static char *slurp(const char *path, size_t *len) { return tgm__read_file(path, len); }

static void spit(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  fwrite(data, 1, len, f);
  fclose(f);
}

static int count_files(const char *pattern) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)))
    n += strstr(de->d_name, pattern) != NULL;
  closedir(d);
  return n;
}

static void clear_dir(void) {
  DIR *d = opendir(dir);
  struct dirent *de;
  char p[512];
  while ((de = readdir(d)))
    if (de->d_name[0] != '.') {
      snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
      unlink(p);
    }
  closedir(d);
}

// ------------------------------------------------------------------ tests
static void test_hit(tgm_backend *b) {
  clear_dir();
  tgm_compile_job j = job_of("__global__ void k() {}\n");
  EXPECT(b, &j, 0);
  EXPECT(b, &j, 1);
  EXPECT(b, &j, 1);
  CHECK_EQ_INT(count_files(".bin"), 1);
  // several jobs at once, on several threads
  tgm_compile_job js[8];
  char src[8][64];
  for (int i = 0; i < 8; i++) {
    snprintf(src[i], sizeof src[i], "// job %d\n", i);
    js[i] = job_of(src[i]);
  }
  tgm_compile_result rs[8];
  for (int round = 0; round < 2; round++) {
    int before = atomic_load(&compiles);
    CHECK_EQ_INT(tgm_compile(b, js, 8, 4, dir, rs), TGM_OK);
    CHECK_EQ_INT(atomic_load(&compiles) - before, round ? 0 : 8);
    for (int i = 0; i < 8; i++) {
      CHECK_EQ_INT(rs[i].from_cache, round);
      tgm_compile_result_free(&rs[i]);
    }
  }
}

static void test_truncation(tgm_backend *b) {
  clear_dir();
  tgm_compile_job j = job_of("// truncation\n");
  EXPECT(b, &j, 0);
  char path[512];
  entry_path(b, &j, path, sizeof path);
  size_t len;
  char *whole = slurp(path, &len);
  CHECK(whole && len > 20000);
  if (!whole)
    return;
  size_t head = (size_t)((char *)memchr(whole, '\n', len) - whole) + 1;
  size_t cuts[] = {0, 1, 5, head - 1, head, head + 10, len / 2, len - 7000, len - 1};
  for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
    spit(path, whole, cuts[c]);
    fprintf(stderr, "truncated to %zu of %zu bytes\n", cuts[c], len);
    EXPECT(b, &j, 0); // a miss, compiled again
    size_t now;
    char *again = slurp(path, &now);
    CHECK(again && now == len && !memcmp(again, whole, len)); // and replaced
    free(again);
    EXPECT(b, &j, 1);
  }
  // longer than it says is no better
  char *longer = malloc(len + 1);
  memcpy(longer, whole, len);
  longer[len] = 'x';
  spit(path, longer, len + 1);
  EXPECT(b, &j, 0);
  free(longer);
  free(whole);
  CHECK_EQ_INT(count_files(".tmp."), 0);
}

static void test_bit_flips(tgm_backend *b) {
  clear_dir();
  tgm_compile_job j = job_of("// bit flips\n");
  EXPECT(b, &j, 0);
  char path[512];
  entry_path(b, &j, path, sizeof path);
  size_t len;
  char *whole = slurp(path, &len);
  CHECK(whole != NULL);
  if (!whole)
    return;
  size_t head = (size_t)((char *)memchr(whole, '\n', len) - whole) + 1;
  size_t at[] = {0, 3, 7, 30, head - 2, head, head + 5, head + 40, head + 100, len / 2, len - 1};
  for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
    for (int bit = 0; bit < 8; bit += 7) {
      whole[at[k]] ^= (char)(1 << bit);
      spit(path, whole, len);
      whole[at[k]] ^= (char)(1 << bit);
      fprintf(stderr, "bit %d of byte %zu of %zu flipped\n", bit, at[k], len);
      EXPECT(b, &j, 0);
      size_t now;
      char *again = slurp(path, &now);
      CHECK(again && now == len && !memcmp(again, whole, len));
      free(again);
    }
  }
  // another job's whole entry under this job's name
  tgm_compile_job other = job_of("// another job\n");
  EXPECT(b, &other, 0);
  char opath[512];
  entry_path(b, &other, opath, sizeof opath);
  size_t olen;
  char *o = slurp(opath, &olen);
  spit(path, o, olen);
  fprintf(stderr, "another key's entry\n");
  EXPECT(b, &j, 0);
  free(o);
  free(whole);
}

static void test_stale_keys(tgm_backend *b) {
  clear_dir();
  const char *src = "// stale keys\n";
  tgm_compile_job j = job_of(src);
  EXPECT(b, &j, 0);
  EXPECT(b, &j, 1);

  fprintf(stderr, "a user option changed\n");
  const char *opts2[] = {"-DTGM_X=2", "size=20000"};
  tgm_compile_job j2 = j;
  j2.options = opts2;
  EXPECT(b, &j2, 0);
  EXPECT(b, &j2, 1);

  fprintf(stderr, "the source name changed\n");
  j2 = j;
  j2.source_name = "sum_i32_v2.cu";
  EXPECT(b, &j2, 0);

  fprintf(stderr, "the source changed\n");
  j2 = j;
  j2.source = "// stale keys!\n";
  EXPECT(b, &j2, 0);

  fprintf(stderr, "the compiler's patch level changed (same major.minor)\n");
  char *compiler = b->env.compiler;
  b->env.compiler = strdup("nvrtc 13.0 /lib/libnvrtc.so.13 (1000 bytes, build-id 0a0c)");
  EXPECT(b, &j, 0);
  EXPECT(b, &j, 1);
  free(b->env.compiler);
  b->env.compiler = compiler;
  EXPECT(b, &j, 1);

  fprintf(stderr, "a built-in option changed\n");
  char *opt = b->env.options[1];
  b->env.options[1] = strdup("--std=c++20");
  EXPECT(b, &j, 0);
  free(b->env.options[1]);
  b->env.options[1] = opt;
  EXPECT(b, &j, 1);

  fprintf(stderr, "a built-in option added\n");
  tgm__env_option(&b->env, "-lineinfo");
  EXPECT(b, &j, 0);
  free(b->env.options[--b->env.n_options]);
  EXPECT(b, &j, 1);

  fprintf(stderr, "the prelude changed\n");
  const char *prelude = b->env.prelude_text;
  b->env.prelude_text = "#define TGM_PRELUDE 2\n";
  EXPECT(b, &j, 0);
  b->env.prelude_text = prelude;
  EXPECT(b, &j, 1);

  fprintf(stderr, "the target changed\n");
  snprintf(b->info.arch, sizeof b->info.arch, "sm_100");
  EXPECT(b, &j, 0);
  snprintf(b->info.arch, sizeof b->info.arch, "sm_90");
  EXPECT(b, &j, 1);
}

static void test_killed_writer(tgm_backend *b) {
  clear_dir();
  // 1. killed by SIGXFSZ in the middle of the cache's own write
  const char *big[] = {"-DTGM_X=1", "size=1000000"};
  tgm_compile_job j = job_of("// killed writer\n");
  j.options = big;
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit core = {0, 0}, fsize = {300000, 300000};
    setrlimit(RLIMIT_CORE, &core);
    setrlimit(RLIMIT_FSIZE, &fsize);
    tgm_compile_result r;
    tgm_compile(b, &j, 1, 1, dir, &r);
    _exit(0); // not reached: the write is over the limit
  }
  int st;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGXFSZ);
  char path[512];
  entry_path(b, &j, path, sizeof path);
  struct stat sb;
  CHECK(stat(path, &sb) != 0); // no entry: it was never renamed into place
  fprintf(stderr, "a writer killed in the cache's write left %d temp file(s)\n",
          count_files(".tmp."));
  EXPECT(b, &j, 0);
  EXPECT(b, &j, 1);
  CHECK_EQ_INT(count_files(".tmp."), 0); // the killed writer's temp is gone
  CHECK_EQ_INT(count_files(".bin"), 1);

  // 2. a writer that wrote in place (an older tgm, a copy) killed halfway
  size_t len;
  char *whole = slurp(path, &len);
  CHECK(whole != NULL);
  if (!whole)
    return;
  pid = fork();
  if (pid == 0) {
    FILE *f = fopen(path, "wb");
    fwrite(whole, 1, len / 2, f);
    fflush(f);
    kill(getpid(), SIGKILL);
    _exit(0);
  }
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  fprintf(stderr, "an entry half-written in place by a killed writer\n");
  EXPECT(b, &j, 0);
  size_t now;
  char *again = slurp(path, &now);
  CHECK(again && now == len && !memcmp(again, whole, len));
  free(again);
  free(whole);

  // 3. a temp file of a writer still running is left alone
  char live[600];
  snprintf(live, sizeof live, "%s.tmp.%ld.7", path, (long)getppid());
  spit(live, "x", 1);
  EXPECT(b, &j, 1);
  CHECK_EQ_INT(count_files(".tmp."), 1);
  unlink(live);
}

// Readers never see a partial entry while writers replace it.
static void test_replace_while_reading(tgm_backend *b) {
  clear_dir();
  tgm_compile_job j = job_of("// replaced while read\n");
  EXPECT(b, &j, 0);
  char key[33];
  tgm__cache_key(b, &j, key);
  tgm_compile_result w;
  memset(&w, 0, sizeof w);
  fake_compile(b, &j, &w);
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 300; i++)
      tgm__cache_write(dir, key, &w);
    _exit(0);
  }
  unsigned char *want;
  size_t size = fake_image(b, &j, &want);
  int hits = 0, bad = 0;
  for (int i = 0; i < 300; i++) {
    tgm_compile_result r;
    memset(&r, 0, sizeof r);
    if (tgm__cache_read(dir, key, j.n_names, &r)) {
      hits++;
      bad += r.image_size != size || memcmp(r.image, want, size) != 0;
      tgm_compile_result_free(&r);
    }
  }
  int st;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  CHECK_EQ_INT(hits, 300);
  CHECK_EQ_INT(bad, 0);
  free(want);
  tgm_compile_result_free(&w);
  CHECK_EQ_INT(count_files(".tmp."), 0);
}

// ------------------------------------------------------- real compilers
static int real_ran; // how many real compilers were here

static void test_real(tgm_backend_kind kind, const char *arch, const char *lib,
                      const char *arch_option) {
  tgm_backend *b;
  if (tgm_backend_open(kind, 0, arch, &b) != TGM_OK) {
    fprintf(stderr, "no %s here: %s\n", lib, tgm_last_error());
    return;
  }
  real_ran++;
  fprintf(stderr, "%s: %s\n", b->info.compiler, b->env.compiler);
  CHECK(b->env.compiler && strstr(b->env.compiler, lib) && strstr(b->env.compiler, "build-id "));
  int has_arch = 0;
  for (int i = 0; i < b->env.n_options; i++)
    has_arch |= !strcmp(b->env.options[i], arch_option);
  CHECK(has_arch);
  if (kind == TGM_BACKEND_CUDA) // the sources compile as they are: no prelude
    CHECK(!b->env.prelude_text && !b->env.prelude_name);
  clear_dir();
  static const char *kname[] = {"tgm_cache_test"};
  tgm_compile_job j = {.source = "extern \"C\" __global__ void tgm_cache_test(int *p) { *p = 1; "
                                 "}\n",
                       .source_name = "cache_test.cu",
                       .names = kname,
                       .n_names = 1};
  tgm_compile_result r[2];
  for (int k = 0; k < 2; k++) {
    CHECK_EQ_INT(tgm_compile(b, &j, 1, 1, dir, &r[k]), TGM_OK);
    CHECK_EQ_INT(r[k].from_cache, k);
  }
  CHECK(r[0].image_size > 0 && r[0].image_size == r[1].image_size &&
        !memcmp(r[0].image, r[1].image, r[0].image_size));
  CHECK(r[1].n_lowered == 1 && !strcmp(r[0].lowered[0], r[1].lowered[0]));
  // another patch level of the same compiler: compiled again
  char *id = b->env.compiler;
  b->env.compiler = strdup("another build");
  tgm_compile_result r2;
  CHECK_EQ_INT(tgm_compile(b, &j, 1, 1, dir, &r2), TGM_OK);
  CHECK_EQ_INT(r2.from_cache, 0);
  free(b->env.compiler);
  b->env.compiler = id;
  tgm_compile_result_free(&r2);
  for (int k = 0; k < 2; k++)
    tgm_compile_result_free(&r[k]);
  tgm_backend_close(b);
}

static void test_real_compilers(tgm_backend *fake) {
  (void)fake;
  test_real(TGM_BACKEND_CUDA, "sm_90", "libnvrtc", "-arch=sm_90");
  test_real(TGM_BACKEND_HIP, "gfx90a", "libamdhip64", "--offload-arch=gfx90a");
}

static const struct {
  const char *name;
  void (*run)(tgm_backend *b);
} tests[] = {
    {"hit", test_hit},
    {"truncation", test_truncation},
    {"bit_flips", test_bit_flips},
    {"stale_keys", test_stale_keys},
    {"killed_writer", test_killed_writer},
    {"replace", test_replace_while_reading},
    {"real", test_real_compilers},
};

// test_rt_cache [NAME...]: the named tests, or all of them. Exit 77 when
// only "real" was asked for and no run-time compiler is here.
int main(int argc, char **argv) {
  snprintf(dir, sizeof dir, "/tmp/tgm-test-cache-%ld", (long)getpid());
  mkdir(dir, 0755);
  tgm_backend b;
  fake_backend(&b);
  int n = (int)(sizeof tests / sizeof *tests);
  for (int a = 1; a < argc; a++) {
    int known = 0;
    for (int t = 0; t < n; t++)
      known |= !strcmp(argv[a], tests[t].name);
    if (!known) {
      fprintf(stderr, "test_rt_cache: no test %s\n", argv[a]);
      return 2;
    }
  }
  for (int t = 0; t < n; t++) {
    int run = argc == 1;
    for (int a = 1; a < argc; a++)
      run |= !strcmp(argv[a], tests[t].name);
    if (run) {
      int before = check_failures;
      tests[t].run(&b);
      fprintf(stderr, "== %s: %s\n", tests[t].name, check_failures > before ? "FAILED" : "ok");
    }
  }
  tgm__env_free(&b.env);
  clear_dir();
  rmdir(dir);
  if (argc == 2 && !strcmp(argv[1], "real") && !real_ran && !check_failures)
    return 77;
  CHECK_DONE();
}

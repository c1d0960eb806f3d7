// test_cub.c — the CUB baseline's build (runtime/tune/cub.c) without a GPU:
// nvcc builds generated/sum_i32.cub.cu into the cache and the library
// loads; a second start finds it there and runs no nvcc, another nvcc is
// another key; a source nvcc
// rejects is TGM_ERR_COMPILE with nvcc's error and leaves no temp file; no
// nvcc is TGM_ERR_NOT_FOUND. Skipped (77) without nvcc.
//   test_cub ROOT
#include "../check.h"
#include "tune.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int count(const char *dir, const char *part) {
  DIR *d = opendir(dir);
  struct dirent *de;
  int n = 0;
  while (d && (de = readdir(d)))
    n += strstr(de->d_name, part) != NULL;
  if (d)
    closedir(d);
  return n;
}

int main(int argc, char **argv) {
  if (system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc") != 0) {
    puts("skipped: no nvcc");
    return 77;
  }
  char gen[4096], cache[] = "/tmp/tgm-test-cub-XXXXXX", src[] = "/tmp/tgm-test-cubsrc-XXXXXX";
  snprintf(gen, sizeof gen, "%s/generated", argc > 1 ? argv[1] : "../..");
  if (!mkdtemp(cache) || !mkdtemp(src))
    return 1;
  tune_cub *b = NULL;
  tune_cub_fn fn = NULL;
  // the first start builds, the finish loads
  CHECK_EQ_INT(tune_cub_start(gen, "sum_i32.cub.cu", "sum_i32.cu", 9, 0, cache, &b), TGM_OK);
  CHECK(b && strstr(tune_cub_command(b), "-arch=sm_90"));
  tgm_status s = b ? tune_cub_finish(b, &fn) : TGM_ERR_INVALID;
  CHECK_EQ_INT(s, TGM_OK);
  if (s != TGM_OK)
    fprintf(stderr, "%s\n", tgm_last_error());
  CHECK(fn != NULL);
  tune_cub_free(b);
  CHECK_EQ_INT(count(cache, ".so"), 1);
  CHECK_EQ_INT(count(cache, ".tmp."), 0);
  // the second finds it in the cache and runs no nvcc
  CHECK_EQ_INT(tune_cub_start(gen, "sum_i32.cub.cu", "sum_i32.cu", 9, 0, cache, &b), TGM_OK);
  CHECK(b && tune_cub_cached(b));
  fn = NULL;
  CHECK_EQ_INT(b ? tune_cub_finish(b, &fn) : TGM_ERR_INVALID, TGM_OK);
  CHECK(fn != NULL);
  tune_cub_free(b);
  // another compiler is another key: it builds again (this one writes nothing)
  setenv("TGM_NVCC", "/bin/true", 1);
  CHECK_EQ_INT(tune_cub_start(gen, "sum_i32.cub.cu", "sum_i32.cu", 9, 0, cache, &b), TGM_OK);
  CHECK(b && !tune_cub_cached(b));
  CHECK_EQ_INT(b ? tune_cub_finish(b, &fn) : TGM_ERR_INVALID, TGM_ERR_COMPILE);
  CHECK(strstr(tgm_last_error(), "wrote no library"));
  tune_cub_free(b);
  unsetenv("TGM_NVCC");
  // a source nvcc rejects: its error, no temp left, nothing cached
  char path[4200];
  snprintf(path, sizeof path, "%s/bad.cub.cu", src);
  FILE *f = fopen(path, "w");
  fputs("#include \"bad.cu\"\nthis is not C++;\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/bad.cu", src);
  f = fopen(path, "w");
  fputs("// the variants\n", f);
  fclose(f);
  CHECK_EQ_INT(tune_cub_start(src, "bad.cub.cu", "bad.cu", 9, 0, cache, &b), TGM_OK);
  s = b ? tune_cub_finish(b, &fn) : TGM_ERR_INVALID;
  CHECK_EQ_INT(s, TGM_ERR_COMPILE);
  CHECK(strstr(tgm_last_error(), "nvcc failed") && strstr(tgm_last_error(), "error"));
  tune_cub_free(b);
  CHECK_EQ_INT(count(cache, ".so"), 1);
  CHECK_EQ_INT(count(cache, ".tmp."), 0);
  // no nvcc at all
  setenv("TGM_NVCC", "/nonexistent/nvcc", 1);
  CHECK_EQ_INT(tune_cub_start(gen, "sum_i32.cub.cu", "sum_i32.cu", 9, 0, cache, &b),
               TGM_ERR_NOT_FOUND);
  CHECK(strstr(tgm_last_error(), "no nvcc"));
  // a manifest without a CUDA source
  unsetenv("TGM_NVCC");
  CHECK_EQ_INT(tune_cub_start(gen, "sum_i32.cub.cu", NULL, 9, 0, cache, &b), TGM_ERR_MANIFEST);
  char cmd[8500];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", cache, src);
  if (system(cmd) != 0)
    return 1;
  CHECK_DONE();
}

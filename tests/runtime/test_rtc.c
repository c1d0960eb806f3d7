// test_rtc.c — compiles the kernels of a generated source with a run-time
// compiler and no device: NVRTC for sm_90 (.cu) or hiprtc for gfx90a (.hip).
//   test_rt_rtc cuda|hip ARCH MANIFEST [BLOCKS]
// Every variant of the manifest (for that dialect), every block size (or
// the first BLOCKS of them), one job per 4 variants, and the reference kernel
// with tgm-tune's unoptimized options, compiled in parallel, no cache. Exit 0: all compiled; 77: no such compiler here; 1: failures.
// A manifest of rows or columns (tgm-gen --rows/--cols, which tgm-tune does
// not read yet) is read here: each variant's name expression with BLOCK =
// 128 and, for RW, GROUP = 1 and 32, as a tuner or tgm_reduce would ask
// for them.
#include "tgm/tgm.h"
#include "tune.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../runtime/src/internal.h" // tgm__read_file

// A rows or columns manifest: every variant of the dialect, one job each.
static int shaped(tgm_backend *b, const char *path, json_t *root, int hip) {
  const char *src_name = json_string_value(
      json_object_get(json_object_get(root, "sources"), hip ? "hip" : "cuda"));
  const char *slash = strrchr(path, '/');
  char file[4096];
  snprintf(file, sizeof file, "%.*s/%s", slash ? (int)(slash - path) : 1, slash ? path : ".",
           src_name ? src_name : "");
  char *src = src_name ? tgm__read_file(file, NULL) : NULL;
  if (!src) {
    fprintf(stderr, "cannot read %s\n", file);
    return 1;
  }
  json_t *vs = json_object_get(root, "variants"), *v;
  size_t nv = json_array_size(vs), i;
  tgm_compile_job *jobs = calloc(nv + 1, sizeof *jobs);
  char *(*names)[2] = calloc(nv + 1, sizeof *names);
  int nj = 0;
  json_array_foreach(vs, i, v) {
    int in_dialect = 0;
    json_t *d;
    size_t k;
    json_array_foreach(json_object_get(v, "dialects"), k, d)
        in_dialect |= !strcmp(json_string_value(d), hip ? "hip" : "cuda");
    json_t *l = json_array_get(json_object_get(v, "launches_m_positive"), 0);
    const char *expr = json_string_value(json_object_get(l, "name_expr"));
    if (!in_dialect)
      continue;
    if (!expr) {
      fprintf(stderr, "%s: variant %zu has no launches_m_positive[0].name_expr\n", path, i);
      return 1;
    }
    jobs[nj].source = src;
    jobs[nj].source_name = file;
    names[nj][0] = tune_name_expr(expr, 128, 1, 1);
    names[nj][1] = tune_name_expr(expr, 128, 32, 16);
    jobs[nj].names = (const char *const *)names[nj];
    jobs[nj].n_names = strcmp(names[nj][0], names[nj][1]) ? 2 : 1;
    nj++;
  }
  tgm_compile_result *res = calloc((size_t)nj + 1, sizeof *res);
  long threads = sysconf(_SC_NPROCESSORS_ONLN);
  tgm_compile(b, jobs, nj, (int)threads, "", res);
  int bad = 0;
  for (int j = 0; j < nj; j++) {
    if (res[j].status != TGM_OK) {
      bad++;
      fprintf(stderr, "%s: %s\n%s\n", jobs[j].names[0], tgm_strerror(res[j].status),
              res[j].log ? res[j].log : "");
    }
    tgm_compile_result_free(&res[j]);
    free(names[j][0]);
    free(names[j][1]);
  }
  printf("%s %s: %d variants of %s, %d failed\n", tgm_backend_info(b)->compiler,
         json_string_value(json_object_get(root, "shape")), nj, path, bad);
  free(jobs);
  free(names);
  free(res);
  free(src);
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: test_rt_rtc cuda|hip ARCH MANIFEST [BLOCKS]\n");
    return 2;
  }
  int hip = !strcmp(argv[1], "hip");
  int max_blocks = argc > 4 ? atoi(argv[4]) : 8;
  tgm_backend *b;
  tgm_status s = tgm_backend_open(hip ? TGM_BACKEND_HIP : TGM_BACKEND_CUDA, 0, argv[2], &b);
  if (s != TGM_OK) {
    printf("skipped: %s\n", tgm_last_error());
    return 77;
  }
  json_t *root = json_load_file(argv[3], 0, NULL);
  if (root && json_object_get(root, "shape")) {
    int r = shaped(b, argv[3], root, hip);
    json_decref(root);
    tgm_backend_close(b);
    return r;
  }
  json_decref(root);
  tune_manifest m;
  if (tune_manifest_read(argv[3], &m) != TGM_OK) {
    fprintf(stderr, "%s\n", tgm_last_error());
    return 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", m.dir, hip ? m.hip_source : m.cuda_source);
  char *src = tgm__read_file(path, NULL);
  if (!src) {
    fprintf(stderr, "cannot read %s\n", path);
    return 1;
  }
  int nj = 0, cap = m.n_v / 4 + 2;
  tgm_compile_job *jobs = calloc((size_t)cap, sizeof *jobs);
  char ***names = calloc((size_t)cap, sizeof *names);
  int in_job = 0, total = 0;
  for (int v = 0; v < m.n_v; v++) {
    tune_variant *x = &m.v[v];
    if (hip ? !x->hip : !x->cuda)
      continue;
    if (in_job == 0) {
      names[nj] = calloc(4 * 8 * 6 + 1, sizeof(char *));
      jobs[nj].source = src;
      jobs[nj].source_name = path;
      jobs[nj].names = (const char *const *)names[nj];
      nj++;
    }
    tgm_compile_job *j = &jobs[nj - 1];
    for (int bl = 0; bl < x->n_blocks && bl < max_blocks; bl++)
      for (int l = 0; l < x->n_pos; l++)
        names[nj - 1][j->n_names++] = // each block a path of loads in flight, in turn
            tune_name_expr(x->pos[l].name_expr, x->blocks[bl], 0,
                           tune_items_paths[bl % TUNE_ITEMS_PATHS]);
    total++;
    in_job = (in_job + 1) % 4;
  }
  // and the reference kernel, compiled as tgm-tune compiles it: unoptimized
  const char *ref_name = m.reference.name_expr;
  if (m.has_reference) {
    jobs[nj].source = src;
    jobs[nj].source_name = path;
    jobs[nj].names = &ref_name;
    jobs[nj].n_names = 1;
    jobs[nj].options = tune_reference_options(hip, &jobs[nj].n_options);
    names[nj] = NULL;
    nj++;
  }
  tgm_compile_result *res = calloc((size_t)nj, sizeof *res);
  long threads = sysconf(_SC_NPROCESSORS_ONLN);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  s = tgm_compile(b, jobs, nj, (int)threads, "", res);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  int bad = 0;
  size_t bytes = 0;
  for (int j = 0; j < nj; j++) {
    if (res[j].status != TGM_OK) {
      bad++;
      fprintf(stderr, "job %d (%s...): %s\n%s\n", j, jobs[j].names[0], tgm_strerror(res[j].status),
              res[j].log ? res[j].log : "");
    }
    bytes += res[j].image_size;
    tgm_compile_result_free(&res[j]);
  }
  for (int j = 0; j < nj; j++) {
    for (int x = 0; names[j] && x < jobs[j].n_names; x++)
      free(names[j][x]);
    free(names[j]);
  }
  free(names);
  free(jobs);
  free(res);
  free(src);
  tune_manifest_free(&m);
  printf("%s %s: %d variants in %d jobs, %d failed, %zu bytes of code, %.1f s\n",
         tgm_backend_info(b)->compiler, argv[2], total, nj, bad, bytes,
         (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
  tgm_backend_close(b);
  return bad ? 1 : 0;
}

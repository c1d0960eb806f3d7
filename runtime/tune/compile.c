// compile.c — tgm-tune: the variants and the reference compiled (NVRTC or hiprtc, in parallel,
// cached), and the L2 flush kernel.
#include "tuner.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Reads the manifest's CUDA (or HIP) source: a file input, so before the
// GPU is opened.
int compile_read_source(ctx *c) {
  if (tune_manifest_source(&c->m, c->o->hip ? TUNE_SRC_HIP : TUNE_SRC_CUDA, &c->src,
                           &c->src_path) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_USAGE;
  }
  // the CUB baseline, which nvcc reads later, is checked the same way now
  if (!c->o->hip && c->m.cub_source) {
    char *text, *path;
    tgm_status s = tune_manifest_source(&c->m, TUNE_SRC_CUB, &text, &path);
    free(text);
    free(path);
    if (s == TGM_ERR_MANIFEST) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_USAGE;
    }
  }
  return 0;
}

int compile_all(ctx *c) {
  double t0 = now();
  const char *file = c->o->hip ? c->m.hip_source : c->m.cuda_source;
  const char *src = c->src;
  int sm = c->info->cc_major * 10 + c->info->cc_minor;
  int *vids = malloc((size_t)c->m.n_v * sizeof *vids), nv = 0;
  c->usable = calloc((size_t)c->m.n_v, sizeof *c->usable);
  c->refs = calloc((size_t)c->m.n_v, sizeof *c->refs);
  if (!vids || !c->usable || !c->refs) {
    fprintf(stderr, "tgm-tune: out of host memory for %d variants\n", c->m.n_v);
    free(vids);
    return EXIT_TUNE;
  }
  for (int i = 0; i < c->m.n_v; i++) {
    tune_variant *v = &c->m.v[i];
    int dialect = c->o->hip ? v->hip : v->cuda && v->min_sm <= sm;
    if (!dialect || (c->o->deterministic && !v->deterministic))
      continue;
    vids[nv++] = i;
  }
  int nj = (nv + CHUNK - 1) / CHUNK; // and one more: the reference kernel
  tgm_compile_job *jobs = calloc((size_t)nj + 1, sizeof *jobs);
  tgm_compile_result *res = calloc((size_t)nj + 1, sizeof *res);
  char ***names = calloc((size_t)nj, sizeof *names);
  for (int j = 0; j < nj; j++) {
    // a name a block, launch and items path, or (row variants of GROUP
    // threads a row) a name a block, group and items path
    names[j] = calloc(CHUNK * TUNE_MAX_KNOBS *
                              (TUNE_ITEMS_PATHS * TUNE_MAX_LAUNCHES + TUNE_MAX_ZERO +
                               TUNE_ITEMS_PATHS * TUNE_MAX_KNOBS) +
                          1,
                      sizeof(char *));
    int nn = 0;
    for (int q = j * CHUNK; q < nv && q < (j + 1) * CHUNK; q++) {
      tune_variant *v = &c->m.v[vids[q]];
      for (int b = 0; b < v->n_blocks; b++) {
        fn_ref *r = &c->refs[vids[q]][b];
        r->job = j;
        for (int l = 0; l < v->n_zero; l++)
          r->zname[l] = tune_intern_name(names[j], &nn,
                                         tune_name_expr(v->zero[l].name_expr, v->blocks[b], 0, 0));
        for (int l = 0; l < v->n_pos; l++)
          for (int p = 0; p < TUNE_ITEMS_PATHS; p++) {
            const char *e = v->pos[l].name_expr;
            unsigned items = tune_items_paths[p];
            const char *targs = strrchr(e, '<');   // a spectrum's name may hold the word
            if (targs && strstr(targs, "GROUP")) { // a row variant's one launch
              r->name[p][l] = -1;
              for (int g = 0; g < v->n_per_row; g++)
                r->gname[g][p] = tune_intern_name(names[j], &nn,
                                                  tune_name_expr(e, v->blocks[b], v->per_row[g],
                                                                 items));
              continue;
            }
            r->name[p][l] = tune_intern_name(names[j], &nn,
                                             tune_name_expr(e, v->blocks[b], 0, items));
          }
      }
    }
    jobs[j].source = src;
    jobs[j].source_name = file;
    jobs[j].names = (const char *const *)names[j];
    jobs[j].n_names = nn;
  }
  const char *ref_name = c->m.reference.name_expr;
  jobs[nj].source = src;
  jobs[nj].source_name = file;
  jobs[nj].names = &ref_name;
  jobs[nj].n_names = 1;
  // unoptimized, so that it shares no optimizer bug with the variants
  jobs[nj].options = tune_reference_options(c->o->hip, &jobs[nj].n_options);
  long threads = sysconf(_SC_NPROCESSORS_ONLN);
  tgm_compile(c->b, jobs, nj + 1, threads > 0 ? (int)threads : 4, c->o->cache, res);
  c->mods = calloc((size_t)nj, sizeof *c->mods);
  c->n_mods = nj;
  int cached = 0, failed = 0;
  for (int j = 0; j < nj; j++) {
    cached += res[j].from_cache;
    tgm_status s = res[j].status;
    if (s == TGM_OK)
      s = tgm_module_load(c->b, &res[j], &c->mods[j]);
    if (s != TGM_OK) {
      failed++;
      fprintf(stderr, "tgm-tune: compiling variants %s..: %s\n%s\n", c->m.v[vids[j * CHUNK]].id,
              tgm_strerror(s), res[j].log ? res[j].log : tgm_last_error());
    }
    for (int q = j * CHUNK; q < nv && q < (j + 1) * CHUNK; q++)
      c->usable[vids[q]] = s == TGM_OK;
    tgm_compile_result_free(&res[j]);
    for (int x = 0; names[j][x]; x++)
      free(names[j][x]);
    free(names[j]);
  }
  // the reference kernel, compiled with the variants (its own job)
  tgm_status rs = res[nj].status;
  if (rs == TGM_OK)
    rs = tgm_module_load(c->b, &res[nj], &c->ref_mod);
  if (rs == TGM_OK)
    rs = tgm_module_function(c->ref_mod, 0, &c->ref_fn);
  if (rs != TGM_OK)
    fprintf(stderr, "tgm-tune: compiling the reference kernel: %s\n%s\n", tgm_strerror(rs),
            res[nj].log ? res[nj].log : tgm_last_error());
  tgm_compile_result_free(&res[nj]);
  free(names);
  free(jobs);
  free(res);
  free(vids);
  c->compile_seconds = now() - t0;
  if (!c->o->quiet)
    fprintf(stderr,
            "tgm-tune: %d variants in %d modules (%d from the cache, %d failed) in %.1f s\n", nv,
            nj, cached, failed, c->compile_seconds);
  return failed == nj || rs != TGM_OK ? EXIT_TUNE : 0;
}

// The L2 flush: a kernel that reads (not writes: a memset would leave the
// L2 full of dirty lines whose write-back the next timed kernel would pay).
int compile_flush(ctx *c) {
  static const char src[] =
      "namespace tgm_util {\n"
      "__global__ void flush(const int4 *p, unsigned long long n, int *sink) {\n"
      "  int acc = 0;\n"
      "  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
      "       i += (unsigned long long)gridDim.x * blockDim.x) {\n"
      "    int4 v = p[i];\n"
      "    acc ^= v.x ^ v.y ^ v.z ^ v.w;\n"
      "  }\n"
      "  if (acc == 0x5eed1e55) *sink = acc;\n"
      "}\n"
      "}\n";
  const char *name = "tgm_util::flush";
  tgm_compile_job job = {src, "tgm_flush.cu", &name, 1, NULL, 0};
  tgm_compile_result r;
  tgm_status s = tgm_compile(c->b, &job, 1, 1, c->o->cache, &r);
  if (s == TGM_OK)
    s = tgm_module_load(c->b, &r, &c->flush_mod);
  if (s == TGM_OK)
    s = tgm_module_function(c->flush_mod, 0, &c->flush_fn);
  if (s != TGM_OK)
    fprintf(stderr, "tgm-tune: the L2 flush kernel: %s\n%s\n", tgm_last_error(),
            r.log ? r.log : "");
  tgm_compile_result_free(&r);
  return s == TGM_OK ? 0 : EXIT_TUNE;
}

tgm_status flush_l2(ctx *c) {
  uint64_t p = c->flush, n = c->flush_bytes / 16, sink = c->out;
  void *args[3] = {&p, &n, &sink};
  return tgm_launch(c->b, c->flush_fn, (unsigned)c->info->sm_count * 4, 512, args, c->s);
}

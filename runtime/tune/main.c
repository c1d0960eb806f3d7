// main.c — tgm-tune: compile every variant of a manifest with NVRTC, verify
// every knob setting against a host reference, time the correct ones beside
// CUB, and store the winner per power-of-two size in the tuning database.
//
// The pipeline, straight through main():
//   read manifest -> open device -> open database -> compile (parallel,
//   cached) -> verify -> for each size: screen, refine knobs, retime the
//   close ones, time CUB, choose, write the database -> report.
//
// Exit status: 0 success; 1 a failure while tuning (or, with --verify-only,
// a variant that computed a wrong result); 2 bad usage or manifest; 3 no CUDA
// driver, device or NVRTC (one line on stderr); 4 the database is corrupt,
// foreign or cannot be written.
#include "tgm/tgm.h"
#include "tune.h"
#include "../cub/tgm_cub.h"
#include <dlfcn.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *tgm__read_file(const char *path, size_t *len);
tgm_status tgm__fail(tgm_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum { EXIT_TUNE = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3, EXIT_DB = 4 };
// Fixed sizes, none indexed by a count read from a file or the command line:
// MAXSAMPLES caps the samples asked for, SLOTS batches the verification,
// MAX_VERIFY_SIZES is checked where --verify-sizes is read.
enum { MAXSAMPLES = 64, SLOTS = 1024, CHUNK = 4, MAX_VERIFY_SIZES = 32 };


// One timed setting (or CUB: k.v == -1), for timings-*.csv.
typedef struct tune_timing {
  unsigned long long n;
  tune_knobs k;
  const char *stage;
  tune_stats st;
} tune_timing;

typedef struct {
  const char *manifest, *type, *op, *db, *report, *mode, *cache;
  int lo, hi;
  double budget;
  int deterministic, hot, verify_only, all_knobs_default, quiet, hip, prepare;
  double noise; // run-to-run noise: a margin must exceed it (--noise)
  unsigned long long verify_sizes[MAX_VERIFY_SIZES];
  int n_verify_sizes;
  const char *params[TUNE_MAX_PARAMS]; // --param NAME=VALUE, as given
  int n_params;
  char *command;     // the command line, for the report
} options;

typedef struct {
  int job, name[4];  // job and name index per positive launch
  int zname[2];      // per n == 0 launch
} fn_ref;

typedef struct {
  options *o;
  tgm_backend *b;
  const tgm_device_info *info;
  tune_manifest m;
  size_t elem;               // an input element (T)
  size_t acc_size, res_size; // A (the partials), R (the result)
  int n_in;                  // inputs: input k lies in_gap bytes after input k - 1
  size_t in_gap;
  uint64_t param_vals[TUNE_MAX_PARAMS]; // each parameter's bytes, as the kernels take it
  char param_text[256];      // "threshold=0.25": in the database key and the report
  tgm_module *ref_mod;       // the reference kernel (tgm_reference_kernel)
  tgm_function ref_fn;
  tgm_devptr ref_out;        // R[3]
  const char *cub_note;      // why there is no CUB column
  const char *stage;         // what is being timed: screen, refine, final, a/b, cub
  struct tune_timing *timings; // every timing, for the CSV
  int n_timings, cap_timings;
  tune_knobs prev;           // the previous size's choice (has_prev), for tune_prefer
  int has_prev;
  char *cub_note_buf;        // the same, when made for this run
  int *usable;               // [variant]: compiled, arch and dialect fine
  tgm_module **mods;
  int n_mods;
  fn_ref (*refs)[TUNE_MAX_KNOBS]; // [variant][block index]
  char *src, *src_path;       // the CUDA or HIP source, read before the GPU is opened
  tgm_stream s;
  tgm_devptr pool, out, temp, flush, cub_temp;
  size_t pool_bytes, temp_bytes, flush_bytes, cub_temp_bytes;
  tgm_event ev[2 * MAXSAMPLES];
  tgm_module *flush_mod;
  tgm_function flush_fn;    // reads the flush buffer: evicts L2, leaves it clean
  // CUB: the spectrum's own baseline (tgm-gen's NAME_TYPE.cub.cu, built by
  // cub.c), else libtgm_cub.so's for a plain sum, max or min
  tune_cub *cub_build;
  tune_cub_fn cub_run;
  int (*cub)(const char *, const char *, const void *, unsigned long long, void *, void *,
             size_t *, void *);
  int graph;
  long measured;
  double compile_seconds;
  char **excluded;
  int n_excluded;
  tune_knobs *sets;  // verified settings
  int n_sets;
  int *order;        // [variant]: the screen's order (tune_size)
  struct vstate *vs; // [variant]: the search's state
  tune_result *rows; // [size]: the winners
  tune_db *db;
} ctx;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int gpu_fail(const char *what, tgm_status s) {
  fprintf(stderr, "tgm-tune: %s: %s\n", what, tgm_last_error()[0] ? tgm_last_error() : tgm_strerror(s));
  return EXIT_TUNE;
}

#define TRY(what, call)                                                        \
  do {                                                                         \
    tgm_status s_ = (call);                                                    \
    if (s_ != TGM_OK)                                                          \
      return gpu_fail(what, s_);                                               \
  } while (0)

// --------------------------------------------------------------- launching
static int block_index(const tune_variant *v, unsigned block) {
  for (int i = 0; i < v->n_blocks; i++)
    if (v->blocks[i] == block)
      return i;
  return -1;
}

static unsigned grid_of(tune_rule rule, tgm_devptr in, unsigned long long n, unsigned block,
                        unsigned items, unsigned grid_cap, size_t elem) {
  unsigned long long elems = n;
  if (rule == RULE_TILES_VEC || rule == RULE_STRIDED_VEC) {
    unsigned long long head = ((16 - (in & 15)) & 15) / elem;
    elems = (n - (head < n ? head : n)) / (16 / elem);
  }
  unsigned long long g = (elems + (unsigned long long)block * items - 1) / ((unsigned long long)block * items);
  if (rule == RULE_ONE || g == 0)
    g = 1;
  if ((rule == RULE_STRIDED || rule == RULE_STRIDED_VEC) && g > grid_cap)
    g = grid_cap;
  return g > 0x7fffffffull ? 0x7fffffffu : (unsigned)g;
}

static size_t partials_bytes(unsigned grid, size_t acc_size) {
  return ((size_t)grid * acc_size + 15) / 16 * 16;
}

// The grid of the variant's main (BLOCK-sized) launch.
static unsigned main_grid(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  unsigned cap = k.cap ? k.cap * (unsigned)c->info->sm_count : 0x7fffffffu;
  for (int i = 0; i < v->n_pos; i++)
    if (!v->pos[i].block_one)
      return grid_of(v->pos[i].rule, in, n, k.block, k.items, cap, c->elem);
  return 1;
}

// Zeroes the counter word of setting k at size n (the state the kernels
// expect the first time; they leave it zero).
static tgm_status prepare(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  if (!v->counter)
    return TGM_OK;
  size_t off = partials_bytes(main_grid(c, k, in, n), c->acc_size);
  return tgm_memset(c->b, c->temp + off, 0, 16, c->s);
}

static size_t temp_need(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  if (!v->partials)
    return 0;
  return partials_bytes(main_grid(c, k, in, n), c->acc_size) + (v->counter ? 16 : 0);
}

// Enqueues every launch of one reduction of in[0..n) into *out.
static tgm_status enqueue(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n,
                          tgm_devptr out) {
  const tune_variant *v = &c->m.v[k.v];
  int bi = block_index(v, k.block);
  const fn_ref *ref = &c->refs[k.v][bi];
  unsigned cap = k.cap ? k.cap * (unsigned)c->info->sm_count : 0x7fffffffu;
  const tune_launch *ls = n ? v->pos : v->zero;
  int nl = n ? v->n_pos : v->n_zero;
  unsigned g0 = main_grid(c, k, in, n);
  tgm_devptr partials = v->partials ? c->temp : 0;
  tgm_devptr counter = v->counter ? c->temp + partials_bytes(g0, c->acc_size) : 0;
  // A caller whose temp storage comes uninitialised (CUB-like, as the
  // embedded header's entry point) must clear the last-block counter on
  // every call; it is timed here as part of the variant, so the embedded
  // call runs what was measured.
  if (n && v->counter) {
    tgm_status s = tgm_memset(c->b, counter, 0, 16, c->s);
    if (s != TGM_OK)
      return s;
  }
  for (int i = 0; i < nl; i++) {
    const tune_launch *l = &ls[i];
    unsigned block = l->block_one ? 1 : k.block;
    unsigned grid = grid_of(l->rule, in, n, block, k.items, cap, c->elem);
    uint64_t vals[TUNE_MAX_ARGS];
    void *args[TUNE_MAX_ARGS];
    for (int a = 0; a < l->n_args; a++) {
      switch (l->args[a]) {
      case ARG_IN: vals[a] = in + (tgm_devptr)l->arg_index[a] * c->in_gap; break;
      case ARG_PARAM: vals[a] = c->param_vals[l->arg_index[a]]; break;
      case ARG_N: vals[a] = n; break;
      case ARG_OUT: vals[a] = out; break;
      case ARG_PARTIALS: vals[a] = partials; break;
      case ARG_COUNTER: vals[a] = counter; break;
      case ARG_ITEMS: vals[a] = k.items; break;
      case ARG_GRID: vals[a] = g0; break;
      }
      args[a] = &vals[a];
    }
    int job = ref->job, name = n ? ref->name[i] : ref->zname[i];
    tgm_function f;
    tgm_status s = tgm_module_function(c->mods[job], name, &f);
    if (s == TGM_OK)
      s = tgm_launch(c->b, f, grid, block, args, c->s);
    if (s != TGM_OK)
      return s;
  }
  return TGM_OK;
}

// ---------------------------------------------------------------- compiling
// Reads the manifest's CUDA (or HIP) source: a file input, so before the
// GPU is opened.
static int read_source(ctx *c) {
  const char *file = c->o->hip ? c->m.hip_source : c->m.cuda_source;
  size_t len = strlen(c->m.dir) + strlen(file ? file : "") + 2;
  c->src_path = malloc(len);
  snprintf(c->src_path, len, "%s/%s", c->m.dir, file ? file : "");
  c->src = file ? tgm__read_file(c->src_path, NULL) : NULL;
  if (!c->src) {
    fprintf(stderr, "tgm-tune: cannot read the %s source %s\n", c->o->hip ? "HIP" : "CUDA",
            file ? c->src_path : "(the manifest names none)");
    return EXIT_USAGE;
  }
  return 0;
}

static int compile_all(ctx *c) {
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
    names[j] = calloc(CHUNK * TUNE_MAX_KNOBS * (TUNE_MAX_LAUNCHES + TUNE_MAX_ZERO) + 1, sizeof(char *));
    int nn = 0;
    for (int q = j * CHUNK; q < nv && q < (j + 1) * CHUNK; q++) {
      tune_variant *v = &c->m.v[vids[q]];
      for (int b = 0; b < v->n_blocks; b++) {
        fn_ref *r = &c->refs[vids[q]][b];
        r->job = j;
        for (int pass = 0; pass < 2; pass++) {
          tune_launch *ls = pass ? v->zero : v->pos;
          int nl = pass ? v->n_zero : v->n_pos;
          for (int l = 0; l < nl; l++) {
            int found = tune_intern_name(names[j], &nn, tune_name_expr(ls[l].name_expr, v->blocks[b]));
            if (pass)
              r->zname[l] = found;
            else
              r->name[l] = found;
          }
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
    fprintf(stderr, "tgm-tune: %d variants in %d modules (%d from the cache, %d failed) in %.1f s\n",
            nv, nj, cached, failed, c->compile_seconds);
  return failed == nj || rs != TGM_OK ? EXIT_TUNE : 0;
}

// The L2 flush: a kernel that reads (not writes: a memset would leave the
// L2 full of dirty lines whose write-back the next timed kernel would pay).
static int compile_flush(ctx *c) {
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
    fprintf(stderr, "tgm-tune: the L2 flush kernel: %s\n%s\n", tgm_last_error(), r.log ? r.log : "");
  tgm_compile_result_free(&r);
  return s == TGM_OK ? 0 : EXIT_TUNE;
}

static tgm_status flush_l2(ctx *c) {
  uint64_t p = c->flush, n = c->flush_bytes / 16, sink = c->out;
  void *args[3] = {&p, &n, &sink};
  return tgm_launch(c->b, c->flush_fn, (unsigned)c->info->sm_count * 4, 512, args, c->s);
}

// ------------------------------------------------------------- host data
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  uint64_t x = rng_state;
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return rng_state = x;
}

static int is_float(tune_type t) { return t == TUNE_F32 || t == TUNE_F64; }

// Fills host[0..n) (the element type) with test data, by operator, so that a
// fold in any order is exact where it can be: a floating-point sum of small
// nonzero integers (+-1 past 2^21 elements), a product of +-1, odd integers
// for an integer product (never 0 modulo 2^32), values in -8..8 for a pair
// (argmax: many ties); else random values.
static void fill_host(ctx *c, void *host, unsigned long long n) {
  int sum = !strcmp(c->m.op, "+"), prod = !strcmp(c->m.op, "*"), pair = c->m.res == TUNE_PAIR;
  for (unsigned long long i = 0; i < n; i++) {
    uint64_t r = rnd();
    int small = (int)(r % 16) - 8;
    if (small >= 0)
      small++;
    double f = prod ? (small > 0 ? 1 : -1) : sum ? (n > (1ull << 21) ? (small > 0 ? 1 : -1) : small) : 0;
    if (prod && !is_float(c->m.elem))
      r |= 1;
    switch (c->m.elem) {
    case TUNE_I32: ((int32_t *)host)[i] = (int32_t)(uint32_t)r; break;
    case TUNE_U32: ((uint32_t *)host)[i] = (uint32_t)r; break;
    case TUNE_I64: ((int64_t *)host)[i] = (int64_t)r; break;
    case TUNE_U64: ((uint64_t *)host)[i] = r; break;
    case TUNE_F32:
      ((float *)host)[i] = sum || prod ? (float)f : (float)((int32_t)(r >> 40) - (1 << 23));
      break;
    case TUNE_F64:
      ((double *)host)[i] = sum || prod ? f : (double)(int64_t)(r >> 12);
      break;
    case TUNE_PAIR: break; // never an element type (manifest.c)
    }
    if (pair) // values from a small range: ties, which the lower index wins
      switch (c->m.elem) {
      case TUNE_F32: ((float *)host)[i] = (float)small; break;
      case TUNE_F64: ((double *)host)[i] = small; break;
      case TUNE_I32: case TUNE_U32: ((int32_t *)host)[i] = small; break;
      case TUNE_I64: case TUNE_U64: ((int64_t *)host)[i] = small; break;
      case TUNE_PAIR: break;
      }
  }
}

// The reference of the inputs at in (c->in_gap apart) into want[3] (R each):
// the spectrum's scalar codelet run by one GPU thread (tgm_reference_kernel),
// and the lowest and highest a fold in another order may give.
static tgm_status run_reference(ctx *c, tgm_devptr in, unsigned long long n, void *want) {
  const tune_launch *l = &c->m.reference;
  uint64_t vals[TUNE_MAX_ARGS];
  void *args[TUNE_MAX_ARGS];
  for (int a = 0; a < l->n_args; a++) {
    switch (l->args[a]) {
    case ARG_IN: vals[a] = in + (tgm_devptr)l->arg_index[a] * c->in_gap; break;
    case ARG_N: vals[a] = n; break;
    case ARG_OUT: vals[a] = c->ref_out; break;
    case ARG_PARAM: vals[a] = c->param_vals[l->arg_index[a]]; break;
    default: return tgm__fail(TGM_ERR_MANIFEST, "the reference kernel takes an unknown argument");
    }
    args[a] = &vals[a];
  }
  tgm_status s = tgm_memset(c->b, c->ref_out, 0xA5, 3 * c->res_size, c->s);
  if (s == TGM_OK)
    s = tgm_launch(c->b, c->ref_fn, 1, l->block_fixed ? l->block_fixed : 1, args, c->s);
  if (s == TGM_OK)
    s = tgm_stream_sync(c->b, c->s);
  if (s == TGM_OK)
    s = tgm_copy_to_host(c->b, want, c->ref_out, 3 * c->res_size);
  return s;
}

static double as_double(tune_type t, const void *p) {
  switch (t) {
  case TUNE_I32: return *(const int32_t *)p;
  case TUNE_U32: return *(const uint32_t *)p;
  case TUNE_I64: return (double)*(const int64_t *)p;
  case TUNE_U64: return (double)*(const uint64_t *)p;
  case TUNE_F32: return *(const float *)p;
  case TUNE_F64: return *(const double *)p;
  case TUNE_PAIR: return NAN; // compared by same() in parts
  }
  return 0;
}

// got (R) against want[3] (R each): integers exactly; floating point equal
// to the reference or between want[1] and want[2] (NaN only for NaN; a range
// end outside the epilogue's domain, sqrt(< 0), allows as far as the other);
// a pair's index exactly and its value exactly (NaN only for NaN).
static int same(ctx *c, const void *got, const void *want) {
  size_t r = c->res_size;
  if (c->m.res == TUNE_PAIR) {
    if (memcmp(got, want, 8))
      return 0;
    const char *gv = (const char *)got + 8, *wv = (const char *)want + 8;
    if (!is_float(c->m.elem))
      return memcmp(gv, wv, c->elem) == 0;
    double g = as_double(c->m.elem, gv), w = as_double(c->m.elem, wv);
    return g == w || (isnan(g) && isnan(w));
  }
  if (!is_float(c->m.res))
    return memcmp(got, want, r) == 0;
  double g = as_double(c->m.res, got), w = as_double(c->m.res, want);
  double a = as_double(c->m.res, (const char *)want + r), b = as_double(c->m.res, (const char *)want + 2 * r);
  if (isnan(g) || isnan(w))
    return isnan(g) && isnan(w);
  if (isnan(a) || isnan(b)) {
    double end = isnan(a) ? b : a;
    return isnan(end) || fabs(g - w) <= fabs(end - w);
  }
  return g == w || (g >= fmin(a, b) && g <= fmax(a, b));
}

static void value_str_of(tune_type t, const void *p, char *buf, size_t len) {
  switch (t) {
  case TUNE_I32: snprintf(buf, len, "%d", *(const int32_t *)p); break;
  case TUNE_U32: snprintf(buf, len, "%u", *(const uint32_t *)p); break;
  case TUNE_I64: snprintf(buf, len, "%lld", (long long)*(const int64_t *)p); break;
  case TUNE_U64: snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)p); break;
  case TUNE_F32: snprintf(buf, len, "%.9g", *(const float *)p); break;
  case TUNE_F64: snprintf(buf, len, "%.17g", *(const double *)p); break;
  case TUNE_PAIR: snprintf(buf, len, "?"); break; // value_str spells pairs
  }
}

static void value_str(ctx *c, const void *p, char *buf, size_t len) {
  tune_type t = c->m.res;
  if (t == TUNE_PAIR) { // (index, value)
    uint64_t key;
    memcpy(&key, p, 8);
    int w = snprintf(buf, len, "(%llu, ", (unsigned long long)key);
    if (w > 0 && (size_t)w < len) {
      value_str_of(c->m.elem, (const char *)p + 8, buf + w, len - (size_t)w);
      size_t at = strlen(buf);
      snprintf(buf + at, len - at, ")");
    }
    return;
  }
  value_str_of(t, p, buf, len);
}

// ------------------------------------------------------------- verification
// Runs every setting in sets[] on random data of each size, twice (the
// second run checks that the counter word was left zero), output poisoned;
// a setting that fails anywhere is dropped and listed. Sizes may carry an
// element offset so that the input is misaligned for the vector loads.
static int verify(ctx *c, tune_knobs *sets, int *n_sets, const unsigned long long *sizes,
                  const int *offsets, int n_sizes) {
  unsigned long long nmax = 0;
  for (int i = 0; i < n_sizes; i++)
    nmax = sizes[i] + (unsigned long long)offsets[i] > nmax ? sizes[i] + (unsigned long long)offsets[i] : nmax;
  size_t in_bytes = ((size_t)(nmax ? nmax : 1) * c->elem + 255) / 256 * 256;
  tgm_devptr din;
  TRY("allocating the verification input", tgm_malloc(c->b, in_bytes * (size_t)c->n_in, &din));
  c->in_gap = in_bytes; // input k at din + k * in_bytes
  void *host = malloc(in_bytes);
  char *outs = malloc((size_t)2 * SLOTS * c->res_size);
  char *bad = calloc((size_t)*n_sets, 1);
  if (!host || !outs || !bad) {
    fprintf(stderr, "tgm-tune: out of host memory for verification\n");
    return EXIT_TUNE;
  }
  for (int si = 0; si < n_sizes; si++) {
    unsigned long long n = sizes[si];
    tgm_devptr in = din + (tgm_devptr)offsets[si] * c->elem;
    for (int k = 0; k < c->n_in && n; k++) {
      fill_host(c, host, n);
      TRY("copying the verification input",
          tgm_copy_to_device(c->b, in + (tgm_devptr)k * c->in_gap, host, (size_t)n * c->elem));
    }
    char want[3 * 16];
    TRY("running the reference", run_reference(c, in, n, want));
    for (int first = 0; first < *n_sets; first += SLOTS) {
      int last = first + SLOTS < *n_sets ? first + SLOTS : *n_sets;
      TRY("poisoning", tgm_memset(c->b, c->out, 0xA5, (size_t)2 * SLOTS * c->res_size, c->s));
      for (int i = first; i < last; i++) {
        if (bad[i])
          continue;
        size_t need = temp_need(c, sets[i], in, n);
        if (need > c->temp_bytes) {
          fprintf(stderr, "tgm-tune: internal: temp %zu > %zu\n", need, c->temp_bytes);
          return EXIT_TUNE;
        }
        TRY("preparing", prepare(c, sets[i], in, n));
        for (int rep = 0; rep < 2; rep++) {
          tgm_status s = enqueue(c, sets[i], in, n, c->out + (tgm_devptr)(2 * (i - first) + rep) * c->res_size);
          if (s != TGM_OK)
            return gpu_fail(c->m.v[sets[i].v].id, s);
        }
      }
      tgm_status s = tgm_stream_sync(c->b, c->s);
      if (s != TGM_OK) {
        // a fault kills the context: say which batch, then give up
        fprintf(stderr, "tgm-tune: a kernel failed at n=%llu among %s..%s: %s\n", n,
                c->m.v[sets[first].v].id, c->m.v[sets[last - 1].v].id, tgm_last_error());
        return EXIT_TUNE;
      }
      TRY("reading results", tgm_copy_to_host(c->b, outs, c->out, (size_t)2 * (last - first) * c->res_size));
      for (int i = first; i < last; i++) {
        for (int rep = 0; rep < 2 && !bad[i]; rep++) {
          const char *got = outs + (size_t)(2 * (i - first) + rep) * c->res_size;
          if (same(c, got, want))
            continue;
          bad[i] = 1;
          char g[64], w[64], k[64], line[512];
          value_str(c, got, g, sizeof g);
          value_str(c, want, w, sizeof w);
          tune_knobs_str(&sets[i], k, sizeof k);
          snprintf(line, sizeof line, "%s %s: n=%llu%s%s: got %s, want %s", c->m.v[sets[i].v].id, k,
                   n, offsets[si] ? " (misaligned input)" : "", rep ? " (second run)" : "", g, w);
          c->excluded = realloc(c->excluded, (size_t)(c->n_excluded + 1) * sizeof *c->excluded);
          c->excluded[c->n_excluded++] = strdup(line);
        }
      }
    }
  }
  int kept = 0;
  for (int i = 0; i < *n_sets; i++)
    if (!bad[i])
      sets[kept++] = sets[i];
  *n_sets = kept;
  free(bad);
  free(host);
  free(outs);
  tgm_free(c->b, din);
  return 0;
}

// ------------------------------------------------------------------ timing
typedef tgm_status (*enq_fn)(ctx *c, const void *arg, tgm_devptr in, unsigned long long n);

static tgm_status enq_variant(ctx *c, const void *arg, tgm_devptr in, unsigned long long n) {
  return enqueue(c, *(const tune_knobs *)arg, in, n, c->out);
}

// One CUB reduction of the inputs at in (c->in_gap apart) into out; temp 0:
// the size query. Returns CUB's cudaError_t.
static int cub_call(ctx *c, tgm_devptr in, unsigned long long n, tgm_devptr out, tgm_devptr temp,
                    size_t *bytes) {
  if (c->cub_run) {
    const void *ins[TUNE_MAX_INPUTS];
    for (int k = 0; k < c->n_in; k++)
      ins[k] = in ? (const void *)(uintptr_t)(in + (tgm_devptr)k * c->in_gap) : NULL;
    return c->cub_run(ins, n, (void *)(uintptr_t)out, (void *)(uintptr_t)temp, bytes,
                      (const unsigned long long *)c->param_vals, c->s);
  }
  return c->cub(c->o->type, c->o->op, (const void *)(uintptr_t)in, n, (void *)(uintptr_t)out,
                (void *)(uintptr_t)temp, bytes, c->s);
}

static tgm_status enq_cub(ctx *c, const void *arg, tgm_devptr in, unsigned long long n) {
  (void)arg;
  size_t bytes = c->cub_temp_bytes;
  return cub_call(c, in, n, c->out, c->cub_temp, &bytes) == 0 ? TGM_OK : TGM_ERR_DEVICE;
}

// One reduction between two events: its time in milliseconds.
static tgm_status time_once(ctx *c, enq_fn f, const void *arg, unsigned long long n, float *ms) {
  tgm_status s;
  tgm_event_record(c->b, c->ev[0], c->s);
  if ((s = f(c, arg, c->pool, n)) != TGM_OK)
    return s;
  tgm_event_record(c->b, c->ev[1], c->s);
  return tgm_event_elapsed(c->b, c->ev[0], c->ev[1], ms);
}

// Times one reduction of n elements (see README: timing protocol). Returns
// the per-reduction statistics in microseconds; st->n == 0 when skipped
// because one run took longer than `give_up` microseconds.
static tgm_status measure(ctx *c, enq_fn f, const void *arg, unsigned long long n, int samples,
                          double give_up, tune_stats *st) {
  memset(st, 0, sizeof *st);
  size_t bytes = (size_t)n * c->elem;
  tgm_status s;
  // warm-up, timed too: a run far slower than the leader is not sampled
  float ms;
  if ((s = time_once(c, f, arg, n, &ms)) != TGM_OK)
    return s;
  if (give_up > 0 && ms * 1000.0 > 4 * give_up) // 4x: the warm-up may load the module
    return TGM_OK;
  // cold L2: flush before each sample, unless the input is at least twice
  // the L2, when one run already streams everything else out
  int flush = !c->o->hot && bytes < 2 * c->info->l2_bytes;
  if (flush && (s = flush_l2(c)) != TGM_OK)
    return s;
  if ((s = time_once(c, f, arg, n, &ms)) != TGM_OK)
    return s;
  double t1 = ms * 1000.0;
  c->measured++;
  if (give_up > 0 && t1 > give_up)
    return TGM_OK;
  if (t1 > 300 && samples > 3) // long runs vary less: half the samples
    samples = samples / 2 > 3 ? samples / 2 : 3;
  // launches per sample: enough to cover ~100 us; each on its own input copy
  // (cold: copies are distinct memory, flushed before the sample)
  int batch = (int)ceil(100.0 / (t1 > 0.5 ? t1 : 0.5));
  if (batch > 128)
    batch = 128;
  if (batch < 1)
    batch = 1;
  size_t stride = (bytes + 255) / 256 * 256;
  if (!c->o->hot && (size_t)batch * stride > c->pool_bytes)
    batch = (int)(c->pool_bytes / stride) > 0 ? (int)(c->pool_bytes / stride) : 1;
  tgm_graph g = NULL;
  if (c->graph) {
    if ((s = tgm_capture_begin(c->b, c->s)) != TGM_OK)
      return s;
    for (int i = 0; i < batch; i++) {
      s = f(c, arg, c->pool + (c->o->hot ? 0 : (tgm_devptr)i * stride), n);
      if (s != TGM_OK)
        break;
    }
    tgm_graph g2 = NULL;
    tgm_status s2 = tgm_capture_end(c->b, c->s, &g2);
    if (s != TGM_OK || s2 != TGM_OK)
      return s != TGM_OK ? s : s2;
    g = g2;
    if ((s = tgm_graph_launch(c->b, g, c->s)) != TGM_OK) // upload, warm
      return s;
  }
  if (samples > MAXSAMPLES)
    samples = MAXSAMPLES;
  for (int k = 0; k < samples; k++) {
    if (flush && (s = flush_l2(c)) != TGM_OK)
      return s;
    tgm_event_record(c->b, c->ev[2 * k], c->s);
    if (g)
      s = tgm_graph_launch(c->b, g, c->s);
    else
      for (int i = 0; i < batch && s == TGM_OK; i++)
        s = f(c, arg, c->pool + (c->o->hot ? 0 : (tgm_devptr)i * stride), n);
    if (s != TGM_OK)
      return s;
    tgm_event_record(c->b, c->ev[2 * k + 1], c->s);
  }
  double t[MAXSAMPLES];
  for (int k = 0; k < samples; k++) {
    if ((s = tgm_event_elapsed(c->b, c->ev[2 * k], c->ev[2 * k + 1], &ms)) != TGM_OK)
      return s;
    t[k] = ms * 1000.0 / batch;
  }
  if (g)
    tgm_graph_destroy(c->b, g);
  *st = tune_stats_of(t, samples);
  c->measured++;
  return TGM_OK;
}

// Keeps one timing for the CSV beside the report (every timed setting).
static void keep_timing(ctx *c, const tune_knobs *k, unsigned long long n, const tune_stats *st) {
  if (!st->n)
    return;
  if (c->n_timings == c->cap_timings) {
    int cap = c->cap_timings ? 2 * c->cap_timings : 1024;
    tune_timing *t = realloc(c->timings, (size_t)cap * sizeof *t);
    if (!t)
      return; // the CSV misses it; the tune goes on
    c->timings = t, c->cap_timings = cap;
  }
  tune_timing *t = &c->timings[c->n_timings++];
  t->n = n, t->stage = c->stage, t->st = *st;
  t->k = k ? *k : (tune_knobs){-1, 0, 0, 0};
}

static tgm_status measure_knobs(ctx *c, tune_knobs k, unsigned long long n, int samples,
                                double give_up, tune_stats *st) {
  tgm_status s = prepare(c, k, c->pool, n);
  if (s == TGM_OK)
    s = measure(c, enq_variant, &k, n, samples, give_up, st);
  if (s == TGM_OK)
    keep_timing(c, &k, n, st);
  return s;
}

// --------------------------------------------------------------- searching
typedef struct vstate {
  tune_knobs best;   // the variant's best knobs so far (carried to the next size)
  int alive;         // still screened
  int has_set;       // at least one verified setting
  tune_stats st;     // this size's screen
} vstate;

static int verified(ctx *c, tune_knobs k) {
  for (int i = 0; i < c->n_sets; i++)
    if (tune_knobs_equal(c->sets[i], k))
      return 1;
  return 0;
}

static void progress(ctx *c, int done, int total, int log2n, double t0, const char *extra) {
  double el = now() - t0;
  double eta = done ? el / done * (total - done) : 0;
  if (c->o->quiet)
    return;
  if (isatty(2)) {
    char bar[31];
    int w = total ? 30 * done / total : 30;
    for (int i = 0; i < 30; i++)
      bar[i] = i < w ? '#' : '.';
    bar[30] = 0;
    fprintf(stderr, "\r[%s] %2d/%d 2^%-2d %5.0fs ETA %4.0fs %-40.40s", bar, done, total, log2n, el, eta,
            extra);
    if (done == total)
      fprintf(stderr, "\n");
  } else {
    fprintf(stderr, "tgm-tune: %d/%d 2^%d %.1fs (ETA %.0fs) %s\n", done, total, log2n, el, eta, extra);
  }
}

static int cmp_screen(const void *a, const void *b, void *vs) {
  const vstate *s = vs;
  int x = *(const int *)a, y = *(const int *)b;
  double mx = s[x].st.n ? s[x].st.median : 1e30, my = s[y].st.n ? s[y].st.median : 1e30;
  return mx < my ? -1 : mx > my ? 1 : x - y;
}

static vstate *sort_ctx;
static int cmp_screen_q(const void *a, const void *b) { return cmp_screen(a, b, sort_ctx); }

// Tunes one size: returns the chosen result in r.
static int tune_size(ctx *c, vstate *vs, int log2n, int full_screen, int refine, tune_result *r) {
  unsigned long long n = 1ull << log2n;
  int *order = c->order, no = 0;
  double best = 1e30;
  // 1. screen: each live variant at its carried knobs
  for (int v = 0; v < c->m.n_v; v++) {
    vs[v].st.n = 0;
    if (!vs[v].has_set || (!vs[v].alive && !full_screen))
      continue;
    tune_stats st;
    c->stage = "screen";
    TRY("timing", measure_knobs(c, vs[v].best, n, 5, best * 20, &st));
    vs[v].st = st;
    if (st.n && st.median < best)
      best = st.median;
    order[no++] = v;
  }
  sort_ctx = vs;
  qsort(order, (size_t)no, sizeof *order, cmp_screen_q);
  // prune: variants more than 8x off the best stop being screened until the
  // next full screen
  for (int i = 0; i < no; i++)
    vs[order[i]].alive = vs[order[i]].st.n && vs[order[i]].st.median < 8 * best;
  // 2. refine the knobs of the leaders: greedy steps to a faster neighbour
  int top = no < 6 ? no : 6;
  tune_knobs cand[6];
  tune_stats cst[6];
  for (int i = 0; i < top; i++) {
    int v = order[i];
    tune_knobs k = vs[v].best;
    tune_stats kst = vs[v].st;
    for (int step = 0; refine && step < 3; step++) {
      tune_knobs nb[6];
      int nn = tune_neighbours(&c->m.v[v], k, nb), moved = 0;
      tune_knobs bestk = k;
      tune_stats bests = kst;
      for (int j = 0; j < nn; j++) {
        if (!verified(c, nb[j]))
          continue;
        tune_stats st;
        c->stage = "refine";
        TRY("timing", measure_knobs(c, nb[j], n, 5, bests.median * 3, &st));
        if (st.n && tune_compare(&st, &bests) < 0)
          bestk = nb[j], bests = st, moved = 1;
      }
      k = bestk, kst = bests;
      if (!moved)
        break;
    }
    vs[v].best = k;
    cand[i] = k;
    cst[i] = kst;
  }
  if (top == 0) {
    fprintf(stderr, "tgm-tune: no variant left to time at 2^%d\n", log2n);
    return EXIT_TUNE;
  }
  // 3. the finalists (the three best, and any within 15% of the best) are
  // timed twice more with more samples; if the winner then looks slower
  // than another candidate's first timing, that one joins the final too
  double lead = 1e30;
  for (int i = 0; i < top; i++)
    lead = cst[i].median < lead ? cst[i].median : lead;
  tune_stats fin[6];
  int in_final[6] = {0}, w = -1;
  for (int i = 0; i < top; i++) {
    fin[i] = cst[i];
    in_final[i] = i < 3 || cst[i].median <= lead * 1.15;
  }
  int timed[6] = {0};
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < top; i++) {
      if (!in_final[i] || timed[i])
        continue;
      tune_stats a, b2;
      c->stage = "final";
      TRY("timing", measure_knobs(c, cand[i], n, 15, 0, &a));
      TRY("timing", measure_knobs(c, cand[i], n, 15, 0, &b2));
      tune_stats p = a; // pooled: the mean of the two medians, the wider quartiles
      p.median = (a.median + b2.median) / 2;
      p.p25 = fmin(a.p25, b2.p25);
      p.p75 = fmax(a.p75, b2.p75);
      fin[i] = p;
      timed[i] = 1;
    }
    w = -1;
    for (int i = 0; i < top; i++)
      if (in_final[i] && fin[i].n && (w < 0 || fin[i].median < fin[w].median))
        w = i;
    int more = 0;
    for (int i = 0; w >= 0 && i < top; i++)
      if (!in_final[i] && cst[i].n && cst[i].median < fin[w].median)
        in_final[i] = more = 1;
    if (!more)
      break;
  }
  if (w < 0) {
    fprintf(stderr, "tgm-tune: nothing could be timed at 2^%d\n", log2n);
    return EXIT_TUNE;
  }
  // 4. choose. Run-to-run noise (o->noise, measured: bench/README.md) sets
  // what counts as faster: the finalists within it of the fastest median
  // tie, and the stated rule picks among them (tune_prefer). Then the
  // runner-up (the fastest other finalist) against the choice, in
  // interleaved A/B rounds: the margin and its 95% interval. A winner is
  // faster beyond noise only when the interval's low end exceeds the noise.
  double noise = c->o->noise;
  int chosen = w;
  const char *why = "fastest median";
  for (int i = 0; i < top; i++) {
    const char *wy;
    if (i != chosen && in_final[i] && fin[i].n && fin[i].median <= fin[w].median * (1 + noise) &&
        tune_prefer(&c->m, cand[i], cand[chosen], c->has_prev ? &c->prev : NULL, &wy) < 0)
      chosen = i, why = wy;
  }
  int u = -1;
  for (int i = 0; i < top; i++)
    if (i != chosen && in_final[i] && fin[i].n && (u < 0 || fin[i].median < fin[u].median))
      u = i;
  memset(r, 0, sizeof *r);
  snprintf(r->chosen_by, sizeof r->chosen_by, "the only one timed");
  if (u >= 0) {
    enum { ROUNDS = 8 };
    double ta[ROUNDS], tb[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
      tune_stats sa, sb;
      c->stage = "a/b";
      TRY("timing", measure_knobs(c, cand[chosen], n, 7, 0, &sa));
      TRY("timing", measure_knobs(c, cand[u], n, 7, 0, &sb));
      ta[k] = sa.median, tb[k] = sb.median;
    }
    double m, lo, hi;
    tune_margin(ta, tb, ROUNDS, &m, &lo, &hi); // u over the choice
    if (hi < -noise) { // the runner-up is faster beyond noise after all
      int t = chosen;
      chosen = u, u = t;
      tune_margin(tb, ta, ROUNDS, &m, &lo, &hi);
    }
    snprintf(r->chosen_by, sizeof r->chosen_by, "%s%s", lo > noise ? "" : "within noise: ",
             lo > noise ? "faster" : why);
    snprintf(r->runner_up, sizeof r->runner_up, "%s", c->m.v[cand[u].v].id);
    r->ru_block = cand[u].block, r->ru_items = cand[u].items, r->ru_cap = cand[u].cap;
    r->margin = m, r->margin_lo = lo, r->margin_hi = hi;
  }
  c->prev = cand[chosen], c->has_prev = 1;
  r->log2n = log2n;
  snprintf(r->variant, sizeof r->variant, "%s", c->m.v[cand[chosen].v].id);
  r->block = cand[chosen].block, r->items = cand[chosen].items, r->cap = cand[chosen].cap;
  r->us = fin[chosen].median, r->us_p25 = fin[chosen].p25, r->us_p75 = fin[chosen].p75;
  r->gbps = (double)n * c->elem * c->n_in / (r->us * 1e3);
  // 5. CUB, same harness
  r->cub_us = -1;
  if (c->cub || c->cub_run) {
    tune_stats st;
    c->stage = "cub";
    TRY("timing CUB", measure(c, enq_cub, NULL, n, 15, 0, &st));
    keep_timing(c, NULL, n, &st);
    tune_stats st2;
    TRY("timing CUB", measure(c, enq_cub, NULL, n, 15, 0, &st2));
    keep_timing(c, NULL, n, &st2);
    r->cub_us = (st.median + st2.median) / 2;
  }
  return 0;
}

// ------------------------------------------------------------------ options
static void usage(FILE *f) {
  fprintf(f,
          "usage: tgm-tune MANIFEST [options]\n"
          "  --type T          element type (must match the manifest; default: the manifest's)\n"
          "  --op OP           the spectrum's operator: sum, max, min, *, &, ... (must match)\n"
          "  --param NAME=V    the value of a scalar parameter of the spectrum (each one)\n"
          "  --sizes A..B      power-of-two range, e.g. 2^10..2^30 (default)\n"
          "  --budget SECONDS  wall-time target of the whole tune (default 60)\n"
          "  --deterministic   only variants deterministic for floating point\n"
          "  --mode MODE       stream (default) | graph\n"
          "  --db PATH         tuning database (default tgm-tune.db.json)\n"
          "  --report DIR      write report-*.md, plot-*.svg and timings-*.csv (every timing) into DIR\n"
          "  --hot             keep the L2 warm (default: flushed before every sample)\n"
          "  --noise F         run-to-run noise as a fraction (default: stream 0.06, graph 0.035,\n"
          "                    as measured on an H100): a winner is faster\n"
          "                    only by more; within it the rule chooses (deterministic, fewer\n"
          "                    launches, no memset, the neighbour's choice)\n"
          "  --cache DIR       compile cache (default $TGM_CACHE_DIR or ~/.cache/tgm; '' none)\n"
          "  --verify-only     verify, print the excluded settings, time nothing\n"
          "  --prepare         compile the variants and build the CUB baseline into the\n"
          "                    cache, nothing else (several at once: a later tune compiles nothing)\n"
          "  --verify-sizes L  comma-separated sizes for verification\n"
          "  --default-knobs   verify only each variant's default knobs\n"
          "  --backend B       cuda (default: NVRTC + driver API) | hip (hiprtc + HIP, no CUB column)\n"
          "  --quiet           no progress\n"
          "  --help, --version; every option also as --option=VALUE\n"
          "exit status: 0 ok, 1 tuning failed, 2 usage, 3 no GPU driver/device/run-time compiler,\n"
          "4 database\n");
}

static int parse_pow(const char *s, int *out) {
  if (!strncmp(s, "2^", 2)) {
    char *end;
    long v = strtol(s + 2, &end, 10);
    if (end == s + 2 || (*end && *end != '.') || v < 0 || v > 40)
      return -1;
    *out = (int)v;
    return 0;
  }
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || (*end && *end != '.') || v == 0 || (v & (v - 1)))
    return -1;
  int l = 0;
  while ((1ull << l) < v)
    l++;
  *out = l;
  return 0;
}

static int parse_args(int argc, char **argv, options *o) {
  static const struct option longs[] = {
      {"type", required_argument, 0, 't'},      {"op", required_argument, 0, 'o'},
      {"sizes", required_argument, 0, 's'},     {"budget", required_argument, 0, 'b'},
      {"deterministic", no_argument, 0, 'd'},   {"mode", required_argument, 0, 'm'},
      {"db", required_argument, 0, 'D'},        {"report", required_argument, 0, 'r'},
      {"hot", no_argument, 0, 'H'},             {"cache", required_argument, 0, 'c'},
      {"verify-only", no_argument, 0, 'V'},     {"verify-sizes", required_argument, 0, 'S'},
      {"default-knobs", no_argument, 0, 'K'},   {"quiet", no_argument, 0, 'q'},
      {"backend", required_argument, 0, 'B'},   {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, 'v'},
      {"param", required_argument, 0, 'P'},     {"prepare", no_argument, 0, 'p'},
      {"noise", required_argument, 0, 'N'},     {0, 0, 0, 0}};
  o->lo = 10, o->hi = 30, o->budget = 60, o->mode = "stream", o->db = "tgm-tune.db.json";
  o->noise = -1; // the mode's measured noise, below
  int ch;
  while ((ch = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (ch) {
    case 't': o->type = optarg; break;
    case 'o': o->op = optarg; break;
    case 's': {
      const char *dots = strstr(optarg, "..");
      if (!dots || parse_pow(optarg, &o->lo) || parse_pow(dots + 2, &o->hi) || o->lo > o->hi) {
        fprintf(stderr, "tgm-tune: --sizes wants A..B with powers of two, e.g. 2^10..2^30\n");
        return EXIT_USAGE;
      }
      break;
    }
    case 'b':
      o->budget = atof(optarg);
      if (o->budget <= 0) {
        fprintf(stderr, "tgm-tune: --budget wants a positive number of seconds\n");
        return EXIT_USAGE;
      }
      break;
    case 'd': o->deterministic = 1; break;
    case 'm':
      if (strcmp(optarg, "stream") && strcmp(optarg, "graph")) {
        fprintf(stderr, "tgm-tune: --mode is stream or graph\n");
        return EXIT_USAGE;
      }
      o->mode = optarg;
      break;
    case 'D': o->db = optarg; break;
    case 'r': o->report = optarg; break;
    case 'H': o->hot = 1; break;
    case 'c': o->cache = optarg; break;
    case 'V': o->verify_only = 1; break;
    case 'p': o->prepare = o->verify_only = 1; break;
    case 'N': {
      char *end;
      errno = 0;
      o->noise = strtod(optarg, &end);
      if (end == optarg || *end || errno || !(o->noise >= 0 && o->noise < 1)) {
        fprintf(stderr, "tgm-tune: --noise %s: a fraction in [0, 1), e.g. 0.03\n", optarg);
        return EXIT_USAGE;
      }
      break;
    }
    case 'S': {
      char *p = optarg;
      o->n_verify_sizes = 0;
      while (*p) {
        char *end;
        if (o->n_verify_sizes == MAX_VERIFY_SIZES) {
          fprintf(stderr, "tgm-tune: --verify-sizes takes at most %d sizes\n", MAX_VERIFY_SIZES);
          return EXIT_USAGE;
        }
        o->verify_sizes[o->n_verify_sizes++] = strtoull(p, &end, 0);
        if (end == p || (*end && *end != ',')) {
          fprintf(stderr, "tgm-tune: --verify-sizes wants numbers separated by commas\n");
          return EXIT_USAGE;
        }
        p = *end ? end + 1 : end;
      }
      break;
    }
    case 'K': o->all_knobs_default = 1; break;
    case 'P':
      if (o->n_params == TUNE_MAX_PARAMS || !strchr(optarg, '=')) {
        fprintf(stderr, "tgm-tune: --param wants NAME=VALUE (at most %d)\n", TUNE_MAX_PARAMS);
        return EXIT_USAGE;
      }
      o->params[o->n_params++] = optarg;
      break;
    case 'q': o->quiet = 1; break;
    case 'B':
      if (strcmp(optarg, "cuda") && strcmp(optarg, "hip")) {
        fprintf(stderr, "tgm-tune: --backend is cuda or hip\n");
        return EXIT_USAGE;
      }
      o->hip = !strcmp(optarg, "hip");
      break;
    case 'h': usage(stdout); exit(0);
    case 'v': printf("tgm-tune %s\n", TGM_VERSION); exit(0);
    default: usage(stderr); return EXIT_USAGE;
    }
  }
  if (optind != argc - 1) {
    usage(stderr);
    return EXIT_USAGE;
  }
  o->manifest = argv[optind];
  // run-to-run noise on the H100 (bench/results/2026-11-24-stability): in
  // stream mode the 95th percentile of one setting's time between two tunes
  // (6.1%); in graph mode the largest margin that still flipped between two
  // tunes with a 2% floor (3.4%)
  if (o->noise < 0)
    o->noise = !strcmp(o->mode, "graph") ? 0.035 : 0.06;
  size_t len = 1;
  for (int i = 0; i < argc; i++)
    len += strlen(argv[i]) + 1;
  o->command = malloc(len);
  if (!o->command)
    return EXIT_TUNE;
  o->command[0] = 0;
  for (int i = 0, at = 0; i < argc; i++)
    at += sprintf(o->command + at, "%s%s", i ? " " : "", argv[i]);
  return 0;
}

static void *load_cub(void) {
  const char *env = getenv("TGM_CUB_LIB");
  if (env)
    return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 64);
  if (len <= 0)
    return NULL;
  exe[len] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return NULL;
  strcpy(slash + 1, "libtgm_cub.so");
  return dlopen(exe, RTLD_NOW | RTLD_LOCAL);
}

// ------------------------------------------------------------------- main
// Everything the run allocated, on every way out (so a leak checker finds
// nothing lost: valgrind --error-exitcode is usable on tgm-tune).
static void ctx_free(ctx *c) {
  tune_cub_free(c->cub_build);
  free(c->cub_note_buf);
  free(c->timings);
  if (c->b) {
    for (int i = 0; i < c->n_mods; i++)
      tgm_module_unload(c->mods[i]);
    tgm_module_unload(c->flush_mod);
    tgm_module_unload(c->ref_mod);
    tgm_devptr bufs[] = {c->pool, c->out, c->temp, c->flush, c->cub_temp, c->ref_out};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
      tgm_free(c->b, bufs[i]);
    for (int i = 0; i < 2 * MAXSAMPLES; i++)
      if (c->ev[i])
        tgm_event_destroy(c->b, c->ev[i]);
    if (c->s)
      tgm_stream_destroy(c->b, c->s);
    tgm_backend_close(c->b);
  }
  tune_db_close(c->db);
  tune_manifest_free(&c->m);
  for (int i = 0; i < c->n_excluded; i++)
    free(c->excluded[i]);
  free(c->excluded);
  free(c->mods);
  free(c->usable);
  free(c->refs);
  free(c->order);
  free(c->sets);
  free(c->src);
  free(c->src_path);
  free(c->vs);
  free(c->rows);
  free(c);
}

// DIR/timings-SPECTRUM-TYPE-MODE.csv: every timing of this run, in order.
static int write_timings(ctx *c, const char *dir, const tune_key *key) {
  char path[4096];
  snprintf(path, sizeof path, "%s/timings-%s-%s-%s.csv", dir, c->m.spectrum, key->type, key->mode);
  FILE *f = fopen(path, "w");
  if (!f) {
    tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(errno));
    return -1;
  }
  fprintf(f, "n,stage,variant,block,items,grid_cap_per_sm,samples,median_us,p25_us,p75_us,min_us,max_us\n");
  for (int i = 0; i < c->n_timings; i++) {
    const tune_timing *t = &c->timings[i];
    fprintf(f, "%llu,%s,%s,%u,%u,%u,%d,%.4f,%.4f,%.4f,%.4f,%.4f\n", t->n, t->stage,
            t->k.v < 0 ? "CUB" : c->m.v[t->k.v].id, t->k.block, t->k.items, t->k.cap, t->st.n,
            t->st.median, t->st.p25, t->st.p75, t->st.min, t->st.max);
  }
  if (fclose(f) != 0) {
    tgm__fail(TGM_ERR_IO, "%s: cannot write", path);
    return -1;
  }
  return 0;
}

static int run(ctx *c, options *o);

// --param NAME=VALUE for each of the spectrum's scalar parameters, typed as
// the manifest says; their text goes into the database key.
static int read_params(ctx *c, options *o) {
  int given[TUNE_MAX_PARAMS] = {0};
  for (int i = 0; i < o->n_params; i++) {
    const char *eq = strchr(o->params[i], '=');
    int k = -1;
    for (int q = 0; eq && q < c->m.n_params; q++)
      if (strlen(c->m.param_names[q]) == (size_t)(eq - o->params[i]) &&
          !strncmp(o->params[i], c->m.param_names[q], (size_t)(eq - o->params[i])))
        k = q;
    if (k < 0) {
      fprintf(stderr, "tgm-tune: --param %s: %s has no parameter of that name%s\n", o->params[i],
              c->m.spectrum, c->m.n_params ? "" : " (it takes none)");
      return EXIT_USAGE;
    }
    char *end;
    errno = 0;
    tune_type t = c->m.param_types[k];
    uint64_t bits = 0;
    if (t == TUNE_F32 || t == TUNE_F64) {
      double d = strtod(eq + 1, &end);
      float f = (float)d;
      if (t == TUNE_F32)
        memcpy(&bits, &f, 4);
      else
        memcpy(&bits, &d, 8);
    } else if (t == TUNE_I32 || t == TUNE_I64) {
      long long v = strtoll(eq + 1, &end, 0);
      if (t == TUNE_I32 && (v < INT32_MIN || v > INT32_MAX))
        errno = ERANGE;
      int32_t v32 = (int32_t)v;
      if (t == TUNE_I32)
        memcpy(&bits, &v32, 4);
      else
        memcpy(&bits, &v, 8);
    } else {
      unsigned long long v = strtoull(eq + 1, &end, 0);
      if ((t == TUNE_U32 && v > UINT32_MAX) || eq[1] == '-')
        errno = ERANGE;
      uint32_t v32 = (uint32_t)v;
      if (t == TUNE_U32)
        memcpy(&bits, &v32, 4);
      else
        memcpy(&bits, &v, 8);
    }
    if (end == eq + 1 || *end || errno) {
      fprintf(stderr, "tgm-tune: --param %s: not a %s value\n", o->params[i], tune_type_name(t));
      return EXIT_USAGE;
    }
    if (given[k]++) {
      fprintf(stderr, "tgm-tune: --param %s given twice\n", c->m.param_names[k]);
      return EXIT_USAGE;
    }
    c->param_vals[k] = bits;
  }
  size_t at = 0;
  for (int q = 0; q < c->m.n_params; q++) {
    if (!given[q]) {
      fprintf(stderr, "tgm-tune: %s takes the parameter '%s' (%s): give its value with --param %s=VALUE\n",
              c->m.spectrum, c->m.param_names[q], tune_type_name(c->m.param_types[q]),
              c->m.param_names[q]);
      return EXIT_USAGE;
    }
    for (int i = 0; i < o->n_params; i++)
      if (!strncmp(o->params[i], c->m.param_names[q], strlen(c->m.param_names[q])) &&
          o->params[i][strlen(c->m.param_names[q])] == '=') {
        int w = snprintf(c->param_text + at, sizeof c->param_text - at, "%s%s", q ? "," : "", o->params[i]);
        if (w < 0 || (size_t)w >= sizeof c->param_text - at) {
          fprintf(stderr, "tgm-tune: the --param values are longer than %zu characters\n",
                  sizeof c->param_text - 1);
          return EXIT_USAGE;
        }
        at += (size_t)w;
      }
  }
  return 0;
}

int main(int argc, char **argv) {
  options o = {0};
  int rc = parse_args(argc, argv, &o);
  if (!rc) {
    ctx *c = calloc(1, sizeof *c);
    c->o = &o;
    rc = c ? run(c, &o) : EXIT_TUNE;
    if (c)
      ctx_free(c);
  }
  free(o.command);
  return rc;
}

// The pipeline; every file input (manifest, --report folder, database, the
// CUDA or HIP source) is checked before the GPU is opened.
static int run(ctx *c, options *o) {
  int rc;
  c->graph = !strcmp(o->mode, "graph");
  if (tune_manifest_read(o->manifest, &c->m) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_USAGE;
  }
  if (!o->type)
    o->type = c->m.type;
  const char *op_name = !strcmp(c->m.op, "+") ? "sum" : c->m.op;
  if (!o->op)
    o->op = op_name;
  if (strcmp(o->type, c->m.type) || strcmp(o->op, op_name)) {
    fprintf(stderr, "tgm-tune: %s is %s %s, not --type %s --op %s\n", o->manifest, op_name, c->m.type,
            o->type, o->op);
    return EXIT_USAGE;
  }
  // any spectrum: checked against its own scalar codelet (the reference kernel)
  if (!c->m.has_reference) {
    fprintf(stderr, "tgm-tune: %s has no reference kernel (an older tgm-gen made it); generate it "
                    "again\n", o->manifest);
    return EXIT_USAGE;
  }
  c->elem = tune_type_size(c->m.elem);
  c->acc_size = tune_type_size(c->m.acc);
  c->res_size = tune_type_size(c->m.res);
  c->n_in = c->m.n_inputs;
  if ((rc = read_params(c, o)))
    return rc;

  // the report folder, made now: a path that cannot be one stops us before any work
  if (o->report && mkdir(o->report, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "tgm-tune: --report %s: %s\n", o->report, strerror(errno));
    return EXIT_USAGE;
  }
  struct stat rst;
  if (o->report && (stat(o->report, &rst) != 0 || !S_ISDIR(rst.st_mode))) {
    fprintf(stderr, "tgm-tune: --report %s: not a folder\n", o->report);
    return EXIT_USAGE;
  }

  // the database (before any work: a bad file stops us here)
  tgm_status s;
  if (!o->verify_only) {
    s = tune_db_open(o->db, &c->db);
    if (s != TGM_OK) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_DB;
    }
  }
  // the source the variants are compiled from
  if ((rc = read_source(c)))
    return rc;

  // the device, once every file input is known to be good
  s = tgm_backend_open(o->hip ? TGM_BACKEND_HIP : TGM_BACKEND_CUDA, 0, NULL, &c->b);
  if (s == TGM_ERR_NO_DRIVER || s == TGM_ERR_NO_DEVICE || s == TGM_ERR_NO_COMPILER) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_NO_GPU;
  }
  if (s != TGM_OK)
    return gpu_fail("opening the GPU", s);
  c->info = tgm_backend_info(c->b);
  tune_key key = {0};
  if (!o->verify_only &&
      tune_key_make(&key, c->info, o->type, o->op, o->mode, c->m.source_hash, o->deterministic,
                    o->hot) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_USAGE;
  }
  snprintf(key.params, sizeof key.params, "%s", c->param_text); // both 256: never cut
  tune_db *db = c->db;
  if (!o->quiet)
    fprintf(stderr, "tgm-tune: %s (%s, %d SMs, L2 %zu MB), driver %d, %s; %s %s, %s mode\n",
            c->info->name, c->info->arch, c->info->sm_count, c->info->l2_bytes >> 20,
            c->info->driver_version, c->info->compiler, o->op, o->type, o->mode);
  if (!o->quiet && !c->m.plain)
    fprintf(stderr, "tgm-tune: %s%s%s\n", c->m.text ? c->m.text : c->m.spectrum,
            c->param_text[0] ? ", with " : "", c->param_text);
  double t_start = now();
  // the CUB baseline builds (nvcc) while the variants compile and verify
  if ((!o->verify_only || o->prepare) && !o->hip && c->m.cub_source &&
      tune_cub_start(c->m.dir, c->m.cub_source, c->m.cuda_source, c->info->cc_major,
                     c->info->cc_minor, o->cache, &c->cub_build) != TGM_OK)
    c->cub_note_buf = strdup(tgm_last_error());
  if ((rc = compile_all(c)))
    return rc;
  if (o->prepare) {
    tune_cub_fn fn = NULL;
    if (c->cub_build && tune_cub_finish(c->cub_build, &fn) != TGM_OK)
      fprintf(stderr, "tgm-tune: the CUB baseline: %s\n", tgm_last_error());
    if (!o->quiet)
      printf("tgm-tune: %s prepared in %.1f s: the variants%s\n", o->manifest, now() - t_start,
             fn ? " and the CUB baseline" : "");
    return 0;
  }

  // buffers
  unsigned long long vmax = 1ull << 21;
  for (int i = 0; i < o->n_verify_sizes; i++)
    vmax = o->verify_sizes[i] + 8 > vmax ? o->verify_sizes[i] + 8 : vmax;
  unsigned long long nmax = o->verify_only ? vmax : (1ull << o->hi) > vmax ? 1ull << o->hi : vmax;
  c->temp_bytes = (size_t)(nmax / 128 + 2) * c->acc_size + 64;
  c->flush_bytes = c->info->l2_bytes * 2 > (32u << 20) ? c->info->l2_bytes * 2 : (32u << 20);
  c->pool_bytes = o->verify_only ? 0 : (size_t)(1ull << o->hi) * c->elem;
  if (c->pool_bytes < (256u << 20) && !o->verify_only)
    c->pool_bytes = 256u << 20;
  TRY("creating a stream", tgm_stream_create(c->b, &c->s));
  TRY("allocating temp", tgm_malloc(c->b, c->temp_bytes, &c->temp));
  TRY("allocating out", tgm_malloc(c->b, (size_t)2 * SLOTS * c->res_size, &c->out));
  TRY("allocating the reference's out", tgm_malloc(c->b, 3 * c->res_size, &c->ref_out));
  TRY("zeroing temp", tgm_memset(c->b, c->temp, 0, c->temp_bytes, c->s));
  for (int i = 0; i < 2 * MAXSAMPLES; i++)
    TRY("creating events", tgm_event_create(c->b, &c->ev[i]));

  // every setting of every usable variant (room for all: at most
  // TUNE_MAX_KNOBS^3 per variant)
  size_t max_sets = 0;
  for (int v = 0; v < c->m.n_v; v++)
    max_sets += (size_t)c->m.v[v].n_blocks * (size_t)c->m.v[v].n_items *
                (size_t)(c->m.v[v].n_caps ? c->m.v[v].n_caps : 1);
  c->sets = malloc((max_sets ? max_sets : 1) * sizeof *c->sets);
  if (!c->sets) {
    fprintf(stderr, "tgm-tune: out of host memory for %zu settings\n", max_sets);
    return EXIT_TUNE;
  }
  for (int v = 0; v < c->m.n_v; v++) {
    if (!c->usable[v])
      continue;
    if (o->all_knobs_default)
      c->sets[c->n_sets++] = tune_default(&c->m.v[v], v);
    else
      c->n_sets += tune_settings(&c->m.v[v], v, c->sets + c->n_sets, (int)(max_sets - (size_t)c->n_sets));
  }
  int n_settings = c->n_sets;
  double tv = now();
  unsigned long long vsizes[2 * MAX_VERIFY_SIZES];
  int voffs[2 * MAX_VERIFY_SIZES], nvs = 0;
  if (o->n_verify_sizes) {
    for (int i = 0; i < o->n_verify_sizes; i++)
      vsizes[nvs] = o->verify_sizes[i], voffs[nvs++] = 0;
    for (int i = 0; i < o->n_verify_sizes; i++) // again, misaligned input
      if (o->verify_sizes[i] >= 2 && o->verify_sizes[i] <= (1u << 24))
        vsizes[nvs] = o->verify_sizes[i], voffs[nvs++] = 1 + i % 3;
  } else {
    static const unsigned long long def[] = {0, 1, 33, 1000, 4097, 65537, (1u << 20) + 3};
    static const int off[] = {0, 0, 0, 1, 3, 0, 1};
    for (int i = 0; i < 7; i++)
      vsizes[nvs] = def[i], voffs[nvs++] = off[i];
  }
  if ((rc = verify(c, c->sets, &c->n_sets, vsizes, voffs, nvs)))
    return rc;
  if (!o->quiet)
    fprintf(stderr, "tgm-tune: verified %d settings in %.1f s: %d correct, %d excluded\n", n_settings,
            now() - tv, c->n_sets, c->n_excluded);
  if (o->verify_only) {
    for (int i = 0; i < c->n_excluded; i++)
      printf("excluded: %s\n", c->excluded[i]);
    printf("verified %d settings of %s: %d wrong\n", n_settings, o->manifest, c->n_excluded);
    return c->n_excluded ? EXIT_TUNE : 0;
  }
  if (c->n_sets == 0) {
    fprintf(stderr, "tgm-tune: no variant computed the right result\n");
    return EXIT_TUNE;
  }

  // timing buffers and CUB
  TRY("allocating the input pool", tgm_malloc(c->b, c->pool_bytes * (size_t)c->n_in, &c->pool));
  c->in_gap = c->pool_bytes; // input k: pool_bytes after input k - 1
  TRY("allocating the L2 flush buffer", tgm_malloc(c->b, c->flush_bytes, &c->flush));
  TRY("clearing the L2 flush buffer", tgm_memset(c->b, c->flush, 0, c->flush_bytes, c->s));
  if ((rc = compile_flush(c)))
    return rc;
  {
    // timing data: random, not zeros (a host pattern, replicated on the device)
    size_t chunk = 1u << 24;
    void *host = malloc(chunk);
    fill_host(c, host, chunk / c->elem);
    size_t all = c->pool_bytes * (size_t)c->n_in;
    for (size_t off = 0; off < all; off += chunk) {
      if (off && off % c->pool_bytes == 0)
        fill_host(c, host, chunk / c->elem); // another input: other values
      TRY("filling the input pool",
          tgm_copy_to_device(c->b, c->pool + off, host, all - off < chunk ? all - off : chunk));
    }
    free(host);
  }
  // CUB: the spectrum's baseline, else (plain sum, max, min) libtgm_cub.so
  if (c->cub_build) {
    if (tune_cub_finish(c->cub_build, &c->cub_run) != TGM_OK) {
      free(c->cub_note_buf);
      c->cub_note_buf = strdup(tgm_last_error());
    }
  }
  int plain_cub = c->m.plain && (!strcmp(o->op, "sum") || !strcmp(o->op, "max") || !strcmp(o->op, "min"));
  void *cublib = o->hip || c->cub_run || !plain_cub ? NULL : load_cub(); // hipCUB: not yet
  if (cublib)
    c->cub = (int (*)(const char *, const char *, const void *, unsigned long long, void *, void *,
                      size_t *, void *))dlsym(cublib, "tgm_cub_reduce");
  if (c->cub_run || c->cub) {
    size_t need = 0;
    if (cub_call(c, 0, 1ull << o->hi, 0, 0, &need) == 0) {
      c->cub_temp_bytes = need;
      TRY("allocating CUB temp", tgm_malloc(c->b, need ? need : 16, &c->cub_temp));
    } else {
      c->cub_run = NULL, c->cub = NULL;
      c->cub_note = "CUB's temp-size query failed";
    }
  }
  if (c->cub || c->cub_run) {
    // CUB is checked like a variant: the first 65537 elements of the input
    // pool (random, each input at c->in_gap), poisoned output
    unsigned long long n = 65537;
    char want[3 * 16], got[16];
    tgm_devptr din = c->pool;
    TRY("running the reference", run_reference(c, din, n, want));
    TRY("poisoning", tgm_memset(c->b, c->out, 0xA5, c->res_size, c->s));
    size_t bytes = c->cub_temp_bytes;
    int e = cub_call(c, din, n, c->out, c->cub_temp, &bytes);
    TRY("running CUB", tgm_stream_sync(c->b, c->s));
    TRY("reading CUB's result", tgm_copy_to_host(c->b, got, c->out, c->res_size));
    if (e != 0 || !same(c, got, want)) {
      char g[64], w[64];
      value_str(c, got, g, sizeof g);
      value_str(c, want, w, sizeof w);
      fprintf(stderr, "tgm-tune: CUB gave %s for %s, want %s (error %d): no CUB column\n", g,
              "65537 elements", w, e);
      c->cub = NULL, c->cub_run = NULL;
    }
  } else if (c->cub_note)
    ; // said above
  else if (o->hip)
    c->cub_note = "no hipCUB baseline, so far";
  else if (c->cub_note_buf)
    c->cub_note = c->cub_note_buf;
  else if (!c->m.cub_source && !plain_cub)
    c->cub_note = "the manifest names no CUB baseline (an older tgm-gen made it)";
  else
    c->cub_note = "no libtgm_cub.so beside tgm-tune (or $TGM_CUB_LIB)";
  if (!c->cub && !c->cub_run && !c->cub_note)
    c->cub_note = "CUB gave a wrong result (above)";
  if (!o->quiet && c->cub_note)
    fprintf(stderr, "tgm-tune: no CUB column: %s\n", c->cub_note);

  // per-variant search state
  vstate *vs = c->vs = calloc((size_t)c->m.n_v, sizeof *vs);
  c->order = calloc((size_t)c->m.n_v, sizeof *c->order);
  if (!vs || !c->order) {
    fprintf(stderr, "tgm-tune: out of host memory\n");
    return EXIT_TUNE;
  }
  for (int i = 0; i < c->n_sets; i++) {
    int v = c->sets[i].v;
    if (!vs[v].has_set)
      vs[v].best = c->sets[i];
    vs[v].has_set = 1, vs[v].alive = 1;
  }
  for (int v = 0; v < c->m.n_v; v++)
    if (vs[v].has_set && verified(c, tune_default(&c->m.v[v], v)))
      vs[v].best = tune_default(&c->m.v[v], v);

  int total = o->hi - o->lo + 1;
  tune_result *rows = c->rows = calloc((size_t)total, sizeof *rows);
  double t0 = now();
  int resumed = 0;
  for (int l = o->lo; l <= o->hi; l++) {
    tune_result *r = &rows[l - o->lo];
    if (tune_db_get(db, &key, l, r)) {
      for (int v = 0; v < c->m.n_v; v++) // the neighbour of the next size
        if (!strcmp(c->m.v[v].id, r->variant)) {
          c->prev = (tune_knobs){.v = v, .block = r->block, .items = r->items, .cap = r->cap};
          c->has_prev = 1;
        }
      resumed++;
      progress(c, l - o->lo + 1, total, l, t0, "resumed from the database");
      continue;
    }
    double el = now() - t_start, left = o->budget - el;
    int refine = left > (o->hi - l + 1) * 0.5;
    // every variant again every 4th size, while a run costs little; in
    // between (and above 256 MB) only those within 8x of the leader
    int full = (l - o->lo) % 4 == 0 && ((size_t)1 << l) * c->elem <= (256u << 20);
    if ((rc = tune_size(c, vs, l, full, refine, r)))
      return rc;
    s = tune_db_put(db, &key, r);
    if (s == TGM_ERR_INVALID) { // a NaN or infinite time: said, never written
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      continue;
    }
    if (s != TGM_OK) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_DB;
    }
    char msg[128];
    snprintf(msg, sizeof msg, "%s %.2f us (CUB %.2f)", r->variant, r->us, r->cub_us);
    progress(c, l - o->lo + 1, total, l, t0, msg);
  }
  if (tune_db_finish(db, &key) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_DB;
  }
  double elapsed = now() - t_start;
  tune_report rep = {&key, rows, total, o->command, (const char *const *)c->excluded, c->n_excluded,
                     elapsed, c->compile_seconds, 0, n_settings, (int)c->measured, c->m.spectrum,
                     c->m.plain ? NULL : c->m.text, c->cub_note,
                     c->cub_run ? c->m.cub_source : c->cub ? "libtgm_cub.so (cub::DeviceReduce::Sum, Max, Min)" : NULL,
                     o->noise};
  for (int v = 0; v < c->m.n_v; v++)
    rep.n_variants += c->usable[v];
  printf("tgm-tune: %s %s (%s), %s mode, on %s: %.1f s (compile %.1f s)%s\n", c->m.spectrum, o->type, o->op, o->mode,
         c->info->name, elapsed, c->compile_seconds, resumed ? ", some sizes resumed" : "");
  tune_report_table(stdout, &rep);
  if (c->n_excluded)
    printf("%d settings failed verification (see the report)\n", c->n_excluded);
  if (o->report) {
    if (tune_report_write(o->report, &rep) != TGM_OK || write_timings(c, o->report, &key) != 0) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_TUNE;
    }
  }
  return 0;
}

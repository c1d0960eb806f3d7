// reduce.c — tgm_reduce: libtgm's run-time path. The plan (which variant
// for which n) is plan.c's; this file holds the context, compiling on first
// use, the temp storage and the launches.
//
// The launches follow templates/launch.tpl as tgm-tune does (runtime/tune/
// main.c: grid_of, main_grid, enqueue are static there, so the small pieces
// are re-implemented here): the grid per launch rule (`one`, `tiles`,
// `tiles_vec` over the 16-byte aligned body, `strided*` capped at
// grid_cap_per_sm x SMs, at most 2^31-1), pass 2 with in = partials and
// n = grid. One difference in the temp layout: the last-block counter is at
// the START of the context's temp buffer (16 bytes) and the partials follow
// it, so the counter has one fixed place for every variant, size and op.
// It is zeroed once when the buffer is allocated and every kernel leaves it
// zero; at the manifest's place (after the partials) a larger grid's
// partials of an earlier call would overwrite a smaller grid's counter.
// The size is the embedded headers' rule (templates/embed_temp.tpl, one
// text for both): the partials and the counter's 16 bytes, never 0; the
// buffer only grows, so it serves every smaller n.
#include "plan.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embed_temp.tpl" // tgm_temp_need

char *tgm__read_file(const char *path, size_t *len);

#ifndef TGM_REDUCE_INSTALL_DATA_DIR
#define TGM_REDUCE_INSTALL_DATA_DIR ""
#endif
#ifndef TGM_REDUCE_SOURCE_DATA_DIR
#define TGM_REDUCE_SOURCE_DATA_DIR ""
#endif

enum { N_OPS = 3, N_TYPES = 5, COUNTER_BYTES = 16 };

typedef struct {
  int v;
  unsigned block;
  tgm_module *mod;
  tgm_function pos[4], zero[2];
} rd_kernel;

typedef struct {
  int loaded;
  tune_manifest m;
  rd_plan plan;
  rd_kernel *k;
  int nk, capk;
} rd_opstate;

struct tgm_ctx {
  tgm_backend *b;
  const tgm_device_info *info;
  rd_device dev;
  char *data_dir;    // NULL: none found
  char data_why[1024];
  char *cache_dir;   // NULL: libtgm's default
  json_t *db;
  char db_why[1024];
  rd_opstate ops[N_OPS][N_TYPES];
  tgm_devptr temp;
  size_t temp_bytes;
};

// --------------------------------------------------------------- options
static int is_dir(const char *p) {
  struct stat st;
  return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *exe_data_dir(void) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0)
    return NULL;
  exe[len] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return NULL;
  *slash = 0;
  size_t n = strlen(exe) + 64;
  char *d = malloc(n);
  if (d)
    snprintf(d, n, "%s/../share/tgm/generated", exe);
  return d;
}

static tgm_status find_data_dir(tgm_ctx *c, const char *opt) {
  if (opt) {
    if (!is_dir(opt))
      return tgm__fail(TGM_ERR_INVALID, "tgm_ctx_create: data_dir %s is not a folder", opt);
    c->data_dir = strdup(opt);
    return TGM_OK;
  }
  const char *env = getenv("TGM_DATA_DIR");
  if (env && *env) {
    c->data_dir = strdup(env);
    return TGM_OK;
  }
  char *exe = exe_data_dir();
  const char *cands[] = {exe, TGM_REDUCE_INSTALL_DATA_DIR, TGM_REDUCE_SOURCE_DATA_DIR};
  for (int i = 0; i < 3; i++)
    if (is_dir(cands[i])) {
      c->data_dir = strdup(cands[i]);
      break;
    }
  if (!c->data_dir)
    snprintf(c->data_why, sizeof c->data_why,
             "no data folder with the generated manifests: set TGM_DATA_DIR or "
             "tgm_ctx_options.data_dir (looked in %s, %s, %s)",
             exe ? exe : "?", *TGM_REDUCE_INSTALL_DATA_DIR ? TGM_REDUCE_INSTALL_DATA_DIR : "-",
             *TGM_REDUCE_SOURCE_DATA_DIR ? TGM_REDUCE_SOURCE_DATA_DIR : "-");
  free(exe);
  return TGM_OK;
}

static char *default_db_path(void) {
  const char *env = getenv("TGM_DB");
  if (env)
    return strdup(env);
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char buf[PATH_MAX];
  if (xdg && *xdg)
    snprintf(buf, sizeof buf, "%s/tgm/tgm-tune.db.json", xdg);
  else if (home && *home)
    snprintf(buf, sizeof buf, "%s/.cache/tgm/tgm-tune.db.json", home);
  else
    return strdup("");
  return strdup(buf);
}

// ------------------------------------------------------------ the context
tgm_status tgm_ctx_create(tgm_ctx **out, const tgm_ctx_options *opt) {
  if (!out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_ctx_create: out is NULL");
  *out = NULL;
  tgm_ctx_options def = {0};
  if (!opt)
    opt = &def;
  if (opt->device < 0)
    return tgm__fail(TGM_ERR_INVALID, "tgm_ctx_create: device %d", opt->device);
  tgm_ctx *c = calloc(1, sizeof *c);
  if (!c)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  tgm_status s = find_data_dir(c, opt->data_dir);
  if (s == TGM_OK && opt->cache_dir && !(c->cache_dir = strdup(opt->cache_dir)))
    s = tgm__fail(TGM_ERR_MEMORY, "out of memory");
  if (s == TGM_OK) {
    // the database first: a bad file is reported on any machine
    char *path = opt->db_path ? strdup(opt->db_path) : default_db_path();
    s = path ? rd_db_load(path, &c->db, c->db_why, sizeof c->db_why)
             : tgm__fail(TGM_ERR_MEMORY, "out of memory");
    free(path);
  }
  if (s == TGM_OK)
    s = tgm_backend_open(TGM_BACKEND_CUDA, opt->device, NULL, &c->b);
  if (s != TGM_OK) {
    tgm_ctx_destroy(c);
    return s;
  }
  c->info = tgm_backend_info(c->b);
  c->dev = (rd_device){c->info->name, c->info->cc_major, c->info->cc_minor, c->info->sm_count,
                       c->info->driver_version, c->info->compiler, opt->deterministic != 0};
  *out = c;
  return TGM_OK;
}

void tgm_ctx_destroy(tgm_ctx *c) {
  if (!c)
    return;
  for (int o = 0; o < N_OPS; o++)
    for (int t = 0; t < N_TYPES; t++) {
      rd_opstate *st = &c->ops[o][t];
      for (int i = 0; i < st->nk; i++)
        tgm_module_unload(st->k[i].mod);
      free(st->k);
      if (st->loaded) {
        rd_plan_free(&st->plan);
        tune_manifest_free(&st->m);
      }
    }
  if (c->temp)
    tgm_free(c->b, c->temp);
  tgm_backend_close(c->b);
  json_decref(c->db);
  free(c->data_dir);
  free(c->cache_dir);
  free(c);
}

// ------------------------------------------------------- (op, type) state
static tgm_status load_op(tgm_ctx *c, int op, int type, rd_opstate **out) {
  rd_opstate *st = &c->ops[op][type];
  *out = st;
  if (st->loaded)
    return TGM_OK;
  const char *on = rd_op_name(op), *tn = rd_type_name(type);
  if (!c->data_dir)
    return tgm__fail(TGM_ERR_NOT_FOUND, "%s", c->data_why);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s_%s.json", c->data_dir, on, tn);
  if (access(path, R_OK) != 0)
    return tgm__fail(TGM_ERR_NOT_FOUND,
                     "no manifest %s (make it with: tgm-gen --type=%s -o %s codelets/%s.tgm)", path,
                     tn, c->data_dir, on);
  tgm_status s = tune_manifest_read(path, &st->m);
  if (s != TGM_OK)
    return s;
  static const char *const mops[] = {"+", "max", "min"};
  if (strcmp(st->m.type, tn) || strcmp(st->m.op, mops[op]) || !st->m.cuda_source || !st->m.plain) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: type %s, op %s%s%s; expected a plain %s %s", path,
                  st->m.type, st->m.op, st->m.cuda_source ? "" : ", no CUDA source",
                  st->m.plain ? "" : ", not a plain fold", tn, mops[op]);
    tune_manifest_free(&st->m);
    return s;
  }
  s = rd_plan_make(&st->m, on, c->db, c->db_why, &c->dev, &st->plan);
  if (s != TGM_OK) {
    tune_manifest_free(&st->m);
    return s;
  }
  st->loaded = 1;
  return TGM_OK;
}

static rd_kernel *find_kernel(rd_opstate *st, int v, unsigned block) {
  for (int i = 0; i < st->nk; i++)
    if (st->k[i].v == v && st->k[i].block == block)
      return &st->k[i];
  return NULL;
}

// Compiles the kernels of n (variant, block) pairs in parallel: one NVRTC
// job each, holding the positive-n launches and the n = 0 ones.
static tgm_status compile(tgm_ctx *c, rd_opstate *st, const int *vs, const unsigned *blocks, int n) {
  if (!n)
    return TGM_OK;
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", st->m.dir, st->m.cuda_source);
  char *src = tgm__read_file(path, NULL);
  if (!src)
    return tgm__fail(TGM_ERR_IO, "cannot read the CUDA source %s", path);
  if (st->nk + n > st->capk) {
    int cap = st->nk + n + 8;
    rd_kernel *k = realloc(st->k, (size_t)cap * sizeof *k);
    if (!k) {
      free(src);
      return tgm__fail(TGM_ERR_MEMORY, "out of memory");
    }
    st->k = k;
    st->capk = cap;
  }
  tgm_compile_job *jobs = calloc((size_t)n, sizeof *jobs);
  tgm_compile_result *res = calloc((size_t)n, sizeof *res);
  char *(*names)[6] = calloc((size_t)n, sizeof *names);
  int(*idx)[6] = calloc((size_t)n, sizeof *idx); // launch -> name index (pos 0..3, zero 4..5)
  tgm_status s = jobs && res && names && idx ? TGM_OK : tgm__fail(TGM_ERR_MEMORY, "out of memory");
  for (int j = 0; s == TGM_OK && j < n; j++) {
    const tune_variant *v = &st->m.v[vs[j]];
    int nn = 0;
    for (int l = 0; l < v->n_pos + v->n_zero; l++) {
      const tune_launch *ln = l < v->n_pos ? &v->pos[l] : &v->zero[l - v->n_pos];
      int found = tune_intern_name(names[j], &nn, tune_name_expr(ln->name_expr, blocks[j]));
      idx[j][l < v->n_pos ? l : 4 + l - v->n_pos] = found;
    }
    jobs[j].source = src;
    jobs[j].source_name = st->m.cuda_source;
    jobs[j].names = (const char *const *)names[j];
    jobs[j].n_names = nn;
  }
  if (s == TGM_OK) {
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    tgm_compile(c->b, jobs, n, threads > 0 ? (int)(threads < n ? threads : n) : 1, c->cache_dir,
                res);
  }
  for (int j = 0; s == TGM_OK && j < n; j++) {
    const tune_variant *v = &st->m.v[vs[j]];
    if (res[j].status != TGM_OK) {
      s = tgm__fail(res[j].status, "compiling %s (block %u) of %s: %.700s", v->id, blocks[j], path,
                    res[j].log && *res[j].log ? res[j].log : tgm_last_error());
      break;
    }
    rd_kernel k = {vs[j], blocks[j], NULL, {0}, {0}};
    s = tgm_module_load(c->b, &res[j], &k.mod);
    for (int l = 0; s == TGM_OK && l < v->n_pos; l++)
      s = tgm_module_function(k.mod, idx[j][l], &k.pos[l]);
    for (int l = 0; s == TGM_OK && l < v->n_zero; l++)
      s = tgm_module_function(k.mod, idx[j][4 + l], &k.zero[l]);
    if (s != TGM_OK) {
      if (k.mod)
        tgm_module_unload(k.mod);
      break;
    }
    st->k[st->nk++] = k;
  }
  for (int j = 0; j < n; j++) {
    if (res)
      tgm_compile_result_free(&res[j]);
    for (int x = 0; names && x < 6; x++)
      free(names[j][x]);
  }
  free(jobs);
  free(res);
  free(names);
  free(idx);
  free(src);
  return s;
}

static tgm_status kernel_for(tgm_ctx *c, rd_opstate *st, const rd_bucket *b, rd_kernel **out) {
  *out = find_kernel(st, b->v, b->block);
  if (*out)
    return TGM_OK;
  tgm_status s = compile(c, st, &b->v, &b->block, 1);
  if (s == TGM_OK)
    *out = find_kernel(st, b->v, b->block);
  return s;
}

tgm_status tgm_reduce_prepare(tgm_ctx *c, tgm_op op, tgm_type type) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_prepare: ctx is NULL");
  if (!rd_op_name((int)op) || !rd_type_name((int)type))
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_prepare: unknown op %d or type %d", (int)op,
                     (int)type);
  rd_opstate *st;
  tgm_status s = load_op(c, (int)op, (int)type, &st);
  if (s != TGM_OK)
    return s;
  int n = 0, cap = st->plan.n + 1;
  int *vs = calloc((size_t)cap, sizeof *vs);
  unsigned *bl = calloc((size_t)cap, sizeof *bl);
  if (!vs || !bl) {
    free(vs);
    free(bl);
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  }
  for (int i = -1; i < st->plan.n; i++) {
    const rd_bucket *b = i < 0 ? &st->plan.def : &st->plan.b[i];
    int dup = find_kernel(st, b->v, b->block) != NULL;
    for (int j = 0; j < n; j++)
      dup |= vs[j] == b->v && bl[j] == b->block;
    if (!dup) {
      vs[n] = b->v;
      bl[n++] = b->block;
    }
  }
  s = compile(c, st, vs, bl, n);
  free(vs);
  free(bl);
  return s;
}

tgm_status tgm_reduce_explain(tgm_ctx *c, tgm_op op, tgm_type type, size_t n,
                              tgm_reduce_choice *out) {
  if (!c || !out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_explain: ctx or out is NULL");
  if (!rd_op_name((int)op) || !rd_type_name((int)type))
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_explain: unknown op %d or type %d", (int)op,
                     (int)type);
  rd_opstate *st;
  tgm_status s = load_op(c, (int)op, (int)type, &st);
  if (s != TGM_OK)
    return s;
  const rd_bucket *b = rd_plan_pick(&st->plan, n);
  memset(out, 0, sizeof *out);
  snprintf(out->variant, sizeof out->variant, "%s", st->m.v[b->v].id);
  out->block = b->block;
  out->items = b->items;
  out->grid_cap_per_sm = b->cap;
  out->tuned = b->tuned;
  snprintf(out->why, sizeof out->why, "%s", b->why);
  return TGM_OK;
}

// -------------------------------------------------------------- launching
static unsigned grid_of(tune_rule rule, tgm_devptr in, unsigned long long n, unsigned block,
                        unsigned items, unsigned grid_cap, size_t elem) {
  unsigned long long elems = n;
  if (rule == RULE_TILES_VEC || rule == RULE_STRIDED_VEC) {
    unsigned long long head = ((16 - (in & 15)) & 15) / elem;
    elems = (n - (head < n ? head : n)) / (16 / elem);
  }
  unsigned long long per = (unsigned long long)block * items;
  unsigned long long g = (elems + per - 1) / per;
  if (rule == RULE_ONE || g == 0)
    g = 1;
  if ((rule == RULE_STRIDED || rule == RULE_STRIDED_VEC) && g > grid_cap)
    g = grid_cap;
  return g > 0x7fffffffull ? 0x7fffffffu : (unsigned)g;
}

// Makes the temp buffer at least `need` bytes; a new buffer's counter word
// is zeroed on the stream, before the launches that use it.
static tgm_status grow_temp(tgm_ctx *c, size_t need, tgm_stream stream) {
  if (need <= c->temp_bytes)
    return TGM_OK;
  size_t bytes = 1 << 16;
  while (bytes < need)
    bytes *= 2;
  tgm_status s;
  if (c->temp) {
    // earlier calls on this stream may still read the old buffer
    if ((s = tgm_stream_sync(c->b, stream)) != TGM_OK || (s = tgm_free(c->b, c->temp)) != TGM_OK)
      return s;
    c->temp = 0;
    c->temp_bytes = 0;
  }
  tgm_devptr p;
  if ((s = tgm_malloc(c->b, bytes, &p)) != TGM_OK)
    return s;
  if ((s = tgm_memset(c->b, p, 0, COUNTER_BYTES, stream)) != TGM_OK) {
    tgm_free(c->b, p);
    return s;
  }
  c->temp = p;
  c->temp_bytes = bytes;
  return TGM_OK;
}

tgm_status tgm_reduce(tgm_ctx *c, tgm_op op, tgm_type type, const void *d_in, size_t n,
                      void *d_out, void *stream) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce: ctx is NULL");
  tgm_status s = rd_check_args((int)op, (int)type, d_in, n, d_out);
  if (s != TGM_OK)
    return s;
  rd_opstate *st;
  if ((s = load_op(c, (int)op, (int)type, &st)) != TGM_OK)
    return s;
  const rd_bucket *b = rd_plan_pick(&st->plan, n);
  rd_kernel *k;
  if ((s = kernel_for(c, st, b, &k)) != TGM_OK)
    return s;
  const tune_variant *v = &st->m.v[b->v];
  size_t elem = rd_type_size((int)type);
  tgm_devptr in = (tgm_devptr)(uintptr_t)d_in, out = (tgm_devptr)(uintptr_t)d_out;
  unsigned long long nn = n;
  unsigned cap = b->cap ? b->cap * (unsigned)c->info->sm_count : 0x7fffffffu;
  unsigned g0 = 1; // the grid of the main (BLOCK-sized) launch
  for (int i = 0; i < v->n_pos; i++)
    if (!v->pos[i].block_fixed) {
      g0 = grid_of(v->pos[i].rule, in, nn, b->block, b->items, cap, elem);
      break;
    }
  tgm_devptr partials = 0, counter = 0;
  if (n && (v->partials || v->counter)) {
    // the counter first (its 16 bytes whether the variant has one or not), then the partials
    if ((s = grow_temp(c, tgm_temp_need(g0, elem, v->partials, 1), stream)) != TGM_OK)
      return s;
    counter = c->temp;
    partials = c->temp + COUNTER_BYTES;
  }
  const tune_launch *ls = n ? v->pos : v->zero;
  const tgm_function *fs = n ? k->pos : k->zero;
  int nl = n ? v->n_pos : v->n_zero;
  for (int i = 0; i < nl; i++) {
    const tune_launch *l = &ls[i];
    unsigned block = l->block_fixed ? l->block_fixed : b->block;
    unsigned grid = grid_of(l->rule, in, nn, block, b->items, cap, elem);
    uint64_t vals[TUNE_MAX_ARGS];
    void *args[TUNE_MAX_ARGS];
    for (int a = 0; a < l->n_args; a++) {
      switch (l->args[a]) {
      case ARG_IN: vals[a] = in; break;
      case ARG_PARAM: vals[a] = 0; break; // none: load_op takes plain folds only
      case ARG_N: vals[a] = nn; break;
      case ARG_OUT: vals[a] = out; break;
      case ARG_PARTIALS: vals[a] = partials; break;
      case ARG_COUNTER: vals[a] = counter; break;
      case ARG_ITEMS: vals[a] = b->items; break;
      case ARG_GRID: vals[a] = g0; break;
      }
      args[a] = &vals[a];
    }
    if ((s = tgm_launch(c->b, fs[i], grid, block, args, stream)) != TGM_OK)
      return s;
  }
  return TGM_OK;
}

// reduce.c — tgm_reduce: libtgm's run-time path. The plan (which variant
// for which n) is plan.c's; this file holds the context, compiling and
// checking on first use, the temp storage and the 1-D launches (shapes.c:
// the rows and the columns; ctx.h: what the two share).
//
// The launches follow the launch rule every generated source holds
// (templates/launch_rule.tpl, read through runtime/tune/rule.c as tgm-tune
// reads it): the grid per launch shape, the temp bytes, and each launch's
// arguments from the manifest. Any spectrum a manifest describes runs here:
// several inputs, scalar parameters, an accumulator and result of their own
// types. One difference in the temp layout: the last-block counter is at
// the START of the context's temp buffer (16 bytes) and the partials follow
// it, so the counter has one fixed place for every variant, size and spectrum.
// It is zeroed once when the buffer is allocated and every kernel leaves it
// zero; at the manifest's place (after the partials) a larger grid's
// partials of an earlier call would overwrite a smaller grid's counter.
// The size is the launch rule's (tune_temp_need, sizeof(A) per block): the
// partials and the counter's 16 bytes, never 0; the
// buffer only grows, so it serves every smaller n.
#include "ctx.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TGM_REDUCE_INSTALL_DATA_DIR
#define TGM_REDUCE_INSTALL_DATA_DIR ""
#endif
#ifndef TGM_REDUCE_SOURCE_DATA_DIR
#define TGM_REDUCE_SOURCE_DATA_DIR ""
#endif

size_t rd_counters_bytes(void) { return tune_shape_counters(RULE_ROWS_PARTS, 0); }

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
    c->db_path = opt->db_path ? strdup(opt->db_path) : default_db_path();
    s = c->db_path ? rd_db_load(c->db_path, NULL, &c->db, c->db_why, sizeof c->db_why)
                   : tgm__fail(TGM_ERR_MEMORY, "out of memory");
  }
  if (s == TGM_OK)
    s = tgm_backend_open(TGM_BACKEND_CUDA, opt->device, NULL, &c->b);
  if (s != TGM_OK) {
    tgm_ctx_destroy(c);
    return s;
  }
  c->info = tgm_backend_info(c->b);
  c->dev = (rd_device){c->info->name,
                       c->info->cc_major,
                       c->info->cc_minor,
                       c->info->sm_count,
                       c->info->driver_version,
                       c->info->compiler,
                       opt->deterministic != 0,
                       c->info->max_threads,
                       tune_sm_gbps(c->info->peak_gbps, c->info->sm_count)};
  *out = c;
  return TGM_OK;
}

void tgm_ctx_destroy(tgm_ctx *c) {
  if (!c)
    return;
  for (int i = 0; i < c->n_spectra; i++) {
    rd_opstate *st = c->spectra[i];
    for (int j = 0; j < st->nk; j++)
      tgm_module_unload(st->k[j].mod);
    free(st->k);
    tgm_module_unload(st->ref_mod);
    rd_plan_free(&st->plan);
    rd_cells_free(&st->cells);
    tune_manifest_free(&st->m);
    free(st);
  }
  free(c->spectra);
  if (c->temp)
    tgm_free(c->b, c->temp);
  if (c->check_buf)
    tgm_free(c->b, c->check_buf);
  if (c->check_s)
    tgm_stream_destroy(c->b, c->check_s);
  tgm_backend_close(c->b);
  json_decref(c->db);
  json_decref(c->db_shape[0]);
  json_decref(c->db_shape[1]);
  free(c->db_path);
  free(c->data_dir);
  free(c->cache_dir);
  free(c);
}

// ------------------------------------------------- (spectrum, type) state
static const char *const shape_dirs[] = {"", "rows", "cols"};

// The database's entries of a row or column shape, read once.
static tgm_status shape_db(tgm_ctx *c, tune_shape shape, json_t **db, const char **why) {
  int i = shape == TUNE_SHAPE_COLS;
  if (!c->db_shape_read[i]) {
    tgm_status s = rd_db_load(c->db_path, shape_dirs[shape], &c->db_shape[i], c->db_shape_why[i],
                              sizeof c->db_shape_why[i]);
    if (s != TGM_OK)
      return s;
    c->db_shape_read[i] = 1;
  }
  *db = c->db_shape[i];
  *why = c->db_shape_why[i];
  return TGM_OK;
}

// Loads the manifest of (name, type) for a shape once and makes its plan:
// DATA_DIR/NAME_TYPE.json (1-D), DATA_DIR/rows/NAME_TYPE_rows.json,
// DATA_DIR/cols/NAME_TYPE_cols.json. plain_op, when not NULL, is the
// operator a plain fold must have (tgm_reduce's op).
tgm_status rd_load_spectrum(tgm_ctx *c, const char *who, const char *name, int type,
                            const char *plain_op, tune_shape shape, rd_opstate **out) {
  *out = NULL;
  if (!rd_good_name(name))
    return tgm__fail(TGM_ERR_INVALID,
                     "%s: spectrum '%.60s' is not a name (letters, digits, '_', "
                     "at most %d)",
                     who, name ? name : "(null)", RD_MAX_NAME);
  const char *tn = rd_type_name(type);
  if (!tn)
    return tgm__fail(TGM_ERR_INVALID, "%s: unknown type %d", who, type);
  for (int i = 0; i < c->n_spectra; i++)
    if (c->spectra[i]->type == type && c->spectra[i]->shape == shape &&
        !strcmp(c->spectra[i]->name, name)) {
      *out = c->spectra[i];
      return TGM_OK;
    }
  if (!c->data_dir)
    return tgm__fail(TGM_ERR_NOT_FOUND, "%s", c->data_why);
  char path[PATH_MAX];
  const char *sd = shape_dirs[shape];
  if (shape == TUNE_SHAPE_1D)
    snprintf(path, sizeof path, "%s/%s_%s.json", c->data_dir, name, tn);
  else
    snprintf(path, sizeof path, "%s/%s/%s_%s_%s.json", c->data_dir, sd, name, tn, sd);
  if (access(path, R_OK) != 0)
    return tgm__fail(TGM_ERR_NOT_FOUND,
                     "no manifest %s (make it with: tgm-gen%s%s --type=%s -o %s%s%s "
                     "codelets/%s.tgm)",
                     path, *sd ? " --" : "", sd, tn, c->data_dir, *sd ? "/" : "", sd, name);
  rd_opstate *st = calloc(1, sizeof *st);
  rd_opstate **grown = realloc(c->spectra, (size_t)(c->n_spectra + 1) * sizeof *grown);
  if (!st || !grown) {
    free(st);
    if (grown)
      c->spectra = grown;
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  }
  c->spectra = grown;
  tgm_status s = tune_manifest_read(path, &st->m);
  if (s != TGM_OK) {
    free(st);
    return s;
  }
  static const char *const shape_names[] = {"the 1-D reduction", "rows", "columns"};
  if (st->m.shape != shape) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: a manifest of %s, where %s runs %s", path,
                  shape_names[st->m.shape], who, shape_names[shape]);
  } else if (strcmp(st->m.type, tn) || !st->m.cuda_source || !st->m.has_reference ||
             (plain_op && (strcmp(st->m.op, plain_op) || !st->m.plain))) {
    s = tgm__fail(TGM_ERR_MANIFEST, "%s: type %s, op %s%s%s; expected %s%s %s", path, st->m.type,
                  st->m.op, st->m.cuda_source ? "" : ", no CUDA source",
                  plain_op && !st->m.plain ? ", not a plain fold" : "",
                  plain_op ? "a plain " : "the type ", tn, plain_op ? plain_op : "");
  } else if (shape == TUNE_SHAPE_1D) {
    s = rd_plan_make(&st->m, st->m.op, c->db, c->db_why, &c->dev, &st->plan);
  } else {
    json_t *db;
    const char *why;
    s = shape_db(c, shape, &db, &why);
    if (s == TGM_OK)
      s = rd_cells_make(&st->m, st->m.op, db, why, &c->dev, &st->cells);
  }
  if (s != TGM_OK) {
    tune_manifest_free(&st->m);
    free(st);
    return s;
  }
  snprintf(st->name, sizeof st->name, "%s", name);
  st->type = type;
  st->shape = shape;
  c->spectra[c->n_spectra++] = st;
  *out = st;
  return TGM_OK;
}

// tgm_reduce's (op, type): the plain fold of that operator
tgm_status rd_load_op(tgm_ctx *c, const char *who, int op, int type, tune_shape shape,
                      rd_opstate **out) {
  static const char *const mops[] = {"sum", "max", "min"};
  if (!rd_op_name(op))
    return tgm__fail(TGM_ERR_INVALID, "%s: unknown op %d", who, op);
  return rd_load_spectrum(c, who, rd_op_name(op), type, mops[op], shape, out);
}

rd_kernel *rd_find_kernel(rd_opstate *st, rd_key key) {
  for (int i = 0; i < st->nk; i++) {
    const rd_key *k = &st->k[i].key;
    if (k->v == key.v && k->block == key.block && k->group == key.group && k->items == key.items)
      return &st->k[i];
  }
  return NULL;
}

// The spectrum's CUDA source (path: where it was read, for messages).
static tgm_status read_source(const rd_opstate *st, char *path, size_t len, char **src) {
  char *where;
  tgm_status s = tune_manifest_source(&st->m, TUNE_SRC_CUDA, src, &where);
  snprintf(path, len, "%s", where ? where : "");
  free(where);
  return s;
}

// Compiles the kernels of n keys in parallel: one NVRTC job each, holding
// the positive-n launches and the n = 0 ones.
tgm_status rd_compile(tgm_ctx *c, rd_opstate *st, const rd_key *keys, int n) {
  if (!n)
    return TGM_OK;
  char path[PATH_MAX], *src;
  tgm_status rs = read_source(st, path, sizeof path, &src);
  if (rs != TGM_OK)
    return rs;
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
    const tune_variant *v = &st->m.v[keys[j].v];
    int nn = 0;
    for (int l = 0; l < v->n_pos + v->n_zero; l++) {
      const tune_launch *ln = l < v->n_pos ? &v->pos[l] : &v->zero[l - v->n_pos];
      int found = tune_intern_name(names[j], &nn,
                                   tune_name_expr(ln->name_expr, keys[j].block, keys[j].group,
                                                  keys[j].items));
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
    const tune_variant *v = &st->m.v[keys[j].v];
    if (res[j].status != TGM_OK) {
      s = tgm__fail(res[j].status, "compiling %s (block %u, items %u) of %s: %.700s", v->id,
                    keys[j].block, keys[j].items, path,
                    res[j].log && *res[j].log ? res[j].log : tgm_last_error());
      break;
    }
    rd_kernel k = {keys[j], NULL, {0}, {0}, 0, ""};
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

// The kernel a bucket runs: its variant at its block and items.
static rd_key key_of(const rd_opstate *st, const rd_bucket *b) {
  return (rd_key){b->v, b->block, 0, tune_variant_items(&st->m.v[b->v], b->items)};
}

static tgm_status kernel_for(tgm_ctx *c, rd_opstate *st, const rd_bucket *b, rd_kernel **out) {
  rd_key key = key_of(st, b);
  *out = rd_find_kernel(st, key);
  if (*out)
    return TGM_OK;
  tgm_status s = rd_compile(c, st, &key, 1);
  if (s == TGM_OK)
    *out = rd_find_kernel(st, key);
  return s;
}

static tgm_status enqueue(tgm_ctx *c, const rd_opstate *st, const rd_bucket *b, const rd_kernel *k,
                          tune_call *call, tgm_devptr temp, void *stream);

// The grid of bucket b's main launch over the input at in0 (the temp
// storage it needs follows from it).
static unsigned bucket_grid(const tgm_ctx *c, const rd_opstate *st, const rd_bucket *b,
                            uint64_t in0, unsigned long long n) {
  return tune_main_grid(&st->m.v[b->v], in0, n, b->block, b->items,
                        tune_grid_cap(b->cap, c->info->sm_count), tune_type_size(st->m.elem));
}

// The reference kernel of st (the scalar codelet run by one thread, or
// split over the threads it gets), compiled without optimization (NVRTC -G)
// so that it does not share an optimizer bug with the variants.
tgm_status rd_reference_for(tgm_ctx *c, rd_opstate *st) {
  if (st->ref_mod)
    return TGM_OK;
  char path[PATH_MAX], *src;
  tgm_status rs = read_source(st, path, sizeof path, &src);
  if (rs != TGM_OK)
    return rs;
  const char *name = st->m.reference.name_expr;
  tgm_compile_job job = {0};
  job.source = src, job.source_name = st->m.cuda_source, job.names = &name, job.n_names = 1;
  job.options = tune_reference_options(0, &job.n_options); // tgm_reduce: CUDA
  tgm_compile_result res = {0};
  tgm_compile(c->b, &job, 1, 1, c->cache_dir, &res);
  tgm_status s = res.status;
  if (s == TGM_OK)
    s = tgm_module_load(c->b, &res, &st->ref_mod);
  if (s == TGM_OK && (s = tgm_module_function(st->ref_mod, 0, &st->ref_fn)) != TGM_OK) {
    tgm_module_unload(st->ref_mod);
    st->ref_mod = NULL;
  }
  if (s != TGM_OK)
    s = tgm__fail(s, "compiling the reference kernel of %s: %.600s", path,
                  res.log && *res.log ? res.log : tgm_last_error());
  tgm_compile_result_free(&res);
  free(src);
  st->ref_block = st->m.reference.block_fixed ? st->m.reference.block_fixed : 1;
  return s;
}

// The first-use check's stream and at least `need` bytes of its buffer
// (neither the caller's), and its random state.
tgm_status rd_check_space(tgm_ctx *c, size_t need) {
  tgm_status s;
  if (!c->check_s && (s = tgm_stream_create(c->b, &c->check_s)) != TGM_OK)
    return s;
  if (need > c->check_bytes) {
    if (c->check_buf && (s = tgm_free(c->b, c->check_buf)) != TGM_OK)
      return s;
    c->check_buf = 0, c->check_bytes = 0;
    if ((s = tgm_malloc(c->b, need, &c->check_buf)) != TGM_OK)
      return s;
    c->check_bytes = need;
  }
  if (!c->check_rng)
    c->check_rng = 0x9e3779b97f4a7c15ull;
  return TGM_OK;
}

// The end of a first-use check (1-D or rows and columns), and what a later
// use of the kernel returns: s when the check could not run; else
// TGM_ERR_COMPILE with the reason when the kernel disagreed (checked < 0),
// TGM_OK when it agreed (checked becomes 1).
tgm_status rd_checked_status(rd_kernel *k, tgm_status s) {
  if (s != TGM_OK)
    return s;
  if (k->checked < 0)
    return tgm__fail(TGM_ERR_COMPILE, "%s", k->why);
  k->checked = 1;
  return TGM_OK;
}

// The first use of a compiled kernel: it runs beside the reference on test
// data (tune_fill, the tuner's; sizes 1, 33 and 4097, and for a plain fold
// sparse data at 33 and 4097 (tune_fill_sparse), for a floating-point
// element NaN elements at 4097 (tune_fill_nan); the input 0 or 1
// element past 16-byte alignment; the parameters' values given) on the
// context's own stream, and must agree (tune_same). The sources were
// checked on the CPU, but the GPU runs what NVRTC made of them: a compiler
// bug shows here (CUDA 13.0's ptxas and absmax over int,
// bench/results/2026-11-24-ptxas-absmax), and the kernel is not used.
static tgm_status check_kernel(tgm_ctx *c, rd_opstate *st, const rd_bucket *b, rd_kernel *k,
                               const uint64_t *params) {
  if (k->checked)
    return rd_checked_status(k, TGM_OK);
  const tune_manifest *m = &st->m;
  tgm_status s = rd_reference_for(c, st);
  if (s != TGM_OK)
    return s;
  enum { N = 4097 };
  // random data, then (a plain fold: tune_fill_sparse) sparse data, then (a
  // floating-point element: tune_fill_nan) NaN elements
  static const unsigned long long sizes[] = {1, 33, N, 33, N, N};
  static const int offs[] = {0, 1, 1, 0, 1, 1}, sparse[] = {0, 0, 0, 1, 1, 0},
                   nan[] = {0, 0, 0, 0, 0, 1};
  size_t elem = tune_type_size(m->elem), res = tune_type_size(m->res);
  size_t in_bytes = ((N + 8) * elem + 255) / 256 * 256;
  size_t temp_bytes = rd_counters_bytes() + tune_temp_need(N, tune_type_size(m->acc), 1, 0);
  size_t need = in_bytes * (size_t)m->n_inputs + 256 + temp_bytes;
  if ((s = rd_check_space(c, need)) != TGM_OK)
    return s;
  tgm_devptr out = c->check_buf + in_bytes * (size_t)m->n_inputs, ref = out + 64, temp = out + 256;
  void *host = malloc(in_bytes);
  if (!host)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  for (int i = 0; i < 6 && s == TGM_OK && k->checked == 0; i++) {
    unsigned long long n = sizes[i];
    tune_call call = {.n = n, .out = out, .params = params};
    if (sparse[i] && !tune_fill_sparse(m, (char *)host + (size_t)offs[i] * elem, n, &c->check_rng))
      continue;
    if (nan[i] && !tune_fill_nan(m, (char *)host + (size_t)offs[i] * elem, n, 1009, &c->check_rng))
      continue;
    for (int q = 0; q < m->n_inputs && s == TGM_OK; q++) {
      if (!sparse[i] && !nan[i])
        tune_fill(m, host, N + 8, &c->check_rng);
      call.in[q] = c->check_buf + in_bytes * (size_t)q + (size_t)offs[i] * elem;
      s = tgm_copy_to_device(c->b, c->check_buf + in_bytes * (size_t)q, host, (N + 8) * elem);
    }
    // the reference: its own arguments, no temp storage; a block it can launch
    tune_call rcall = call;
    rcall.out = ref;
    uint64_t vals[TUNE_MAX_ARGS];
    void *args[TUNE_MAX_ARGS];
    if (s == TGM_OK)
      s = tune_launch_args(&m->reference, &rcall, vals, args);
    if (s == TGM_OK)
      s = tune_launch_reference(c->b, st->ref_fn, args, &st->ref_block, c->check_s);
    if (s == TGM_OK)
      s = tgm_memset(c->b, temp, 0, COUNTER_BYTES, c->check_s);
    if (s == TGM_OK)
      s = tgm_memset(c->b, out, 0xA5, 64, c->check_s);
    if (s == TGM_OK)
      s = enqueue(c, st, b, k, &call, temp, c->check_s);
    if (s == TGM_OK)
      s = tgm_stream_sync(c->b, c->check_s);
    char got[64], want[3 * 64];
    if (s == TGM_OK)
      s = tgm_copy_to_host(c->b, got, out, res);
    if (s == TGM_OK)
      s = tgm_copy_to_host(c->b, want, ref, 3 * res);
    if (s == TGM_OK && !tune_same(m, got, want)) {
      char g[96], w[96];
      tune_value_text(m, got, g, sizeof g);
      tune_value_text(m, want, w, sizeof w);
      k->checked = -1;
      snprintf(k->why, sizeof k->why,
               "%s/%s: %s (block %u, items %u), as %s compiled it, gives %s for n = %llu%s where "
               "the spectrum's scalar codelet (compiled unoptimized) gives %s: a compiler bug, so "
               "tgm_reduce does not use this kernel",
               m->dir, m->cuda_source, m->v[k->key.v].id, k->key.block, b->items, c->info->compiler,
               g, n,
               sparse[i] ? " (sparse data)"
               : nan[i]  ? " (NaN elements)"
                         : "",
               w);
    }
  }
  free(host);
  return rd_checked_status(k, s);
}

static tgm_status prepare(tgm_ctx *c, rd_opstate *st) {
  int n = 0, cap = st->plan.n + 1;
  rd_key *keys = calloc((size_t)cap, sizeof *keys);
  if (!keys)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  for (int i = -1; i < st->plan.n; i++) {
    rd_key key = key_of(st, i < 0 ? &st->plan.def : &st->plan.b[i]);
    int dup = rd_find_kernel(st, key) != NULL;
    for (int j = 0; j < n; j++)
      dup |= !memcmp(&keys[j], &key, sizeof key);
    if (!dup)
      keys[n++] = key;
  }
  tgm_status s = rd_compile(c, st, keys, n);
  free(keys);
  // and the first-use check of each (parameters 0), so that no later call waits for it
  uint64_t zeros[TUNE_MAX_PARAMS] = {0};
  for (int i = -1; s == TGM_OK && i < st->plan.n; i++) {
    const rd_bucket *b = i < 0 ? &st->plan.def : &st->plan.b[i];
    rd_kernel *k = rd_find_kernel(st, key_of(st, b));
    s = k ? check_kernel(c, st, b, k, zeros) : tgm__fail(TGM_ERR_COMPILE, "a kernel went missing");
  }
  return s;
}

tgm_status tgm_reduce_prepare(tgm_ctx *c, tgm_op op, tgm_type type) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_prepare: ctx is NULL");
  rd_opstate *st;
  tgm_status s = rd_load_op(c, "tgm_reduce_prepare", (int)op, (int)type, TUNE_SHAPE_1D, &st);
  return s == TGM_OK ? prepare(c, st) : s;
}

tgm_status tgm_reduce_spectrum_prepare(tgm_ctx *c, const char *spectrum, tgm_type type) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_spectrum_prepare: ctx is NULL");
  rd_opstate *st;
  tgm_status s = rd_load_spectrum(c, "tgm_reduce_spectrum_prepare", spectrum, (int)type, NULL,
                                  TUNE_SHAPE_1D, &st);
  return s == TGM_OK ? prepare(c, st) : s;
}

static void explain(rd_opstate *st, size_t n, tgm_reduce_choice *out) {
  const rd_bucket *b = rd_plan_pick(&st->plan, n);
  memset(out, 0, sizeof *out);
  snprintf(out->variant, sizeof out->variant, "%s", st->m.v[b->v].id);
  out->block = b->block;
  out->items = b->items;
  out->grid_cap_per_sm = b->cap;
  out->tuned = b->tuned;
  snprintf(out->why, sizeof out->why, "%s", b->why);
}

tgm_status tgm_reduce_explain(tgm_ctx *c, tgm_op op, tgm_type type, size_t n,
                              tgm_reduce_choice *out) {
  if (!c || !out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_explain: ctx or out is NULL");
  rd_opstate *st;
  tgm_status s = rd_load_op(c, "tgm_reduce_explain", (int)op, (int)type, TUNE_SHAPE_1D, &st);
  if (s == TGM_OK)
    explain(st, n, out);
  return s;
}

tgm_status tgm_reduce_spectrum_explain(tgm_ctx *c, const char *spectrum, tgm_type type, size_t n,
                                       tgm_reduce_choice *out) {
  if (!c || !out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_spectrum_explain: ctx or out is NULL");
  rd_opstate *st;
  tgm_status s = rd_load_spectrum(c, "tgm_reduce_spectrum_explain", spectrum, (int)type, NULL,
                                  TUNE_SHAPE_1D, &st);
  if (s == TGM_OK)
    explain(st, n, out);
  return s;
}

tgm_status tgm_reduce_spectrum_info(tgm_ctx *c, const char *spectrum, tgm_type type,
                                    tgm_spectrum_info *out) {
  if (!c || !out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_spectrum_info: ctx or out is NULL");
  rd_opstate *st;
  tgm_status s = rd_load_spectrum(c, "tgm_reduce_spectrum_info", spectrum, (int)type, NULL,
                                  TUNE_SHAPE_1D, &st);
  if (s != TGM_OK)
    return s;
  memset(out, 0, sizeof *out);
  const tune_manifest *m = &st->m;
  out->n_inputs = m->n_inputs;
  out->n_params = m->n_params;
  out->result_bytes = tune_type_size(m->res);
  for (int k = 0; k < m->n_params && k < TGM_SPECTRUM_MAX_PARAMS; k++) {
    snprintf(out->param_names[k], sizeof out->param_names[k], "%s", m->param_names[k]);
    out->param_bytes[k] = tune_type_size(m->param_types[k]);
  }
  snprintf(out->meaning, sizeof out->meaning, "%s", m->text ? m->text : m->spectrum);
  return TGM_OK;
}

// -------------------------------------------------------------- launching
// Makes the temp buffer at least `need` bytes; a new buffer's counter word
// is zeroed on the stream, before the launches that use it.
tgm_status rd_grow_temp(tgm_ctx *c, size_t need, tgm_stream stream) {
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
  if ((s = tgm_memset(c->b, p, 0, rd_counters_bytes(), stream)) != TGM_OK) {
    tgm_free(c->b, p);
    return s;
  }
  c->temp = p;
  c->temp_bytes = bytes;
  return TGM_OK;
}

// One reduction of the loaded spectrum st: the checks, the bucket's kernel
// (compiled on first use), the temp storage and the launches.
static tgm_status run(tgm_ctx *c, const char *who, rd_opstate *st, const void *const *d_ins,
                      int n_inputs, size_t n, const void *const *params, int n_params, void *d_out,
                      void *stream) {
  const tune_manifest *m = &st->m;
  tgm_status s = rd_check_spectrum_args(m, who, d_ins, n_inputs, n, params, n_params, d_out);
  if (s == TGM_OK)
    s = rd_check_overlap(who, d_ins, n_inputs, (unsigned long long)n * tune_type_size(m->elem),
                         d_out, tune_type_size(m->res));
  if (s != TGM_OK)
    return s;
  tune_call call = {.n = n, .out = (uint64_t)(uintptr_t)d_out};
  for (int k = 0; k < n_inputs; k++)
    call.in[k] = (uint64_t)(uintptr_t)(d_ins ? d_ins[k] : NULL); // NULL: n = 0
  uint64_t pv[TUNE_MAX_PARAMS] = {0};
  for (int k = 0; k < n_params; k++)
    memcpy(&pv[k], params[k], tune_type_size(m->param_types[k]));
  call.params = pv;
  const rd_bucket *b = rd_plan_pick(&st->plan, n);
  rd_kernel *k;
  if ((s = kernel_for(c, st, b, &k)) != TGM_OK || (s = check_kernel(c, st, b, k, pv)) != TGM_OK)
    return s;
  const tune_variant *v = &m->v[b->v];
  if (n && (v->partials || v->counter)) {
    // the counters first (whether the variant has one or not), then the partials
    unsigned g0 = bucket_grid(c, st, b, call.in[0], n);
    size_t need = rd_counters_bytes() + tune_temp_need(g0, tune_type_size(m->acc), v->partials, 0);
    if ((s = rd_grow_temp(c, need, stream)) != TGM_OK)
      return s;
  }
  return enqueue(c, st, b, k, &call, c->temp, stream);
}

// The launches of one reduction (call: inputs, n, out, parameters) on
// stream, with temp holding the counter (zero) at its start and the
// partials after it.
static tgm_status enqueue(tgm_ctx *c, const rd_opstate *st, const rd_bucket *b, const rd_kernel *k,
                          tune_call *call, tgm_devptr temp, void *stream) {
  const tune_manifest *m = &st->m;
  const tune_variant *v = &m->v[b->v];
  size_t elem = tune_type_size(m->elem);
  unsigned long long n = call->n;
  unsigned cap = tune_grid_cap(b->cap, c->info->sm_count);
  unsigned g0 = bucket_grid(c, st, b, call->in[0], n);
  call->counter = temp;
  call->partials = temp + rd_counters_bytes();
  call->has_temp = 1, call->items = b->items, call->grid = g0;
  const tune_launch *ls = n ? v->pos : v->zero;
  const tgm_function *fs = n ? k->pos : k->zero;
  int nl = n ? v->n_pos : v->n_zero;
  for (int i = 0; i < nl; i++) {
    const tune_launch *l = &ls[i];
    unsigned block = l->block_fixed ? l->block_fixed : b->block;
    unsigned grid = tune_grid(l->rule, call->in[0], n, block, b->items, cap, elem);
    uint64_t vals[TUNE_MAX_ARGS];
    void *args[TUNE_MAX_ARGS];
    tgm_status s;
    if ((s = tune_launch_args(l, call, vals, args)) != TGM_OK ||
        (s = tgm_launch(c->b, fs[i], grid, block, args, stream)) != TGM_OK)
      return s;
  }
  return TGM_OK;
}

tgm_status tgm_reduce(tgm_ctx *c, tgm_op op, tgm_type type, const void *d_in, size_t n, void *d_out,
                      void *stream) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce: ctx is NULL");
  tgm_status s = rd_check_args((int)op, (int)type, d_in, n, d_out);
  if (s != TGM_OK)
    return s;
  rd_opstate *st;
  if ((s = rd_load_op(c, "tgm_reduce", (int)op, (int)type, TUNE_SHAPE_1D, &st)) != TGM_OK)
    return s;
  const void *ins[1] = {d_in};
  return run(c, "tgm_reduce", st, ins, 1, n, NULL, 0, d_out, stream);
}

tgm_status tgm_reduce_spectrum(tgm_ctx *c, const char *spectrum, tgm_type type,
                               const void *const *d_ins, int n_inputs, size_t n,
                               const void *const *params, int n_params, void *d_out, void *stream) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce_spectrum: ctx is NULL");
  rd_opstate *st;
  tgm_status s = rd_load_spectrum(c, "tgm_reduce_spectrum", spectrum, (int)type, NULL,
                                  TUNE_SHAPE_1D, &st);
  if (s != TGM_OK)
    return s;
  return run(c, "tgm_reduce_spectrum", st, d_ins, n_inputs, n, params, n_params, d_out, stream);
}

// shapes.c — tgm_reduce over the rows and the columns of a matrix
// (tgm_reduce_rows, tgm_reduce_cols, their spectrum, prepare and explain
// calls): what the embedded header would run on this GPU (plan.c's
// rd_cells_pick: a tuned cell where its setting runs, else the launch
// rule), each kernel compiled and checked on first use (reduce.c's
// rd_compile and the reference kernel), one launch a call.
#include "ctx.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A row-major matrix: m rows of n elements, ld apart; off: its first
// element's offset from a 16-byte boundary, in elements (the checks').
typedef struct {
  unsigned long long m, n, ld;
  unsigned off;
} rd_dims;

// The shapes a row or column kernel is checked on at its first use: one
// element; ld > n with misaligned starts; long rows (rows) or many rows
// (columns).
static const rd_dims check_shapes[2][4] =
    {{{1, 1, 1, 0}, {3, 31, 34, 1}, {5, 33, 37, 3}, {7, 4097, 4099, 1}},
     {{1, 1, 1, 0}, {3, 31, 34, 1}, {5, 33, 37, 3}, {4097, 7, 9, 1}}};
enum { RD_CHECK_ELEMS = 4097 * 9 + 8, RD_CHECK_OUTS = 33 };

static unsigned long long outputs_of(const rd_opstate *st, unsigned long long m,
                                     unsigned long long n) {
  return st->shape == TUNE_SHAPE_COLS ? n : m;
}

// The kernel setting k runs: its variant at its block, GROUP and items.
static rd_key shape_key(const rd_opstate *st, const tune_shape_set *k) {
  return (rd_key){k->v, k->block, tune_shape_group(&st->m, k),
                  tune_variant_items(&st->m.v[k->v], k->items)};
}

static tgm_status shape_kernel(tgm_ctx *c, rd_opstate *st, const tune_shape_set *k,
                               rd_kernel **out) {
  rd_key key = shape_key(st, k);
  *out = rd_find_kernel(st, key);
  if (*out)
    return TGM_OK;
  tgm_status s = rd_compile(c, st, &key, 1);
  if (s == TGM_OK)
    *out = rd_find_kernel(st, key);
  return s;
}

// The temp storage setting k needs on m x n: the counters and its partials.
static size_t shape_temp(const rd_opstate *st, const tune_shape_set *k, unsigned long long m,
                         unsigned long long n) {
  tune_rule r = tune_shape_main(&st->m.v[k->v])->rule;
  size_t need = tune_shape_temp(r, m, n, tune_rule_cols(r) ? k->width : k->per_row, k->parts,
                                tune_type_size(st->m.acc));
  return need > rd_counters_bytes() ? need : rd_counters_bytes();
}

// The one launch of setting k over the matrix at call->in (call: inputs,
// m, n, ld, out, parameters), temp holding the counters (zero) at its start
// and the partials after them, as the embedded call lays them out.
static tgm_status shape_enqueue(tgm_ctx *c, const rd_opstate *st, const tune_shape_set *k,
                                const rd_kernel *kern, tune_call *call, tgm_devptr temp,
                                void *stream) {
  const tune_variant *v = &st->m.v[k->v];
  unsigned y, x = tune_shape_set_grid(&st->m, k, call->in[0], call->m, call->n, call->ld, &y);
  if (!x) {
    char kn[96];
    rd_set_text(&st->m, k, kn, sizeof kn);
    return tgm__fail(TGM_ERR_INVALID, "%s cannot be launched on %llu x %llu (too many blocks)", kn,
                     call->m, call->n);
  }
  call->width = k->width;
  call->has_temp = 1;
  call->counter = temp;
  call->partials = temp + rd_counters_bytes();
  call->items = k->items;
  return tune_shape_launch(c->b, v, kern->pos, call, x, y, k->block, stream);
}

// The first use of a row or column kernel: setting k runs on the check
// shapes it can launch on (random data, tune_fill), twice with the output
// poisoned and the counters not cleared between (every kernel must leave
// them zero), beside the reference kernel run on each row (columns: on
// each column, gathered contiguous), and every output must agree.
static tgm_status check_shape_kernel(tgm_ctx *c, rd_opstate *st, const tune_shape_set *k,
                                     rd_kernel *kern, const uint64_t *params) {
  if (kern->checked)
    return rd_checked_status(kern, TGM_OK);
  const tune_manifest *m = &st->m;
  int cols = st->shape == TUNE_SHAPE_COLS;
  tgm_status s = rd_reference_for(c, st);
  if (s != TGM_OK)
    return s;
  size_t elem = tune_type_size(m->elem), res = tune_type_size(m->res);
  size_t in_bytes = (RD_CHECK_ELEMS * elem + 255) / 256 * 256, temp = rd_counters_bytes();
  for (int i = 0; i < 4; i++) {
    size_t t = shape_temp(st, k, check_shapes[cols][i].m, check_shapes[cols][i].n);
    temp = t > temp ? t : temp;
  }
  // inputs, their columns gathered, the outputs, the reference's, the temp storage
  size_t outs_at = 2 * in_bytes * (size_t)m->n_inputs, ref_at = outs_at + 1024,
         temp_at = ref_at + 2048;
  if ((s = rd_check_space(c, temp_at + temp)) != TGM_OK)
    return s;
  tgm_devptr base = c->check_buf, out = base + outs_at, ref = base + ref_at, tp = base + temp_at;
  char *host = malloc(in_bytes * 2);
  if (!host)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  char *gathered = host + in_bytes;
  if ((s = tgm_memset(c->b, tp, 0, rd_counters_bytes(), c->check_s)) != TGM_OK) {
    free(host);
    return s;
  }
  char kn[96];
  rd_set_text(m, k, kn, sizeof kn);
  for (int i = 0; i < 4 && s == TGM_OK && kern->checked == 0; i++) {
    rd_dims d = check_shapes[cols][i];
    unsigned long long outs = cols ? d.n : d.m, len = cols ? d.m : d.n;
    tune_call call = {.m = d.m, .n = d.n, .ld = d.ld, .out = out, .params = params};
    unsigned y;
    if (!tune_shape_set_grid(m, k, base + d.off * elem, d.m, d.n, d.ld, &y))
      continue; // the setting does not run on this shape
    tune_call rcall = {.n = len, .params = params};
    for (int q = 0; q < m->n_inputs && s == TGM_OK; q++) {
      tgm_devptr in = base + in_bytes * (size_t)q, col = in + in_bytes * (size_t)m->n_inputs;
      tune_fill(m, host, RD_CHECK_ELEMS, &c->check_rng);
      call.in[q] = in + d.off * elem;
      s = tgm_copy_to_device(c->b, in, host, RD_CHECK_ELEMS * elem);
      for (unsigned long long j = 0; cols && j < d.n; j++)
        for (unsigned long long r = 0; r < d.m; r++)
          memcpy(gathered + (j * d.m + r) * elem, host + (d.off + r * d.ld + j) * elem, elem);
      if (s == TGM_OK && cols)
        s = tgm_copy_to_device(c->b, col, gathered, d.m * d.n * elem);
      rcall.in[q] = cols ? col : call.in[q];
    }
    // the reference of each output: R[3] (the value, the lowest and highest)
    for (unsigned long long j = 0; j < outs && s == TGM_OK; j++) {
      tune_call one = rcall;
      for (int q = 0; q < m->n_inputs; q++)
        one.in[q] += (cols ? j * d.m : j * d.ld) * elem;
      one.out = ref + j * 3 * res;
      uint64_t vals[TUNE_MAX_ARGS];
      void *args[TUNE_MAX_ARGS];
      if ((s = tune_launch_args(&m->reference, &one, vals, args)) == TGM_OK)
        s = tune_launch_reference(c->b, st->ref_fn, args, &st->ref_block, c->check_s);
    }
    for (int run = 0; run < 2 && s == TGM_OK && kern->checked == 0; run++) {
      char got[RD_CHECK_OUTS * 16], want[RD_CHECK_OUTS * 3 * 16];
      tune_call kc = call;
      if ((s = tgm_memset(c->b, out, 0xA5, outs * res, c->check_s)) == TGM_OK &&
          (s = shape_enqueue(c, st, k, kern, &kc, tp, c->check_s)) == TGM_OK &&
          (s = tgm_stream_sync(c->b, c->check_s)) == TGM_OK &&
          (s = tgm_copy_to_host(c->b, got, out, outs * res)) == TGM_OK)
        s = tgm_copy_to_host(c->b, want, ref, outs * 3 * res);
      for (unsigned long long j = 0; j < outs && s == TGM_OK; j++) {
        if (tune_same(m, got + j * res, want + j * 3 * res))
          continue;
        char g[96], w[96];
        tune_value_text(m, got + j * res, g, sizeof g);
        tune_value_text(m, want + j * 3 * res, w, sizeof w);
        kern->checked = -1;
        snprintf(kern->why, sizeof kern->why,
                 "%s/%s: %s, as %s compiled it, gives %s for %s %llu of %llu x %llu (ld %llu)%s "
                 "where the spectrum's scalar codelet (compiled unoptimized) gives %s, so "
                 "tgm_reduce does not use this kernel",
                 m->dir, m->cuda_source, kn, c->info->compiler, g, cols ? "column" : "row", j, d.m,
                 d.n, d.ld, run ? " (a second run, its counters as the first left them)" : "", w);
        break;
      }
    }
  }
  free(host);
  return rd_checked_status(kern, s);
}

// Compiles and checks every kernel st's calls may use: each tuned cell's
// setting and the rule's choices at m and n of every power of two to 2^40
// and their neighbours, and multiples of the SM count around it.
static tgm_status shape_prepare(tgm_ctx *c, rd_opstate *st) {
  enum { MOST = 256 };
  tune_shape_set *sets = calloc(MOST, sizeof *sets);
  rd_key *keys = calloc(MOST, sizeof *keys);
  int n = 0;
  tgm_status s = sets && keys ? TGM_OK : tgm__fail(TGM_ERR_MEMORY, "out of memory");
  unsigned long long xs[4 * 41 + 8];
  int nx = 0;
  for (int e = 0; e <= 40; e++) {
    unsigned long long p = 1ull << e;
    xs[nx++] = p;
    xs[nx++] = p + 1;
    xs[nx++] = p - 1 ? p - 1 : 1;
    xs[nx++] = p + p / 2;
  }
  unsigned long long sms = (unsigned long long)c->dev.sm_count;
  unsigned long long near[] = {sms - 1, sms,         sms + 1, 2 * sms - 1,
                               2 * sms, 2 * sms + 1, 4096,    4097};
  for (int i = 0; i < 8; i++)
    xs[nx++] = near[i] ? near[i] : 1;
  for (int i = -st->cells.n; s == TGM_OK && i < nx * nx; i++) {
    tune_shape_set k;
    if (i < 0) {
      k = st->cells.c[-i - 1].k;
    } else {
      int tuned;
      unsigned long long rows = xs[i / nx], len = xs[i % nx];
      if (rd_cells_pick(&(rd_cells){0}, &st->m, &c->dev, rows, len, 0, len, &k, &tuned, NULL, 0) !=
          TGM_OK)
        continue; // no rule variant here: the call says so
    }
    rd_key key = shape_key(st, &k);
    int dup = rd_find_kernel(st, key) != NULL;
    for (int j = 0; j < n && !dup; j++)
      dup = !memcmp(&keys[j], &key, sizeof key);
    if (!dup && n < MOST) {
      sets[n] = k;
      keys[n++] = key;
    }
  }
  if (s == TGM_OK)
    s = rd_compile(c, st, keys, n);
  uint64_t zeros[TUNE_MAX_PARAMS] = {0};
  for (int i = 0; s == TGM_OK && i < n; i++) {
    rd_kernel *k = rd_find_kernel(st, keys[i]);
    s = k ? check_shape_kernel(c, st, &sets[i], k, zeros)
          : tgm__fail(TGM_ERR_COMPILE, "a kernel went missing");
  }
  free(sets);
  free(keys);
  return s;
}

// One reduction of the rows or columns of a matrix with the loaded st.
static tgm_status run_shape(tgm_ctx *c, const char *who, rd_opstate *st, const void *const *d_ins,
                            int n_inputs, size_t rows, size_t n, size_t ld,
                            const void *const *params, int n_params, void *d_out, void *stream) {
  const tune_manifest *m = &st->m;
  size_t elems = rows && n ? (rows > SIZE_MAX / n ? SIZE_MAX : rows * n) : 0;
  tgm_status s = rd_check_spectrum_args(m, who, d_ins, n_inputs, elems, params, n_params, d_out);
  if (s != TGM_OK)
    return s;
  if (ld < n)
    return tgm__fail(TGM_ERR_INVALID,
                     "%s: ld %zu is less than n %zu (row r starts at d_in + r * ld)", who, ld, n);
  if (!outputs_of(st, rows, n))
    return TGM_OK; // no row (no column): nothing to write
  unsigned long long extent = rows && n ? (rows - 1) * ld + n : 0; // elements read
  s = rd_check_overlap(who, d_ins, n_inputs, extent * tune_type_size(m->elem), d_out,
                       outputs_of(st, rows, n) * tune_type_size(m->res));
  if (s != TGM_OK)
    return s;
  tune_call call = {.m = rows, .n = n, .ld = ld, .out = (uint64_t)(uintptr_t)d_out};
  for (int k = 0; k < n_inputs; k++)
    call.in[k] = (uint64_t)(uintptr_t)(d_ins ? d_ins[k] : NULL); // NULL: m n = 0
  uint64_t pv[TUNE_MAX_PARAMS] = {0};
  for (int k = 0; k < n_params; k++)
    memcpy(&pv[k], params[k], tune_type_size(m->param_types[k]));
  call.params = pv;
  tune_shape_set k;
  int tuned;
  rd_kernel *kern;
  if ((s = rd_cells_pick(&st->cells, m, &c->dev, rows, n, call.in[0], call.ld, &k, &tuned, NULL,
                         0)) != TGM_OK ||
      (s = shape_kernel(c, st, &k, &kern)) != TGM_OK ||
      (s = check_shape_kernel(c, st, &k, kern, pv)) != TGM_OK ||
      (s = rd_grow_temp(c, shape_temp(st, &k, rows, n), stream)) != TGM_OK)
    return s;
  return shape_enqueue(c, st, &k, kern, &call, c->temp, stream);
}

static tgm_status shape_call(tgm_ctx *c, const char *who, tgm_op op, tgm_type type,
                             tune_shape shape, const void *d_in, size_t m, size_t n, size_t ld,
                             void *d_out, void *stream) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "%s: ctx is NULL", who);
  rd_opstate *st;
  tgm_status s = rd_load_op(c, who, (int)op, (int)type, shape, &st);
  if (s != TGM_OK)
    return s;
  const void *ins[1] = {d_in};
  return run_shape(c, who, st, ins, 1, m, n, ld, NULL, 0, d_out, stream);
}

tgm_status tgm_reduce_rows(tgm_ctx *c, tgm_op op, tgm_type type, const void *d_in, size_t m,
                           size_t n, size_t ld, void *d_out, void *stream) {
  return shape_call(c, "tgm_reduce_rows", op, type, TUNE_SHAPE_ROWS, d_in, m, n, ld, d_out, stream);
}

tgm_status tgm_reduce_cols(tgm_ctx *c, tgm_op op, tgm_type type, const void *d_in, size_t m,
                           size_t n, size_t ld, void *d_out, void *stream) {
  return shape_call(c, "tgm_reduce_cols", op, type, TUNE_SHAPE_COLS, d_in, m, n, ld, d_out, stream);
}

static tgm_status shape_spectrum(tgm_ctx *c, const char *who, const char *spectrum, tgm_type type,
                                 tune_shape shape, const void *const *d_ins, int n_inputs, size_t m,
                                 size_t n, size_t ld, const void *const *params, int n_params,
                                 void *d_out, void *stream) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "%s: ctx is NULL", who);
  rd_opstate *st;
  tgm_status s = rd_load_spectrum(c, who, spectrum, (int)type, NULL, shape, &st);
  if (s != TGM_OK)
    return s;
  return run_shape(c, who, st, d_ins, n_inputs, m, n, ld, params, n_params, d_out, stream);
}

tgm_status tgm_reduce_spectrum_rows(tgm_ctx *c, const char *spectrum, tgm_type type,
                                    const void *const *d_ins, int n_inputs, size_t m, size_t n,
                                    size_t ld, const void *const *params, int n_params, void *d_out,
                                    void *stream) {
  return shape_spectrum(c, "tgm_reduce_spectrum_rows", spectrum, type, TUNE_SHAPE_ROWS, d_ins,
                        n_inputs, m, n, ld, params, n_params, d_out, stream);
}

tgm_status tgm_reduce_spectrum_cols(tgm_ctx *c, const char *spectrum, tgm_type type,
                                    const void *const *d_ins, int n_inputs, size_t m, size_t n,
                                    size_t ld, const void *const *params, int n_params, void *d_out,
                                    void *stream) {
  return shape_spectrum(c, "tgm_reduce_spectrum_cols", spectrum, type, TUNE_SHAPE_COLS, d_ins,
                        n_inputs, m, n, ld, params, n_params, d_out, stream);
}

static tgm_status shape_spectrum_prepare(tgm_ctx *c, const char *who, const char *spectrum,
                                         tgm_type type, tune_shape shape) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "%s: ctx is NULL", who);
  rd_opstate *st;
  tgm_status s = rd_load_spectrum(c, who, spectrum, (int)type, NULL, shape, &st);
  return s == TGM_OK ? shape_prepare(c, st) : s;
}

tgm_status tgm_reduce_spectrum_rows_prepare(tgm_ctx *c, const char *spectrum, tgm_type type) {
  return shape_spectrum_prepare(c, "tgm_reduce_spectrum_rows_prepare", spectrum, type,
                                TUNE_SHAPE_ROWS);
}

tgm_status tgm_reduce_spectrum_cols_prepare(tgm_ctx *c, const char *spectrum, tgm_type type) {
  return shape_spectrum_prepare(c, "tgm_reduce_spectrum_cols_prepare", spectrum, type,
                                TUNE_SHAPE_COLS);
}

static tgm_status shape_prepare_op(tgm_ctx *c, const char *who, tgm_op op, tgm_type type,
                                   tune_shape shape) {
  if (!c)
    return tgm__fail(TGM_ERR_INVALID, "%s: ctx is NULL", who);
  rd_opstate *st;
  tgm_status s = rd_load_op(c, who, (int)op, (int)type, shape, &st);
  return s == TGM_OK ? shape_prepare(c, st) : s;
}

tgm_status tgm_reduce_rows_prepare(tgm_ctx *c, tgm_op op, tgm_type type) {
  return shape_prepare_op(c, "tgm_reduce_rows_prepare", op, type, TUNE_SHAPE_ROWS);
}

tgm_status tgm_reduce_cols_prepare(tgm_ctx *c, tgm_op op, tgm_type type) {
  return shape_prepare_op(c, "tgm_reduce_cols_prepare", op, type, TUNE_SHAPE_COLS);
}

static tgm_status shape_explain(tgm_ctx *c, const char *who, tgm_op op, tgm_type type,
                                tune_shape shape, size_t m, size_t n,
                                tgm_reduce_shape_choice *out) {
  if (!c || !out)
    return tgm__fail(TGM_ERR_INVALID, "%s: ctx or out is NULL", who);
  rd_opstate *st;
  tgm_status s = rd_load_op(c, who, (int)op, (int)type, shape, &st);
  tune_shape_set k;
  int tuned;
  if (s == TGM_OK) {
    memset(out, 0, sizeof *out);
    s = rd_cells_pick(&st->cells, &st->m, &c->dev, m, n, 0, n, &k, &tuned, out->why,
                      sizeof out->why);
  }
  if (s != TGM_OK)
    return s;
  snprintf(out->variant, sizeof out->variant, "%s", st->m.v[k.v].id);
  out->block = k.block;
  out->items = k.items;
  out->per_row = k.per_row;
  out->width = k.width;
  out->parts = k.parts;
  out->tuned = tuned;
  return TGM_OK;
}

tgm_status tgm_reduce_rows_explain(tgm_ctx *c, tgm_op op, tgm_type type, size_t m, size_t n,
                                   tgm_reduce_shape_choice *out) {
  return shape_explain(c, "tgm_reduce_rows_explain", op, type, TUNE_SHAPE_ROWS, m, n, out);
}

tgm_status tgm_reduce_cols_explain(tgm_ctx *c, tgm_op op, tgm_type type, size_t m, size_t n,
                                   tgm_reduce_shape_choice *out) {
  return shape_explain(c, "tgm_reduce_cols_explain", op, type, TUNE_SHAPE_COLS, m, n, out);
}

// plan.c — which kernel tgm_reduce runs for n: the tuning database's
// winner for the size bucket of n, else the default. No device needed.
#include "plan.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// The default, used with no database or no entry for this GPU and these
// codelets: DSL.VS.SV, block 256, 1 item per thread, at most 4 blocks per
// SM. Why this one:
//   - one launch: no tgm_init, no second pass (the last block combines the
//     partials), so the fewest launch overheads at every size;
//   - deterministic: the same bits on every run, also for f32 sums;
//   - the grid is strided and capped at 4 blocks/SM (528 on an H100), which
//     keeps enough loads in flight to stream memory at large n while the
//     last block has few partials to combine; with a capped grid each
//     thread loops over the input anyway, so items = 1 costs nothing;
//   - 16-byte vector loads on the aligned body (SV): any T-aligned pointer;
//   - the same variant and knobs as `tgm-gen --embed --variant=DSL.VS.SV`
//     (codegen/embed.c), so the untuned header and this path agree.
// The tuner's H100 results put it within a small factor of the winners
// (it is never the slowest shape: B1 is for small n, DT/DTA need two
// launches). When the manifest lacks it (other codelets), the first variant
// the device can run is used with tune_default()'s knobs.
#define RD_DEFAULT_VARIANT "DSL.VS.SV"
#define RD_DEFAULT_BLOCK 256u
#define RD_DEFAULT_ITEMS 1u
#define RD_DEFAULT_CAP 4u

static const char *const op_names[] = {"sum", "max", "min"};
static const char *const type_names[] = {"i32", "f32", "u32", "i64", "f64"};
static const size_t type_sizes[] = {4, 4, 4, 8, 8};

const char *rd_op_name(int op) { return op >= 0 && op < 3 ? op_names[op] : NULL; }
const char *rd_type_name(int type) { return type >= 0 && type < 5 ? type_names[type] : NULL; }
size_t rd_type_size(int type) { return type >= 0 && type < 5 ? type_sizes[type] : 0; }

int rd_log2(unsigned long long n) {
  int l = 0;
  while (n > 1) {
    n >>= 1;
    l++;
  }
  return l;
}

tgm_status rd_check_args(int op, int type, const void *d_in, size_t n, const void *d_out) {
  if (!rd_op_name(op))
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce: unknown op %d", op);
  if (!rd_type_name(type))
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce: unknown type %d", type);
  size_t elem = rd_type_size(type);
  if (!d_out)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce: d_out is NULL");
  if ((uintptr_t)d_out % elem)
    return tgm__fail(TGM_ERR_INVALID,
                     "tgm_reduce: d_out %p is not aligned to %zu bytes (the size of %s)", d_out,
                     elem, type_names[type]);
  if (n && !d_in)
    return tgm__fail(TGM_ERR_INVALID, "tgm_reduce: d_in is NULL and n = %zu", n);
  if (n && (uintptr_t)d_in % elem)
    return tgm__fail(TGM_ERR_INVALID,
                     "tgm_reduce: d_in %p is not aligned to %zu bytes (the size of %s)", d_in, elem,
                     type_names[type]);
  return TGM_OK;
}

int rd_good_name(const char *s) {
  size_t n = 0;
  for (; s && s[n]; n++)
    if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
          (s[n] >= '0' && s[n] <= '9') || s[n] == '_') ||
        n == RD_MAX_NAME)
      return 0;
  return n > 0;
}

tgm_status rd_check_spectrum_args(const tune_manifest *m, const char *who, const void *const *d_ins,
                                  int n_inputs, size_t n, const void *const *params, int n_params,
                                  const void *d_out) {
  size_t elem = tune_type_size(m->elem), res = tune_type_size(m->res);
  size_t out_align = res > 8 ? 8 : res; // a pair {uint64 key; T value} is 8-aligned
  if (n_inputs != m->n_inputs || n_params != m->n_params)
    return tgm__fail(TGM_ERR_INVALID, "%s: %s takes %d input(s) and %d parameter(s), not %d and %d",
                     who, m->spectrum, m->n_inputs, m->n_params, n_inputs, n_params);
  if (!d_out)
    return tgm__fail(TGM_ERR_INVALID, "%s: d_out is NULL", who);
  if ((uintptr_t)d_out % out_align)
    return tgm__fail(TGM_ERR_INVALID, "%s: d_out %p is not aligned to %zu bytes (%s's result)", who,
                     d_out, out_align, m->spectrum);
  for (int k = 0; k < n_inputs; k++) {
    const void *in = d_ins ? d_ins[k] : NULL;
    if (n && !in)
      return tgm__fail(TGM_ERR_INVALID, "%s: input %d is NULL and n = %zu", who, k, n);
    if (n && (uintptr_t)in % elem)
      return tgm__fail(TGM_ERR_INVALID,
                       "%s: input %d at %p is not aligned to %zu bytes (the size of %s)", who, k,
                       in, elem, m->type);
  }
  for (int k = 0; k < n_params; k++)
    if (!params || !params[k])
      return tgm__fail(TGM_ERR_INVALID, "%s: parameter %d (%s) is NULL", who, k, m->param_names[k]);
  return TGM_OK;
}

tgm_status rd_check_overlap(const char *who, const void *const *d_ins, int n_inputs,
                            unsigned long long in_bytes, const void *d_out,
                            unsigned long long out_bytes) {
  for (int k = 0; k < n_inputs; k++)
    if (d_ins && tune_overlaps((uintptr_t)d_out, out_bytes, (uintptr_t)d_ins[k], in_bytes))
      return tgm__fail(TGM_ERR_INVALID,
                       "%s: d_out %p overlaps input %d (%p, %llu bytes): the result goes to memory "
                       "apart from the input",
                       who, d_out, k, d_ins[k], in_bytes);
  return TGM_OK;
}

tgm_status rd_db_load(const char *path, const char *shape, json_t **out, char *why,
                      size_t why_len) {
  *out = NULL;
  if (!path || !*path) {
    snprintf(why, why_len, "no tuning database (turned off)");
    return TGM_OK;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      snprintf(why, why_len, "no tuning database at %s", path);
      return TGM_OK;
    }
    return tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(errno));
  }
  // tgm_tune's reader: corrupt / foreign / newer with its messages, and
  // only the buckets kept (memory follows them, not the file's size)
  json_t *root = NULL;
  tgm_status s = tune_db_load_buckets(path, shape, &root);
  if (s == TGM_ERR_NOT_FOUND) { // removed since the stat
    snprintf(why, why_len, "no tuning database at %s", path);
    return TGM_OK;
  }
  if (s != TGM_OK)
    return s;
  *out = root;
  snprintf(why, why_len, "%s", path);
  return TGM_OK;
}

static int find_variant(const tune_manifest *m, const char *id) {
  for (int i = 0; i < m->n_v; i++)
    if (!strcmp(m->v[i].id, id))
      return i;
  return -1;
}

static int runnable(const tune_variant *v, const rd_device *d) {
  return v->cuda && v->min_sm <= d->cc_major * 10 + d->cc_minor &&
         (!d->deterministic || v->deterministic);
}

static int in_list(const unsigned *a, int n, unsigned x) {
  for (int i = 0; i < n; i++)
    if (a[i] == x)
      return 1;
  return 0;
}

static int make_default(const tune_manifest *m, const rd_device *d, rd_bucket *b) {
  memset(b, 0, sizeof *b);
  b->from = 0;
  b->to = 63;
  int v = find_variant(m, RD_DEFAULT_VARIANT);
  if (v >= 0 && runnable(&m->v[v], d)) {
    const tune_variant *x = &m->v[v];
    b->v = v;
    b->block = tune_nearest(x->blocks, x->n_blocks, RD_DEFAULT_BLOCK);
    b->items = tune_nearest(x->items, x->n_items, RD_DEFAULT_ITEMS);
    b->cap = x->n_caps ? tune_nearest(x->caps, x->n_caps, RD_DEFAULT_CAP) : 0;
    snprintf(b->why, sizeof b->why, "the default (%s)", RD_DEFAULT_VARIANT);
    return 1;
  }
  for (int i = 0; i < m->n_v; i++) {
    if (runnable(&m->v[i], d)) {
      tune_knobs k = tune_default(&m->v[i], i);
      b->v = i;
      b->block = k.block;
      b->items = k.items;
      b->cap = k.cap;
      snprintf(b->why, sizeof b->why, "the default (the manifest has no runnable %s)",
               RD_DEFAULT_VARIANT);
      return 1;
    }
  }
  return 0;
}

static int is_uint(json_t *v, long long lo, long long hi) {
  return json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi;
}

static const char *kstr(json_t *key, const char *k) {
  return json_string_value(json_object_get(key, k));
}

// The best entry for the device: type, op, mode "both" or "stream" (a call
// on a stream; "both" preferred: tgm-tune's default; rows and columns:
// "one"), device name and
// source hash must match (and deterministic when asked); among several, one
// measured with a cold L2, the same compute capability, SM count, driver
// and compiler is preferred, then (unless asked for deterministic) one
// tuned without --deterministic (a larger search).
static json_t *find_entry(json_t *db, const tune_manifest *m, const char *op, const rd_device *d,
                          int *stale, int *others) {
  json_t *best = NULL, *e;
  int best_score = -1;
  size_t i;
  char cc[16];
  snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
  *stale = *others = 0;
  json_array_foreach(json_object_get(db, "entries"), i, e) {
    json_t *k = json_object_get(e, "key");
    const char *kt = kstr(k, "type"), *ko = kstr(k, "op"), *km = kstr(k, "mode"),
               *kd = kstr(k, "device"), *kh = kstr(k, "source_hash"), *kc = kstr(k, "compiler");
    if (!kt || !ko || strcmp(kt, m->type) || strcmp(ko, op))
      continue;
    // "one": tgm-tune's mode for rows and columns (such entries are only
    // in a database loaded for a shape)
    if (!km || (strcmp(km, "stream") && strcmp(km, "both") && strcmp(km, "one")) || !kd ||
        strcmp(kd, d->name)) {
      ++*others;
      continue;
    }
    int det = json_is_true(json_object_get(k, "deterministic"));
    if (d->deterministic && !det) {
      ++*others;
      continue;
    }
    if (!kh || strcmp(kh, m->source_hash)) {
      ++*stale;
      continue;
    }
    if (!json_array_size(json_object_get(e, "buckets")))
      continue;
    int score = 0;
    score += strcmp(km, "stream") ? 64 : 0;
    score += json_is_true(json_object_get(k, "hot_l2")) ? 0 : 32;
    score += !d->deterministic && !det ? 16 : 0;
    score += kstr(k, "cc") && !strcmp(kstr(k, "cc"), cc) ? 8 : 0;
    score += json_integer_value(json_object_get(k, "sm_count")) == d->sm_count ? 4 : 0;
    score += json_integer_value(json_object_get(k, "driver")) == d->driver ? 2 : 0;
    score += kc && d->compiler && !strcmp(kc, d->compiler) ? 1 : 0;
    if (score > best_score) {
      best = e;
      best_score = score;
    }
  }
  return best;
}

// One bucket of the entry; 0 (and why) when it cannot be used.
static int read_bucket(const tune_manifest *m, const rd_device *d, json_t *o, rd_bucket *b,
                       char *why, size_t why_len) {
  memset(b, 0, sizeof *b);
  const char *id = json_string_value(json_object_get(o, "variant"));
  json_t *from = json_object_get(o, "from_log2n"), *to = json_object_get(o, "to_log2n");
  json_t *bl = json_object_get(o, "block"), *it = json_object_get(o, "items"),
         *cap = json_object_get(o, "grid_cap_per_sm");
  b->from = 1, b->to = 0; // no range (to < from): the bucket is dropped
  if (!is_uint(from, 0, 63) || !is_uint(to, 0, 63) ||
      json_integer_value(from) > json_integer_value(to)) {
    snprintf(why, why_len, "a bucket without a valid size range");
    return 0;
  }
  b->from = (int)json_integer_value(from);
  b->to = (int)json_integer_value(to);
  if (!id || !is_uint(bl, 1, 65536) || !is_uint(it, 1, 65536) || (cap && !is_uint(cap, 0, 65536))) {
    snprintf(why, why_len, "a malformed bucket (variant, block, items, grid_cap_per_sm)");
    return 0;
  }
  int v = find_variant(m, id);
  if (v < 0) {
    snprintf(why, why_len, "%s is not in the manifest", id);
    return 0;
  }
  const tune_variant *x = &m->v[v];
  if (!runnable(x, d)) {
    snprintf(why, why_len, "%s cannot run here (%s)", id,
             !x->cuda                                ? "no CUDA dialect"
             : d->deterministic && !x->deterministic ? "not deterministic"
                                                     : "needs a newer GPU");
    return 0;
  }
  b->v = v;
  b->block = (unsigned)json_integer_value(bl);
  b->items = (unsigned)json_integer_value(it);
  b->cap = x->n_caps ? (unsigned)json_integer_value(cap) : 0;
  if (!in_list(x->blocks, x->n_blocks, b->block) || !in_list(x->items, x->n_items, b->items) ||
      (x->n_caps && !in_list(x->caps, x->n_caps, b->cap))) {
    snprintf(why, why_len, "%s block %u items %u cap %u is not one of its settings", id, b->block,
             b->items, b->cap);
    return 0;
  }
  b->tuned = 1;
  char kn[64];
  if (b->cap)
    snprintf(kn, sizeof kn, "block %u, items %u, %u blocks/SM", b->block, b->items, b->cap);
  else
    snprintf(kn, sizeof kn, "block %u, items %u", b->block, b->items);
  snprintf(b->why, sizeof b->why, "tuned: %s, %s (sizes 2^%d..2^%d)", id, kn, b->from, b->to);
  return 1;
}

tgm_status rd_plan_make(const tune_manifest *m, const char *op, json_t *db, const char *db_why,
                        const rd_device *d, rd_plan *out) {
  memset(out, 0, sizeof *out);
  if (!make_default(m, d, &out->def))
    return tgm__fail(TGM_ERR_MANIFEST, "%s: no variant this GPU (sm_%d%d) can run%s", m->path,
                     d->cc_major, d->cc_minor, d->deterministic ? " deterministically" : "");
  if (!db) {
    snprintf(out->why, sizeof out->why, "%s", db_why ? db_why : "no tuning database");
    snprintf(out->def.why, sizeof out->def.why, "the default (%s): %s", RD_DEFAULT_VARIANT,
             out->why);
    return TGM_OK;
  }
  int stale = 0, others = 0;
  json_t *e = find_entry(db, m, op, d, &stale, &others);
  if (!e) {
    snprintf(out->why, sizeof out->why, "no entry in %s for %s %s, mode both or stream%s, on %s%s",
             db_why, op, m->type, d->deterministic ? ", deterministic" : "", d->name,
             stale ? " for these codelets (the entries found were tuned for another source: run "
                     "tgm-tune again)"
                   : "");
    snprintf(out->def.why, sizeof out->def.why, "the default (%s): %s", RD_DEFAULT_VARIANT,
             out->why);
    return TGM_OK;
  }
  json_t *bs = json_object_get(e, "buckets"), *o;
  out->b = calloc(json_array_size(bs), sizeof *out->b);
  if (!out->b)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  size_t i;
  int bad = 0;
  json_array_foreach(bs, i, o) {
    rd_bucket *b = &out->b[out->n];
    char why[200];
    if (!read_bucket(m, d, o, b, why, sizeof why)) {
      bad++;
      if (b->to < b->from) // no range to give the default: dropped
        continue;
      int from = b->from, to = b->to;
      *b = out->def;
      b->from = from;
      b->to = to;
      snprintf(b->why, sizeof b->why, "the default (%s): the database's bucket 2^%d..2^%d: %s",
               RD_DEFAULT_VARIANT, from, to, why);
    }
    if (out->n && out->b[out->n - 1].to >= b->from) {
      // out of order or overlapping: the entry cannot be trusted
      free(out->b);
      out->b = NULL;
      out->n = 0;
      snprintf(out->why, sizeof out->why,
               "%s: the buckets of %s %s on %s overlap or are out of order", db_why, op, m->type,
               d->name);
      snprintf(out->def.why, sizeof out->def.why, "the default (%s): %s", RD_DEFAULT_VARIANT,
               out->why);
      return TGM_OK;
    }
    out->n++;
  }
  json_t *k = json_object_get(e, "key");
  snprintf(out->why, sizeof out->why, "%s: %s %s, mode %s, %s (cc %s, %lld SMs, %s)%s", db_why, op,
           m->type, kstr(k, "mode"), d->name, kstr(k, "cc") ? kstr(k, "cc") : "?",
           (long long)json_integer_value(json_object_get(k, "sm_count")),
           kstr(k, "compiler") ? kstr(k, "compiler") : "?",
           bad ? "; some buckets unusable, the default runs there" : "");
  if (!out->n)
    snprintf(out->def.why, sizeof out->def.why, "the default (%s): %s", RD_DEFAULT_VARIANT,
             out->why);
  return TGM_OK;
}

void rd_plan_free(rd_plan *p) {
  free(p->b);
  memset(p, 0, sizeof *p);
}

const rd_bucket *rd_plan_pick(const rd_plan *p, unsigned long long n) {
  if (!p->n)
    return &p->def;
  int l = rd_log2(n ? n : 1);
  const rd_bucket *best = &p->b[0]; // below the first bucket: the first
  for (int i = 0; i < p->n; i++)
    if (p->b[i].from <= l)
      best = &p->b[i]; // in a bucket, between two (the lower), above the last
  return best;
}

// ------------------------------------------------------ rows and columns
void rd_set_text(const tune_manifest *m, const tune_shape_set *k, char *buf, size_t len) {
  const tune_variant *v = &m->v[k->v];
  tune_rule r = tune_shape_main(v)->rule;
  if (tune_rule_cols(r))
    snprintf(buf, len, "%s b%u w%u p%u", v->id, k->block, k->width, k->parts);
  else if (r == RULE_ROWS)
    snprintf(buf, len, "%s b%u i%u", v->id, k->block, k->items);
  else
    snprintf(buf, len, "%s b%u i%u r%u", v->id, k->block, k->items, k->per_row);
}

// One cell of the entry; 0 (and why) when it cannot be used.
static int read_cell(const tune_manifest *m, const rd_device *d, json_t *o, rd_cell *c, char *why,
                     size_t why_len) {
  memset(c, 0, sizeof *c);
  const char *id = json_string_value(json_object_get(o, "variant"));
  json_t *lm = json_object_get(o, "log2m"), *ln = json_object_get(o, "log2n");
  static const char *const knob[5] = {"block", "items", "per_row", "width", "parts"};
  long long kv[5];
  for (int i = 0; i < 5; i++) {
    json_t *x = json_object_get(o, knob[i]);
    if (!is_uint(x, 0, 65536)) {
      snprintf(why, why_len, "a malformed cell (%s)", knob[i]);
      return 0;
    }
    kv[i] = json_integer_value(x);
  }
  if (!id || !is_uint(lm, 1, 63) || !is_uint(ln, 1, 63) || !(json_integer_value(lm) & 1) ||
      !(json_integer_value(ln) & 1)) {
    snprintf(why, why_len, "a malformed cell (variant, log2m, log2n)");
    return 0;
  }
  c->log2m = (int)json_integer_value(lm);
  c->log2n = (int)json_integer_value(ln);
  int v = find_variant(m, id);
  if (v < 0 || !runnable(&m->v[v], d)) {
    snprintf(why, why_len, "%s %s", id, v < 0 ? "is not in the manifest" : "cannot run here");
    return 0;
  }
  c->k = (tune_shape_set){v,
                          (unsigned)kv[0],
                          (unsigned)kv[1],
                          (unsigned)kv[2],
                          (unsigned)kv[3],
                          (unsigned)kv[4]};
  const tune_variant *x = &m->v[v];
  tune_rule r = tune_shape_main(x)->rule;
  if (!in_list(x->blocks, x->n_blocks, c->k.block) ||
      (!tune_rule_cols(r) && !in_list(x->items, x->n_items, c->k.items)) ||
      (r == RULE_ROWS_GROUP && !in_list(x->per_row, x->n_per_row, c->k.per_row)) ||
      (r == RULE_ROWS_PARTS && c->k.per_row < 2) || (r == RULE_ROWS_ATOMIC && !c->k.per_row) ||
      (tune_rule_cols(r) && (!c->k.width || !c->k.parts))) {
    char kn[96];
    rd_set_text(m, &c->k, kn, sizeof kn);
    snprintf(why, why_len, "%s is not one of its settings", kn);
    return 0;
  }
  return 1;
}

tgm_status rd_cells_make(const tune_manifest *m, const char *op, json_t *db, const char *db_why,
                         const rd_device *d, rd_cells *out) {
  memset(out, 0, sizeof *out);
  if (!db) {
    snprintf(out->why, sizeof out->why, "%s", db_why ? db_why : "no tuning database");
    return TGM_OK;
  }
  int stale = 0, others = 0;
  json_t *e = find_entry(db, m, op, d, &stale, &others);
  const char *what = m->shape == TUNE_SHAPE_COLS ? "columns" : "rows";
  if (!e) {
    snprintf(out->why, sizeof out->why, "no entry in %s for %s %s %s%s on %s%s", db_why, op,
             m->type, what, d->deterministic ? ", deterministic" : "", d->name,
             stale ? " for these codelets (the entries found were tuned for another source: run "
                     "tgm-tune again)"
                   : "");
    return TGM_OK;
  }
  json_t *bs = json_object_get(e, "buckets"), *o;
  out->c = calloc(json_array_size(bs) + 1, sizeof *out->c);
  if (!out->c)
    return tgm__fail(TGM_ERR_MEMORY, "out of memory");
  size_t i;
  int bad = 0;
  char first[256] = "";
  json_array_foreach(bs, i, o) {
    char why[200];
    if (read_cell(m, d, o, &out->c[out->n], why, sizeof why))
      out->n++;
    else if (!bad++)
      snprintf(first, sizeof first, "cell %zu: %s", i, why);
  }
  json_t *k = json_object_get(e, "key");
  int len = snprintf(out->why, sizeof out->why, "%s: %s %s %s, mode %s, %s (cc %s, %lld SMs, %s)",
                     db_why, op, m->type, what, kstr(k, "mode"), d->name,
                     kstr(k, "cc") ? kstr(k, "cc") : "?",
                     (long long)json_integer_value(json_object_get(k, "sm_count")),
                     kstr(k, "compiler") ? kstr(k, "compiler") : "?");
  if (bad && len > 0 && (size_t)len < sizeof out->why)
    snprintf(out->why + len, sizeof out->why - (size_t)len,
             "; %d cell(s) unusable, the rule runs there (%s)", bad, first);
  return TGM_OK;
}

void rd_cells_free(rd_cells *p) {
  free(p->c);
  memset(p, 0, sizeof *p);
}

tgm_status rd_cells_pick(const rd_cells *p, const tune_manifest *m, const rd_device *d,
                         unsigned long long rows, unsigned long long n, uint64_t in_addr,
                         unsigned long long ld, tune_shape_set *k, int *tuned, char *why,
                         size_t why_len) {
  unsigned y;
  char kn[96];
  *tuned = 0;
  if (rows && n) {
    int lm = tune_shape_cell(rows), ln = tune_shape_cell(n);
    for (int i = 0; i < p->n; i++) {
      const rd_cell *c = &p->c[i];
      if (c->log2m != lm || c->log2n != ln)
        continue;
      if (tune_shape_set_grid(m, &c->k, in_addr, rows, n, ld, &y)) {
        *k = c->k;
        *tuned = 1;
        if (why) {
          rd_set_text(m, k, kn, sizeof kn);
          snprintf(why, why_len, "tuned: %s (the cell 2^%d x 2^%d of %s)", kn, lm, ln, p->why);
        }
        return TGM_OK;
      }
      break; // its setting cannot run on this shape of the cell: the rule's
    }
  }
  *k = tune_shape_rule(m, rows, n, (unsigned)d->sm_count, (unsigned)d->max_threads, d->sm_gbps,
                       d->deterministic);
  if (k->v < 0 || !runnable(&m->v[k->v], d))
    return tgm__fail(TGM_ERR_MANIFEST,
                     "%s: no variant this GPU (sm_%d%d) can run%s for the rule's choice at %llu x "
                     "%llu (the manifest's pick_variants)",
                     m->path, d->cc_major, d->cc_minor,
                     d->deterministic ? " deterministically" : "", rows, n);
  if (!why)
    return TGM_OK;
  rd_set_text(m, k, kn, sizeof kn);
  snprintf(why, why_len, "the rule (launch_rule.tpl's %s): %s; %s",
           m->shape == TUNE_SHAPE_COLS ? "tgm_cols_pick_of" : "tgm_rows_pick_of", kn, p->why);
  return TGM_OK;
}

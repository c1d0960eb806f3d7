// shapes.c — tgm-tune over the rows or the columns of a matrix (manifests of
// tgm-gen --rows, --cols). Buckets over (log2 m, log2 n): the cell of
// 2^a x 2^b (a, b odd) holds m in [2^(a-1), 2^(a+1)) and n likewise
// (launch_rule.tpl's tgm_shape_cell), and is tuned at its middle shape, or at
// the shapes --shapes names. In each:
//   1. the rule's choice (launch_rule.tpl's tgm_rows_pick_of /
//      tgm_cols_pick_of with the variants the embedded call runs, the
//      manifest's pick_variants) and a seed setting of every other usable
//      variant, each checked against the reference kernel on that shape
//      (every row or column, or 256 spread over the matrix and at most 2^23
//      elements of reference work) and on three small shapes (m = 1, n = 1;
//      ld > n; a misaligned start), then timed: the screen;
//   2. the four fastest refined one knob step at a time (block, items,
//      per_row, width, parts), while the best improves (three rounds);
//   3. the best against the rule's choice in interleaved rounds: the best
//      replaces the rule only where its margin's interval lies beyond the
//      noise (--noise); the database keeps the choice, the runner-up, the
//      margin and the rule's own setting and time.
// Only settings the embedded call can run are candidates: its temp storage
// (tgm_rows_embed_temp, tgm_cols_embed_temp) bounds RL's and CT's partials.
// The report says per kind of the rule's choice how far it is from the
// tuned best: the test of seed 003's plan and of the picks built on it.
#include "tuner.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHECK_MAX = 256, REFINE_TOP = 4, REFINE_ROUNDS = 3, AB_ROUNDS = 9, SCREEN_SAMPLES = 5 };
static const unsigned long long REFERENCE_WORK = 1ull << 23; // elements the reference reads a shape

typedef tune_shape_set shape_set;

typedef struct {
  unsigned long long m, n, ld;
} dims;

typedef struct {
  shape_set k;
  dims d;
} timed_call;

typedef struct {
  shape_set k;
  tune_stats st;
} scored;

// A small shape every setting is checked on first, with its element offset.
typedef struct {
  dims d;
  unsigned off;
} edge;
static const edge edges[] = {{{1, 1, 1}, 0}, {{3, 31, 34}, 1}, {{5, 33, 37}, 3}};
enum { N_EDGES = sizeof edges / sizeof edges[0] };
// A floating-point element: the edge shapes again on NaN elements
// (tune_fill_nan, a NaN every NAN_EVERY elements: several a row), in a buffer
// of their own.
enum { NAN_EVERY = 13 };

typedef struct {
  ctx *c;
  int cols;
  tgm_devptr out, scratch; // out: one R a row or column; scratch: gathered columns
  size_t out_bytes, scratch_bytes;
  char *host; // columns: the matrix on the host, for the gather
  size_t host_bytes;
  // the shape under check: its checked rows or columns and their reference
  unsigned long long idx[CHECK_MAX];
  int n_idx;
  char *want, *got; // R[3] each, R each
  // the edge shapes' references (every row or column); with NaN elements
  // (nan_in: the inputs nan_gap apart; 0 for an integer element)
  char *edge_want[N_EDGES], *nan_want[N_EDGES];
  tgm_devptr nan_in;
  size_t nan_gap;
  // settings already checked on the edge shapes: 1 good, -1 bad
  shape_set *seen;
  signed char *seen_ok;
  int n_seen, cap_seen;
  FILE *csv;   // every timing
  int resumed; // cells found in the database
} shp;

static const tune_variant *var(ctx *c, const shape_set *k) { return &c->m.v[k->v]; }
static tune_rule rule_of(ctx *c, const shape_set *k) { return tune_shape_main(var(c, k))->rule; }

static int same_set(const shape_set *a, const shape_set *b) {
  return a->v == b->v && a->block == b->block && a->items == b->items && a->per_row == b->per_row &&
         a->width == b->width && a->parts == b->parts;
}

static void set_text(ctx *c, const shape_set *k, char *buf, size_t len) {
  tune_rule r = rule_of(c, k);
  if (tune_rule_cols(r))
    snprintf(buf, len, "%s b%u w%u p%u", var(c, k)->id, k->block, k->width, k->parts);
  else if (r == RULE_ROWS)
    snprintf(buf, len, "%s b%u i%u", var(c, k)->id, k->block, k->items);
  else
    snprintf(buf, len, "%s b%u i%u r%u", var(c, k)->id, k->block, k->items, k->per_row);
}

static int index_of(const unsigned *a, int n, unsigned x) {
  for (int i = 0; i < n; i++)
    if (a[i] == x)
      return i;
  return -1;
}

// The setting's grid on d at in, 0 when it cannot run there: no launch,
// more temp storage than the embedded call has (tune_shape_set_grid) or
// than the tuner's.
static unsigned grid_of(ctx *c, const shape_set *k, tgm_devptr in, dims d, unsigned *y) {
  unsigned x = tune_shape_set_grid(&c->m, k, in, d.m, d.n, d.ld, y);
  tune_rule r = rule_of(c, k);
  unsigned group = tune_rule_cols(r) ? k->width : k->per_row;
  return x && tune_shape_temp(r, d.m, d.n, group, k->parts, c->acc_size) <= c->temp_bytes ? x : 0;
}

// One reduction of the matrix at in (its inputs c->in_gap apart) into out,
// as the embedded call runs it: the counters cleared (CT), or out set to
// the identity (CA's tgm_init_out), then the variant's kernel.
static tgm_status enqueue(ctx *c, const shape_set *k, tgm_devptr in, dims d, tgm_devptr out) {
  const tune_variant *v = var(c, k);
  const tune_launch *l = tune_shape_main(v);
  unsigned y, x = grid_of(c, k, in, d, &y);
  if (!x)
    return tgm__fail(TGM_ERR_INVALID, "cannot launch here");
  size_t counters = tune_shape_counters(l->rule, k->parts);
  tgm_status s;
  if (counters && (s = tgm_memset(c->b, c->temp, 0, counters, c->s)) != TGM_OK)
    return s;
  tune_call call = {.params = c->param_vals,
                    .m = d.m,
                    .ld = d.ld,
                    .width = k->width,
                    .n = d.n,
                    .out = out,
                    .has_temp = 1,
                    .partials = c->temp +
                                (counters ? counters : tune_shape_counters(RULE_ROWS_PARTS, 0)),
                    .counter = c->temp,
                    .items = k->items};
  for (int i = 0; i < c->n_in; i++)
    call.in[i] = in + (tgm_devptr)i * c->in_gap;
  const fn_ref *ref = &c->refs[k->v][index_of(v->blocks, v->n_blocks, k->block)];
  tgm_function fs[TUNE_MAX_LAUNCHES];
  const int path = tune_items_index(k->items); // a kernel a path of loads in flight
  for (int i = 0; i < v->n_pos; i++) {         // RW: the kernel of the setting's GROUP
    int name = &v->pos[i] == l && l->rule == RULE_ROWS_GROUP
                   ? ref->gname[index_of(v->per_row, v->n_per_row, k->per_row)][path]
                   : ref->name[path][i];
    if ((s = tgm_module_function(c->mods[ref->job], name, &fs[i])) != TGM_OK)
      return s;
  }
  return tune_shape_launch(c->b, v, fs, &call, x, y, k->block, c->s);
}

static tgm_status enq_timed(ctx *c, const void *arg, tgm_devptr in, unsigned long long n) {
  (void)n;
  const timed_call *t = arg;
  return enqueue(c, &t->k, in, t->d, c->out);
}

// ---------------------------------------------------------------- checking
static size_t outputs(const shp *s, dims d) { return (size_t)(s->cols ? d.n : d.m); }

// The reference of output j (row or column j) of the matrix at in: rows
// run the reference kernel on the row, columns on the column gathered
// contiguous (each input's, c->in_gap apart there as here).
static tgm_status reference_one(shp *s, tgm_devptr in, dims d, unsigned long long j, void *want) {
  ctx *c = s->c;
  if (!s->cols)
    return verify_reference(c, in + (tgm_devptr)(j * d.ld * c->elem), d.n, want);
  size_t gap = ((size_t)(d.m ? d.m : 1) * c->elem + 255) / 256 * 256;
  char *col = malloc(gap);
  if (!col)
    return tgm__fail(TGM_ERR_MEMORY, "out of host memory");
  tgm_status st = TGM_OK;
  size_t mat = (size_t)(d.m ? (d.m - 1) * d.ld + d.n : 0) * c->elem;
  for (int i = 0; i < c->n_in && st == TGM_OK; i++) {
    const char *h = s->host + (size_t)i * mat;
    for (unsigned long long r = 0; r < d.m; r++)
      memcpy(col + r * c->elem, h + (r * d.ld + j) * c->elem, c->elem);
    st = tgm_copy_to_device(c->b, s->scratch + (tgm_devptr)i * gap, col, (size_t)d.m * c->elem);
  }
  free(col);
  size_t keep = c->in_gap;
  c->in_gap = gap;
  if (st == TGM_OK)
    st = verify_reference(c, s->scratch, d.m, want);
  c->in_gap = keep;
  return st;
}

// The rows or columns checked on d (every one, or CHECK_MAX spread over it
// within REFERENCE_WORK elements, the first and last among them) and their
// reference values into s->want.
static tgm_status reference_of(shp *s, tgm_devptr in, dims d) {
  ctx *c = s->c;
  unsigned long long count = outputs(s, d), len = s->cols ? d.m : d.n;
  unsigned long long most = REFERENCE_WORK / (len ? len : 1);
  if (most > CHECK_MAX)
    most = CHECK_MAX;
  if (most < 2)
    most = 2;
  s->n_idx = (int)(count < most ? count : most);
  for (int i = 0; i < s->n_idx; i++)
    s->idx[i] = count <= most ? (unsigned long long)i
                              : (unsigned long long)i * (count - 1) / (most - 1);
  if (s->cols) { // the matrix (each input) on the host, for the gather
    size_t mat = (size_t)(d.m ? (d.m - 1) * d.ld + d.n : 0) * c->elem;
    tgm_status st = TGM_OK;
    for (int i = 0; i < c->n_in && st == TGM_OK && mat; i++)
      st = tgm_copy_to_host(c->b, s->host + (size_t)i * mat, in + (tgm_devptr)i * c->in_gap, mat);
    if (st != TGM_OK)
      return st;
  }
  for (int i = 0; i < s->n_idx; i++) {
    tgm_status st = reference_one(s, in, d, s->idx[i], s->want + (size_t)i * 3 * c->res_size);
    if (st != TGM_OK)
      return st;
  }
  return TGM_OK;
}

// Runs k on d at in with the output poisoned, twice (each run clears the
// counters first, as the embedded call does; the second finds the partials
// the first left), and compares the checked outputs with want (R[3] each, in
// s->idx order). 0: right; else why in buf.
static int check_run(shp *s, const shape_set *k, tgm_devptr in, dims d, const char *want, char *buf,
                     size_t len) {
  ctx *c = s->c;
  size_t nout = outputs(s, d);
  for (int run = 0; run < 2; run++) {
    tgm_status st = tgm_memset(c->b, s->out, 0xA5, nout * c->res_size, c->s);
    if (st == TGM_OK)
      st = enqueue(c, k, in, d, s->out);
    if (st == TGM_OK)
      st = tgm_stream_sync(c->b, c->s);
    for (int i = 0; i < s->n_idx && st == TGM_OK; i++)
      st = tgm_copy_to_host(c->b, s->got + (size_t)i * c->res_size,
                            s->out + (tgm_devptr)(s->idx[i] * c->res_size), c->res_size);
    if (st != TGM_OK) {
      snprintf(buf, len, "%llu x %llu (ld %llu): %s", d.m, d.n, d.ld,
               tgm_last_error()[0] ? tgm_last_error() : tgm_strerror(st));
      return 1;
    }
    for (int i = 0; i < s->n_idx; i++) {
      const char *g = s->got + (size_t)i * c->res_size, *w = want + (size_t)i * 3 * c->res_size;
      if (!tune_same(&c->m, g, w)) {
        char gt[64], wt[64];
        tune_value_text(&c->m, g, gt, sizeof gt);
        tune_value_text(&c->m, w, wt, sizeof wt);
        snprintf(buf, len, "%llu x %llu (ld %llu), %s %llu%s: %s, want %s", d.m, d.n, d.ld,
                 s->cols ? "column" : "row", s->idx[i], run ? ", second run" : "", gt, wt);
        return 1;
      }
    }
  }
  return 0;
}

// The edge shapes' reference values at base (their data: its start; the
// inputs gap apart) into want[], once.
static tgm_status edge_references_at(shp *s, tgm_devptr base, size_t gap, char *want[N_EDGES]) {
  ctx *c = s->c;
  size_t keep = c->in_gap; // what reference_of reads the inputs by
  c->in_gap = gap;
  tgm_status st = TGM_OK;
  for (int e = 0; e < N_EDGES && st == TGM_OK; e++) {
    dims d = edges[e].d;
    tgm_devptr in = base + edges[e].off * c->elem;
    if ((st = reference_of(s, in, d)) != TGM_OK)
      break;
    size_t bytes = (size_t)s->n_idx * 3 * c->res_size;
    want[e] = malloc(bytes);
    if (!want[e])
      st = tgm__fail(TGM_ERR_MEMORY, "out of host memory");
    else
      memcpy(want[e], s->want, bytes);
  }
  c->in_gap = keep;
  return st;
}

// The edge shapes' data and references: the pool's start, and for a
// floating-point element NaN elements in a buffer of their own (its inputs
// nan_gap apart).
static tgm_status edge_references(shp *s) {
  ctx *c = s->c;
  tgm_status st = edge_references_at(s, c->pool, c->in_gap, s->edge_want);
  if (st != TGM_OK)
    return st;
  size_t elems = 0;
  for (int e = 0; e < N_EDGES; e++) {
    size_t end = edges[e].off + (edges[e].d.m - 1) * edges[e].d.ld + edges[e].d.n;
    elems = end > elems ? end : elems;
  }
  size_t gap = (elems * c->elem + 255) / 256 * 256;
  char *host = calloc(c->n_in, gap);
  if (!host)
    return tgm__fail(TGM_ERR_MEMORY, "out of host memory");
  uint64_t rng = 0x2545f4914f6cdd1dull;
  int nan = 1;
  for (int i = 0; i < c->n_in && nan; i++)
    nan = tune_fill_nan(&c->m, host + (size_t)i * gap, elems, NAN_EVERY, &rng);
  if (nan) {
    st = tgm_malloc(c->b, gap * (size_t)c->n_in, &s->nan_in);
    if (st == TGM_OK)
      st = tgm_copy_to_device(c->b, s->nan_in, host, gap * (size_t)c->n_in);
    s->nan_gap = gap;
    if (st == TGM_OK)
      st = edge_references_at(s, s->nan_in, gap, s->nan_want);
  }
  free(host);
  return st;
}

// k on the edge shapes at base (the inputs gap apart; want: their
// references); 0 when right, else why in buf.
static int edges_wrong(shp *s, const shape_set *k, tgm_devptr base, size_t gap,
                       char *const want[N_EDGES], char *why, size_t len) {
  ctx *c = s->c;
  size_t keep = c->in_gap; // what enqueue reads the inputs by
  c->in_gap = gap;
  int bad = 0;
  for (int e = 0; e < N_EDGES && !bad; e++) {
    dims ed = edges[e].d;
    unsigned y;
    tgm_devptr ein = base + edges[e].off * c->elem;
    if (!grid_of(c, k, ein, ed, &y))
      continue; // the setting cannot run on this shape: nothing to check
    s->n_idx = (int)outputs(s, ed);
    for (int i = 0; i < s->n_idx; i++)
      s->idx[i] = (unsigned long long)i;
    bad = check_run(s, k, ein, ed, want[e], why, len);
  }
  c->in_gap = keep;
  return bad;
}

// Checks k on the edge shapes (once a setting) and on d at in (s->want
// holds its reference). A setting that fails is listed with the reason.
static int checked(shp *s, const shape_set *k, tgm_devptr in, dims d) {
  ctx *c = s->c;
  char why[320], what[96]; // room for the NaN prefix before a why of 256
  int seen = -1;
  for (int i = 0; i < s->n_seen; i++)
    if (same_set(&s->seen[i], k))
      seen = i;
  if (seen >= 0 && s->seen_ok[seen] < 0)
    return 0;
  int bad = 0;
  if (seen < 0) {
    // the edge shapes' checked outputs are all of them: idx is 0..count-1
    int keep_n = s->n_idx;
    unsigned long long keep_idx[CHECK_MAX];
    memcpy(keep_idx, s->idx, sizeof keep_idx);
    bad = edges_wrong(s, k, c->pool, c->in_gap, s->edge_want, why, sizeof why);
    if (!bad && s->nan_in) { // NaN elements: their inputs nan_gap apart
      char nan_why[256];
      bad = edges_wrong(s, k, s->nan_in, s->nan_gap, s->nan_want, nan_why, sizeof nan_why);
      if (bad)
        snprintf(why, sizeof why, "NaN elements (every %dth): %s", NAN_EVERY, nan_why);
    }
    s->n_idx = keep_n;
    memcpy(s->idx, keep_idx, sizeof keep_idx);
    if (s->n_seen == s->cap_seen) {
      int cap = s->cap_seen ? 2 * s->cap_seen : 256;
      shape_set *ns = realloc(s->seen, (size_t)cap * sizeof *ns);
      signed char *no = ns ? realloc(s->seen_ok, (size_t)cap) : NULL;
      if (ns)
        s->seen = ns;
      if (no)
        s->seen_ok = no, s->cap_seen = cap;
    }
    if (s->n_seen < s->cap_seen) {
      s->seen[s->n_seen] = *k;
      s->seen_ok[s->n_seen++] = bad ? -1 : 1;
    }
  }
  if (!bad)
    bad = check_run(s, k, in, d, s->want, why, sizeof why);
  if (!bad)
    return 1;
  set_text(c, k, what, sizeof what);
  size_t len = strlen(what) + strlen(why) + 3;
  char *line = malloc(len);
  char **ex = realloc(c->excluded, (size_t)(c->n_excluded + 1) * sizeof *ex);
  if (line && ex) {
    snprintf(line, len, "%s: %s", what, why);
    c->excluded = ex;
    c->excluded[c->n_excluded++] = line;
  } else {
    free(line);
    if (ex)
      c->excluded = ex;
  }
  if (!c->o->quiet)
    fprintf(stderr, "tgm-tune: excluded %s: %s\n", what, why);
  if (seen >= 0)
    s->seen_ok[seen] = -1;
  return 0;
}

// ------------------------------------------------------------- candidates
// The rule's choice on d, as a setting (v -1: the manifest names no variant
// for its kind, or that variant is not usable here).
static shape_set rule_choice(shp *s, dims d) {
  ctx *c = s->c;
  shape_set k = tune_shape_rule(&c->m, d.m, d.n, (unsigned)c->info->sm_count,
                                (unsigned)c->info->max_threads,
                                tune_sm_gbps(c->info->peak_gbps, c->info->sm_count),
                                c->o->deterministic);
  if (k.v < 0 || !c->usable[k.v])
    k.v = -1;
  return k;
}

static unsigned pow2_floor(unsigned long long x) {
  unsigned p = 1;
  while ((unsigned long long)p * 2 <= x && p < (1u << 30))
    p *= 2;
  return p;
}

// Variant v's seed on d: the rule's knobs where v is of the rule's kind,
// else knobs for its own kind near the rule's.
static shape_set seed_of(ctx *c, int v, const shape_set *rule, dims d) {
  const tune_variant *x = &c->m.v[v];
  tune_rule r = tune_shape_main(x)->rule;
  shape_set k = {v, 256, 1, 0, 0, 0};
  // RL and RA take the same knobs (blocks a row): either seeds the other
  int same_kind = rule->v >= 0 &&
                  (rule_of(c, rule) == r ||
                   (tune_rule_row_parts(rule_of(c, rule)) && tune_rule_row_parts(r)));
  if (same_kind) {
    k = *rule;
    k.v = v;
  } else if (r == RULE_ROWS_GROUP) {
    unsigned long long g = d.n < 128 ? d.n / 4 : d.n / 16;
    k.per_row = tune_nearest(x->per_row, x->n_per_row, pow2_floor(g ? g : 1));
    k.block = 128;
  } else if (r == RULE_ROWS_PARTS) {
    unsigned long long want = (2ull * (unsigned)c->info->sm_count + d.m - 1) / (d.m ? d.m : 1);
    k.per_row = want < 2 ? 2 : want > 4096 ? 4096 : (unsigned)want;
    k.block = d.n >= 16384 ? 1024 : 256;
    k.items = d.n >= 16384 ? 4 : 1;
  } else if (r == RULE_ROWS_ATOMIC) { // the rule's RA setting (blocks of 256)
    k.per_row = tune_rows_atomic_per_row(d.m, d.n, (unsigned)c->info->sm_count);
    k.items = 4;
  } else if (tune_rule_cols(r)) {
    k = *rule;
    k.v = v;
  }
  k.block = tune_nearest(x->blocks, x->n_blocks, k.block);
  k.items = tune_nearest(x->items, x->n_items, k.items);
  if (r == RULE_ROWS_GROUP)
    k.per_row = tune_nearest(x->per_row, x->n_per_row, k.per_row ? k.per_row : 1);
  if (r == RULE_ROWS)
    k.per_row = 0;
  if (r == RULE_ROWS_PARTS && k.per_row < 2) // seeded by RA's one block a row
    k.per_row = 2;
  if (tune_rule_cols(r) && !x->vec && k.width) { // a scalar CT: columns a block, not groups
    unsigned cols = k.width * (unsigned)(16 / c->elem);
    if (rule->v >= 0 && c->m.v[rule->v].vec)
      k.width = cols < k.block ? cols : k.block;
  }
  if (!tune_rule_cols(r))
    k.width = 0, k.parts = 0;
  return k;
}

// The settings one knob step from k (at most 10).
static int neighbours(ctx *c, const shape_set *k, shape_set out[10]) {
  const tune_variant *x = var(c, k);
  tune_rule r = rule_of(c, k);
  int n = 0;
  int bi = index_of(x->blocks, x->n_blocks, k->block),
      ii = index_of(x->items, x->n_items, k->items);
  for (int dir = -1; dir <= 1; dir += 2) {
    if (bi + dir >= 0 && bi + dir < x->n_blocks)
      out[n] = *k, out[n++].block = x->blocks[bi + dir];
    if (!tune_rule_cols(r) && ii >= 0 && ii + dir >= 0 && ii + dir < x->n_items)
      out[n] = *k, out[n++].items = x->items[ii + dir];
  }
  if (r == RULE_ROWS_GROUP) {
    int gi = index_of(x->per_row, x->n_per_row, k->per_row);
    for (int dir = -1; dir <= 1; dir += 2)
      if (gi + dir >= 0 && gi + dir < x->n_per_row)
        out[n] = *k, out[n++].per_row = x->per_row[gi + dir];
  }
  if (tune_rule_row_parts(r)) { // RL: at least 2 blocks a row; RA: 1
    if (k->per_row / 2 >= (r == RULE_ROWS_PARTS ? 2u : 1u))
      out[n] = *k, out[n++].per_row = k->per_row / 2;
    out[n] = *k, out[n++].per_row = k->per_row * 2;
  }
  if (tune_rule_cols(r)) {
    if (k->width / 2 >= 1)
      out[n] = *k, out[n++].width = k->width / 2;
    if (k->width * 2 <= 1024)
      out[n] = *k, out[n++].width = k->width * 2;
    if (k->parts / 2 >= 1)
      out[n] = *k, out[n++].parts = k->parts / 2;
    if (k->parts * 2 <= 4096)
      out[n] = *k, out[n++].parts = k->parts * 2;
  }
  return n;
}

// ----------------------------------------------------------------- timing
static tgm_status time_set(shp *s, const shape_set *k, dims d, int samples, tune_stats *st) {
  ctx *c = s->c;
  timed_call t = {*k, d};
  tgm_status e = timing_measure(c, enq_timed, &t, d.m * d.ld, samples, 0, st);
  if (e == TGM_OK && s->csv && st->n) {
    char what[96];
    set_text(c, k, what, sizeof what);
    fprintf(s->csv, "%llu,%llu,%s,%s,%u,%u,%u,%u,%u,%d,%.4f,%.4f,%.4f,%.4f\n", d.m, d.n, c->stage,
            var(c, k)->id, k->block, k->items, k->per_row, k->width, k->parts, st->n, st->median,
            st->p25, st->p75, st->min);
  }
  return e;
}

// Adds k to the list (unless there, or it cannot run on d, or fails its
// check), timed. 1 when added.
static int try_set(shp *s, scored *list, int *n, int cap, const shape_set *k, tgm_devptr in, dims d,
                   tgm_status *err) {
  unsigned y;
  if (*n >= cap || !grid_of(s->c, k, in, d, &y))
    return 0;
  for (int i = 0; i < *n; i++)
    if (same_set(&list[i].k, k))
      return 0;
  if (!checked(s, k, in, d))
    return 0;
  if (s->c->o->verify_only) {
    list[*n].k = *k;
    list[*n].st = (tune_stats){0};
    list[(*n)++].st.median = 1;
    return 1;
  }
  tune_stats st;
  if ((*err = time_set(s, k, d, SCREEN_SAMPLES, &st)) != TGM_OK || !st.n)
    return 0;
  list[*n].k = *k;
  list[(*n)++].st = st;
  return 1;
}

static int by_time(const void *a, const void *b) {
  double x = ((const scored *)a)->st.median, y = ((const scored *)b)->st.median;
  return x < y ? -1 : x > y;
}

// a and b in AB_ROUNDS interleaved rounds: *m the margin of b over a
// (b / a - 1, median over rounds) and its 95% interval; ta, tb the medians.
static tgm_status ab(shp *s, const shape_set *a, const shape_set *b, dims d, double *m, double *lo,
                     double *hi, double *ta_med, double *tb_med) {
  double ta[AB_ROUNDS], tb[AB_ROUNDS];
  for (int r = 0; r < AB_ROUNDS; r++) {
    tune_stats sa, sb;
    tgm_status e = time_set(s, a, d, 3, &sa);
    if (e == TGM_OK)
      e = time_set(s, b, d, 3, &sb);
    if (e != TGM_OK)
      return e;
    ta[r] = sa.median, tb[r] = sb.median;
  }
  tune_margin(ta, tb, AB_ROUNDS, m, lo, hi);
  tune_stats x = tune_stats_of(ta, AB_ROUNDS), y = tune_stats_of(tb, AB_ROUNDS);
  *ta_med = x.median, *tb_med = y.median;
  return TGM_OK;
}

static void put_set(tune_result *r, ctx *c, const shape_set *k) {
  snprintf(r->variant, sizeof r->variant, "%s", c->m.v[k->v].id);
  r->block = k->block, r->items = k->items, r->per_row = k->per_row, r->width = k->width,
  r->parts = k->parts;
}

static void put_runner_up(tune_result *r, ctx *c, const shape_set *k) {
  snprintf(r->runner_up, sizeof r->runner_up, "%s", c->m.v[k->v].id);
  r->ru_block = k->block, r->ru_items = k->items, r->ru_per_row = k->per_row,
  r->ru_width = k->width, r->ru_parts = k->parts;
}

// One bucket: the shape d, tuned (or checked, --verify-only) into r.
static int tune_bucket(shp *s, dims d, tune_result *r) {
  ctx *c = s->c;
  tgm_devptr in = c->pool;
  tgm_status e = reference_of(s, in, d);
  if (e != TGM_OK)
    return gpu_fail("running the reference", e);
  int cap = 4 * c->m.n_v + REFINE_TOP * 10 * REFINE_ROUNDS + 8, n = 0;
  scored *list = calloc((size_t)cap, sizeof *list);
  if (!list)
    return gpu_fail("listing the settings", TGM_ERR_MEMORY);
  c->stage = "screen";
  shape_set rule = rule_choice(s, d);
  int have_rule = rule.v >= 0 && try_set(s, list, &n, cap, &rule, in, d, &e);
  for (int v = 0; v < c->m.n_v && e == TGM_OK; v++) {
    if (!c->usable[v])
      continue;
    shape_set k = seed_of(c, v, &rule, d);
    try_set(s, list, &n, cap, &k, in, d, &e);
  }
  c->stage = "refine";
  for (int round = 0; round < REFINE_ROUNDS && n && e == TGM_OK && !c->o->verify_only; round++) {
    qsort(list, (size_t)n, sizeof *list, by_time);
    double best = list[0].st.median;
    int top = n < REFINE_TOP ? n : REFINE_TOP;
    shape_set tops[REFINE_TOP];
    for (int i = 0; i < top; i++)
      tops[i] = list[i].k;
    for (int i = 0; i < top && e == TGM_OK; i++) {
      shape_set nb[10];
      int nn = neighbours(c, &tops[i], nb);
      for (int j = 0; j < nn && e == TGM_OK; j++)
        try_set(s, list, &n, cap, &nb[j], in, d, &e);
    }
    qsort(list, (size_t)n, sizeof *list, by_time);
    if (!(list[0].st.median < best))
      break;
  }
  if (e != TGM_OK) {
    free(list);
    return gpu_fail("timing", e);
  }
  if (!n) {
    free(list);
    fprintf(stderr, "tgm-tune: %llu x %llu: no setting computed the right result\n", d.m, d.n);
    return EXIT_TUNE;
  }
  qsort(list, (size_t)n, sizeof *list, by_time);
  shape_set best = list[0].k;
  if (c->o->verify_only) {
    free(list);
    return 0;
  }
  // the best against the rule's choice (or, where the rule's is the best,
  // against the runner-up): the best replaces the rule beyond noise only
  c->stage = "a/b";
  int rule_best = have_rule && same_set(&best, &rule);
  shape_set other = rule_best   ? (n > 1 ? list[1].k : best)
                    : have_rule ? rule
                                : (n > 1 ? list[1].k : best);
  double m = 0, lo = 0, hi = 0, t_best = list[0].st.median, t_other = t_best;
  if (!same_set(&other, &best) &&
      (e = ab(s, &best, &other, d, &m, &lo, &hi, &t_best, &t_other)) != TGM_OK) {
    free(list);
    return gpu_fail("timing", e);
  }
  shape_set chosen = best, runner = other;
  double t_chosen = t_best;
  int log2mn = 0;
  for (unsigned long long mn = d.m * d.n; mn > 1; mn >>= 1)
    log2mn++;
  const double noise = tune_noise_at(c->o->noise, c->o->noise_given, log2mn);
  const char *by = "faster";
  if (have_rule && !rule_best && !(lo > noise)) { // within noise of the rule: keep the rule
    chosen = rule, runner = best, t_chosen = t_other;
    by = "within noise: the rule's choice";
    double nm = 1 / (1 + m) - 1, nlo = 1 / (1 + hi) - 1, nhi = 1 / (1 + lo) - 1;
    m = nm, lo = nlo, hi = nhi;
  } else if (rule_best)
    by = lo > noise ? "the rule's choice, faster" : "within noise: the rule's choice";
  else if (!have_rule && !(lo > noise))
    by = "within noise: the faster";
  memset(r, 0, sizeof *r);
  put_set(r, c, &chosen);
  r->us = t_chosen;
  r->us_p25 = list[0].st.p25, r->us_p75 = list[0].st.p75;
  for (int i = 0; i < n; i++)
    if (same_set(&list[i].k, &chosen))
      r->us_p25 = list[i].st.p25, r->us_p75 = list[i].st.p75;
  r->gbps = (double)d.m * (double)d.n * (double)c->elem * c->n_in / (t_chosen * 1e3);
  if (!same_set(&runner, &chosen)) {
    put_runner_up(r, c, &runner);
    r->margin = m, r->margin_lo = lo, r->margin_hi = hi;
  }
  snprintf(r->chosen_by, sizeof r->chosen_by, "%s", by);
  if (have_rule) { // the rule's time from the same A/B rounds (other is the rule, or it is best)
    snprintf(r->f_variant, sizeof r->f_variant, "%s", c->m.v[rule.v].id);
    r->f_block = rule.block, r->f_items = rule.items, r->f_per_row = rule.per_row,
    r->f_width = rule.width, r->f_parts = rule.parts;
    r->f_us = rule_best ? t_best : t_other;
  }
  free(list);
  return 0;
}

// ---------------------------------------------------------------- buckets
// The cells to tune: --shapes, else every cell 2^a x 2^b (a, b odd) with
// a + b in the --sizes range (the matrix's elements).
static int plan_shapes(ctx *c, dims *out, int cap) {
  const options *o = c->o;
  int n = 0;
  if (o->n_shapes) {
    for (int i = 0; i < o->n_shapes && n < cap; i++)
      out[n++] = (dims){o->shapes[i][0], o->shapes[i][1], o->shapes[i][1]};
    return n;
  }
  for (int t = o->lo; t <= o->hi; t++)
    for (int a = 1; a < t && n < cap; a += 2)
      if ((t - a) % 2 == 1)
        out[n++] = (dims){1ull << a, 1ull << (t - a), 1ull << (t - a)};
  return n;
}

static const char *kind_of(ctx *c, const tune_result *r) {
  for (int v = 0; v < c->m.n_v; v++)
    if (!strcmp(c->m.v[v].id, r->f_variant))
      for (int k = 0; k < TUNE_PICK_ROLES; k++)
        if (c->m.pick_v[k] == v)
          return tune_pick_roles[k];
  return "none";
}

static int write_report(shp *s, const tune_key *key, const dims *ds, const tune_result *rs, int n,
                        double seconds) {
  ctx *c = s->c;
  char path[4096];
  snprintf(path, sizeof path, "%s/report-%s-%s-%s-%s.md", c->o->report, c->m.spectrum, key->type,
           key->shape, key->mode);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "tgm-tune: %s: cannot write\n", path);
    return EXIT_TUNE;
  }
  fprintf(f, "# tgm-tune: %s %s, the %s of an m x n matrix, %s mode\n\n", c->m.spectrum, key->type,
          s->cols ? "columns" : "rows", key->mode);
  fprintf(f, "- device: %s (%s, %d SMs), driver %d, %s\n", c->info->name, c->info->arch,
          c->info->sm_count, c->info->driver_version, c->info->compiler);
  fprintf(f, "- command: `%s`\n", c->o->command ? c->o->command : "");
  fprintf(f, "- %d cells in %.1f s; %ld timings; %d settings failed their check%s\n", n, seconds,
          c->measured, c->n_excluded, c->n_excluded ? " (listed below)" : "");
  if (s->resumed)
    fprintf(f,
            "- %d cells resumed from the database: their timings and failed checks are in the "
            "report of the run that measured them\n",
            s->resumed);
  fprintf(f,
          "- a cell 2^a x 2^b holds m in [2^(a-1), 2^(a+1)) and n likewise; times in us, "
          "the median; the choice replaces the rule's only beyond the noise (%.3f; from m n = "
          "2^%d on %.3f)\n\n",
          c->o->noise, TUNE_NOISE_LARGE_LOG2,
          tune_noise_at(c->o->noise, c->o->noise_given, TUNE_NOISE_LARGE_LOG2));
  // per kind of the rule's choice: how far it is from the tuned best
  fprintf(f, "## The rule against the tuned best, per kind of the rule's choice\n\n");
  fprintf(f, "| rule's kind | cells | geomean rule / best | worst | replaced beyond noise |\n");
  fprintf(f, "| --- | ---: | ---: | ---: | ---: |\n");
  for (int k = 0; k <= TUNE_PICK_ROLES; k++) {
    const char *name = k < TUNE_PICK_ROLES ? tune_pick_roles[k] : "none";
    int cells = 0, replaced = 0;
    double lsum = 0, worst = 0;
    for (int i = 0; i < n; i++) {
      if (strcmp(kind_of(c, &rs[i]), name) || !(rs[i].f_us > 0))
        continue;
      double best = rs[i].us < rs[i].f_us ? rs[i].us : rs[i].f_us, ratio = rs[i].f_us / best;
      cells++, lsum += log(ratio), worst = ratio > worst ? ratio : worst;
      // the tuner keeps the rule's setting unless another beats it beyond noise
      replaced += strcmp(rs[i].variant, rs[i].f_variant) || rs[i].block != rs[i].f_block ||
                  rs[i].items != rs[i].f_items || rs[i].per_row != rs[i].f_per_row ||
                  rs[i].width != rs[i].f_width || rs[i].parts != rs[i].f_parts;
    }
    if (cells)
      fprintf(f, "| %s | %d | %.3f | %.3f | %d |\n", name, cells, exp(lsum / cells), worst,
              replaced);
  }
  fprintf(f, "\n## Every cell\n\n");
  fprintf(f, "| m | n | choice | us | GB/s | chosen by | rule's choice | rule us | rule / choice | "
             "runner-up | margin [95%%] |\n");
  fprintf(f, "| ---: | ---: | --- | ---: | ---: | --- | --- | ---: | ---: | --- | --- |\n");
  for (int i = 0; i < n; i++) {
    const tune_result *r = &rs[i];
    char ch[128], fo[128], ru[128];
    shape_set a = {0, r->block, r->items, r->per_row, r->width, r->parts};
    shape_set b = {0, r->f_block, r->f_items, r->f_per_row, r->f_width, r->f_parts};
    shape_set u = {0, r->ru_block, r->ru_items, r->ru_per_row, r->ru_width, r->ru_parts};
    for (int v = 0; v < c->m.n_v; v++) {
      if (!strcmp(c->m.v[v].id, r->variant))
        a.v = v;
      if (!strcmp(c->m.v[v].id, r->f_variant))
        b.v = v;
      if (!strcmp(c->m.v[v].id, r->runner_up))
        u.v = v;
    }
    set_text(c, &a, ch, sizeof ch);
    if (r->f_variant[0])
      set_text(c, &b, fo, sizeof fo);
    else
      snprintf(fo, sizeof fo, "(none)");
    if (r->runner_up[0])
      set_text(c, &u, ru, sizeof ru);
    else
      snprintf(ru, sizeof ru, "-");
    fprintf(f,
            "| %llu | %llu | %s | %.2f | %.0f | %s | %s | %.2f | %.3f | %s | %+.3f [%+.3f, %+.3f] "
            "|\n",
            ds[i].m, ds[i].n, ch, r->us, r->gbps, r->chosen_by, fo, r->f_us,
            r->f_us > 0 ? r->f_us / r->us : 0, ru, r->margin, r->margin_lo, r->margin_hi);
  }
  if (c->n_excluded) {
    fprintf(f, "\n## Settings that failed their check (never timed, never chosen)\n\n");
    for (int i = 0; i < c->n_excluded; i++)
      fprintf(f, "- %s\n", c->excluded[i]);
  }
  if (fclose(f) != 0) {
    fprintf(stderr, "tgm-tune: %s: cannot write\n", path);
    return EXIT_TUNE;
  }
  return 0;
}

// DIR/timings-SPECTRUM-TYPE-SHAPE-MODE.csv, opened at the first cell this
// run measures: a run that resumes adds to the one it resumes, from its
// last whole line (a run killed mid-cell leaves a line cut short).
static FILE *open_timings(ctx *c, const tune_key *key, int resumed) {
  char path[4096];
  snprintf(path, sizeof path, "%s/timings-%s-%s-%s-%s.csv", c->o->report, c->m.spectrum, key->type,
           key->shape, key->mode);
  FILE *f = resumed ? fopen(path, "r+") : NULL;
  if (f) {
    long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1, keep = end;
    while (keep > 0 && fseek(f, keep - 1, SEEK_SET) == 0 && fgetc(f) != '\n')
      keep--;
    if (end < 0 || (keep < end && ftruncate(fileno(f), keep) != 0) || fseek(f, 0, SEEK_END) != 0) {
      fclose(f);
      f = NULL;
    } else if (keep > 0)
      return f;
    else
      fclose(f), f = NULL;
  }
  f = fopen(path, "w");
  if (f)
    fprintf(f, "m,n,stage,variant,block,items,per_row,width,parts,samples,median_us,p25_us,"
               "p75_us,min_us\n");
  return f;
}

int shapes_run(ctx *c, tune_key *key) {
  const options *o = c->o;
  shp s = {.c = c, .cols = c->m.shape == TUNE_SHAPE_COLS};
  enum { MAX_CELLS = 1024 };
  dims *ds = calloc(MAX_CELLS, sizeof *ds);
  tune_result *rs = calloc(MAX_CELLS, sizeof *rs);
  int rc = 0, n = ds && rs ? plan_shapes(c, ds, MAX_CELLS) : 0;
  if (!ds || !rs) {
    free(ds), free(rs);
    return gpu_fail("planning", TGM_ERR_MEMORY);
  }
  // buffers: the largest matrix, its outputs, the edge shapes beside it
  unsigned long long most = 1 << 12, out_most = 64;
  for (int i = 0; i < n; i++) {
    unsigned long long e = (ds[i].m - 1) * ds[i].ld + ds[i].n + 16;
    most = e > most ? e : most;
    unsigned long long q = s.cols ? ds[i].n : ds[i].m;
    out_most = q > out_most ? q : out_most;
  }
  double t_start = now();
  c->pool_bytes = ((size_t)most * c->elem + 255) / 256 * 256;
  if (c->pool_bytes < (256u << 20))
    c->pool_bytes = 256u << 20; // room for the stream mode's cold copies
  c->temp_bytes = tune_shape_embed_temp(s.cols, most, c->acc_size) + 256;
  s.out_bytes = (size_t)out_most * c->res_size + 256;
  s.want = malloc((size_t)CHECK_MAX * 3 * c->res_size);
  s.got = malloc((size_t)CHECK_MAX * c->res_size);
  size_t mat = (size_t)most * c->elem;
  if (s.cols) {
    s.host = malloc(mat * (size_t)c->n_in);
    s.scratch_bytes = ((size_t)most * c->elem + 255) / 256 * 256 * (size_t)c->n_in;
  }
  if (!s.want || !s.got || (s.cols && !s.host)) {
    rc = gpu_fail("allocating host buffers", TGM_ERR_MEMORY);
    goto done;
  }
#define STRY(what, call)       \
  do {                         \
    tgm_status s_ = (call);    \
    if (s_ != TGM_OK) {        \
      rc = gpu_fail(what, s_); \
      goto done;               \
    }                          \
  } while (0)
  STRY("creating a stream", tgm_stream_create(c->b, &c->s));
  STRY("allocating temp", tgm_malloc(c->b, c->temp_bytes, &c->temp));
  STRY("allocating out", tgm_malloc(c->b, s.out_bytes, &s.out));
  c->out = s.out;
  STRY("allocating the reference's out", tgm_malloc(c->b, 3 * c->res_size, &c->ref_out));
  if (s.cols)
    STRY("allocating the gather", tgm_malloc(c->b, s.scratch_bytes, &s.scratch));
  if ((rc = timing_buffers(c)))
    goto done;
  STRY("the edge shapes' reference", edge_references(&s));
  for (int i = 0; i < n; i++) {
    tune_result *r = &rs[i];
    int lm = tune_shape_cell(ds[i].m), ln = tune_shape_cell(ds[i].n);
    if (!o->verify_only && tune_db_get_shape(c->db, key, lm, ln, r)) {
      s.resumed++;
      if (!o->quiet)
        fprintf(stderr, "tgm-tune: %d/%d %llu x %llu: resumed from the database\n", i + 1, n,
                ds[i].m, ds[i].n);
      continue;
    }
    if (o->report && !s.csv)
      s.csv = open_timings(c, key, s.resumed);
    if ((rc = tune_bucket(&s, ds[i], r)))
      goto done;
    if (o->verify_only)
      continue;
    r->log2m = lm, r->log2n = ln;
    if (s.csv)
      fflush(s.csv); // a run killed later keeps this cell's timings
    tgm_status st = tune_db_put(c->db, key, r);
    if (st != TGM_OK) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      rc = st == TGM_ERR_INVALID ? EXIT_TUNE : EXIT_DB;
      goto done;
    }
    if (!o->quiet)
      fprintf(stderr, "tgm-tune: %d/%d %llu x %llu: %s b%u %.2f us (%s; the rule's %s %.2f us)\n",
              i + 1, n, ds[i].m, ds[i].n, r->variant, r->block, r->us, r->chosen_by,
              r->f_variant[0] ? r->f_variant : "none", r->f_us);
  }
  if (o->verify_only) {
    for (int i = 0; i < c->n_excluded; i++)
      printf("excluded: %s\n", c->excluded[i]);
    printf("checked the %s settings of %d shapes of %s: %d wrong\n", s.cols ? "column" : "row", n,
           o->manifest, c->n_excluded);
    rc = c->n_excluded ? EXIT_TUNE : 0;
    goto done;
  }
  if (tune_db_finish(c->db, key) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    rc = EXIT_DB;
    goto done;
  }
  printf("tgm-tune: %s %s %s, %s mode, on %s: %d cells in %.1f s, %d settings excluded\n",
         c->m.spectrum, key->type, key->shape, key->mode, c->info->name, n, now() - t_start,
         c->n_excluded);
  if (o->report)
    rc = write_report(&s, key, ds, rs, n, now() - t_start);
done:
  if (s.csv && fclose(s.csv) != 0 && !rc) {
    fprintf(stderr, "tgm-tune: the timings CSV: cannot write\n");
    rc = EXIT_TUNE;
  }
  if (s.scratch)
    tgm_free(c->b, s.scratch);
  c->out = 0; // s.out, freed here
  if (s.out)
    tgm_free(c->b, s.out);
  if (s.nan_in)
    tgm_free(c->b, s.nan_in);
  for (int e = 0; e < N_EDGES; e++)
    free(s.edge_want[e]), free(s.nan_want[e]);
  free(s.seen), free(s.seen_ok), free(s.want), free(s.got), free(s.host);
  free(ds), free(rs);
  return rc;
#undef STRY
}

// rule.c — how a variant is launched, for tgm-tune and tgm_reduce: the
// grid of a launch shape and the temp storage come from
// templates/launch_rule.tpl, the text every generated source and embedded
// header holds (one home for the rule); the arguments of a launch from the
// manifest's "args".
#include "tune.h"
#include <stddef.h>

#include "launch_rule.tpl" // tgm_grid_of, tgm_temp_need

_Static_assert(RULE_ONE == (int)TGM_ONE && RULE_TILES == (int)TGM_TILES &&
                   RULE_TILES_VEC == (int)TGM_TILES_VEC && RULE_STRIDED == (int)TGM_STRIDED &&
                   RULE_STRIDED_VEC == (int)TGM_STRIDED_VEC,
               "tune_rule follows templates/launch_rule.tpl's tgm_rule");

#include "../src/internal.h" // tgm__fail

const unsigned tune_items_paths[TUNE_ITEMS_PATHS] = {1, 4, 16};

unsigned tune_items_path(unsigned items) { return tgm_items_path(items); }

int tune_items_index(unsigned items) {
  unsigned p = tgm_items_path(items);
  return p == 16 ? 2 : p == 4 ? 1 : 0;
}

unsigned tune_grid(tune_rule rule, uint64_t in_addr, unsigned long long n, unsigned block,
                   unsigned items, unsigned grid_cap, size_t elem) {
  return tgm_grid_of((enum tgm_rule)rule, in_addr, n, block, items, grid_cap, elem);
}

void tune_shape_grid(tune_rule rule, uint64_t in_addr, unsigned long long m, unsigned long long n,
                     unsigned long long ld, unsigned block, unsigned group, unsigned parts,
                     unsigned vw, size_t elem, unsigned *x, unsigned *y) {
  *x = 0;
  *y = 1;
  switch (rule) {
  case RULE_ROWS: *x = tgm_rows_grid_of(m, block, 0); break;
  case RULE_ROWS_GROUP: { // packed rows as launch_rows.tpl's launcher takes them (vw > 1)
    unsigned packed = group == 1 ? tgm_rows_packed_of(in_addr, n, ld, vw, elem) : 0;
    *x = packed ? tgm_rows_packed_grid_of(m, block, packed) : tgm_rows_grid_of(m, block, group);
    break;
  }
  case RULE_ROWS_PARTS:
    if (m <= TGM_ROWS_PARTS_MAX && group > 0) // a counter a row; y is the row
      *x = group, *y = (unsigned)m;
    break;
  case RULE_COLS:
  case RULE_COLS_ATOMIC: // CT: a counter a tile where in parts; CA: none
    *x = tgm_cols_grid_of(in_addr, n, group, vw ? vw : 1, elem);
    *y = parts;
    if (!tgm_cols_width_ok(group, block) || parts == 0 || parts > 65535 ||
        (rule == RULE_COLS && parts > 1 && *x > TGM_ROWS_PARTS_MAX))
      *x = 0;
    break;
  case RULE_ROWS_ATOMIC: // RA: no counters, m up to the grid's y
    if (m <= 65535 && group > 0 && group <= 65535)
      *x = group, *y = (unsigned)m;
    break;
  case RULE_ROWS_INIT: *x = tgm_init_out_grid(m); break;
  case RULE_COLS_INIT: *x = tgm_init_out_grid(n); break;
  default: break;
  }
}

size_t tune_shape_temp(tune_rule rule, unsigned long long m, unsigned long long n, unsigned group,
                       unsigned parts, size_t acc) {
  if (rule == RULE_ROWS_PARTS)
    return tgm_rows_temp_need(m, group, acc);
  if (rule == RULE_COLS && parts > 1)
    return tgm_rows_temp_need(n, parts, acc);
  return 0;
}

unsigned tune_sm_gbps(double peak_gbps, int sms) {
  // whole GB/s (floor(floor(x) / sms) is floor(x / sms)); NaN and below 1: unknown
  const unsigned long long gbps = !(peak_gbps >= 1)   ? 0
                                  : peak_gbps >= 1e15 ? 1000000000000000ull
                                                      : (unsigned long long)peak_gbps;
  return tgm_sm_gbps(gbps, sms);
}

tune_pick tune_rows_pick(unsigned long long m, unsigned long long n, unsigned sms,
                         unsigned max_threads, unsigned sm_gbps, int atomics) {
  struct tgm_rows_pick k = tgm_rows_pick_of(m, n, sms, max_threads, sm_gbps, atomics);
  tune_pick p = {k.kind == 2 && k.atomic ? TUNE_PICK_RA
                 : k.kind == 2           ? TUNE_PICK_RL
                 : k.kind == 1           ? TUNE_PICK_RB
                 : k.vec                 ? TUNE_PICK_RW_WIDE
                                         : TUNE_PICK_RW_NARROW,
                 k.block,
                 k.items,
                 k.kind == 1 ? 0 : k.per_row,
                 0,
                 0};
  return p;
}

unsigned tune_rows_atomic_per_row(unsigned long long m, unsigned long long n, unsigned sms) {
  struct tgm_rows_pick k = {2, 1, 2, 1024, 4, 0}; // an RL pick, as RA
  return tgm_rows_atomic_parts(k, m ? m : 1, n, sms, 1).per_row;
}

tune_pick tune_cols_pick(unsigned long long m, unsigned long long n, unsigned sms, unsigned vw,
                         int vector, int atomics) {
  struct tgm_cols_pick k = tgm_cols_pick_of(m, n, sms, vw, atomics);
  // CA is CT.SV's settings: groups a block
  unsigned width = vector || k.atomic        ? k.groups
                   : k.groups * vw < k.block ? k.groups * vw
                                             : k.block;
  tune_pick p = {k.atomic ? TUNE_PICK_CA : TUNE_PICK_CT, k.block, 1, 0, width, k.parts};
  return p;
}

int tune_shape_cell(unsigned long long x) { return tgm_shape_cell(x); }

int tune_shape_fits(tune_rule rule, unsigned long long m, unsigned long long n, unsigned group,
                    unsigned vw, unsigned parts) {
  return rule == RULE_ROWS_PARTS ? tgm_rows_parts_fit(m, group)
         : rule == RULE_COLS     ? tgm_cols_parts_fit(n, group, vw ? vw : 1, parts)
                                 : 1; // CA, RA: no temp storage
}

size_t tune_shape_embed_temp(int cols, unsigned long long n, size_t acc) {
  return cols ? tgm_cols_embed_temp(n, acc) : tgm_rows_embed_temp(acc);
}

size_t tune_shape_counters(tune_rule rule, unsigned parts) {
  return rule == RULE_ROWS_PARTS || (rule == RULE_COLS && parts > 1)
             ? (size_t)TGM_ROWS_PARTS_MAX * 4
             : 0;
}

static int listed(const unsigned *a, int n, unsigned x) {
  for (int i = 0; i < n; i++)
    if (a[i] == x)
      return 1;
  return 0;
}

static unsigned vw_of(const tune_manifest *man, const tune_variant *v) {
  return v->vec ? (unsigned)(16 / tune_type_size(man->elem)) : 1;
}

unsigned tune_shape_set_grid(const tune_manifest *man, const tune_shape_set *k, uint64_t in_addr,
                             unsigned long long rows, unsigned long long n, unsigned long long ld,
                             unsigned *y) {
  *y = 1;
  if (k->v < 0 || k->v >= man->n_v)
    return 0;
  const tune_variant *v = &man->v[k->v];
  const tune_launch *l = tune_shape_main(v);
  if (!l)
    return 0;
  tune_rule r = l->rule;
  unsigned group = tune_rule_cols(r) ? k->width : k->per_row, x;
  if (!listed(v->blocks, v->n_blocks, k->block) || !k->items ||
      (r == RULE_ROWS_GROUP && !listed(v->per_row, v->n_per_row, k->per_row)) ||
      (r == RULE_ROWS_PARTS && k->per_row < 2) || (r == RULE_ROWS_ATOMIC && !k->per_row) ||
      (tune_rule_cols(r) && (!k->width || !k->parts)))
    return 0;
  // RW: the vector of packed rows where the variant reads them so
  unsigned vw = r == RULE_ROWS_GROUP
                    ? (v->packed_rows ? (unsigned)(16 / tune_type_size(man->elem)) : 1)
                    : vw_of(man, v);
  tune_shape_grid(r, in_addr, rows, n, ld, k->block, group, k->parts, vw, tune_type_size(man->elem),
                  &x, y);
  return tune_shape_fits(r, rows, n, group, vw_of(man, v), k->parts) ? x : 0;
}

// Whether the manifest has the atomic variant of role r (CA, RA) and it may
// run: not where only deterministic variants may and its floats round
// differently from run to run (the embedded header's TGM_DETERMINISTIC).
static int atomics_of(const tune_manifest *man, int r, int deterministic) {
  int v = man->pick_v[r];
  return v >= 0 && (!deterministic || man->v[v].deterministic);
}

tune_shape_set tune_shape_rule(const tune_manifest *man, unsigned long long rows,
                               unsigned long long n, unsigned sms, unsigned max_threads,
                               unsigned sm_gbps, int deterministic) {
  unsigned vw = (unsigned)(16 / tune_type_size(man->elem));
  int ct = man->pick_v[TUNE_PICK_CT];
  tune_pick p = man->shape == TUNE_SHAPE_COLS
                    ? tune_cols_pick(rows, n, sms, vw, ct >= 0 && man->v[ct].vec,
                                     atomics_of(man, TUNE_PICK_CA, deterministic))
                    : tune_rows_pick(rows, n, sms, max_threads, sm_gbps,
                                     atomics_of(man, TUNE_PICK_RA, deterministic));
  tune_shape_set k = {man->pick_v[p.role], p.block, p.items, p.per_row, p.width, p.parts};
  return k;
}

const tune_launch *tune_shape_main(const tune_variant *v) {
  for (int i = v->n_pos - 1; i >= 0; i--)
    if (!v->pos[i].block_fixed)
      return &v->pos[i];
  return NULL;
}

tgm_status tune_shape_launch(tgm_backend *b, const tune_variant *v, const tgm_function fs[],
                             const tune_call *call, unsigned x, unsigned y, unsigned block,
                             tgm_stream s) {
  const tune_launch *l = tune_shape_main(v);
  uint64_t vals[TUNE_MAX_ARGS];
  void *args[TUNE_MAX_ARGS];
  tgm_status st = l ? TGM_OK : tgm__fail(TGM_ERR_INVALID, "variant %s has no kernel", v->id);
  for (const tune_launch *p = v->pos; st == TGM_OK && p < l; p++) { // CA: tgm_init_out
    unsigned px, py;
    tune_shape_grid(p->rule, call->in[0], call->m, call->n, call->ld, p->block_fixed, 0, 0, 0, 0,
                    &px, &py);
    if ((st = tune_launch_args(p, call, vals, args)) == TGM_OK)
      st = tgm_launch_2d(b, fs[p - v->pos], px, py, p->block_fixed, args, s);
  }
  if (st == TGM_OK && (st = tune_launch_args(l, call, vals, args)) == TGM_OK)
    st = tgm_launch_2d(b, fs[l - v->pos], x, y, block, args, s);
  return st;
}

unsigned tune_shape_group(const tune_manifest *man, const tune_shape_set *k) {
  const tune_launch *l = tune_shape_main(&man->v[k->v]);
  return l && l->rule == RULE_ROWS_GROUP ? k->per_row : 0;
}

size_t tune_temp_need(unsigned long long grid, size_t acc, int partials, int counter) {
  return tgm_temp_need(grid, acc, partials, counter);
}

int tune_overlaps(uint64_t out, uint64_t out_bytes, uint64_t in, uint64_t in_bytes) {
  return tgm_overlaps(out, out_bytes, in, in_bytes);
}

unsigned tune_grid_cap(unsigned cap_per_sm, int sm_count) {
  return cap_per_sm ? cap_per_sm * (unsigned)sm_count : 0x7fffffffu;
}

unsigned tune_main_grid(const tune_variant *v, uint64_t in_addr, unsigned long long n,
                        unsigned block, unsigned items, unsigned cap, size_t elem) {
  for (int i = 0; i < v->n_pos; i++)
    if (!v->pos[i].block_fixed)
      return tune_grid(v->pos[i].rule, in_addr, n, block, items, cap, elem);
  return 1;
}

tgm_status tune_launch_args(const tune_launch *l, const tune_call *call, uint64_t vals[],
                            void *args[]) {
  for (int a = 0; a < l->n_args; a++) {
    tune_arg arg = l->args[a];
    if (!call->has_temp &&
        (arg == ARG_PARTIALS || arg == ARG_COUNTER || arg == ARG_ITEMS || arg == ARG_GRID))
      return tgm__fail(TGM_ERR_MANIFEST,
                       "%s takes an argument it cannot have (temp storage, "
                       "items or grid)",
                       l->kernel);
    switch (arg) {
    case ARG_IN: vals[a] = call->in[l->arg_index[a]]; break;
    case ARG_PARAM: vals[a] = call->params ? call->params[l->arg_index[a]] : 0; break;
    case ARG_N: vals[a] = call->n; break;
    case ARG_OUT: vals[a] = call->out; break;
    case ARG_PARTIALS: vals[a] = call->partials; break;
    case ARG_COUNTER: vals[a] = call->counter; break;
    case ARG_ITEMS: vals[a] = call->items; break;
    case ARG_GRID: vals[a] = call->grid; break;
    case ARG_M: vals[a] = call->m; break;
    case ARG_LD: vals[a] = call->ld; break;
    case ARG_WIDTH: vals[a] = call->width; break;
    }
    args[a] = &vals[a];
  }
  return TGM_OK;
}

const char *const *tune_reference_options(int hip, int *n) {
  static const char *const cuda[] = {"-G"}, *const amd[] = {"-O0"};
  *n = 1;
  return hip ? amd : cuda;
}

tgm_status tune_launch_reference(tgm_backend *b, tgm_function f, void **args, unsigned *block,
                                 tgm_stream s) {
  unsigned most = 0; // what its registers allow, asked first (no launch that fails)
  if (tgm_function_max_threads(b, f, &most) == TGM_OK && most)
    while (*block > 32 && *block > most)
      *block /= 2;
  for (;;) {
    tgm_status st = tgm_launch(b, f, 1, *block, args, s);
    if (st == TGM_OK || *block <= 32)
      return st;
    *block /= 2;
  }
}

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

unsigned tune_grid(tune_rule rule, uint64_t in_addr, unsigned long long n, unsigned block,
                   unsigned items, unsigned grid_cap, size_t elem) {
  return tgm_grid_of((enum tgm_rule)rule, in_addr, n, block, items, grid_cap, elem);
}

void tune_shape_grid(tune_rule rule, uint64_t in_addr, unsigned long long m, unsigned long long n,
                     unsigned block, unsigned group, unsigned parts, unsigned vw, size_t elem,
                     unsigned *x, unsigned *y) {
  *x = 0;
  *y = 1;
  switch (rule) {
  case RULE_ROWS: *x = tgm_rows_grid_of(m, block, 0); break;
  case RULE_ROWS_GROUP: *x = tgm_rows_grid_of(m, block, group); break;
  case RULE_ROWS_PARTS:
    if (m <= TGM_ROWS_PARTS_MAX && group > 0) // a counter a row; y is the row
      *x = group, *y = (unsigned)m;
    break;
  case RULE_COLS:
    *x = tgm_cols_grid_of(in_addr, n, group, vw ? vw : 1, elem);
    *y = parts;
    if (parts == 0 || parts > 65535 || (parts > 1 && *x > TGM_ROWS_PARTS_MAX))
      *x = 0;
    break;
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

size_t tune_temp_need(unsigned long long grid, size_t acc, int partials, int counter) {
  return tgm_temp_need(grid, acc, partials, counter);
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
  for (;;) {
    tgm_status st = tgm_launch(b, f, 1, *block, args, s);
    if (st == TGM_OK || *block <= 32)
      return st;
    *block /= 2;
  }
}

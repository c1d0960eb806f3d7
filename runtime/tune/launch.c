// launch.c — tgm-tune: how a variant is launched: its grids, temp storage, counter and launch sequence.
#include "tuner.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    if (!v->pos[i].block_fixed)
      return grid_of(v->pos[i].rule, in, n, k.block, k.items, cap, c->elem);
  return 1;
}

// Zeroes the counter word of setting k at size n (the state the kernels
// expect the first time; they leave it zero).
tgm_status launch_prepare(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  if (!v->counter)
    return TGM_OK;
  size_t off = partials_bytes(main_grid(c, k, in, n), c->acc_size);
  return tgm_memset(c->b, c->temp + off, 0, 16, c->s);
}

size_t launch_temp_need(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  if (!v->partials)
    return 0;
  return partials_bytes(main_grid(c, k, in, n), c->acc_size) + (v->counter ? 16 : 0);
}

tgm_status launch_args(ctx *c, const tune_launch *l, tgm_devptr in, unsigned long long n,
                       tgm_devptr out, const launch_temp *t, uint64_t vals[], void *args[]) {
  for (int a = 0; a < l->n_args; a++) {
    tune_arg arg = l->args[a];
    if (!t && arg != ARG_IN && arg != ARG_PARAM && arg != ARG_N && arg != ARG_OUT)
      return tgm__fail(TGM_ERR_MANIFEST, "%s takes an argument it cannot have (temp storage, "
                                         "items or grid)", l->kernel);
    switch (arg) {
    case ARG_IN: vals[a] = in + (tgm_devptr)l->arg_index[a] * c->in_gap; break;
    case ARG_PARAM: vals[a] = c->param_vals[l->arg_index[a]]; break;
    case ARG_N: vals[a] = n; break;
    case ARG_OUT: vals[a] = out; break;
    case ARG_PARTIALS: vals[a] = t->partials; break;
    case ARG_COUNTER: vals[a] = t->counter; break;
    case ARG_ITEMS: vals[a] = t->items; break;
    case ARG_GRID: vals[a] = t->grid; break;
    }
    args[a] = &vals[a];
  }
  return TGM_OK;
}

// Enqueues every launch of one reduction of in[0..n) into *out.
tgm_status launch_enqueue(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n,
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
    unsigned block = l->block_fixed ? l->block_fixed : k.block;
    unsigned grid = grid_of(l->rule, in, n, block, k.items, cap, c->elem);
    uint64_t vals[TUNE_MAX_ARGS];
    void *args[TUNE_MAX_ARGS];
    const launch_temp t = {partials, counter, k.items, g0};
    tgm_status s = launch_args(c, l, in, n, out, &t, vals, args);
    if (s != TGM_OK)
      return s;
    int job = ref->job, name = n ? ref->name[i] : ref->zname[i];
    tgm_function f;
    s = tgm_module_function(c->mods[job], name, &f);
    if (s == TGM_OK)
      s = tgm_launch(c->b, f, grid, block, args, c->s);
    if (s != TGM_OK)
      return s;
  }
  return TGM_OK;
}

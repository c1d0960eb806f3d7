// launch.c — tgm-tune: a variant's launch sequence, its temp storage and counter, by the
// launch rule of rule.c (templates/launch_rule.tpl).
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

// The grid of the variant's main (BLOCK-sized) launch (rule.c).
static unsigned main_grid(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  unsigned cap = tune_grid_cap(k.cap, c->info->sm_count);
  return tune_main_grid(&c->m.v[k.v], in, n, k.block, k.items, cap, c->elem);
}

// Zeroes the counter word of setting k at size n (the state the kernels
// expect the first time; they leave it zero).
tgm_status launch_prepare(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  if (!v->counter)
    return TGM_OK;
  size_t off = tune_temp_need(main_grid(c, k, in, n), c->acc_size, 1, 0);
  return tgm_memset(c->b, c->temp + off, 0, 16, c->s);
}

size_t launch_temp_need(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n) {
  const tune_variant *v = &c->m.v[k.v];
  if (!v->partials)
    return 0;
  return tune_temp_need(main_grid(c, k, in, n), c->acc_size, 1, v->counter);
}

tgm_status launch_args(ctx *c, const tune_launch *l, tgm_devptr in, unsigned long long n,
                       tgm_devptr out, const launch_temp *t, uint64_t vals[], void *args[]) {
  tune_call call = {.params = c->param_vals, .n = n, .out = out, .has_temp = t != NULL};
  for (int k = 0; k < c->n_in; k++)
    call.in[k] = in + (tgm_devptr)k * c->in_gap;
  if (t)
    call.partials = t->partials, call.counter = t->counter, call.items = t->items,
    call.grid = t->grid;
  return tune_launch_args(l, &call, vals, args);
}

// Enqueues every launch of one reduction of in[0..n) into *out.
tgm_status launch_enqueue(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n,
                          tgm_devptr out) {
  const tune_variant *v = &c->m.v[k.v];
  int bi = block_index(v, k.block);
  const fn_ref *ref = &c->refs[k.v][bi];
  unsigned cap = tune_grid_cap(k.cap, c->info->sm_count);
  const tune_launch *ls = n ? v->pos : v->zero;
  int nl = n ? v->n_pos : v->n_zero;
  unsigned g0 = main_grid(c, k, in, n);
  tgm_devptr partials = v->partials ? c->temp : 0;
  tgm_devptr counter = v->counter ? c->temp + tune_temp_need(g0, c->acc_size, 1, 0) : 0;
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
    unsigned grid = tune_grid(l->rule, in, n, block, k.items, cap, c->elem);
    uint64_t vals[TUNE_MAX_ARGS];
    void *args[TUNE_MAX_ARGS];
    const launch_temp t = {partials, counter, k.items, g0};
    tgm_status s = launch_args(c, l, in, n, out, &t, vals, args);
    if (s != TGM_OK)
      return s;
    int job = ref->job, name = n ? ref->name[tune_items_index(k.items)][i] : ref->zname[i];
    tgm_function f;
    s = tgm_module_function(c->mods[job], name, &f);
    if (s == TGM_OK)
      s = tgm_launch(c->b, f, grid, block, args, c->s);
    if (s != TGM_OK)
      return s;
  }
  return TGM_OK;
}

/* grid.c -- the grid pass: each candidate plan becomes its kernels, or is
 * left out with the first reason, in this order: a codelet the grid or the
 * thread level needs is missing, the thread level is unavailable, the
 * block level is, the grid level cannot combine this spectrum. A kernel is
 *   value = tgm_values_<grid part>_<thread shape>(...);  (thread level)
 *   value = <block function>(value);                     (block level)
 * finished by the grid's transformation: two passes (DT, DS), global
 * atomics (DTA, DSA), the last block (DTL, DSL) or one block (B1). Row
 * plans (--rows) are rows.c's. */
#include "tgm.h"

#include <string.h>

static void leave_out(Arena *a, Composition *c, const Plan *p, const char *why,
                      LeftOutStage stage) {
  LeftOut *lo = arena_alloc(a, sizeof *lo);
  *lo = (LeftOut){p->id, why, stage};
  vec_push(a, &c->left_out, lo);
}

/* Why global atomics cannot combine spectrum s into out (DTA, DSA, CA);
 * NULL: they can. */
const char *atomics_wanting(Arena *a, const Spectrum *s) {
  if (s->pair)
    return "a global atomic combines one word, and an Arg is a (value, index) pair";
  if (s->acc_ty->kind == TY_BOOL)
    return "a global atomic combines a 32- or 64-bit word, and a bool accumulator is one byte";
  if (s->epilogue)
    return arena_printf(a,
                        "global atomics leave no block that makes the final value, where the "
                        "epilogue '%s' must run once",
                        s->epilogue_text);
  if (s->acc_ty->kind != s->result_ty->kind)
    return arena_printf(a,
                        "global atomics combine into out, whose type %s is not the "
                        "accumulator's %s",
                        s->result_ctype, s->acc_ctype);
  return NULL;
}

/* Why the plan cannot be built, and at which level; NULL: it can. */
static const char *wanting(Arena *a, const Composition *c, const Plan *p, LeftOutStage *stage) {
  GridKind g = p->g;
  bool tiled = grid_tiled(g), atomics = g == G_DTA || g == G_DSA;
  const Spectrum *s = c->spec;
  *stage = LO_PARTS;
  if (tiled && !c->tiled)
    return "the spectrum has no tiled compound codelet for the grid";
  if (!tiled && !c->strided)
    return "the spectrum has no strided compound codelet for the grid";
  if (p->t == T_ST && !c->tiled)
    return "the spectrum has no tiled compound codelet for the block";
  if (p->t != T_ST && !c->strided)
    return "the spectrum has no strided compound codelet for the block";
  if (!c->thread_fn)
    return "the spectrum has no scalar codelet for the thread";
  if (p->t == T_SV && !c->thread_vec_fn)
    return c->thread_vec_why;
  *stage = LO_BLOCK;
  if (!c->block[p->b].fn)
    return c->block[p->b].why;
  *stage = LO_GRID;
  return atomics ? atomics_wanting(a, s) : NULL;
}

static void build(Arena *a, Composition *c, Plan *p) {
  const BlockImpl *im = &c->block[p->b];
  p->kernel = kernel_main(a, c, p->cname, p->b);
  Node *body = p->kernel->fn->body;
  Loc loc = im->cd->loc;
  bool vec = p->t == T_SV;
  /* B1 launches one block: its block index and count are the constants 0
   * and 1, which leave the thread level's loop its fixed stride and no
   * index arithmetic before the first load (bench/results/2026-11-26-b1-ab) */
  bool one = p->g == G_B1;
  Node *value = mk_decl(a, loc, "value", type_new(a, TY_ACC),
                        kernel_values(a, p->kernel, p->g, p->t, vec && !grid_tiled(p->g), "BLOCK",
                                      NULL, one ? mk_int(a, loc, 0) : mk_gpu(a, loc, "bid"),
                                      one ? mk_int(a, loc, 1) : mk_gpu(a, loc, "gdim"),
                                      mk_gpu(a, loc, "tid")));
  block_add(a, body,
            mk_comment(a, loc,
                       arena_printf(a, "thread: codelet '%s' on its part (grid: %s; block: %s)",
                                    c->scalar->id,
                                    p->g == G_B1       ? "one block"
                                    : grid_tiled(p->g) ? "tiles"
                                                       : "strides",
                                    p->t == T_ST ? "tiles"
                                    : vec        ? "16-byte vector strides"
                                                 : "strides")));
  block_add(a, body, value);
  block_add(a, body,
            mk_comment(a, loc,
                       arena_printf(a, "block: codelet '%s' (%s)", im->cd->id, block_code(p->b))));
  block_add(a, body, kernel_block_call(a, im, value));
  switch (p->g) {
  case G_DT:
  case G_DS: xf_twopass(a, c, p, value); break;
  case G_DTA:
  case G_DSA: xf_gatomic(a, c, p, value); break;
  case G_DTL:
  case G_DSL: xf_lastblock(a, c, p, value); break;
  case G_B1: xf_oneblock(a, c, p, value); break;
  case G_RW:
  case G_RB:
  case G_RL:
  case G_CT:
  case G_CA:
  case G_RA: /* rows.c, cols.c */
  case G_COUNT: break;
  }
  vec_push(a, &c->plans, p);
}

/* A codelet no plan uses is reported, with the reason. */
static void report_unused(Ctx *ctx, Composition *c) {
  for (int b = 0; b < B_COUNT; b++) {
    BlockImpl *im = &c->block[b];
    if (im->fn || !im->cd)
      continue;
    bool used = false;
    for (int o = 0; o < B_COUNT; o++)
      used |= c->block[o].cd == im->cd && c->block[o].fn;
    bool said = false;
    for (int o = 0; o < b; o++)
      said |= c->block[o].cd == im->cd;
    if (!used && !said)
      diag_warning(ctx->diag, im->cd->loc, "codelet '%s' is used by no variant: %s", im->cd->id,
                   im->why);
  }
  /* a codelet in use whose tree loop no warp shuffle replaces: right, but
   * without the shuffle blocks (VS, VR, VW, VRW), which are often the fastest */
  for (int b = 0; b < B_COUNT; b++) {
    BlockImpl *im = &c->block[b];
    if (im->fn || !im->cd || !im->why || !strstr(im->why, "maps onto warp shuffles"))
      continue;
    bool used = false, said = false;
    for (int o = 0; o < B_COUNT; o++)
      used |= c->block[o].cd == im->cd && c->block[o].fn;
    for (int o = 0; o < b; o++)
      said |= c->block[o].cd == im->cd && c->block[o].why &&
              strstr(c->block[o].why, "maps onto warp shuffles");
    if (used && !said)
      diag_warning(ctx->diag, im->cd->loc,
                   "codelet '%s' has no tree loop that maps onto warp shuffles (for (int offset "
                   "= MaxValue() / 2; offset > 0; offset /= 2), combining the value offset "
                   "lanes on): its variants use shared memory only, none of the shuffle blocks "
                   "(VS, VR, VW, VRW)",
                   im->cd->id);
  }
}

void pass_grid(Ctx *ctx, Composition *c) {
  Arena *a = ctx->arena;
  if (!c->thread_fn)
    return; /* the lower pass said why */
  for (int i = 0; i < c->candidates.len; i++) {
    Plan *p = c->candidates.items[i];
    LeftOutStage stage;
    const char *why = c->cols   ? cols_wanting(a, c, p, &stage)
                      : c->rows ? rows_wanting(a, c, p, &stage)
                                : wanting(a, c, p, &stage);
    if (why)
      leave_out(a, c, p, why, stage);
    else if (c->cols)
      cols_build(a, c, p);
    else if (c->rows)
      rows_build(a, c, p);
    else
      build(a, c, p);
  }
  if (c->plans.len > 0)
    report_unused(ctx, c);
}

/* xf_gatomic.c -- global atomics for the grid plans DTA and DSA (the talk's
 * listing 2): thread 0 of each block combines the block's result into
 * out[0] atomically. out[0] must hold the identity first: the launcher runs
 * tgm_init before the kernel, so the caller needs no zeroed output. The
 * rows' RA (rows.c) combines each block into out[row] the same way, after
 * tgm_init_out set out[0..m), waiting for that launch first where it may
 * start before it ends (tgm_wait_prior_grids: PDL on sm_90+). One
 * pass over the data; for floating-point + and * the order of the atomics,
 * hence the rounding, varies from run to run. No block makes the final
 * value, so a spectrum with an epilogue (or a result type other than its
 * accumulator's) has no such plan (grid.c leaves it out). */
#include "tgm.h"

void xf_gatomic_at(Arena *a, const Composition *c, Plan *p, Node *value, Node *index) {
  Kernel *k = p->kernel;
  Node *body = k->fn->body;
  Loc loc = k->fn->loc;
  bool row = p->g == G_RA;
  Node *at = node_new(a, ND_ATOMIC, loc);
  at->op = c->op;
  at->lhs = mk_index(a, loc, kernel_use(a, k->out), index);
  at->rhs = mk_var(a, loc, value);
  at->ty = type_new(a, TY_ACC);
  block_add(a, body,
            mk_comment(a, loc,
                       row ? "grid: the row's blocks combine into out[row] atomically, once "
                             "tgm_init_out has set it"
                           : "grid: every block combines into out[0] atomically"));
  if (row)
    block_add(a, body, mk_expr(a, mk_call(a, loc, "tgm_wait_prior_grids", 0)));
  block_add(a, body,
            mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0)),
                  mk_expr(a, at), NULL));
  p->needs_init = true;
  p->launches = 2; /* tgm_init (RA: tgm_init_out), then the kernel */
}

void xf_gatomic(Arena *a, const Composition *c, Plan *p, Node *value) {
  xf_gatomic_at(a, c, p, value, mk_int(a, p->kernel->fn->loc, 0));
}

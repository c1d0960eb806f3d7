/* xf_gatomic.c -- global atomics for the grid plans DTA and DSA (the talk's
 * listing 2): thread 0 of each block combines the block's result into
 * out[0] atomically. out[0] must hold the identity first: the launcher runs
 * tgm_init before the kernel, so the caller needs no zeroed output. One
 * pass over the data; for floating-point + and * the order of the atomics,
 * hence the rounding, varies from run to run. No block makes the final
 * value, so a spectrum with an epilogue (or a result type other than its
 * accumulator's) has no such plan (grid.c leaves it out). */
#include "tgm.h"

void xf_gatomic(Arena *a, const Composition *c, Plan *p, Node *value) {
  Kernel *k = p->kernel;
  Node *body = k->fn->body;
  Loc loc = k->fn->loc;
  Node *at = node_new(a, ND_ATOMIC, loc);
  at->op = c->op;
  at->lhs = mk_index(a, loc, kernel_use(a, k->out), mk_int(a, loc, 0));
  at->rhs = mk_var(a, loc, value);
  at->ty = type_new(a, TY_ACC);
  block_add(a, body, mk_comment(a, loc, "grid: every block combines into out[0] atomically"));
  block_add(a, body,
            mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0)),
                  mk_expr(a, at), NULL));
  p->needs_init = true;
  p->launches = 2; /* tgm_init, then the kernel */
}

/* xf_twopass.c -- the grid plans DT and DS: each block leaves its result in
 * partials[blockIdx.x]; a second kernel, one block of the same plan,
 * reduces the partials into out[0]. Deterministic: the order of combining
 * depends only on n and the launch shape. */
#include "tgm.h"

void xf_twopass(Arena *a, Composition *c, Plan *p, Node *body) {
  Node *k = p->kernel;
  Loc loc = k->loc;
  Node *value = body->kids.items[1];
  block_add(a, body, mk_comment(a, loc, "grid: one partial per block; a second pass combines them"));
  block_add(a, body, mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0)),
                           mk_expr(a, mk_assign(a, loc, OP_NONE,
                                                mk_index(a, loc, kvar(a, k, 3), mk_gpu(a, loc, "bid")),
                                                mk_var(a, loc, value))),
                           NULL));
  /* pass 2: one block over the partials (launched with in = partials, n = blocks) */
  Node *b2;
  p->pass2 = kernel_new(a, c, arena_printf(a, "%s_pass2", p->cname), p->b, &b2);
  Node *k2 = p->pass2;
  Node *v2 = mk_decl(a, loc, "value", ty_elem(a),
                     values_call(a, "DS", T_SS, kvar(a, k2, 0), kvar(a, k2, 1), kvar(a, k2, 5),
                                 mk_int(a, loc, 0), mk_int(a, loc, 1)));
  block_add(a, b2, mk_comment(a, loc, "second pass: one block combines the partials"));
  block_add(a, b2, v2);
  block_add(a, b2, block_call(a, c, p->b, v2));
  block_add(a, b2, mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0)),
                         mk_expr(a, mk_assign(a, loc, OP_NONE, mk_index(a, loc, kvar(a, k2, 2), mk_int(a, loc, 0)),
                                              mk_var(a, loc, v2))),
                         NULL));
  p->partials = true;
  p->launches = 2;
}

/* xf_twopass.c -- the grid plans DT and DS: each block leaves its result in
 * partials[blockIdx.x]; a second kernel, one block of the same plan,
 * combines the partials into out[0] with the operator alone (the
 * transform ran once per element in the first pass) and applies the
 * epilogue. Deterministic: the order of combining depends only on n and the
 * launch shape. */
#include "tgm.h"

void xf_twopass(Arena *a, const Composition *c, Plan *p, Node *value) {
  Kernel *k = p->kernel;
  Node *body = k->fn->body;
  Loc loc = k->fn->loc;
  block_add(a, body,
            mk_comment(a, loc, "grid: one partial per block; a second pass combines them"));
  block_add(a, body,
            mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0)),
                  mk_expr(a, mk_assign(a, loc, OP_NONE,
                                       mk_index(a, loc, kernel_use(a, k->partials),
                                                mk_gpu(a, loc, "bid")),
                                       mk_var(a, loc, value))),
                  NULL));
  /* pass 2: one block over the partials */
  Kernel *k2 = kernel_pass2(a, c, arena_printf(a, "%s_pass2", p->cname), p->b);
  p->pass2 = k2;
  Node *b2 = k2->fn->body;
  Node *v2 = mk_decl(a, loc, "value", type_new(a, TY_ACC),
                     mk_call(a, loc, "tgm_fold<BLOCK>", 2, kernel_use(a, k2->partials),
                             kernel_use(a, k2->count)));
  block_add(a, b2, mk_comment(a, loc, "second pass: one block combines the partials"));
  block_add(a, b2, v2);
  block_add(a, b2, kernel_block_call(a, &c->block[p->b], v2));
  block_add(a, b2, kernel_write_result(a, k2, v2));
  p->partials = true;
  p->launches = 2;
}

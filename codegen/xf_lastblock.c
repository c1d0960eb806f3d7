/* xf_lastblock.c -- single-pass "last block finishes" (DTL, DSL).
 *
 * Each block writes its partial, fences it (ND_FENCE), and takes a ticket
 * from a counter (ND_TICKET: CUDA's atomicInc(counter, gridDim.x - 1)),
 * which wraps back to 0 on the last ticket: the counter resets itself and stays zero between runs.
 * The block that drew the last ticket reduces all partials, in a fixed
 * order, with the same block codelet: one launch, no zeroed output,
 * deterministic. It reads the partials through volatile loads
 * (tgm_partials_value): other blocks wrote them during this kernel, so the
 * non-coherent read-only path a `const __restrict__` pointer allows would
 * be wrong. It applies the epilogue as it writes out[0].
 *
 * A row kernel (RL, rows.c) finishes each row so: the blocks of a row are
 * gridDim.x, its partials, counter and result the ones at the row. */
#include "tgm.h"

void xf_lastblock(Arena *a, const Composition *c, Plan *p, Node *value) {
  Kernel *k = p->kernel;
  xf_lastblock_at(a, c, p, value, kernel_use(a, k->partials), kernel_use(a, k->counter),
                  mk_int(a, k->fn->loc, 0));
}

void xf_lastblock_at(Arena *a, const Composition *c, Plan *p, Node *value, Node *partials,
                     Node *counter, Node *out_at) {
  Kernel *k = p->kernel;
  Node *body = k->fn->body;
  Loc loc = k->fn->loc;
  Node *last = mk_decl(a, loc, "is_last", type_new(a, TY_BOOL), NULL);
  last->qual = Q_SHARED;
  Node *tid0 = mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0));

  block_add(a, body, mk_comment(a, loc, "grid: partials; the last block to finish combines them"));
  block_add(a, body, last);
  Node *first = mk_block(a, loc);
  block_add(a, first,
            mk_expr(a, mk_assign(a, loc, OP_NONE, mk_index(a, loc, partials, mk_gpu(a, loc, "bid")),
                                 mk_var(a, loc, value))));
  block_add(a, first, mk_expr(a, mk_fence(a, loc)));
  Node *limit = mk_binary(a, loc, OP_SUB, mk_gpu(a, loc, "gdim"), mk_int(a, loc, 1));
  Node *ticket = mk_ticket(a, loc, counter, limit);
  block_add(a, first,
            mk_expr(a, mk_assign(a, loc, OP_NONE, mk_var(a, loc, last),
                                 mk_binary(a, loc, OP_EQ, ticket, node_clone(a, limit)))));
  block_add(a, body, mk_if(a, loc, tid0, first, NULL));
  block_add(a, body, mk_sync(a, loc, SYNC_BLOCK));

  Node *fin = mk_block(a, loc);
  block_add(a, fin, mk_expr(a, mk_fence(a, loc)));
  block_add(a, fin,
            mk_expr(a, mk_assign(a, loc, OP_NONE, mk_var(a, loc, value),
                                 mk_call(a, loc, "tgm_partials_value<BLOCK>", 2,
                                         node_clone(a, partials), mk_gpu(a, loc, "gdim")))));
  block_add(a, fin, kernel_block_call(a, &c->block[p->b], value));
  block_add(a, fin, kernel_write_result_at(a, k, value, out_at));
  block_add(a, body, mk_if(a, loc, mk_var(a, loc, last), fin, NULL));
  p->partials = true;
  p->counter = true;
  p->launches = 1;
}

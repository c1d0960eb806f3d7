/* cols.c -- the grid level of column reductions (--cols): out[j] is the
 * spectrum over column j of an m x n matrix whose rows are ld elements
 * apart. A column is the 1-D problem with stride ld, which the scalar
 * codelet takes as it is (in.Stride()): each thread runs it down its
 * column, so the columns lie across a warp's lanes and every load is
 * coalesced.
 *
 *   CT.SS  template <BLOCK>: `width` columns a block (blockIdx.x), its
 *          BLOCK / width row lanes, the lanes of all `parts` blocks down the
 *          rows (blockIdx.y) taking every (parts x lanes)-th row in turn;
 *          the lanes' values folded in shared memory with the operator, in
 *          order; the parts' partials combined, in order, by the last of
 *          them to finish: deterministic. The kernel is file.tpl's
 *          tgm_columns, called with the kernel's arguments.
 *   CT.SV  the same over 16-byte vectors (file.tpl's tgm_columns_vec): a
 *          thread takes TGM_VW adjacent columns, one vector load a row
 *          where the rows keep the vectors aligned (ld a multiple of
 *          TGM_VW), four rows in flight; `width` such groups a block. The
 *          codelet folds each element as it does one element of CT.SS, in
 *          the same order. One input only (a vector per input is not built).
 * No cooperative codelet takes part (each column is one thread's, then a
 * fold of lanes). A spectrum whose transform uses x.Index(i) is left out:
 * down a column, i counts elements, not rows. */
#include "tgm.h"

const char *cols_wanting(Arena *a, const Composition *c, const Plan *p, LeftOutStage *stage) {
  (void)a;
  *stage = LO_PARTS;
  if (!c->thread_fn)
    return "the spectrum has no scalar codelet for the thread";
  if (c->spec->indexed)
    return "the transform uses x.Index(i), which down a column counts elements (ld apart), "
           "not rows";
  if (p->t == T_SV && c->spec->inputs.len != 1)
    return "vector column loads take one input";
  return NULL;
}

void cols_build(Arena *a, Composition *c, Plan *p) {
  Kernel *k = kernel_cols(a, c, p->cname);
  p->kernel = k;
  p->launches = 1;
  p->deterministic = true;
  p->partials = true;
  p->counter = true;
  Loc loc = k->fn->loc;
  Node *call = mk_call(a, loc, p->t == T_SV ? "tgm_columns_vec<BLOCK>" : "tgm_columns<BLOCK>", 0);
  for (int i = 0; i < k->fn->kids.len; i++)
    vec_push(a, &call->kids, kernel_use(a, k->fn->kids.items[i]));
  block_add(a, k->fn->body,
            mk_comment(a, loc,
                       arena_printf(a,
                                    "columns: codelet '%s' down each column, `width` %s a "
                                    "block, the rows split over lanes and blockIdx.y",
                                    c->scalar->id,
                                    p->t == T_SV ? "groups of TGM_VW columns (vector loads)"
                                                 : "columns")));
  block_add(a, k->fn->body, mk_expr(a, call));
  vec_push(a, &c->plans, p);
}

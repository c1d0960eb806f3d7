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
 *   CA.SV  CT.SV whose parts combine into out with global atomics (the
 *          spectrum's tgm_atomic_OP) instead of the last part folding their
 *          partials: no counters, no partials, no ticket; out set to the
 *          identity first by tgm_init_out, a launch of its own that the
 *          column kernel may start behind (PDL, sm_90+: it waits for it
 *          before its atomics). As DTA: a spectrum with an epilogue, an Arg,
 *          or a result type other than its accumulator's has none; for
 *          floating-point + and * the rounding varies from run to run.
 * No cooperative codelet takes part (each column is one thread's, then a
 * fold of lanes). A spectrum whose transform uses x.Index(i) is left out:
 * down a column, i counts elements, not rows. */
#include "tgm.h"

const char *cols_wanting(Arena *a, const Composition *c, const Plan *p, LeftOutStage *stage) {
  *stage = LO_PARTS;
  if (!c->thread_fn)
    return "the spectrum has no scalar codelet for the thread";
  if (c->spec->indexed)
    return "the transform uses x.Index(i), which down a column counts elements (ld apart), "
           "not rows";
  if (p->t == T_SV && c->spec->inputs.len != 1)
    return "vector column loads take one input";
  *stage = LO_GRID;
  return p->g == G_CA ? atomics_wanting(a, c->spec) : NULL;
}

void cols_build(Arena *a, Composition *c, Plan *p) {
  Kernel *k = kernel_cols(a, c, p->cname);
  bool atomic = p->g == G_CA; /* p->deterministic: plan_candidate's (atomics) */
  p->kernel = k;
  /* CA: at least one block an SM, which the launch always allows, said to
     ptxas: without it CA.SV took 32 registers and spilled (sm_90, CUDA 13.0)
     and ran 4-6 % slower than CT.SV from 2^22 elements; with it, 1.02-1.41x
     CT.SV in (b) at every setting in parts measured
     (bench/results/2026-11-27-cols-atomic) */
  if (atomic)
    k->fn->qual |= Q_MIN_BLOCKS1;
  p->launches = atomic ? 2 : 1; /* CA: tgm_init_out, then the kernel */
  p->needs_init = atomic;
  p->partials = !atomic;
  p->counter = !atomic;
  Loc loc = k->fn->loc;
  Node *call = mk_call(a, loc,
                       atomic         ? "tgm_columns_vec<BLOCK, true>"
                       : p->t == T_SV ? "tgm_columns_vec<BLOCK>"
                                      : "tgm_columns<BLOCK>",
                       0);
  for (int i = 0; i < k->fn->kids.len; i++)
    vec_push(a, &call->kids, kernel_use(a, k->fn->kids.items[i]));
  block_add(a, k->fn->body,
            mk_comment(a, loc,
                       arena_printf(a,
                                    "columns: codelet '%s' down each column, `width` %s a "
                                    "block, the rows split over lanes and blockIdx.y%s",
                                    c->scalar->id,
                                    p->t == T_SV ? "groups of TGM_VW columns (vector loads)"
                                                 : "columns",
                                    atomic ? ", the parts combined into out atomically" : "")));
  block_add(a, k->fn->body, mk_expr(a, call));
  vec_push(a, &c->plans, p);
}

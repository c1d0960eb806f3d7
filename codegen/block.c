/* block.c -- the block pass: each block kind's lowered cooperative codelet
 * through its transformations, in order:
 *   VA1, VA2, VA2S  shared atomics (xf_satomic.c)
 *   VS, VR, VA2S, VW, VRW  tree loops as warp shuffles (xf_shuffle.c)
 *   VW, VRW         the partials' shuffle tree as thread 0's fold (xf_fold.c)
 *   VR, VRW         the (remaining) shuffle tree as the warp-reduce
 *                   instruction (xf_redux.c)
 *   every kind      barriers where the threads share memory (xf_barrier.c)
 *   --rows          the result for a group of GROUP threads (xf_group.c;
 *                   not VW, VRW: RW's block holds several rows)
 * A kind whose pattern does not match is unavailable, with why. */
#include "tgm.h"

void pass_block(Ctx *ctx, Composition *c) {
  Arena *a = ctx->arena;
  for (int k = 0; k < B_COUNT; k++) {
    BlockKind b = (BlockKind)k;
    BlockImpl *im = &c->block[b];
    if (!im->fn)
      continue;
    Node *fn = im->fn;
    const char *why = NULL;
    Loc loc = {0};
    if (b == B_VA1 || b == B_VA2 || b == B_VA2S)
      xf_satomic(a, fn);
    bool fold = b == B_VW || b == B_VRW, redux = b == B_VR || b == B_VRW;
    if ((b == B_VS || b == B_VA2S || fold || redux) && xf_shuffle(a, fn) == 0)
      why = arena_printf(a, "codelet '%s' has no tree loop that maps onto warp shuffles",
                         im->cd->id);
    else if (fold && xf_fold(a, fn) == 0)
      why = arena_printf(a,
                         "codelet '%s' has no tree over the warps' partials (acc = (ThreadId() < "
                         "n) ? partial[LaneId()] : e; then a tree loop) to fold in one thread",
                         im->cd->id);
    else if (redux && xf_redux(a, fn, c->op) == 0)
      why = arena_printf(a, "codelet '%s' has no shuffle tree to replace", im->cd->id);
    else if ((why = xf_barrier(a, fn, &loc)))
      why = arena_printf(a, "codelet '%s' at line %d %s", im->cd->id, loc.line, why);
    if (why) {
      im->fn = NULL;
      im->why = why;
      im->why_loc = loc;
    } else if (c->rows && fold) { /* RB, RL, RA: a block a row, or a part of one */
      im->group_why = arena_printf(a,
                                   "%s folds a whole block's partials in thread 0, and RW's block "
                                   "holds BLOCK / GROUP rows",
                                   block_code(b));
    } else if (c->rows) {
      im->group_fn = xf_group(a, fn, &im->group_why);
    }
  }
}

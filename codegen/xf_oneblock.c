/* xf_oneblock.c -- the grid plan B1: a single block reduces the whole input
 * (small inputs) and its thread 0 writes the result, epilogue applied. One
 * launch, no temp storage. */
#include "tgm.h"

void xf_oneblock(Arena *a, const Composition *c, Plan *p, Node *value) {
  (void)c;
  Kernel *k = p->kernel;
  Loc loc = k->fn->loc;
  block_add(a, k->fn->body, mk_comment(a, loc, "grid: a single block writes the result"));
  block_add(a, k->fn->body, kernel_write_result(a, k, value));
  p->launches = 1;
}

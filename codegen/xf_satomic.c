/* xf_satomic.c -- shared-memory atomics (the talk's figure 3).
 *
 *   __shared atomicAdd T acc;   acc = v;
 * becomes
 *   __shared__ T acc;
 *   if (threadIdx.x == 0) acc = 0;      (the identity, first thing)
 *   tgm_atomic_add(&acc, v);
 * Reads of acc stay plain reads; barrier insertion (xf_barrier.c) puts the
 * barriers between the initialisation, the atomics and the reads. */
#include "tgm.h"

typedef struct {
  Arena *a;
  Node *acc;
} SAtomic;

static Node *rewrite(Node *n, void *ctx) {
  SAtomic *s = ctx;
  if (n->kind != ND_ASSIGN || !n->lhs || n->lhs->kind != ND_VAR || n->lhs->decl != s->acc)
    return n;
  Node *at = node_new(s->a, ND_ATOMIC, n->loc);
  at->op = s->acc->atomic_op;
  at->lhs = n->lhs;
  at->rhs = n->rhs;
  at->ty = n->ty;
  return at;
}

/* Returns the number of atomic accumulators rewritten (0 or 1). */
int xf_satomic(Arena *a, Node *fn) {
  Node *acc = NULL;
  Node *body = fn->body;
  int at = 0;
  for (; at < body->kids.len; at++) {
    Node *d = body->kids.items[at];
    if (d->kind == ND_DECL && d->atomic_op != OP_NONE) {
      acc = d;
      break;
    }
  }
  if (!acc)
    return 0;
  SAtomic s = {a, acc};
  node_rewrite(body, rewrite, &s);
  /* the identity, stored once before anyone combines into it */
  Node *init = mk_if(a, acc->loc,
                     mk_binary(a, acc->loc, OP_EQ, mk_gpu(a, acc->loc, "tid"),
                               mk_int(a, acc->loc, 0)),
                     mk_expr(a, mk_assign(a, acc->loc, OP_NONE, mk_var(a, acc->loc, acc),
                                          mk_identity(a, acc->loc, acc->atomic_op))),
                     NULL);
  /* insert after the declarations at the top of the body */
  int pos = at + 1;
  while (pos < body->kids.len && ((Node *)body->kids.items[pos])->kind == ND_DECL &&
         (((Node *)body->kids.items[pos])->qual & Q_SHARED))
    pos++;
  vec_push(a, &body->kids, NULL);
  for (int i = body->kids.len - 1; i > pos; i--)
    body->kids.items[i] = body->kids.items[i - 1];
  body->kids.items[pos] = init;
  return 1;
}

/* xf_redux.c -- the warp-reduce instruction (sm_80+: __reduce_add_sync and
 * friends, redux.sync in PTX).
 *
 * A loop that xf_shuffle made into a shuffle tree reduces a warp's values
 * into lane 0; `acc = __reduce_add_sync(0xffffffffu, acc);` gives every lane
 * the same total in one instruction. Only 32-bit integers with +, min, max
 * (and &, |, ^ for unsigned) have it; the caller checks the type and op. */
#include "tgm.h"

typedef struct {
  Arena *a;
  Op op;
  int replaced;
} Redux;

static Node *replace(Node *n, void *ctx) {
  Redux *r = ctx;
  if (n->kind != ND_FOR || n->ival != 1 || !n->body || n->body->kids.len != 2)
    return n;
  Node *combine = n->body->kids.items[1]; /* acc op= (guard) ? shfl : identity */
  Node *acc = combine->lhs->lhs->decl;
  Loc loc = n->loc;
  Node *rd = node_new(r->a, ND_REDUX, loc);
  rd->op = r->op;
  rd->lhs = mk_var(r->a, loc, acc);
  rd->ty = acc->ty;
  r->replaced++;
  return mk_expr(r->a, mk_assign(r->a, loc, OP_NONE, mk_var(r->a, loc, acc), rd));
}

int xf_redux(Arena *a, Node *fn, Op op) {
  Redux r = {a, op, 0};
  node_rewrite(fn->body, replace, &r);
  return r.replaced;
}

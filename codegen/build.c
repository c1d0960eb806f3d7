/* build.c -- builders for nodes that lowering and transformations create.
 * Every builder takes the location of the user's code the node stands
 * for, so a late error still points at the codelet. */
#include "tgm.h"

#include <string.h>

Node *mk_int(Arena *a, Loc loc, long long v) {
  Node *n = node_new(a, ND_INT, loc);
  n->ival = v;
  n->spelling = arena_printf(a, "%lld", v);
  n->ty = type_new(a, TY_INT);
  return n;
}

Node *mk_var(Arena *a, Loc loc, Node *decl) {
  Node *n = node_new(a, ND_VAR, loc);
  n->name = decl->name;
  n->decl = decl;
  n->ty = decl->ty;
  return n;
}

Node *mk_gpu(Arena *a, Loc loc, const char *name) {
  Node *n = node_new(a, ND_GPU, loc);
  n->name = name;
  n->ty = type_new(a, TY_UINT);
  return n;
}

Node *mk_unary(Arena *a, Loc loc, Op op, Node *x) {
  Node *n = node_new(a, ND_UNARY, loc);
  n->op = op;
  n->lhs = x;
  n->ty = x ? x->ty : NULL;
  return n;
}

Node *mk_binary(Arena *a, Loc loc, Op op, Node *l, Node *r) {
  Node *n = node_new(a, ND_BINARY, loc);
  n->op = op;
  n->lhs = l;
  n->rhs = r;
  n->ty = l->ty;
  return n;
}

Node *mk_assign(Arena *a, Loc loc, Op op, Node *l, Node *r) {
  Node *n = node_new(a, ND_ASSIGN, loc);
  n->op = op;
  n->lhs = l;
  n->rhs = r;
  n->ty = l->ty;
  return n;
}

Node *mk_cond(Arena *a, Loc loc, Node *c, Node *t, Node *e) {
  Node *n = node_new(a, ND_COND, loc);
  n->cond = c;
  n->then = t;
  n->els = e;
  n->ty = t->ty;
  return n;
}

Node *mk_value_as(Arena *a, Loc loc, Node *v, Type *ty, ElemType elem) {
  if (!v->ty || !ty || type_concrete(v->ty, elem) == type_concrete(ty, elem))
    return v;
  /* an int constant a char or short holds: its value, which promotes back to
     that int (`const unsigned char k = 200;` is 200 where it is read) */
  int bits = type_narrow_bits(ty);
  if (bits && v->kind == ND_INT && v->ty->kind == TY_INT) {
    int b = bits < 0 ? -bits : bits;
    long long lo = bits < 0 ? -(1ll << (b - 1)) : 0,
              hi = bits < 0 ? (1ll << (b - 1)) - 1 : (1ll << b) - 1;
    if (b < 32 && v->ival >= lo && v->ival <= hi)
      return v;
  }
  Node *c = node_new(a, ND_CAST, loc);
  c->ty = ty;
  c->lhs = v;
  return c;
}

Node *mk_index(Arena *a, Loc loc, Node *base, Node *idx) {
  Node *n = node_new(a, ND_INDEX, loc);
  n->lhs = base;
  n->rhs = idx;
  n->ty = base->ty && base->ty->base ? base->ty->base : ty_elem(a);
  return n;
}

Node *mk_member(Arena *a, Loc loc, Node *obj, const char *field) {
  Node *n = node_new(a, ND_MEMBER, loc);
  n->lhs = obj;
  n->name = field;
  n->ty = ty_elem(a);
  return n;
}

Node *mk_call(Arena *a, Loc loc, const char *name, int nargs, ...) {
  Node *n = node_new(a, ND_CALL, loc);
  n->name = name;
  va_list ap;
  va_start(ap, nargs);
  for (int i = 0; i < nargs; i++)
    vec_push(a, &n->kids, va_arg(ap, Node *));
  va_end(ap);
  n->ty = ty_elem(a);
  return n;
}

Node *mk_expr(Arena *a, Node *e) {
  Node *n = node_new(a, ND_EXPR, e->loc);
  n->lhs = e;
  return n;
}

Node *mk_if(Arena *a, Loc loc, Node *c, Node *then, Node *els) {
  Node *n = node_new(a, ND_IF, loc);
  n->cond = c;
  n->then = then;
  n->els = els;
  return n;
}

Node *mk_block(Arena *a, Loc loc) { return node_new(a, ND_BLOCK, loc); }

Node *mk_decl(Arena *a, Loc loc, const char *name, Type *ty, Node *init) {
  Node *n = node_new(a, ND_DECL, loc);
  n->name = name;
  n->ty = ty;
  n->init = init;
  return n;
}

Node *mk_param(Arena *a, Loc loc, const char *name, Type *ty, unsigned qual) {
  Node *n = node_new(a, ND_PARAM, loc);
  n->name = name;
  n->ty = ty;
  n->qual = qual;
  return n;
}

Node *mk_sync(Arena *a, Loc loc, int scope) {
  Node *n = node_new(a, ND_SYNC, loc);
  n->ival = scope;
  return n;
}

Node *mk_comment(Arena *a, Loc loc, const char *text) {
  Node *n = node_new(a, ND_COMMENT, loc);
  n->spelling = text;
  return n;
}

Node *mk_return(Arena *a, Loc loc, Node *v) {
  Node *n = node_new(a, ND_RETURN, loc);
  n->lhs = v;
  return n;
}

void block_add(Arena *a, Node *block, Node *stmt) { vec_push(a, &block->kids, stmt); }

Type *ty_elem(Arena *a) { return type_new(a, TY_ELEM); }

Type *ty_ptr(Arena *a, Type *base, bool is_const) {
  Type *t = type_new(a, TY_PTR);
  if (is_const) {
    Type *c = type_new(a, base->kind);
    *c = *base;
    c->is_const = true;
    base = c;
  }
  t->base = base;
  return t;
}

Node *mk_combine(Arena *a, Loc loc, Op op, Node *x, Node *y) {
  const Combiner *cb = combiner_of(op);
  if (cb && cb->form == CF_CALL)
    return mk_call(a, loc, op_name(op), 2, x, y);
  return mk_binary(a, loc, op, x, y);
}

Node *mk_identity(Arena *a, Loc loc, Op op) {
  const Combiner *cb = combiner_of(op);
  switch (cb ? cb->identity : ID_ZERO) {
  case ID_ONE: return mk_int(a, loc, 1);
  case ID_ONES: return mk_unary(a, loc, OP_BITNOT, mk_int(a, loc, 0));
  case ID_LOWEST: return mk_call(a, loc, "Lowest", 0);
  case ID_HIGHEST: return mk_call(a, loc, "Highest", 0);
  case ID_ZERO: break;
  }
  return mk_int(a, loc, 0);
}

Node *mk_fence(Arena *a, Loc loc) { return node_new(a, ND_FENCE, loc); }

Node *mk_ticket(Arena *a, Loc loc, Node *counter, Node *limit) {
  Node *n = node_new(a, ND_TICKET, loc);
  n->lhs = counter;
  n->rhs = limit;
  n->ty = type_new(a, TY_UINT);
  return n;
}

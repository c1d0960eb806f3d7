/* xf_epilogue.c -- the spectrum's epilogue as a device function:
 *
 *   __device__ __forceinline__
 *   R tgm_epilogue(A accum, tgm_size n, [params]) { return accum / n; }
 *
 * The epilogue is the scalar codelet's returned expression of its
 * accumulator (sema, spectrum.c), with in.Size() -- the whole input's
 * length -- as n. Without one it returns the accumulator. Every plan calls
 * it once, where the final value is made. */
#include "tgm.h"

#include <string.h>

typedef struct {
  Arena *a;
  const Spectrum *s;
  Node *acc, *n;   /* the new parameters */
  PtrVec from, to; /* the scalar codelet's parameters -> the new ones */
} Epi;

static Node *rebind(Node *x, void *ctx) {
  Epi *e = ctx;
  if (x->kind == ND_METHOD && strcmp(x->name, "Size") == 0)
    return mk_var(e->a, x->loc, e->n);
  /* (int)in.Size(), an `int len` inlined, (T)in.Size() where T is int */
  if (spectrum_cast_widens(x, e->s->elem, node_is_var(x->lhs, e->n))) {
    x->ty = type_new(e->a, type_widened(TY_INT));
    return x;
  }
  if (x->kind != ND_VAR || !x->decl)
    return x;
  if (x->decl == e->s->acc)
    return mk_var(e->a, x->loc, e->acc);
  for (int i = 0; i < e->from.len; i++)
    if (x->decl == e->from.items[i])
      return mk_var(e->a, x->loc, e->to.items[i]);
  return x;
}

/* A device function of n and the spectrum's parameters (and, with an
 * accumulator, of it first) returning expr rebound to them. */
static Node *epi_function(Arena *a, const Spectrum *s, const char *name, TypeKind ret,
                          const Node *expr, bool with_acc, bool uses_n) {
  Loc loc = s->scalar->loc;
  Node *f = node_new(a, ND_FUNC, loc);
  f->name = name;
  f->ty = type_new(a, ret);
  f->spelling = "__device__ __forceinline__";
  Epi e = {.a = a, .s = s};
  e.acc = mk_param(a, s->acc->loc, s->acc->name, type_new(a, TY_ACC), 0);
  bool clash = with_acc && strcmp(s->acc->name, "n") == 0;
  for (int i = 0; i < s->params.len; i++)
    clash |= strcmp(((SpecParam *)s->params.items[i])->name, "n") == 0;
  e.n = mk_param(a, loc, clash ? "tgm_n" : "n", type_new(a, TY_SIZE), 0);
  if (with_acc)
    vec_push(a, &f->kids, e.acc);
  vec_push(a, &f->kids, e.n);
  const Node *fn = s->scalar->fn;
  for (int i = 0; i < fn->kids.len; i++) {
    Node *p = fn->kids.items[i];
    if (p->ty->kind == TY_ARRAY)
      continue;
    Node *np = mk_param(a, p->loc, p->name, p->ty, 0);
    vec_push(a, &e.from, p);
    vec_push(a, &e.to, np);
    vec_push(a, &f->kids, np);
  }
  f->body = mk_block(a, loc);
  if (!uses_n) { /* (void)n; */
    Node *cast = node_new(a, ND_CAST, loc);
    cast->ty = type_new(a, TY_VOID);
    cast->lhs = mk_var(a, loc, e.n);
    block_add(a, f->body, mk_expr(a, cast));
  }
  Node *value = expr ? node_rewrite(node_clone(a, expr), rebind, &e) : mk_var(a, loc, e.acc);
  block_add(a, f->body, mk_return(a, loc, value));
  return f;
}

Node *xf_epilogue(Arena *a, const Spectrum *s) {
  return epi_function(a, s, "tgm_epilogue", TY_RES, s->epilogue, true, s->epilogue_uses_n);
}

Node *xf_start(Arena *a, const Spectrum *s) {
  return s->start ? epi_function(a, s, "tgm_start", TY_ACC, s->start, false, s->start_uses_n)
                  : NULL;
}

/* ast.c -- node constructors and walkers. */
#include "tgm.h"

#include <string.h>

static const char *kind_names[] = {
#define X(k, s) s,
#include "nodes.def"
#undef X
};

static const char *op_names[] = {
#define X(k, s) s,
#include "ops.def"
#undef X
};

const char *node_kind_name(NodeKind k) { return k < ND_COUNT ? kind_names[k] : "?"; }

const char *op_name(Op op) { return op < OP_COUNT ? op_names[op] : "?"; }

Node *node_new(Arena *a, NodeKind kind, Loc loc) {
  Node *n = arena_alloc(a, sizeof *n);
  n->kind = kind;
  n->loc = loc;
  return n;
}

Node *node_kid(const Node *n, int i) { return i < n->kids.len ? n->kids.items[i] : NULL; }

int node_nkids(const Node *n) { return n->kids.len; }

void node_walk(Node *n, NodeVisit fn, void *ctx) {
  if (!n || !fn(n, ctx))
    return;
  Node *fields[] = {n->dim, n->init, n->cond, n->lhs, n->rhs, n->then, n->els, n->inc, n->body};
  if (n->kind == ND_DO) { /* body runs before the condition */
    node_walk(n->body, fn, ctx);
    node_walk(n->cond, fn, ctx);
    return;
  }
  for (size_t i = 0; i < COUNT_OF(fields); i++)
    node_walk(fields[i], fn, ctx);
  for (int i = 0; i < n->kids.len; i++)
    node_walk(n->kids.items[i], fn, ctx);
}

bool node_is_gpu(const Node *n, const char *name) {
  return n && n->kind == ND_GPU && strcmp(n->name, name) == 0;
}

bool node_is_var(const Node *n, const Node *decl) {
  return n && n->kind == ND_VAR && n->decl == decl;
}

typedef struct {
  const Node *decl;
  bool found;
} Reads;

static bool find_read(Node *n, void *ctx) {
  Reads *r = ctx;
  if (node_is_var(n, r->decl))
    r->found = true;
  return !r->found;
}

bool node_reads(Node *n, const Node *decl) {
  Reads r = {decl, false};
  if (n)
    node_walk(n, find_read, &r);
  return r.found;
}

Node **node_combine_operand(Node *as, const Node *acc) {
  if (!as || as->kind != ND_ASSIGN || !acc || !node_is_var(as->lhs, acc) || !as->rhs)
    return NULL;
  if (as->op != OP_NONE)
    return &as->rhs;
  Node *r = as->rhs;
  if (r->kind == ND_CALL && r->kids.len == 2)
    return node_is_var(r->kids.items[0], acc)   ? (Node **)&r->kids.items[1]
           : node_is_var(r->kids.items[1], acc) ? (Node **)&r->kids.items[0]
                                                : NULL;
  if (r->kind == ND_BINARY)
    return node_is_var(r->lhs, acc) ? &r->rhs : node_is_var(r->rhs, acc) ? &r->lhs : NULL;
  return NULL;
}

typedef struct {
  const Node *decl;
  const Node *where;
} Assigned;

/* =, op=, ++ and --: what writes its left side */
static bool is_write(const Node *n) {
  return n->kind == ND_ASSIGN ||
         (n->kind == ND_UNARY &&
          (n->op == OP_PREINC || n->op == OP_PREDEC || n->op == OP_POSTINC || n->op == OP_POSTDEC));
}

static bool find_assign(Node *n, void *ctx) {
  Assigned *as = ctx;
  if (as->where)
    return false;
  if (is_write(n) && n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl == as->decl)
    as->where = n;
  return true;
}

const Node *node_assigned_in(Node *n, const Node *decl) {
  Assigned as = {decl, NULL};
  if (n)
    node_walk(n, find_assign, &as);
  return as.where;
}

static bool find_shared_combine(Node *n, void *ctx) {
  const Node **at = ctx;
  const Node *d = n->kind == ND_ASSIGN && n->lhs && n->lhs->kind == ND_INDEX && n->lhs->lhs &&
                          n->lhs->lhs->kind == ND_VAR
                      ? n->lhs->lhs->decl
                      : NULL;
  if (!*at && d && (d->qual & Q_SHARED) && (n->op != OP_NONE || node_reads(n->rhs, d)))
    *at = n;
  return !*at;
}

const Node *node_shared_combine_in(Node *n) {
  const Node *at = NULL;
  if (n)
    node_walk(n, find_shared_combine, &at);
  return at;
}

typedef struct {
  Node *body;
  bool ok;
} Fixed;

static bool fixed_use(Node *n, void *ctx) {
  Fixed *f = ctx;
  if (n->kind == ND_METHOD || n->kind == ND_INDEX || is_write(n))
    f->ok = false;
  else if (n->kind == ND_VAR && n->decl &&
           !(n->decl->kind == ND_PARAM && n->decl->ty && type_is_arith(n->decl->ty)) &&
           !node_fixed_local(f->body, n->decl))
    f->ok = false;
  return f->ok;
}

bool node_fixed_local(Node *body, const Node *decl) {
  if (!decl || decl->kind != ND_DECL || !decl->init || decl->dim || !decl->ty ||
      (!type_is_arith(decl->ty) && !type_narrow_bits(decl->ty)) ||
      (decl->qual & (Q_SHARED | Q_TUNABLE | Q_ACCUM)) || node_assigned_in(body, decl))
    return false;
  Fixed f = {body, true};
  node_walk(decl->init, fixed_use, &f);
  return f.ok;
}

typedef struct InlinedSize {
  const Node *decl;
  long size;
  struct InlinedSize *next;
} InlinedSize;

typedef struct {
  Arena *a;
  bool (*inlined)(const Node *decl, void *ctx);
  void *ctx;
  long cap, total;
  InlinedSize *memo;
} SizeWalk;

static bool count_inlined(Node *n, void *ctx) {
  SizeWalk *w = ctx;
  if (w->total > w->cap)
    return false;
  if (n->kind == ND_VAR && n->decl && n->decl->init && w->inlined(n->decl, w->ctx)) {
    InlinedSize *m = w->memo;
    while (m && m->decl != n->decl)
      m = m->next;
    if (!m) {
      long outer = w->total;
      w->total = 0;
      node_walk(n->decl->init, count_inlined, w);
      m = arena_alloc(w->a, sizeof *m);
      *m = (InlinedSize){n->decl, w->total, w->memo};
      w->memo = m;
      w->total = outer;
    }
    w->total += m->size;
    return false;
  }
  w->total++;
  return true;
}

long node_inlined_size(Arena *a, Node *n, bool (*inlined)(const Node *decl, void *ctx), void *ctx,
                       long cap) {
  SizeWalk w = {a, inlined, ctx, cap, 0, NULL};
  if (n)
    node_walk(n, count_inlined, &w);
  return w.total;
}

bool node_is_method(const Node *n, TypeKind tk, const char *method) {
  return n && n->kind == ND_METHOD && n->lhs && n->lhs->ty && n->lhs->ty->kind == tk &&
         strcmp(n->name, method) == 0;
}

static Node *rewrite_kid(Node *n, NodeRewrite fn, void *ctx) {
  return n ? node_rewrite(n, fn, ctx) : NULL;
}

Node *node_rewrite(Node *n, NodeRewrite fn, void *ctx) {
  if (!n)
    return NULL;
  n->dim = rewrite_kid(n->dim, fn, ctx);
  n->init = rewrite_kid(n->init, fn, ctx);
  n->cond = rewrite_kid(n->cond, fn, ctx);
  n->lhs = rewrite_kid(n->lhs, fn, ctx);
  n->rhs = rewrite_kid(n->rhs, fn, ctx);
  n->then = rewrite_kid(n->then, fn, ctx);
  n->els = rewrite_kid(n->els, fn, ctx);
  n->inc = rewrite_kid(n->inc, fn, ctx);
  n->body = rewrite_kid(n->body, fn, ctx);
  int j = 0;
  for (int i = 0; i < n->kids.len; i++) {
    Node *k = rewrite_kid(n->kids.items[i], fn, ctx);
    if (k)
      n->kids.items[j++] = k;
  }
  n->kids.len = j;
  return fn(n, ctx);
}

typedef struct {
  Arena *a;
  PtrVec from, to; /* declarations: original -> copy */
} CloneMap;

static Node *clone_rec(CloneMap *m, const Node *n) {
  if (!n)
    return NULL;
  Node *c = arena_alloc(m->a, sizeof *c);
  *c = *n;
  if (n->kind == ND_DECL || n->kind == ND_PARAM) {
    vec_push(m->a, &m->from, (void *)n);
    vec_push(m->a, &m->to, c);
  }
  if (n->kind == ND_VAR && n->decl) {
    for (int i = m->from.len - 1; i >= 0; i--)
      if (m->from.items[i] == n->decl)
        c->decl = m->to.items[i];
  }
  /* kids first: a function's parameters come before the body using them */
  c->kids = (PtrVec){0};
  for (int i = 0; i < n->kids.len; i++)
    vec_push(m->a, &c->kids, clone_rec(m, n->kids.items[i]));
  c->dim = clone_rec(m, n->dim);
  c->init = clone_rec(m, n->init);
  c->cond = clone_rec(m, n->cond);
  c->lhs = clone_rec(m, n->lhs);
  c->rhs = clone_rec(m, n->rhs);
  c->then = clone_rec(m, n->then);
  c->els = clone_rec(m, n->els);
  c->inc = clone_rec(m, n->inc);
  c->body = clone_rec(m, n->body);
  return c;
}

Node *node_clone(Arena *a, const Node *n) {
  CloneMap m = {.a = a};
  return clone_rec(&m, n);
}

static bool str_eq(const char *x, const char *y) {
  return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

bool node_equal(const Node *x, const Node *y) {
  if (!x || !y)
    return x == y;
  if (x->kind != y->kind || x->op != y->op || !str_eq(x->name, y->name) ||
      x->kids.len != y->kids.len || x->decl != y->decl)
    return false;
  if ((x->kind == ND_INT || x->kind == ND_BOOL) && x->ival != y->ival)
    return false;
  if (x->kind == ND_FLOAT && x->fval != y->fval)
    return false;
  const Node *xs[] = {x->dim, x->init, x->cond, x->lhs, x->rhs, x->then, x->els, x->inc, x->body};
  const Node *ys[] = {y->dim, y->init, y->cond, y->lhs, y->rhs, y->then, y->els, y->inc, y->body};
  for (size_t i = 0; i < COUNT_OF(xs); i++)
    if (!node_equal(xs[i], ys[i]))
      return false;
  for (int i = 0; i < x->kids.len; i++)
    if (!node_equal(x->kids.items[i], y->kids.items[i]))
      return false;
  return true;
}

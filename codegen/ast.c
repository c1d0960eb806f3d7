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

const char *node_kind_name(NodeKind k) {
  return k < ND_COUNT ? kind_names[k] : "?";
}

const char *op_name(Op op) {
  return op < OP_COUNT ? op_names[op] : "?";
}

Node *node_new(Arena *a, NodeKind kind, Loc loc) {
  Node *n = arena_alloc(a, sizeof *n);
  n->kind = kind;
  n->loc = loc;
  return n;
}

Node *node_kid(const Node *n, int i) {
  return i < n->kids.len ? n->kids.items[i] : NULL;
}

int node_nkids(const Node *n) {
  return n->kids.len;
}

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

bool node_is_method(const Node *n, TypeKind tk, const char *method) {
  return n && n->kind == ND_METHOD && n->lhs && n->lhs->ty && n->lhs->ty->kind == tk &&
         strcmp(n->name, method) == 0;
}

/* Unit tests of the AST helpers, the type names and the element types. */
#include "../check.h"
#include "tgm.h"

#include <string.h>

static Loc L(int line, int col) { return (Loc){"t.tgm", line, col}; }

static bool count(Node *n, void *ctx) {
  (void)n;
  ++*(int *)ctx;
  return true;
}

static bool prune_for(Node *n, void *ctx) {
  ++*(int *)ctx;
  return n->kind != ND_FOR;
}

typedef struct {
  NodeKind order[16];
  int n;
} Order;

static bool record(Node *n, void *ctx) {
  Order *o = ctx;
  if (o->n < 16)
    o->order[o->n++] = n->kind;
  return true;
}

static void test_names(void) {
  CHECK(strcmp(node_kind_name(ND_CODELET), "codelet") == 0);
  CHECK(strcmp(node_kind_name(ND_METHOD), "method") == 0);
  CHECK(strcmp(node_kind_name(ND_COUNT), "?") == 0);
  CHECK(strcmp(op_name(OP_ADD), "+") == 0);
  CHECK(strcmp(op_name(OP_MAX), "max") == 0);
  CHECK(strcmp(codelet_kind_name(CK_ATOMIC), "shared-atomic") == 0);
  CHECK(strcmp(part_kind_name(PART_STRIDED), "strided") == 0);
}

static void test_walk(void) {
  Arena *a = arena_new();
  /* for (i = 0; i < n; i++) { acc += x; } */
  Node *f = node_new(a, ND_FOR, L(1, 1));
  f->init = node_new(a, ND_DECL, L(1, 6));
  f->cond = node_new(a, ND_BINARY, L(1, 13));
  f->cond->lhs = node_new(a, ND_VAR, L(1, 13));
  f->cond->rhs = node_new(a, ND_VAR, L(1, 17));
  f->inc = node_new(a, ND_UNARY, L(1, 20));
  f->body = node_new(a, ND_BLOCK, L(1, 25));
  Node *as = node_new(a, ND_ASSIGN, L(2, 3));
  vec_push(a, &f->body->kids, as);
  Node *blk = node_new(a, ND_BLOCK, L(1, 1));
  vec_push(a, &blk->kids, f);

  int n = 0;
  node_walk(blk, count, &n);
  CHECK(n == 9);
  n = 0;
  node_walk(blk, prune_for, &n);
  CHECK(n == 2); /* the block and the for, nothing below */
  Order o = {0};
  node_walk(f, record, &o);
  CHECK(o.n == 8 && o.order[0] == ND_FOR && o.order[1] == ND_DECL && o.order[2] == ND_BINARY &&
        o.order[5] == ND_UNARY && o.order[6] == ND_BLOCK && o.order[7] == ND_ASSIGN);
  CHECK(node_nkids(f->body) == 1 && node_kid(f->body, 0) == as && node_kid(f->body, 1) == NULL);
  node_walk(NULL, count, &n); /* NULL is fine */
  arena_free(a);
}

static void test_locations_kept(void) {
  Arena *a = arena_new();
  Node *n = node_new(a, ND_INT, L(7, 9));
  CHECK(n->loc.line == 7 && n->loc.col == 9 && strcmp(n->loc.file, "t.tgm") == 0);
  CHECK(n->lhs == NULL && n->kids.len == 0 && n->op == OP_NONE);
  arena_free(a);
}

static void test_methods(void) {
  Arena *a = arena_new();
  Node *obj = node_new(a, ND_VAR, L(1, 1));
  obj->ty = type_new(a, TY_VECTOR);
  Node *m = node_new(a, ND_METHOD, L(1, 1));
  m->name = "LaneId";
  m->lhs = obj;
  CHECK(node_is_method(m, TY_VECTOR, "LaneId"));
  CHECK(!node_is_method(m, TY_VECTOR, "ThreadId"));
  CHECK(!node_is_method(m, TY_ARRAY, "LaneId"));
  CHECK(!node_is_method(obj, TY_VECTOR, "LaneId"));
  arena_free(a);
}

static void test_types(void) {
  Arena *a = arena_new();
  Type *arr = type_new(a, TY_ARRAY);
  arr->dims = 1;
  arr->base = type_new(a, TY_ELEM);
  arr->is_const = true;
  CHECK(strcmp(type_str(a, arr), "const Array<1,T>") == 0);
  Type *c = type_new(a, TY_CARRAY);
  c->base = type_new(a, TY_ELEM);
  CHECK(strcmp(type_str(a, c), "T[]") == 0);
  CHECK(type_is_unsigned(type_new(a, TY_UINT)) && !type_is_unsigned(type_new(a, TY_INT)));
  CHECK(type_is_integer(type_new(a, TY_LONG)) && !type_is_integer(type_new(a, TY_FLOAT)));
  ElemType e;
  CHECK(elem_parse("f64", &e) && e == ET_F64 && strcmp(elem_info(e)->ctype, "double") == 0);
  CHECK(elem_parse("i64", &e) && elem_info(e)->bytes == 8 && !elem_info(e)->is_float);
  CHECK(!elem_parse("f16", &e) && !elem_parse("", &e));
  arena_free(a);
}

int main(void) {
  test_names();
  test_walk();
  test_locations_kept();
  test_methods();
  test_types();
  CHECK_DONE();
}

/* xf_group.c -- a block-level function for a group of GROUP threads (--rows).
 *
 * A row kernel gives each row to a group of GROUP consecutive threads
 * (GROUP a power of two up to the warp), BLOCK / GROUP rows to a block. The
 * cooperative codelet, already through the block transformations, runs as
 * it is, with the group as its block and its one Vector:
 *   block (in.Size()), warp_size (Size(), MaxValue())  -> GROUP
 *   tid, lane (ThreadId(), LaneId())                   -> threadIdx.x % GROUP
 *   warp (VectorId())                                  -> 0
 *   a block-wide barrier        -> a warp-wide one: a group is inside one warp
 *   a shuffle                   -> a shuffle within GROUP lanes (its width)
 *   __shared__ X x[D]           -> x[BLOCK / GROUP * D], group g's x[i] at
 *                                  x[g * D + i]
 *   __shared__ X x              -> x[BLOCK / GROUP], group g's at x[g]
 * The warp-reduce instruction takes a whole warp, so a function that uses it
 * has no group form (the reason comes back). What the group makes constant
 * is folded away: `GROUP != GROUP && ...` (a block's second tree, the
 * partials of its warps), `0 == 0`, and a shared declaration nothing uses
 * any more.
 *
 *   template <unsigned BLOCK, unsigned GROUP> A sum_coop_shfl_group(A in_value)
 */
#include "tgm.h"

#include <string.h>

typedef struct {
  Arena *a;
  const char *why;
} Group;

/* ND_DECL's ival here: how a shared declaration was given its groups */
enum { PER_GROUP_ARRAY = 1, PER_GROUP_SCALAR = 2 };

static bool is_shared(const Node *decl) { return decl && (decl->qual & Q_SHARED); }

/* g: the group's index in the block */
static Node *group_id(Arena *a, Loc loc) { return mk_gpu(a, loc, "group_id"); }

static Node *retarget(Node *n, void *ctx) {
  Group *g = ctx;
  Arena *a = g->a;
  switch (n->kind) {
  case ND_GPU:
    if (strcmp(n->name, "block") == 0 || strcmp(n->name, "warp_size") == 0)
      return mk_gpu(a, n->loc, "group");
    if (strcmp(n->name, "tid") == 0 || strcmp(n->name, "lane") == 0)
      return mk_gpu(a, n->loc, "group_tid");
    if (strcmp(n->name, "warp") == 0)
      return mk_int(a, n->loc, 0);
    return n;
  case ND_SYNC: n->ival = SYNC_WARP; return n;
  case ND_SHFL:
    n->ival = 1; /* within GROUP lanes (emit.c) */
    return n;
  case ND_REDUX:
    if (!g->why)
      g->why = "the warp-reduce instruction combines a whole warp, and a group of a row may be "
               "smaller";
    return n;
  case ND_DECL:
    if (!is_shared(n))
      return n;
    if (n->ty->kind == TY_CARRAY) { /* x[D] -> x[BLOCK / GROUP * D] */
      Node *per = mk_binary(a, n->loc, OP_DIV, mk_gpu(a, n->loc, "block"),
                            mk_gpu(a, n->loc, "group"));
      n->dim = mk_binary(a, n->loc, OP_MUL, per, n->dim);
      n->ival = PER_GROUP_ARRAY;
    } else { /* x -> x[BLOCK / GROUP] */
      Type *arr = type_new(a, TY_CARRAY);
      arr->base = n->ty;
      n->ty = arr;
      n->dim = mk_binary(a, n->loc, OP_DIV, mk_gpu(a, n->loc, "block"), mk_gpu(a, n->loc, "group"));
      n->ival = PER_GROUP_SCALAR;
    }
    return n;
  case ND_INDEX: /* x[i] of a shared array: x[g * D + i] (D: the declared size) */
    if (n->lhs && n->lhs->kind == ND_VAR && is_shared(n->lhs->decl) &&
        n->lhs->decl->ival == PER_GROUP_ARRAY) {
      Node *d = node_clone(a, n->lhs->decl->dim->rhs);
      n->rhs = mk_binary(a, n->loc, OP_ADD, mk_binary(a, n->loc, OP_MUL, group_id(a, n->loc), d),
                         n->rhs);
    }
    return n;
  default: return n;
  }
}

/* A shared scalar, now an array: each use is its group's element. Runs
 * after retarget, which gave every shared declaration its dimension. */
static Node *scalar_uses(Node *n, void *ctx) {
  Group *g = ctx;
  if (n->kind == ND_VAR && is_shared(n->decl) && n->decl->ival == PER_GROUP_SCALAR) {
    Node *v = mk_var(g->a, n->loc, n->decl);
    Node *ix = mk_index(g->a, n->loc, v, group_id(g->a, n->loc));
    ix->ty = n->decl->ty->base;
    return ix;
  }
  return n;
}

/* A comparison of a built-in with itself, or of two integer literals, and
 * && / || with a literal side: its value, or -1 when it is not constant. */
static int constant(const Node *n) {
  if (n->kind == ND_INT)
    return n->ival != 0;
  if (n->kind != ND_BINARY)
    return -1;
  if (n->op == OP_LAND || n->op == OP_LOR) {
    int l = constant(n->lhs), r = constant(n->rhs);
    if (n->op == OP_LAND)
      return l == 0 || r == 0 ? 0 : l == 1 && r == 1 ? 1 : -1;
    return l == 1 || r == 1 ? 1 : l == 0 && r == 0 ? 0 : -1;
  }
  bool same = n->lhs->kind == ND_GPU && n->rhs->kind == ND_GPU &&
              strcmp(n->lhs->name, n->rhs->name) == 0;
  bool ints = n->lhs->kind == ND_INT && n->rhs->kind == ND_INT;
  long long l = ints ? n->lhs->ival : 0, r = ints ? n->rhs->ival : 0;
  if (!same && !ints)
    return -1;
  switch (n->op) {
  case OP_EQ: return l == r;
  case OP_NE: return l != r;
  case OP_LT: return l < r;
  case OP_GT: return l > r;
  case OP_LE: return l <= r;
  case OP_GE: return l >= r;
  default: return -1;
  }
}

static void fold_block(Arena *a, Node *blk);

/* folds below n (a statement) */
static void fold_inside(Arena *a, Node *n) {
  Node *const bodies[] = {n->then, n->els, n->body};
  for (size_t i = 0; i < COUNT_OF(bodies); i++)
    if (bodies[i] && bodies[i]->kind == ND_BLOCK)
      fold_block(a, bodies[i]);
}

/* if (constant) ...: the branch taken, spliced into the block */
static void fold_block(Arena *a, Node *blk) {
  PtrVec out = {0};
  for (int i = 0; i < blk->kids.len; i++) {
    Node *st = blk->kids.items[i];
    int k = st->kind == ND_IF ? constant(st->cond) : -1;
    if (k < 0) {
      fold_inside(a, st);
      vec_push(a, &out, st);
      continue;
    }
    Node *taken = k ? st->then : st->els;
    if (!taken)
      continue;
    if (taken->kind != ND_BLOCK) {
      Node *b = mk_block(a, taken->loc);
      vec_push(a, &b->kids, taken);
      taken = b;
    }
    fold_block(a, taken);
    for (int j = 0; j < taken->kids.len; j++)
      vec_push(a, &out, taken->kids.items[j]);
  }
  blk->kids = out;
}

typedef struct {
  Arena *a;
  PtrVec decls; /* Node *: every declaration some variable names */
} Used;

static bool mark_used(Node *n, void *ctx) {
  Used *u = ctx;
  if (n->kind == ND_VAR && n->decl)
    vec_push(u->a, &u->decls, n->decl);
  return true;
}

/* Whether an expression reads decl, or calls, shuffles or acts atomically
 * (what a dropped store would drop with it). */
typedef struct {
  const Node *decl;
  bool found;
} Reads;

static bool reads_or_acts(Node *n, void *ctx) {
  Reads *r = ctx;
  if ((n->kind == ND_VAR && n->decl == r->decl) || n->kind == ND_CALL || n->kind == ND_SHFL ||
      n->kind == ND_ATOMIC || n->kind == ND_ASSIGN)
    r->found = true;
  return !r->found;
}

/* The shared declaration a top-level statement only stores into, or NULL:
 * `x[i] = e;` (or `x = e;`), or an if without else whose branch is only
 * such stores to x, e and i free of x, calls, shuffles and atomics. */
static const Node *store_only(Node *st) {
  if (st->kind == ND_IF && !st->els && st->then) {
    Node *b = st->then;
    const Node *x = NULL;
    int n = b->kind == ND_BLOCK ? b->kids.len : 1;
    for (int i = 0; i < n; i++) {
      Node *s = b->kind == ND_BLOCK ? b->kids.items[i] : b;
      const Node *d = s->kind == ND_IF ? NULL : store_only(s);
      if (!d || (x && d != x))
        return NULL;
      x = d;
    }
    return x;
  }
  if (st->kind != ND_EXPR || !st->lhs || st->lhs->kind != ND_ASSIGN || st->lhs->op != OP_NONE)
    return NULL;
  Node *to = st->lhs->lhs;
  if (to->kind == ND_INDEX)
    to = to->lhs;
  if (to->kind != ND_VAR || !is_shared(to->decl))
    return NULL;
  Reads r = {to->decl, false};
  node_walk(st->lhs->rhs, reads_or_acts, &r);
  if (st->lhs->lhs->kind == ND_INDEX)
    node_walk(st->lhs->lhs->rhs, reads_or_acts, &r);
  return r.found ? NULL : to->decl;
}

/* A shared declaration no statement reads any more (at the top level): the
 * declaration and the statements that only store into it. A group inside
 * one warp drops a block's second stage this way (VA2S: the per-warp
 * results a shared atomic would have combined, set to the identity and
 * never read). */
static void drop_unused_shared(Arena *a, Node *body) {
  Used u = {.a = a};
  PtrVec keep = {0};
  for (int i = 0; i < body->kids.len; i++) {
    Node *st = body->kids.items[i];
    if (!store_only(st))
      node_walk(st, mark_used, &u);
  }
  for (int i = 0; i < body->kids.len; i++) {
    Node *st = body->kids.items[i];
    const Node *d = st->kind == ND_DECL && is_shared(st) ? st : store_only(st);
    bool read = false;
    for (int j = 0; d && j < u.decls.len && !read; j++)
      read = u.decls.items[j] == d;
    if (d && !read)
      continue;
    vec_push(a, &keep, st);
  }
  body->kids = keep;
}

Node *xf_group(Arena *a, const Node *block_fn, const char **why) {
  Node *fn = node_clone(a, block_fn);
  fn->name = arena_printf(a, "%s_group", block_fn->name);
  fn->spelling = "template <unsigned BLOCK, unsigned GROUP>\n__device__ __forceinline__";
  Group g = {.a = a};
  /* the declarations first: a use of a shared array needs its new size */
  fn->body = node_rewrite(fn->body, retarget, &g);
  fn->body = node_rewrite(fn->body, scalar_uses, &g);
  fold_block(a, fn->body);
  drop_unused_shared(a, fn->body);
  if (g.why) {
    *why = g.why;
    return NULL;
  }
  return fn;
}

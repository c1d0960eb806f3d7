/* xf_fold.c -- the warps' partials folded by one thread (CUB's
 * BLOCK_REDUCE_WARP_REDUCTIONS), block kind VW.
 *
 * After xf_shuffle, the second tree of a cooperative codelet -- the first
 * warp reducing the partials the warps left --
 *   acc = (ThreadId() < COUNT) ? A[LaneId()] : E;       (1) lane k takes partial k
 *   A[ThreadId()] = acc;                                  (2) optional
 *   for (int off = ...) {                                 (3) a shuffle tree on acc
 *     T shfl = __shfl_down_sync(0xffffffffu, acc, off);
 *     acc += (lane + off < TGM_WARP) ? shfl : 0;
 *   }
 * becomes
 *   acc = (ThreadId() < COUNT) ? A[LaneId()] : E;
 *   A[ThreadId()] = acc;
 *   if (LaneId() == 0)
 *     for (int w = 1; w < COUNT; w++)
 *       acc += A[w];
 * Lane 0 folds the COUNT partials in order (COUNT is the block's warps: 8
 * combines for 256 threads, where the tree costs five dependent shuffles);
 * the lanes past COUNT held E, which the tree takes for the operator's
 * identity, and are left out. Under `if (VectorId() == 0)` the store-back
 * (2) only rewrites what the warps stored, and goes where nothing else
 * reads the array. The combine is the tree's own statement with
 * the shuffled operand replaced by A[w]. Only lane 0's value is the block's,
 * as for every block kind. Barrier insertion (xf_barrier) orders the reads
 * of A after the lanes' stores. Where the codelet is the talk's whole shape
 * (lane0_only: the first tree, lane 0 leaving each warp's partial, the
 * first warp's stage, the return), the first tree's guards and the first
 * warp's load of the partials go too: only lane 0's value is read after
 * the tree (bench/results/2026-11-26-b1-ab). Returns how many trees became
 * folds; none leaves the variant out. */
#include "tgm.h"

#include <string.h>

/* (1): `acc = (tid < COUNT) ? A[lane] : E;` with A a shared array: fills in
 * acc, A and COUNT. */
static bool match_load(Node *s, Node **acc, Node **array, Node **count) {
  if (!s || s->kind != ND_EXPR || !s->lhs || s->lhs->kind != ND_ASSIGN || s->lhs->op != OP_NONE)
    return false;
  Node *as = s->lhs, *c = as->rhs;
  if (!as->lhs || as->lhs->kind != ND_VAR || !as->lhs->decl || (as->lhs->decl->qual & Q_SHARED))
    return false;
  if (!c || c->kind != ND_COND || !c->cond || c->cond->kind != ND_BINARY || c->cond->op != OP_LT ||
      !node_is_gpu(c->cond->lhs, "tid") || !c->then || c->then->kind != ND_INDEX || !c->then->lhs ||
      c->then->lhs->kind != ND_VAR || !node_is_gpu(c->then->rhs, "lane"))
    return false;
  Node *a = c->then->lhs->decl;
  if (!a || !(a->qual & Q_SHARED) || a->ty->kind != TY_CARRAY)
    return false;
  *acc = as->lhs->decl;
  *array = a;
  *count = c->cond->rhs;
  return true;
}

/* (2): `A[tid] = acc;` */
static bool is_store_back(const Node *s, const Node *acc, const Node *array) {
  return s && s->kind == ND_EXPR && s->lhs && s->lhs->kind == ND_ASSIGN && s->lhs->op == OP_NONE &&
         s->lhs->lhs && s->lhs->lhs->kind == ND_INDEX && node_is_var(s->lhs->lhs->lhs, array) &&
         node_is_gpu(s->lhs->lhs->rhs, "tid") && node_is_var(s->lhs->rhs, acc);
}

/* (3): a loop xf_shuffle made (ival 1), its body `shfl = ...; combine on acc` */
static bool is_shuffle_tree(const Node *f, const Node *acc) {
  if (!f || f->kind != ND_FOR || f->ival != 1 || !f->body || f->body->kids.len != 2)
    return false;
  const Node *sh = f->body->kids.items[0], *cb = f->body->kids.items[1];
  return sh->kind == ND_DECL && sh->init && sh->init->kind == ND_SHFL &&
         node_is_var(sh->init->lhs, acc) && cb->kind == ND_EXPR && cb->lhs &&
         cb->lhs->kind == ND_ASSIGN && node_is_var(cb->lhs->lhs, acc);
}

typedef struct {
  const Node *shfl; /* the shuffle's declaration */
  Node *with;       /* what takes the guarded shuffle's place */
  int replaced;
} Swap;

static Node *swap_operand(Node *n, void *ctx) {
  Swap *s = ctx;
  if (n->kind == ND_COND && (node_is_var(n->then, s->shfl) || node_is_var(n->els, s->shfl))) {
    s->replaced++;
    return s->with;
  }
  return n;
}

/* The fold replacing tree f: `if (lane == 0) for (unsigned w = 1; w < COUNT; w++) combine`
 * (both unsigned: -Wsign-compare holds in a user's build) */
static Node *fold_for(Arena *a, Node *f, Node *array, Node *count) {
  Loc loc = f->loc;
  Node *w = mk_decl(a, loc, "w", type_new(a, TY_UINT), mk_int(a, loc, 1));
  Node *combine = node_clone(a, f->body->kids.items[1]);
  Swap s = {.shfl = f->body->kids.items[0],
            .with = mk_index(a, loc, mk_var(a, loc, array), mk_var(a, loc, w))};
  combine = node_rewrite(combine, swap_operand, &s);
  if (s.replaced != 1)
    return NULL;
  Node *loop = node_new(a, ND_FOR, loc);
  loop->init = w;
  Node *n = node_new(a, ND_CAST, loc); /* the codelet's count, int or unsigned */
  n->ty = type_new(a, TY_UINT);
  n->lhs = node_clone(a, count);
  loop->cond = mk_binary(a, loc, OP_LT, mk_var(a, loc, w), n);
  loop->inc = mk_assign(a, loc, OP_ADD, mk_var(a, loc, w), mk_int(a, loc, 1));
  loop->body = mk_block(a, loc);
  block_add(a, loop->body, combine);
  Node *then = mk_block(a, loc);
  block_add(a, then, loop);
  return mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "lane"), mk_int(a, loc, 0)), then,
               NULL);
}

/* Reads of a shared array (an assignment's target is a write, its index a read). */
typedef struct {
  const Node *array;
  int reads;
} Reads;

static bool count_reads(Node *n, void *ctx) {
  Reads *r = ctx;
  if (n->kind == ND_ASSIGN && n->op == OP_NONE && n->lhs && n->lhs->kind == ND_INDEX) {
    node_walk(n->lhs->rhs, count_reads, r);
    node_walk(n->rhs, count_reads, r);
    return false;
  }
  if (n->kind == ND_INDEX && node_is_var(n->lhs, r->array))
    r->reads++;
  return true;
}

/* `name == 0` for a GPU built-in (`VectorId() == 0`: "warp"; `LaneId() == 0`: "lane") */
static bool is_zero_test(const Node *c, const char *name) {
  return c && c->kind == ND_BINARY && c->op == OP_EQ &&
         ((node_is_gpu(c->lhs, name) && c->rhs && c->rhs->kind == ND_INT && c->rhs->ival == 0) ||
          (node_is_gpu(c->rhs, name) && c->lhs && c->lhs->kind == ND_INT && c->lhs->ival == 0));
}

typedef struct {
  Arena *a;
  Node *fn;
  int done;
} Fold;

/* warp0: n runs in the first warp alone (under `if (VectorId() == 0)`),
 * where ThreadId() is LaneId(). */
static void fold_blocks(Fold *f, Node *n, bool warp0) {
  if (!n)
    return;
  Arena *a = f->a;
  if (n->kind == ND_BLOCK) {
    for (int i = 0; i < n->kids.len; i++) {
      Node *acc, *array, *count;
      if (!match_load(n->kids.items[i], &acc, &array, &count))
        continue;
      int j = i + 1;
      if (j < n->kids.len && is_store_back(n->kids.items[j], acc, array))
        j++;
      if (j >= n->kids.len || !is_shuffle_tree(n->kids.items[j], acc))
        continue;
      Node *fold = fold_for(a, n->kids.items[j], array, count);
      if (!fold)
        continue;
      n->kids.items[j] = fold, f->done++;
      /* In the first warp the store-back (2) writes each partial over itself
       * (lanes below COUNT) or a slot the fold never reads: with the load
       * and the fold the array's only reads, it goes, and the warp
       * barriers around it with it. */
      Reads r = {.array = array};
      node_walk(f->fn->body, count_reads, &r);
      if (warp0 && j == i + 2 && r.reads == 2) {
        for (int k = i + 1; k + 1 < n->kids.len; k++)
          n->kids.items[k] = n->kids.items[k + 1];
        n->kids.len--;
      }
    }
  }
  fold_blocks(f, n->then, warp0 || (n->kind == ND_IF && is_zero_test(n->cond, "warp")));
  fold_blocks(f, n->els, warp0);
  fold_blocks(f, n->body, warp0);
  for (int i = 0; i < n->kids.len; i++)
    fold_blocks(f, n->kids.items[i], warp0);
}

/* The statement s, or the one statement of the block s. */
static Node *only(Node *s) {
  while (s && s->kind == ND_BLOCK && s->kids.len == 1)
    s = s->kids.items[0];
  return s;
}

/* `if (LaneId() == 0) A[VectorId()] = acc;` */
static bool is_leave_partial(Node *s, const Node *acc, const Node *array) {
  s = only(s);
  if (!s || s->kind != ND_IF || s->els || !is_zero_test(s->cond, "lane"))
    return false;
  Node *st = only(s->then);
  return st && st->kind == ND_EXPR && st->lhs && st->lhs->kind == ND_ASSIGN &&
         st->lhs->op == OP_NONE && st->lhs->lhs && st->lhs->lhs->kind == ND_INDEX &&
         node_is_var(st->lhs->lhs->lhs, array) && node_is_gpu(st->lhs->lhs->rhs, "warp") &&
         node_is_var(st->lhs->rhs, acc);
}

/* The whole of the talk's codelet after the fold:
 *   tree on acc (guarded shuffles)                      T
 *   if (...) {
 *     if (LaneId() == 0) A[VectorId()] = acc;           P
 *     if (VectorId() == 0) { acc = (tid < n) ? A[lane] : e;  if (LaneId() == 0) fold }
 *   }
 *   return acc;
 * Only lane 0's acc is read after T (by P, the fold, and the return, whose
 * value is thread 0's by the block level's contract), and thread 0's acc is
 * what P left in A[0]. So T's guards go (`acc += shfl`: the lanes above
 * read their own value, which only they hold), and so does the first
 * warp's load of the partials (lane 0 folds A[1..n) into its own). Returns
 * whether it matched. */
static bool lane0_only(Arena *a, Node *fn) {
  Node *body = fn->body;
  if (!body || body->kids.len < 3)
    return false;
  int t = body->kids.len - 3;
  Node *tree = body->kids.items[t], *stage = body->kids.items[t + 1],
       *ret = body->kids.items[t + 2];
  if (!tree || tree->kind != ND_FOR || tree->ival != 1 || !tree->body ||
      tree->body->kids.len != 2 || !stage || stage->kind != ND_IF || stage->els || !ret ||
      ret->kind != ND_RETURN)
    return false;
  Node *combine = tree->body->kids.items[1];
  Node *acc = combine->lhs && combine->lhs->lhs ? combine->lhs->lhs->decl : NULL;
  if (!acc || !is_shuffle_tree(tree, acc) || !node_is_var(ret->lhs, acc))
    return false;
  Node *in = stage->then;
  if (!in || in->kind != ND_BLOCK || in->kids.len != 2)
    return false;
  Node *w0 = in->kids.items[1];
  if (!w0 || w0->kind != ND_IF || w0->els || !is_zero_test(w0->cond, "warp") || !w0->then ||
      w0->then->kind != ND_BLOCK || w0->then->kids.len != 2)
    return false;
  Node *load = w0->then->kids.items[0], *fold = w0->then->kids.items[1], *array, *count;
  Node *lacc;
  if (!match_load(load, &lacc, &array, &count) || lacc != acc ||
      !is_leave_partial(in->kids.items[0], acc, array) || fold->kind != ND_IF ||
      !is_zero_test(fold->cond, "lane"))
    return false;
  /* the first warp keeps its own values; lane 0 folds the others' */
  w0->then->kids.items[0] = fold;
  w0->then->kids.len = 1;
  /* the tree without its guard */
  Swap sw = {.shfl = tree->body->kids.items[0],
             .with = mk_var(a, tree->loc, tree->body->kids.items[0])};
  tree->body->kids.items[1] = node_rewrite(combine, swap_operand, &sw);
  return sw.replaced == 1;
}

int xf_fold(Arena *a, Node *fn) {
  Fold f = {a, fn, 0};
  fold_blocks(&f, fn->body, false);
  if (f.done)
    lane0_only(a, fn);
  return f.done;
}

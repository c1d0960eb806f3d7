/* xf_shuffle.c -- warp shuffles (the talk's listing 4).
 *
 * Recognises the tree loop of a cooperative codelet:
 *   for (int off = MaxValue() / 2; off > 0; off /= 2) {     (1) bounded by the Vector
 *     acc += (LaneId() + off < Size()) ? A[ThreadId() + off] : 0;  (2)(3) a shared read
 *     A[ThreadId()] = acc;                                      (4)(5) written back
 *   }
 * and turns it into
 *   for (int off = TGM_WARP / 2; off > 0; off /= 2) {
 *     T shfl = __shfl_down_sync(0xffffffffu, acc, off);
 *     acc += (lane + off < TGM_WARP) ? shfl : 0;
 *   }
 * (the shuffle is hoisted out of the ternary: every lane must execute it).
 * The combine may be any of the codelet language's forms (acc = max(acc,
 * ...) too). A shared array no longer read anywhere loses its stores and
 * its declaration. Loops that do not match exactly, loops under a branch
 * that splits a warp, and arrays still read after the loop are left as
 * they are. */
#include "tgm.h"

#include <string.h>

typedef struct {
  Arena *a;
  Node *fn;
  PtrVec loop_vars; /* for-loop counters (warp-uniform in a matched loop) */
  int matched;
  int seq; /* program-order counter for the "read after" check */
} Shuffle;

static bool is_int(const Node *n, long long v) { return n && n->kind == ND_INT && n->ival == v; }

static bool is_shared_array(const Node *decl) {
  return decl && (decl->qual & Q_SHARED) && decl->ty->kind == TY_CARRAY;
}

/* A[ThreadId() + off] or A[off + ThreadId()] */
static Node *tree_read_array(const Node *n, const Node *off) {
  if (!n || n->kind != ND_INDEX || !n->lhs || n->lhs->kind != ND_VAR ||
      !is_shared_array(n->lhs->decl))
    return NULL;
  const Node *i = n->rhs;
  if (i && i->kind == ND_BINARY && i->op == OP_ADD &&
      ((node_is_gpu(i->lhs, "tid") && node_is_var(i->rhs, off)) ||
       (node_is_gpu(i->rhs, "tid") && node_is_var(i->lhs, off))))
    return n->lhs->decl;
  return NULL;
}

/* The one guarded read `(lane + off < warp) ? A[tid + off] : e` in a
 * combine's operand; returns the ternary. */
static Node *find_guarded_read(Node *e, const Node *off, Node **array) {
  if (!e)
    return NULL;
  if (e->kind == ND_COND && e->cond && e->cond->kind == ND_BINARY && e->cond->op == OP_LT &&
      node_is_gpu(e->cond->rhs, "warp_size") && e->cond->lhs && e->cond->lhs->kind == ND_BINARY &&
      e->cond->lhs->op == OP_ADD &&
      ((node_is_gpu(e->cond->lhs->lhs, "lane") && node_is_var(e->cond->lhs->rhs, off)) ||
       (node_is_gpu(e->cond->lhs->rhs, "lane") && node_is_var(e->cond->lhs->lhs, off)))) {
    Node *arr = tree_read_array(e->then, off);
    if (arr) {
      *array = arr;
      return e;
    }
  }
  return NULL;
}

/* acc op= X | acc = max(acc, X) | acc = min(X, acc) | acc = acc op X:
 * returns a pointer to the slot holding X. */
static Node **combine_operand(Node *s, Node **acc) {
  if (!s || s->kind != ND_EXPR || !s->lhs || s->lhs->kind != ND_ASSIGN)
    return NULL;
  Node *as = s->lhs;
  if (!as->lhs || as->lhs->kind != ND_VAR || !as->lhs->decl || (as->lhs->decl->qual & Q_SHARED))
    return NULL;
  *acc = as->lhs->decl;
  return node_combine_operand(as, *acc);
}

/* Does the loop have the tree shape? Fills in its parts. */
static bool match_loop(Node *f, Node **acc, Node **array, Node **guard) {
  Node *off = f->init;
  if (!off || off->kind != ND_DECL || !off->init || off->init->kind != ND_BINARY ||
      !node_is_gpu(off->init->lhs, "warp_size") ||
      !((off->init->op == OP_DIV && is_int(off->init->rhs, 2)) ||
        (off->init->op == OP_SHR && is_int(off->init->rhs, 1))))
    return false;
  if (!f->cond || f->cond->kind != ND_BINARY || f->cond->op != OP_GT ||
      !node_is_var(f->cond->lhs, off) || !is_int(f->cond->rhs, 0))
    return false;
  if (!f->inc || f->inc->kind != ND_ASSIGN || !node_is_var(f->inc->lhs, off) ||
      !((f->inc->op == OP_DIV && is_int(f->inc->rhs, 2)) ||
        (f->inc->op == OP_SHR && is_int(f->inc->rhs, 1))))
    return false;
  Node *body = f->body;
  if (!body || body->kind != ND_BLOCK || body->kids.len != 2)
    return false;
  Node **x = combine_operand(body->kids.items[0], acc);
  if (!x || !(*guard = find_guarded_read(*x, off, array)))
    return false;
  /* the write-back A[tid] = acc */
  Node *wb = body->kids.items[1];
  return wb->kind == ND_EXPR && wb->lhs->kind == ND_ASSIGN && wb->lhs->op == OP_NONE &&
         wb->lhs->lhs->kind == ND_INDEX && node_is_var(wb->lhs->lhs->lhs, *array) &&
         node_is_gpu(wb->lhs->lhs->rhs, "tid") && node_is_var(wb->lhs->rhs, *acc);
}

typedef struct {
  const Node *array;
  int reads;
  int last_read_seq;
  Shuffle *sh;
} Reads;

static bool count_reads_rec(Node *n, Reads *r, bool write);

static bool count_reads(Node *n, void *ctx) { return count_reads_rec(n, ctx, false); }

static bool count_reads_rec(Node *n, Reads *r, bool write) {
  if (!n)
    return false;
  r->sh->seq++;
  if (n->kind == ND_ASSIGN && n->op == OP_NONE && n->lhs && n->lhs->kind == ND_INDEX) {
    node_walk(n->lhs->rhs, count_reads, r); /* the index is read, the element written */
    node_walk(n->rhs, count_reads, r);
    return false;
  }
  if (n->kind == ND_INDEX && node_is_var(n->lhs, r->array) && !write) {
    r->reads++;
    r->last_read_seq = r->sh->seq;
  }
  return true;
}

/* Program order of a node, in the same numbering count_reads uses. */
typedef struct {
  const Node *target;
  int found;
  Shuffle *sh;
} Where;

static bool where(Node *n, void *ctx) {
  Where *w = ctx;
  w->sh->seq++;
  if (n == w->target)
    w->found = w->sh->seq;
  if (n->kind == ND_ASSIGN && n->op == OP_NONE && n->lhs && n->lhs->kind == ND_INDEX) {
    node_walk(n->lhs->rhs, where, w);
    node_walk(n->rhs, where, w);
    return false;
  }
  return true;
}

static Node *drop_stores(Node *n, void *ctx) {
  const Node *array = ctx;
  if (n->kind == ND_EXPR && n->lhs && n->lhs->kind == ND_ASSIGN && n->lhs->lhs &&
      n->lhs->lhs->kind == ND_INDEX && node_is_var(n->lhs->lhs->lhs, array))
    return NULL;
  if (n == array)
    return NULL;
  return n;
}

static bool mentions_split(Node *n, void *ctx) {
  bool *split = ctx;
  if (node_is_gpu(n, "tid") || node_is_gpu(n, "lane"))
    *split = true;
  if (n->kind == ND_VAR && n->decl && !(n->decl->qual & Q_SHARED) && n->decl->kind == ND_PARAM)
    *split = true;
  return true;
}

static void transform_loop(Shuffle *sh, Node *f) {
  Node *acc, *array, *guard;
  if (!match_loop(f, &acc, &array, &guard))
    return;
  /* reads of the array after this loop would miss the removed stores */
  Reads r = {.array = array, .sh = sh};
  sh->seq = 0;
  Node *saved_then = guard->then;
  Node *saved_wb = f->body->kids.items[1];
  guard->then = NULL; /* not counted: it is the read we replace */
  f->body->kids.len = 1;
  node_walk(sh->fn->body, count_reads, &r);
  Where w = {.target = f, .sh = sh};
  sh->seq = 0;
  node_walk(sh->fn->body, where, &w);
  guard->then = saved_then;
  f->body->kids.len = 2;
  f->body->kids.items[1] = saved_wb;
  if (r.reads > 0 && r.last_read_seq > w.found)
    return;

  Arena *a = sh->a;
  Loc loc = guard->then->loc;
  Node *off = f->init;
  /* the lane's value in its own type: a double sum of floats stays double, a
   * count stays unsigned (an Arg is shuffled as its two halves, emit.c:
   * tgm_shfl_down) */
  Type *sty = acc->ty ? acc->ty : ty_elem(a);
  Node *sh_decl = mk_decl(a, loc, "shfl", sty, NULL);
  Node *shfl = node_new(a, ND_SHFL, loc);
  shfl->lhs = mk_var(a, loc, acc);
  shfl->rhs = mk_var(a, loc, off);
  shfl->ty = sty;
  sh_decl->init = shfl;
  guard->then = mk_var(a, loc, sh_decl);
  Node *combine = f->body->kids.items[0];
  f->body->kids.len = 0;
  block_add(a, f->body, sh_decl);
  block_add(a, f->body, combine);
  f->ival = 1; /* a shuffle tree: xf_redux may replace it */
  sh->matched++;

  if (r.reads == 0) /* the array is dead: drop its stores and itself */
    node_rewrite(sh->fn->body, drop_stores, array);
}

/* Finds the loops whose enclosing conditions keep each warp whole (all
 * first: transforming one may remove statements around the next). */
static void candidates(Shuffle *sh, Node *n, bool split, PtrVec *out) {
  if (!n)
    return;
  if (n->kind == ND_IF) {
    bool s = split;
    node_walk(n->cond, mentions_split, &s);
    candidates(sh, n->then, s, out);
    candidates(sh, n->els, s, out);
    return;
  }
  if (n->kind == ND_FOR && !split)
    vec_push(sh->a, out, n);
  if (n->kind == ND_FOR || n->kind == ND_WHILE) {
    candidates(sh, n->body, split, out);
    return;
  }
  for (int i = 0; i < n->kids.len; i++)
    candidates(sh, n->kids.items[i], split, out);
}

/* Returns how many loops became shuffles. */
int xf_shuffle(Arena *a, Node *fn) {
  Shuffle sh = {.a = a, .fn = fn};
  PtrVec loops = {0};
  candidates(&sh, fn->body, false, &loops);
  for (int i = 0; i < loops.len; i++)
    transform_loop(&sh, loops.items[i]);
  return sh.matched;
}

/* xf_vector.c -- 16-byte vector loads for the thread-level codelet.
 *
 * From the lowered scalar codelet `T sum_scalar(const T *in, size, stride)`
 * it makes `T sum_scalar_vec(const V *in, size, stride)`, where V is the
 * 16-byte vector of T (int4, float4, double2, ...) and size and stride
 * count vectors. A loop body of one statement that reads in[i] becomes
 *   { V v = in[i]; S[v.x]; S[v.y]; S[v.z]; S[v.w]; }
 * one copy of the statement per component, in order (an `if` whose
 * condition reads in[i] is one statement). Any other body (temporaries,
 * several statements, a statement that reads no element, as `accum += 1`)
 * (or one whose Index() the split would leave outside the copies) runs
 * whole once per component, each copy in braces of its own so that its
 * temporaries stay its own:
 *   { V v = in[i]; { B[v.x] } { B[v.y] } { B[v.z] } { B[v.w] } }
 * The vector local is `v` (a codelet's own `v` names.c has renamed). in_first + i (x.Index(i)) in the copy for component k becomes
 * in_first + i * width + k. A body that reads in[] at two different indices
 * cannot be split that way: the transform fails with a reason and the vector
 * variants are left out. The aligned body is the caller's business (head
 * and tail stay scalar). */
#include "tgm.h"

#include <string.h>

typedef struct {
  Arena *a;
  Node *in;    /* the pointer parameter */
  int width;   /* components per vector */
  int indexed; /* in_first + i (x.Index(i)) in the statements split so far */
  bool whole;  /* the loop body copied whole per component, even one statement */
  const char *why;
  Loc why_loc;
} Vec;

/* in_first + i: x.Index(i), lowered (xf_lower.c) */
static bool is_index(const Node *n) {
  return n->kind == ND_BINARY && n->op == OP_ADD && n->lhs && n->lhs->kind == ND_VAR &&
         n->lhs->decl && (n->lhs->decl->qual & Q_INDEX);
}

static bool count_index(Node *n, void *ctx) {
  if (is_index(n))
    ++*(int *)ctx;
  return true;
}

static const char *const components[] = {"x", "y", "z", "w"};

typedef struct {
  Node *in;
  Node *first; /* the first in[...] read */
  int distinct;
} Reads;

static bool find_reads(Node *n, void *ctx) {
  Reads *r = ctx;
  if (n->kind == ND_INDEX && n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl == r->in) {
    if (!r->first)
      r->first = n, r->distinct = 1;
    else if (!node_equal(r->first->rhs, n->rhs))
      r->distinct++;
    return false;
  }
  return true;
}

typedef struct {
  Arena *a;
  Node *in;
  Node *v;      /* the vector local */
  int k, width; /* component k of width */
} Subst;

static Node *subst(Node *n, void *ctx) {
  Subst *s = ctx;
  if (n->kind == ND_INDEX && n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl == s->in)
    return mk_member(s->a, n->loc, mk_var(s->a, n->loc, s->v), components[s->k]);
  if (is_index(n)) { /* in[i] is vector i: component k is element in_first + i * width + k */
    Node *e = mk_binary(s->a, n->loc, OP_ADD, n->lhs,
                        mk_binary(s->a, n->loc, OP_MUL, n->rhs, mk_int(s->a, n->loc, s->width)));
    return s->k ? mk_binary(s->a, n->loc, OP_ADD, e, mk_int(s->a, n->loc, s->k)) : e;
  }
  return n;
}

/* { V v = in[i]; S[v.x]; S[v.y]; S[v.z]; S[v.w]; }: s once per component,
 * each copy in braces of its own where braced; no vector load where s
 * reads no element (r->first NULL). s reading the input at two indices
 * cannot be split: the reason is noted and s returned as it is. */
static Node *per_component(Vec *vc, Node *s, const Reads *r, bool braced) {
  if (r->distinct > 1) {
    if (!vc->why) {
      vc->why = braced ? "reads the input at two indices in one loop body"
                       : "reads the input at two indices in one statement";
      vc->why_loc = r->first->loc;
    }
    return s;
  }
  Arena *a = vc->a;
  Node *blk = mk_block(a, s->loc);
  Node *v = NULL;
  if (r->first) {
    v = mk_decl(a, r->first->loc, "v", type_new(a, TY_VEC), node_clone(a, r->first));
    block_add(a, blk, v);
  }
  node_walk(s, count_index, &vc->indexed);
  for (int i = 0; i < vc->width; i++) {
    Subst sb = {a, vc->in, v, i, vc->width};
    Node *copy = node_rewrite(node_clone(a, s), subst, &sb);
    if (braced && copy->kind != ND_BLOCK) {
      Node *braces = mk_block(a, copy->loc);
      block_add(a, braces, copy);
      copy = braces;
    }
    block_add(a, blk, copy);
  }
  return blk;
}

static Node *split(Vec *vc, Node *s);
static Node *split_body(Vec *vc, Node *body);

static void split_list(Vec *vc, Node *list) {
  for (int i = 0; i < list->kids.len; i++)
    list->kids.items[i] = split(vc, list->kids.items[i]);
}

static Node *split(Vec *vc, Node *s) {
  if (!s)
    return NULL;
  Reads r = {.in = vc->in};
  node_walk(s, find_reads, &r);
  if (!r.first)
    return s;
  switch (s->kind) {
  case ND_BLOCK: split_list(vc, s); return s;
  case ND_FOR:
  case ND_WHILE:
  case ND_DO: {
    Reads head = {.in = vc->in};
    node_walk(s->cond, find_reads, &head);
    node_walk(s->init, find_reads, &head);
    node_walk(s->inc, find_reads, &head);
    if (head.first && !vc->why) {
      vc->why = "reads the input in a loop header";
      vc->why_loc = head.first->loc;
    }
    s->body = split_body(vc, s->body);
    return s;
  }
  case ND_IF: {
    Reads cond = {.in = vc->in};
    node_walk(s->cond, find_reads, &cond);
    if (cond.first)
      break; /* `if (in[i] > t) acc += 1;` is copied whole, once per component */
    s->then = split(vc, s->then);
    s->els = split(vc, s->els);
    return s;
  }
  default: break;
  }
  return per_component(vc, s, &r, false);
}

/* The element loop's body: split statement by statement where it is one
 * statement that reads the input (and declares nothing), else copied whole
 * once per component (the header comment). */
static Node *split_body(Vec *vc, Node *body) {
  if (!body)
    return NULL;
  const Node *only = body->kind == ND_BLOCK && body->kids.len == 1 ? body->kids.items[0] : body;
  Reads r = {.in = vc->in};
  node_walk(body, find_reads, &r);
  if (!vc->whole && only->kind != ND_BLOCK && only->kind != ND_DECL && r.first)
    return split(vc, body);
  return per_component(vc, body, &r, true);
}

static const char *const INDEX_APART =
    "uses the input's Index() in a statement that reads no element";

static Node *vectorize(Arena *a, const Node *scalar_fn, int width, const char *name, bool whole,
                       Vec *vc) {
  Node *fn = node_clone(a, scalar_fn);
  fn->name = name;
  Node *in = node_kid(fn, 0);
  in->ty = ty_ptr(a, type_new(a, TY_VEC), true);
  *vc = (Vec){.a = a, .in = in, .width = width, .whole = whole};
  int indexed = 0;
  node_walk(fn->body, count_index, &indexed);
  split_list(vc, fn->body);
  if (!vc->why && vc->indexed != indexed) {
    vc->why = INDEX_APART;
    vc->why_loc = fn->loc;
  }
  return vc->why ? NULL : fn;
}

Node *xf_vector(Arena *a, const Node *scalar_fn, int width, const char *name, const char **why,
                Loc *why_loc) {
  Vec vc;
  Node *fn = vectorize(a, scalar_fn, width, name, false, &vc);
  /* `if (in.Index(i) < k) acc += in[i];`: the condition reads no element, so
     the statement split leaves it once a vector; the whole body copied per
     component takes it along (tried second: what splits keeps its code) */
  if (!fn && vc.why == INDEX_APART)
    fn = vectorize(a, scalar_fn, width, name, true, &vc);
  if (!fn) {
    *why = vc.why;
    *why_loc = vc.why_loc;
  }
  return fn;
}

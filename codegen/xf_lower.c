/* xf_lower.c -- lowering: a codelet becomes a device function for the level
 * of the GPU hierarchy that runs it.
 *
 * Thread level (a scalar codelet, run by one thread over its part):
 *   T sum_scalar(const T *in, tgm_size in_size, tgm_size in_stride)
 *   in.Size() -> in_size, in.Stride() -> in_stride, in[i] -> in[i];
 *   unsigned/int locals widen to 64 bits, so any n works.
 *
 * Block level (a cooperative codelet, run by the BLOCK threads of a block,
 * each holding one value; the result is thread 0's):
 *   template <unsigned BLOCK> T sum_coop(T in_value)
 *   in.Size() -> BLOCK, in[ThreadId()] -> in_value,
 *   Vector: ThreadId() -> tid, LaneId() -> lane, VectorId() -> warp,
 *           Size(), MaxValue() -> the warp width (a Vector is a warp).
 * A codelet that uses its Array or Vector otherwise cannot be lowered: the
 * reason comes back and its variants are left out. */
#include "tgm.h"

#include <string.h>

typedef struct {
  Arena *a;
  Node *array;  /* the codelet's Array parameter */
  Node *ptr, *size, *stride; /* thread level: the new parameters */
  Node *value;  /* block level: the thread's value */
  bool block;
  const char *why; /* the first reason lowering failed */
  Loc why_loc;
} Lower;

static bool is_array(Lower *lw, const Node *n) {
  return n && n->kind == ND_VAR && n->decl == lw->array;
}

static void fail(Lower *lw, Loc loc, const char *why) {
  if (!lw->why) {
    lw->why = why;
    lw->why_loc = loc;
  }
}

static Node *lower_node(Node *n, void *ctx) {
  Lower *lw = ctx;
  Arena *a = lw->a;
  switch (n->kind) {
  case ND_METHOD:
    if (is_array(lw, n->lhs)) {
      if (strcmp(n->name, "Size") == 0)
        return lw->block ? mk_gpu(a, n->loc, "block") : mk_var(a, n->loc, lw->size);
      if (strcmp(n->name, "Stride") == 0)
        return lw->block ? mk_int(a, n->loc, 1) : mk_var(a, n->loc, lw->stride);
    }
    if (n->lhs && n->lhs->ty && n->lhs->ty->kind == TY_VECTOR) {
      static const struct { const char *method, *gpu; } map[] = {
          {"ThreadId", "tid"}, {"LaneId", "lane"}, {"VectorId", "warp"},
          {"Size", "warp_size"}, {"MaxValue", "warp_size"}};
      for (size_t i = 0; i < COUNT_OF(map); i++)
        if (strcmp(n->name, map[i].method) == 0)
          return mk_gpu(a, n->loc, map[i].gpu);
    }
    fail(lw, n->loc, "uses a method tgm cannot lower");
    return n;
  case ND_INDEX:
    if (is_array(lw, n->lhs)) {
      if (!lw->block) {
        n->lhs = mk_var(a, n->lhs->loc, lw->ptr);
        return n;
      }
      if (n->rhs && n->rhs->kind == ND_GPU && strcmp(n->rhs->name, "tid") == 0)
        return mk_var(a, n->loc, lw->value);
      fail(lw, n->loc, "a block-level codelet may read only in[ThreadId()]");
    }
    return n;
  case ND_DECL:
    if (n->ty->kind == TY_VECTOR)
      return NULL; /* the Vector is the block itself */
    if (n->ty->kind == TY_MAP || n->ty->kind == TY_SEQUENCE)
      fail(lw, n->loc, "a compound codelet is not lowered to a device function");
    if (!lw->block && n->ty->kind == TY_UINT)
      n->ty = type_new(a, TY_SIZE);
    else if (!lw->block && n->ty->kind == TY_INT)
      n->ty = type_new(a, TY_LONG);
    return n;
  default:
    return n;
  }
}

/* After rewriting, any reference left to the Array or the Vector is a use
 * tgm cannot lower. */
static bool leftover(Node *n, void *ctx) {
  Lower *lw = ctx;
  if (n->kind == ND_VAR && is_array(lw, n))
    fail(lw, n->loc, "uses its Array other than through Size(), Stride() and []");
  if (n->kind == ND_VAR && n->decl && n->decl->ty->kind == TY_VECTOR)
    fail(lw, n->loc, "uses its Vector other than through its methods");
  return true;
}

Node *lower_codelet(Ctx *ctx, const Codelet *cd, bool block, const char *fname, const char **why,
                    Loc *why_loc) {
  Arena *a = ctx->arena;
  Node *fn = node_clone(a, cd->fn);
  Lower lw = {.a = a, .array = node_kid(fn, 0), .block = block};
  Loc loc = cd->loc;
  Node *f = node_new(a, ND_FUNC, loc);
  f->name = fname;
  f->ty = ty_elem(a);
  if (block) {
    f->spelling = "template <unsigned BLOCK>\n__device__ __forceinline__";
    lw.value = mk_param(a, lw.array->loc, arena_printf(a, "%s_value", lw.array->name),
                         ty_elem(a), 0);
    vec_push(a, &f->kids, lw.value);
  } else {
    f->spelling = "__device__ __forceinline__";
    lw.ptr = mk_param(a, lw.array->loc, lw.array->name, ty_ptr(a, ty_elem(a), true), Q_RESTRICT);
    lw.size = mk_param(a, lw.array->loc, arena_printf(a, "%s_size", lw.array->name),
                        type_new(a, TY_SIZE), 0);
    lw.stride = mk_param(a, lw.array->loc, arena_printf(a, "%s_stride", lw.array->name),
                          type_new(a, TY_SIZE), 0);
    vec_push(a, &f->kids, lw.ptr);
    vec_push(a, &f->kids, lw.size);
    vec_push(a, &f->kids, lw.stride);
  }
  f->body = node_rewrite(fn->body, lower_node, &lw);
  node_walk(f->body, leftover, &lw);
  if (lw.why) {
    *why = lw.why;
    *why_loc = lw.why_loc;
    return NULL;
  }
  return f;
}

/* xf_lower.c -- lowering: a codelet becomes a device function for the level
 * of the GPU hierarchy that runs it.
 *
 * Thread level (the scalar codelet, run by one thread over its part):
 *   A sum_scalar(const T *in, [const T *y, ...] tgm_size in_size, tgm_size in_stride,
 *                [tgm_size in_first,] [params])
 *   x.Size() -> in_size, x.Stride() -> in_stride for every input, x[i] -> x[i];
 *   x.Index(i) -> in_first + i, where in_first is the index of in[0] in the
 *   whole input (only for spectra whose transform uses x.Index(i): argmax);
 *   the return gives the accumulator (the epilogue runs once, elsewhere);
 *   unsigned/int locals that hold an index or a length (set only from
 *   x.Size(), x.Stride(), x.Index(i), constants and other such locals) widen
 *   to 64 bits, so any n works; a local that holds a value (set from an
 *   element, a parameter, a float, a call) keeps its type, as C++ does.
 * Reference (the scalar codelet as the user wrote it, epilogue included):
 *   R sum_reference(...the same parameters...), run over the whole input.
 *
 * Block level (a cooperative codelet, run by the BLOCK threads of a block,
 * each holding one accumulated value; the result is thread 0's):
 *   template <unsigned BLOCK> A sum_coop(A in_value)
 *   in.Size() -> BLOCK, the spectrum's transform of x[ThreadId()] (e.g.
 *   in[ThreadId()] * in[ThreadId()]) -> in_value: the thread's value is
 *   already transformed and folded,
 *   Vector: ThreadId() -> tid, LaneId() -> lane, VectorId() -> warp,
 *           Size(), MaxValue() -> the warp width (a Vector is a warp).
 * A codelet that uses its Array or Vector otherwise cannot be lowered: the
 * reason comes back and its variants are left out. */
#include "tgm.h"

#include <string.h>

typedef struct {
  Arena *a;
  const Spectrum *spec;
  const Codelet *cd;
  Node *fn;            /* the codelet's copy */
  Node *size, *stride; /* thread level: the new parameters */
  Node *first;     /* thread level, spectra that use x.Index(i): in[0]'s index in the whole input */
  Node *value;     /* block level: the thread's value */
  bool value_used; /* block level: the lowered codelet reads it */
  Node *acc;       /* thread level: the accumulator (copy) */
  PtrVec inputs;   /* Node *: the Array parameters (copies) */
  PtrVec fixed;    /* block level, Node *: locals set once from constants (node_fixed_local) */
  PtrVec values;   /* thread level, Node * (ND_DECL): integer locals holding values (find_values) */
  LowerLevel level;
  bool block;
  const char *why; /* the first reason lowering failed */
  Loc why_loc;
} Lower;

static bool is_array(Lower *lw, const Node *n) {
  if (!n || n->kind != ND_VAR || !n->decl)
    return false;
  for (int i = 0; i < lw->inputs.len; i++)
    if (lw->inputs.items[i] == n->decl)
      return true;
  return false;
}

static bool is_param(const Node *n) {
  return n && n->kind == ND_VAR && n->decl && n->decl->kind == ND_PARAM && n->decl->ty &&
         n->decl->ty->kind != TY_ARRAY && n->decl->ty->kind != TY_PTR;
}

static void fail(Lower *lw, Loc loc, const char *why) {
  if (!lw->why) {
    lw->why = why;
    lw->why_loc = loc;
  }
}

/* Thread level: which integer locals hold values rather than indices. An
 * index is built from constants, x.Size(), x.Stride(), x.Index(i) and other
 * index locals; anything else (an element, a parameter, a float, a call)
 * makes a value. Widening a value local changed its meaning: C++ cuts `int
 * k = in[i] / 2` of a long long element to 32 bits and keeps `unsigned u =
 * in[i]` of a negative int below 2^32; 64 bits did neither (the check's
 * oracle found both). */
static bool is_integer_local(const Node *d) {
  return d && d->kind == ND_DECL && !(d->qual & Q_ACCUM) && d->ty &&
         (d->ty->kind == TY_BOOL || d->ty->kind == TY_INT || d->ty->kind == TY_UINT ||
          d->ty->kind == TY_LONG || d->ty->kind == TY_ULONG || d->ty->kind == TY_SIZE);
}

static bool index_like(Lower *lw, const Node *e) {
  if (!e)
    return true;
  switch (e->kind) {
  case ND_INT:
  case ND_BOOL: return true;
  case ND_VAR: return is_integer_local(e->decl) && !vec_has(&lw->values, e->decl);
  case ND_METHOD:
    return is_array(lw, e->lhs) &&
           (strcmp(e->name, "Size") == 0 || strcmp(e->name, "Stride") == 0 ||
            (strcmp(e->name, "Index") == 0 && e->kids.len == 1 &&
             index_like(lw, e->kids.items[0])));
  case ND_BINARY: return index_like(lw, e->lhs) && index_like(lw, e->rhs);
  case ND_UNARY: return index_like(lw, e->lhs);
  case ND_ASSIGN: return index_like(lw, e->rhs) && index_like(lw, e->lhs);
  case ND_COND: return index_like(lw, e->then) && index_like(lw, e->els);
  case ND_CAST:
    return e->ty &&
           (e->ty->kind == TY_INT || e->ty->kind == TY_UINT || e->ty->kind == TY_LONG ||
            e->ty->kind == TY_ULONG || e->ty->kind == TY_SIZE) &&
           index_like(lw, e->lhs);
  case ND_CALL:
    if (strcmp(e->name, "max") != 0 && strcmp(e->name, "min") != 0)
      return false;
    for (int i = 0; i < e->kids.len; i++)
      if (!index_like(lw, e->kids.items[i]))
        return false;
    return true;
  default: return false;
  }
}

typedef struct {
  Lower *lw;
  bool changed;
} FindValues;

static void set_from(FindValues *fv, Node *d, const Node *e) {
  if (is_integer_local(d) && !vec_has(&fv->lw->values, d) && !index_like(fv->lw, e)) {
    vec_push(fv->lw->a, &fv->lw->values, d);
    fv->changed = true;
  }
}

static bool find_values(Node *n, void *ctx) {
  FindValues *fv = ctx;
  if (n->kind == ND_DECL) {
    set_from(fv, n, n->init);
    for (int i = 0; i < n->kids.len; i++) /* int k(in[i]) */
      set_from(fv, n, n->kids.items[i]);
  } else if (n->kind == ND_ASSIGN && n->lhs && n->lhs->kind == ND_VAR) {
    set_from(fv, n->lhs->decl, n->rhs);
  }
  return true;
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
      if (strcmp(n->name, "Index") == 0 && n->kids.len == 1 && lw->first) /* first + i */
        return mk_binary(a, n->loc, OP_ADD, mk_var(a, n->loc, lw->first), n->kids.items[0]);
      if (strcmp(n->name, "Index") == 0 && lw->block) {
        fail(lw, n->loc,
             arena_printf(a,
                          "uses %s.Index() outside the spectrum's transform '%s' "
                          "at ThreadId()",
                          n->lhs->name, text_user_spelling(a, lw->spec->transform_text)));
        return n;
      }
    }
    if (n->lhs && n->lhs->ty && n->lhs->ty->kind == TY_VECTOR) {
      static const struct {
        const char *method, *gpu;
      } map[] = {{"ThreadId", "tid"},
                 {"LaneId", "lane"},
                 {"VectorId", "warp"},
                 {"Size", "warp_size"},
                 {"MaxValue", "warp_size"}};
      for (size_t i = 0; i < COUNT_OF(map); i++)
        if (strcmp(n->name, map[i].method) == 0)
          return mk_gpu(a, n->loc, map[i].gpu);
    }
    fail(lw, n->loc, "uses a method tgm cannot lower");
    return n;
  case ND_INDEX:
    if (is_array(lw, n->lhs) && lw->block)
      fail(lw, n->loc,
           lw->spec->transform_text
               ? arena_printf(a,
                              "reads its input other than through the spectrum's "
                              "transform '%s' at ThreadId()",
                              text_user_spelling(a, lw->spec->transform_text))
               : "a block-level codelet may read only in[ThreadId()]");
    return n;
  case ND_VAR:
    if (n == lw->value || n->decl == lw->value)
      return n;
    if (lw->block && is_param(n))
      fail(lw, n->loc,
           arena_printf(a, "uses parameter '%s' outside the spectrum's transform", n->name));
    return n;
  case ND_RETURN:
    if (lw->level == LOWER_THREAD && lw->acc &&
        !(n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl == lw->acc))
      n->lhs = mk_var(a, n->loc, lw->acc); /* the epilogue runs once, where the result is made */
    return n;
  case ND_DECL:
    if (n->ty->kind == TY_VECTOR)
      return NULL; /* the Vector is the block itself */
    if (n->ty->kind == TY_MAP || n->ty->kind == TY_SEQUENCE)
      fail(lw, n->loc, "a compound codelet is not lowered to a device function");
    if (!lw->block && !(n->qual & Q_ACCUM) && type_widened(n->ty->kind) != n->ty->kind &&
        !vec_has(&lw->values, n))
      n->ty = type_new(a, type_widened(n->ty->kind));
    return n;
  default: return n;
  }
}

/* After rewriting, any reference left to an Array other than as x[...] at
 * the thread level, or to the Vector, is a use tgm cannot lower. */
static bool leftover(Node *n, void *ctx) {
  Lower *lw = ctx;
  if (n->kind == ND_INDEX && !lw->block && is_array(lw, n->lhs))
    return false; /* x[i]: the pointer parameter of the same name */
  if (n->kind == ND_VAR && is_array(lw, n))
    fail(lw, n->loc, "uses its Array other than through Size(), Stride() and []");
  if (n->kind == ND_VAR && n->decl && n->decl->ty->kind == TY_VECTOR)
    fail(lw, n->loc, "uses its Vector other than through its methods");
  return true;
}

static bool is_thread_id(const Node *n) {
  while (n && n->kind == ND_CAST)
    n = n->lhs;
  return n && n->kind == ND_METHOD && n->lhs && n->lhs->ty && n->lhs->ty->kind == TY_VECTOR &&
         strcmp(n->name, "ThreadId") == 0;
}

/* A local of body that holds an index: declared with a value of an integer
 * type (not bool), never assigned after. */
static bool index_local(const Node *d, Node *body) {
  return d && d->kind == ND_DECL && d->init && d->ty && type_is_integer(d->ty) &&
         d->ty->kind != TY_BOOL && !node_assigned_in(body, d);
}

/* vthread.ThreadId(), or a local set once to it (`const unsigned tid =
 * vthread.ThreadId(); ... in[tid]`, CUDA's usual spelling: probe12 D1). ctx:
 * the Lower, whose function the local must not be assigned in. */
static bool at_thread_id(const Node *index, void *ctx) {
  const Lower *lw = ctx;
  if (is_thread_id(index))
    return true;
  while (index && index->kind == ND_CAST)
    index = index->lhs;
  const Node *d = index && index->kind == ND_VAR ? index->decl : NULL;
  return index_local(d, lw->fn->body) && is_thread_id(d->init);
}

static bool is_int_literal(const Node *n, long long v) {
  while (n && n->kind == ND_CAST)
    n = n->lhs;
  return n && n->kind == ND_INT && n->ival == v;
}

/* Block level: a local set once from constants and parameters (`T twice =
 * scale * k;`) is its value, converted to its type, and its declaration goes:
 * the block function has no parameters but the thread's value, and the
 * transform it spells (`in[tid] * twice`) is matched whole. */
static bool find_fixed(Node *n, void *ctx) {
  Lower *lw = ctx;
  if (n->kind == ND_DECL && node_fixed_local(lw->fn->body, n))
    vec_push(lw->a, &lw->fixed, n);
  return true;
}

static bool is_fixed(const Node *decl, void *ctx) {
  Lower *lw = ctx;
  return vec_has(&lw->fixed, decl);
}

static Node *inline_fixed(Node *n, void *ctx) {
  Lower *lw = ctx;
  if (n->kind == ND_DECL && vec_has(&lw->fixed, n))
    return NULL;
  if (!(n->kind == ND_VAR && n->decl && vec_has(&lw->fixed, n->decl)))
    return n;
  Node *v = node_rewrite(node_clone(lw->a, n->decl->init), inline_fixed, lw);
  return mk_value_as(lw->a, n->loc, v, n->decl->ty, lw->spec->elem);
}

/* Block level, lowered: a local set once to the thread's, lane's or warp's
 * index (`const unsigned tid = vthread.ThreadId();`, `wid = VectorId()`)
 * is that built-in at each use, so that barrier insertion sees `tmp[tid]`
 * as the thread's own slot and `if (wid == 0)` as warp 0's (probe14: the
 * same tree refused with `wid`, accepted with VectorId()). */
typedef struct {
  Arena *a;
  Node *body;
  PtrVec decls; /* Node *: ND_DECL, each with an ND_GPU init */
} GpuLocals;

static const Node *gpu_index(const Node *n) {
  while (n && n->kind == ND_CAST)
    n = n->lhs;
  return n && (node_is_gpu(n, "tid") || node_is_gpu(n, "lane") || node_is_gpu(n, "warp")) ? n
                                                                                          : NULL;
}

static bool find_gpu_locals(Node *n, void *ctx) {
  GpuLocals *g = ctx;
  if (!(n->qual & Q_SHARED) && index_local(n, g->body) && gpu_index(n->init))
    vec_push(g->a, &g->decls, n);
  return true;
}

static Node *inline_gpu_locals(Node *n, void *ctx) {
  GpuLocals *g = ctx;
  if (n->kind == ND_DECL && vec_has(&g->decls, n))
    return NULL; /* the declaration goes: its uses are the built-in */
  if (n->kind == ND_VAR && n->decl && vec_has(&g->decls, n->decl))
    return node_clone(g->a, gpu_index(n->decl->init));
  return n;
}

/* Block level: the transform of the thread's element is the thread's value.
 * A true-or-false transform (a count: `accum += in[i] > t;`) adds 1 or 0,
 * which a cooperative codelet may spell `in[tid] > t ? 1 : 0`: that whole
 * condition is the value (taking only the comparison for it left `value ?
 * 1 : 0`, each thread's count cut to 1, and every such variant wrong). */
static Node *take_transform(Node *n, void *ctx) {
  Lower *lw = ctx;
  if (n->kind != ND_VAR && n->kind != ND_INT && n->kind != ND_FLOAT &&
      spectrum_match_transform(lw->spec, lw->fn, n, at_thread_id, lw))
    return mk_var(lw->a, n->loc, lw->value);
  if (n->kind == ND_COND && n->cond && n->cond->kind == ND_VAR && n->cond->decl == lw->value &&
      lw->spec->transform && lw->spec->transform->ty && lw->spec->transform->ty->kind == TY_BOOL &&
      is_int_literal(n->then, 1) && is_int_literal(n->els, 0))
    return n->cond;
  return n;
}

static bool uses_value(Node *n, void *ctx) {
  Lower *lw = ctx;
  if (n->kind == ND_VAR && (n == lw->value || n->decl == lw->value))
    lw->value_used = true;
  return true;
}

static bool find_acc(Node *n, void *ctx) {
  if (n->kind == ND_DECL && (n->qual & Q_ACCUM))
    *(Node **)ctx = n;
  return true;
}

Node *lower_codelet(Ctx *ctx, const Spectrum *spec, const Codelet *cd, LowerLevel level,
                    const char *fname, const char **why, Loc *why_loc) {
  Arena *a = ctx->arena;
  Node *fn = node_clone(a, cd->fn);
  bool block = level == LOWER_BLOCK;
  Lower lw = {.a = a, .spec = spec, .cd = cd, .fn = fn, .level = level, .block = block};
  Node *first = node_kid(fn, 0);
  Loc loc = cd->loc;
  for (int i = 0; i < fn->kids.len; i++)
    if (((Node *)fn->kids.items[i])->ty->kind == TY_ARRAY)
      vec_push(a, &lw.inputs, fn->kids.items[i]);
  Node *f = node_new(a, ND_FUNC, loc);
  f->name = fname;
  if (block) {
    f->ty = type_new(a, TY_ACC);
    f->spelling = "template <unsigned BLOCK>\n__device__ __forceinline__";
    lw.value = mk_param(a, first->loc, names_derive(a, first->name, DERIVED_VALUE),
                        type_new(a, TY_ACC), 0);
    vec_push(a, &f->kids, lw.value);
    node_walk(fn->body, find_fixed, &lw);
    if (node_inlined_size(a, fn->body, is_fixed, &lw, MAX_INLINED) > MAX_INLINED)
      fail(&lw, cd->loc,
           arena_printf(a, "its locals set once, written out, have more than %d operations",
                        MAX_INLINED));
    else
      fn->body = node_rewrite(fn->body, inline_fixed, &lw);
    fn->body = node_rewrite(fn->body, take_transform, &lw);
  } else {
    f->ty = type_new(a, level == LOWER_THREAD ? TY_ACC : TY_RES);
    f->spelling = "__device__ __forceinline__";
    node_walk(fn->body, find_acc, &lw.acc);
    for (FindValues fv = {.lw = &lw, .changed = true}; fv.changed;) {
      fv.changed = false;
      node_walk(fn->body, find_values, &fv);
    }
    for (int i = 0; i < fn->kids.len; i++) {
      Node *p = fn->kids.items[i];
      if (p->ty->kind != TY_ARRAY)
        continue;
      p->ty = ty_ptr(a, ty_elem(a), true); /* x[i] now indexes the pointer */
      p->qual |= Q_RESTRICT;
      vec_push(a, &f->kids, p);
    }
    lw.size = mk_param(a, first->loc, names_derive(a, first->name, DERIVED_SIZE),
                       type_new(a, TY_SIZE), 0);
    lw.stride = mk_param(a, first->loc, names_derive(a, first->name, DERIVED_STRIDE),
                         type_new(a, TY_SIZE), 0);
    vec_push(a, &f->kids, lw.size);
    vec_push(a, &f->kids, lw.stride);
    if (spec->indexed) {
      lw.first = mk_param(a, first->loc, names_derive(a, first->name, DERIVED_FIRST),
                          type_new(a, TY_SIZE), Q_INDEX);
      vec_push(a, &f->kids, lw.first);
    }
    for (int i = 0; i < fn->kids.len; i++) {
      Node *p = fn->kids.items[i];
      if (p->ty->kind != TY_PTR)
        vec_push(a, &f->kids, p);
    }
  }
  f->body = node_rewrite(fn->body, lower_node, &lw);
  if (block) {
    GpuLocals g = {.a = a, .body = f->body};
    node_walk(f->body, find_gpu_locals, &g);
    if (g.decls.len)
      f->body = node_rewrite(f->body, inline_gpu_locals, &g);
  }
  node_walk(f->body, leftover, &lw);
  if (block) { /* a block-level codelet combines the threads' values: it must read them */
    node_walk(f->body, uses_value, &lw);
    if (!lw.value_used)
      fail(&lw, cd->loc,
           arena_printf(a,
                        "never reads a thread's value (the spectrum's transform '%s' at "
                        "ThreadId())",
                        text_user_spelling(a, spec->transform_text)));
  }
  if (lw.why) {
    *why = lw.why;
    *why_loc = lw.why_loc;
    return NULL;
  }
  return f;
}

/* The lower pass: the scalar codelet for one thread (an error when it
 * cannot), the reference, the epilogue, the thread level over 16-byte
 * vectors, and each block kind's codelet as a device function for BLOCK
 * threads (the block pass transforms those). */
void pass_lower(Ctx *ctx, Composition *c) {
  Arena *a = ctx->arena;
  const Spectrum *spec = c->spec;
  const char *name = c->name, *why = NULL;
  Loc loc;
  c->thread_fn = lower_codelet(ctx, spec, c->scalar, LOWER_THREAD,
                               arena_printf(a, "%s_%s", name, c->scalar->id), &why, &loc);
  if (!c->thread_fn)
    diag_error(ctx->diag, loc, "the scalar codelet cannot run on one thread: it %s", why);
  c->reference_fn = lower_codelet(ctx, spec, c->scalar, LOWER_REFERENCE,
                                  arena_printf(a, "%s_reference", name), &why, &loc);
  c->epilogue_fn = xf_epilogue(a, spec);
  c->start_fn = spec->acc_float ? xf_start(a, spec) : NULL;
  if (spec->inputs.len > 1)
    c->thread_vec_why = arena_printf(a,
                                     "vector loads need one alignment for every input, and "
                                     "spectrum '%s' has %d inputs",
                                     name, spec->inputs.len);
  else if (c->thread_fn) {
    c->thread_vec_fn = xf_vector(a, c->thread_fn, 16 / elem_info(c->elem)->bytes,
                                 arena_printf(a, "%s_%s_vec", name, c->scalar->id), &why, &loc);
    if (!c->thread_vec_fn)
      c->thread_vec_why = arena_printf(a,
                                       "the scalar codelet cannot use vector loads: at line %d "
                                       "it %s",
                                       loc.line, why);
  }
  for (int b = 0; b < B_COUNT; b++) {
    BlockImpl *im = &c->block[b];
    if (!im->cd || im->why)
      continue;
    im->fn = lower_codelet(ctx, spec, im->cd, LOWER_BLOCK, im->fname, &why, &loc);
    if (!im->fn) {
      im->why = arena_printf(a, "codelet '%s' at line %d %s", im->cd->id, loc.line, why);
      im->why_loc = loc;
    }
  }
}

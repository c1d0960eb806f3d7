/* compose.c -- every legal plan: one codelet per level of the hierarchy.
 *
 *   grid    DT  tiled (codelet `tiled`, p = blocks), partials + second pass
 *           DS  strided (codelet `strided`), partials + second pass
 *           DTA, DSA  the same, block results combined by global atomics
 *           DTL, DSL  the same, the last block to finish combines the
 *                     partials (one launch, deterministic)
 *           B1  a single block (small inputs)
 *   block   V    cooperative codelet (figure 1(c)), barriers inserted
 *           VS   V with warp shuffles
 *           VR   V with the warp-reduce instruction (CUDA sm_80+, 32-bit ints)
 *           VA1  shared atomic on one accumulator (figure 3(a))
 *           VA2  per-warp tree, then a shared atomic (figure 3(b))
 *           VA2S VA2 with warp shuffles
 *   thread  ST   the block's part split over threads in tiles (`tiled`),
 *                each reduced by the scalar codelet (figure 1(a))
 *           SS   split in strides (`strided`): coalesced
 *           SS with 16-byte vector loads: SV
 * A plan is named grid.block.thread, e.g. DSA.VA2S.SS. A plan that cannot
 * be built (a codelet missing from the spectrum, a pattern that does not
 * match, a type or dialect without an instruction) is left out with its
 * reason. */
#include "tgm.h"

#include <string.h>

static const char *const grid_codes[G_COUNT] = {"DT", "DS", "DTA", "DSA", "DTL", "DSL", "B1"};
static const char *const block_codes[B_COUNT] = {"V", "VS", "VR", "VA1", "VA2", "VA2S"};
static const char *const thread_codes[T_COUNT] = {"ST", "SS", "SV"};

const char *grid_code(GridKind g) { return grid_codes[g]; }
const char *block_code(BlockKind b) { return block_codes[b]; }
const char *thread_code(ThreadKind t) { return thread_codes[t]; }

static bool has_loop(Node *n, void *ctx) {
  if (n->kind == ND_FOR || n->kind == ND_WHILE)
    *(bool *)ctx = true;
  return true;
}

static Codelet *first_of(Program *prog, const char *name, CodeletKind kind, PartKind part,
                         int loops /* -1 any, 0 none, 1 some */) {
  for (int i = 0; i < prog->codelets.len; i++) {
    Codelet *cd = prog->codelets.items[i];
    if (strcmp(cd->name, name) != 0 || cd->kind != kind || (part && cd->part != part))
      continue;
    bool loop = false;
    node_walk(cd->fn->body, has_loop, &loop);
    if (loops < 0 || loop == (loops == 1))
      return cd;
  }
  return NULL;
}

/* The warp-reduce instruction for this operator and type (combiners.def). */
static bool redux_ok(ElemType e, Op op) {
  const Combiner *cb = combiner_of(op);
  return cb && (cb->redux_on & TS_OF(e));
}

static void build_block(Ctx *ctx, Composition *c, BlockKind b) {
  Arena *a = ctx->arena;
  BlockImpl *im = &c->block[b];
  Codelet *cd = NULL;
  const char *suffix = "";
  switch (b) {
  case B_V:
    cd = first_of(c->prog, c->name, CK_COOP, PART_NONE, -1);
    break;
  case B_VS:
    cd = first_of(c->prog, c->name, CK_COOP, PART_NONE, -1);
    suffix = "_shfl";
    break;
  case B_VR:
    cd = first_of(c->prog, c->name, CK_COOP, PART_NONE, -1);
    suffix = "_redux";
    if (!c->target->redux) {
      im->why = arena_printf(a, "no warp-reduce instruction on %s", c->target->gpus);
      return;
    }
    if (c->spec->pair) {
      im->why = "the warp-reduce instruction combines one 32-bit integer, and an Arg is a "
                "(value, index) pair";
      return;
    }
    if (!redux_ok(c->acc_elem, c->op)) {
      im->why = arena_printf(a, "no warp-reduce instruction for %s with '%s'",
                             elem_info(c->acc_elem)->name, op_name(c->op));
      return;
    }
    break;
  case B_VA1:
    cd = first_of(c->prog, c->name, CK_ATOMIC, PART_NONE, 0);
    break;
  case B_VA2:
    cd = first_of(c->prog, c->name, CK_ATOMIC, PART_NONE, 1);
    break;
  case B_VA2S:
    cd = first_of(c->prog, c->name, CK_ATOMIC, PART_NONE, 1);
    suffix = "_shfl";
    break;
  default:
    break;
  }
  if (!cd) {
    static const char *const need[B_COUNT] = {
        "cooperative codelet", "cooperative codelet", "cooperative codelet",
        "shared-atomic codelet without a tree loop (figure 3(a))",
        "shared-atomic codelet with a tree loop (figure 3(b))",
        "shared-atomic codelet with a tree loop (figure 3(b))"};
    im->why = arena_printf(a, "spectrum '%s' has no %s", c->name, need[b]);
    return;
  }
  im->cd = cd;
  if (c->spec->pair && (b == B_VA1 || b == B_VA2 || b == B_VA2S)) {
    im->why = arena_printf(a, "codelet '%s': a shared-memory atomic combines one word, and an Arg "
                              "is a (value, index) pair", cd->id);
    return;
  }
  const char *why;
  Loc loc;
  const char *fname = arena_printf(a, "%s_%s%s", c->name, cd->id, suffix);
  Node *fn = lower_codelet(ctx, c->spec, cd, LOWER_BLOCK, fname, &why, &loc);
  if (!fn) {
    im->why = arena_printf(a, "codelet '%s' at line %d %s", cd->id, loc.line, why);
    return;
  }
  if (b == B_VA1 || b == B_VA2 || b == B_VA2S)
    xf_satomic(a, fn);
  if ((b == B_VS || b == B_VR || b == B_VA2S) && xf_shuffle(a, fn) == 0) {
    im->why = arena_printf(a, "codelet '%s' has no tree loop that maps onto warp shuffles", cd->id);
    return;
  }
  if (b == B_VR && xf_redux(a, fn, c->op) == 0) {
    im->why = arena_printf(a, "codelet '%s' has no shuffle tree to replace", cd->id);
    return;
  }
  if ((why = xf_barrier(a, fn, &loc))) {
    im->why = arena_printf(a, "codelet '%s' at line %d %s", cd->id, loc.line, why);
    return;
  }
  im->fn = fn;
}

/* tgm_values_DT_SS<BLOCK>(x, [y, ...] n, items, block index, block count,
 * [params]): this thread's value, reduced by the thread-level codelet over
 * its part. */
static Node *values_call(Arena *a, const char *grid_part, ThreadKind t, const Kernel *k, Node *bidx,
                         Node *gdim) {
  Loc loc = k->fn->loc;
  Node *call = mk_call(a, loc, arena_printf(a, "tgm_values_%s_%s<BLOCK>", grid_part, thread_code(t)), 0);
  call->ty = type_new(a, TY_ACC);
  for (int i = 0; i < k->inputs.len; i++)
    vec_push(a, &call->kids, kernel_use(a, k->inputs.items[i]));
  vec_push(a, &call->kids, kernel_use(a, k->n));
  vec_push(a, &call->kids, kernel_use(a, k->items));
  vec_push(a, &call->kids, bidx);
  vec_push(a, &call->kids, gdim);
  for (int i = 0; i < k->params.len; i++)
    vec_push(a, &call->kids, kernel_use(a, k->params.items[i]));
  return call;
}

/* value = sum_coop_shfl<BLOCK>(value); */
Node *block_call(Arena *a, Composition *c, BlockKind b, Node *value) {
  BlockImpl *im = &c->block[b];
  Loc loc = im->cd->loc;
  return mk_expr(a, mk_assign(a, loc, OP_NONE, mk_var(a, loc, value),
                              mk_call(a, loc, arena_printf(a, "%s<BLOCK>", im->fn->name), 1,
                                      mk_var(a, loc, value))));
}

static void build_plan(Ctx *ctx, Composition *c, GridKind g, BlockKind b, ThreadKind t) {
  Arena *a = ctx->arena;
  const char *id = arena_printf(a, "%s.%s.%s", grid_code(g), block_code(b), thread_code(t));
  const char *why = NULL;
  bool tiled_grid = g == G_DT || g == G_DTA || g == G_DTL;
  if (tiled_grid && !c->tiled)
    why = "the spectrum has no tiled compound codelet for the grid";
  else if (!tiled_grid && !c->strided)
    why = "the spectrum has no strided compound codelet for the grid";
  else if (t == T_ST && !c->tiled)
    why = "the spectrum has no tiled compound codelet for the block";
  else if (t != T_ST && !c->strided)
    why = "the spectrum has no strided compound codelet for the block";
  else if (!c->thread_fn)
    why = "the spectrum has no scalar codelet for the thread";
  else if (t == T_SV && !c->thread_vec_fn)
    why = c->thread_vec_why;
  else if (!c->block[b].fn)
    why = c->block[b].why;
  else if ((g == G_DTA || g == G_DSA) && c->spec->pair)
    why = "a global atomic combines one word, and an Arg is a (value, index) pair";
  else if ((g == G_DTA || g == G_DSA) && c->spec->epilogue)
    why = arena_printf(a, "global atomics leave no block that makes the final value, where the "
                          "epilogue '%s' must run once", c->spec->epilogue_text);
  else if ((g == G_DTA || g == G_DSA) && c->spec->acc_ty->kind != c->spec->result_ty->kind)
    why = arena_printf(a, "global atomics combine into out, whose type %s is not the "
                          "accumulator's %s", c->spec->result_ctype, c->spec->acc_ctype);
  if (why) {
    LeftOut *lo = arena_alloc(a, sizeof *lo);
    lo->id = id;
    lo->why = why;
    vec_push(a, &c->left_out, lo);
    return;
  }

  Plan *p = arena_alloc(a, sizeof *p);
  p->id = id;
  p->cname = arena_printf(a, "%s_%s_%s_%s", c->name, grid_code(g), block_code(b), thread_code(t));
  p->g = g;
  p->b = b;
  p->t = t;
  bool float_assoc = combiner_order_matters(combiner_of(c->op), c->acc_elem);
  bool atomics = b == B_VA1 || b == B_VA2 || b == B_VA2S || g == G_DTA || g == G_DSA;
  p->deterministic = !(float_assoc && atomics);
  p->min_arch = b == B_VR ? "sm_80" : "sm_75"; /* CUDA; HIP: any gfx9/gfx10+ */
  bool vec = t == T_SV;
  p->grid_rule = g == G_B1 ? "one" : tiled_grid ? (vec ? "tiles_vec" : "tiles")
                                                : (vec ? "strided_vec" : "strided");

  p->kernel = kernel_main(a, c, p->cname, b);
  Node *body = p->kernel->fn->body;
  Loc loc = c->block[b].cd->loc;
  Node *value = mk_decl(a, loc, "value", type_new(a, TY_ACC),
                        values_call(a, tiled_grid ? "DT" : "DS", t, p->kernel,
                                    mk_gpu(a, loc, "bid"), mk_gpu(a, loc, "gdim")));
  block_add(a, body, mk_comment(a, loc, arena_printf(a, "thread: codelet '%s' on its part (grid: %s; block: %s)",
                                                      c->scalar->id,
                                                      g == G_B1 ? "one block" : tiled_grid ? "tiles" : "strides",
                                                      t == T_ST ? "tiles" : vec ? "16-byte vector strides" : "strides")));
  block_add(a, body, value);
  block_add(a, body, mk_comment(a, loc, arena_printf(a, "block: codelet '%s' (%s)",
                                                      c->block[b].cd->id, block_code(b))));
  block_add(a, body, block_call(a, c, b, value));
  switch (g) {
  case G_DT:
  case G_DS:
    xf_twopass(a, c, p, body, value);
    break;
  case G_DTA:
  case G_DSA:
    xf_gatomic(a, c, p, body, value);
    break;
  case G_DTL:
  case G_DSL:
    xf_lastblock(a, c, p, body, value);
    break;
  case G_B1:
    block_add(a, body, mk_comment(a, loc, "grid: a single block writes the result"));
    block_add(a, body, kernel_write_result(a, p->kernel, value));
    p->launches = 1;
    break;
  default:
    break;
  }
  vec_push(a, &c->plans, p);
}

/* The accumulator's type as an element type: what its identities and
 * atomics are spelled for. */
static ElemType acc_elem(const Spectrum *s, ElemType elem) {
  switch (s->acc_ty->kind) {
  case TY_INT: return ET_I32;
  case TY_UINT: case TY_BOOL: return ET_U32;
  case TY_LONG: case TY_ULONG: return ET_I64;
  case TY_FLOAT: return ET_F32;
  case TY_DOUBLE: return ET_F64;
  default: return elem;
  }
}

/* A codelet no plan uses is reported, with the reason. */
static void report_unused(Ctx *ctx, Composition *c) {
  for (int b = 0; b < B_COUNT; b++) {
    BlockImpl *im = &c->block[b];
    if (im->fn || !im->cd)
      continue;
    bool used = false;
    for (int o = 0; o < B_COUNT; o++)
      used |= c->block[o].cd == im->cd && c->block[o].fn;
    bool said = false;
    for (int o = 0; o < b; o++)
      said |= c->block[o].cd == im->cd;
    if (!used && !said)
      diag_warning(ctx->diag, im->cd->loc, "codelet '%s' is used by no variant: %s", im->cd->id,
                   im->why);
  }
}

/* No variant at all: an error that says why at each level. */
void compose_check_empty(Ctx *ctx, Composition *const by[DIALECT_COUNT]) {
  for (int d = 0; d < DIALECT_COUNT; d++) {
    Composition *c = by[d];
    if (c->plans.len > 0 || !c->thread_fn)
      continue;
    diag_error(ctx->diag, c->spec->scalar->loc, "spectrum '%s' has no %s variant for %s", c->name,
               c->target->title, elem_info(c->elem)->name);
    if (!c->tiled && !c->strided)
      diag_note(ctx->diag, c->spec->scalar->loc,
                "grid level: no tiled or strided compound codelet (figure 1(b)) splits the input "
                "over blocks and threads");
    bool any_block = false;
    for (int b = 0; b < B_COUNT; b++)
      any_block |= c->block[b].fn != NULL;
    for (int b = 0; b < B_COUNT && !any_block; b++) {
      bool dup = false;
      for (int o = 0; o < b; o++)
        dup |= strcmp(c->block[o].why, c->block[b].why) == 0;
      if (!dup)
        diag_note(ctx->diag, c->block[b].cd ? c->block[b].cd->loc : c->spec->scalar->loc,
                  "block level %s: %s", block_code((BlockKind)b), c->block[b].why);
    }
    return; /* one dialect's reasons say it */
  }
}

static Composition *compose_spectrum(Ctx *ctx, Program *prog, const Spectrum *spec,
                                     DialectKind dialect, const Dialect *target) {
  Arena *a = ctx->arena;
  const char *name = spec->name;
  Composition *c = arena_alloc(a, sizeof *c);
  c->prog = prog;
  c->spec = spec;
  c->name = name;
  c->op = spec->op;
  c->elem = prog->elem;
  c->acc_elem = acc_elem(spec, prog->elem);
  c->dialect = dialect;
  c->target = target;
  c->scalar = (Codelet *)spec->scalar;
  c->tiled = first_of(prog, name, CK_COMPOUND, PART_TILED, -1);
  c->strided = first_of(prog, name, CK_COMPOUND, PART_STRIDED, -1);
  const char *why = NULL;
  Loc loc;
  c->thread_fn = lower_codelet(ctx, spec, c->scalar, LOWER_THREAD,
                               arena_printf(a, "%s_%s", name, c->scalar->id), &why, &loc);
  if (!c->thread_fn)
    diag_error(ctx->diag, loc, "the scalar codelet cannot run on one thread: it %s", why);
  c->reference_fn = lower_codelet(ctx, spec, c->scalar, LOWER_REFERENCE,
                                  arena_printf(a, "%s_reference", name), &why, &loc);
  c->epilogue_fn = xf_epilogue(a, spec);
  if (spec->inputs.len > 1)
    c->thread_vec_why = arena_printf(a, "vector loads need one alignment for every input, and "
                                        "spectrum '%s' has %d inputs", name, spec->inputs.len);
  else if (c->thread_fn) {
    c->thread_vec_fn = xf_vector(a, c->thread_fn, 16 / elem_info(c->elem)->bytes,
                                 arena_printf(a, "%s_%s_vec", name, c->scalar->id), &why, &loc);
    if (!c->thread_vec_fn)
      c->thread_vec_why = arena_printf(a, "the scalar codelet cannot use vector loads: at line %d "
                                          "it %s", loc.line, why);
  }
  for (int b = 0; b < B_COUNT; b++)
    build_block(ctx, c, (BlockKind)b);
  if (c->thread_fn)
    for (int g = 0; g < G_COUNT; g++)
      for (int b = 0; b < B_COUNT; b++)
        for (int t = 0; t < T_COUNT; t++)
          build_plan(ctx, c, (GridKind)g, (BlockKind)b, (ThreadKind)t);
  if (dialect == 0 && c->plans.len > 0) /* once, for the first dialect */
    report_unused(ctx, c);
  return c;
}

void compose_for(Ctx *ctx, Program *prog, DialectKind slot, const Dialect *target, PtrVec *out) {
  for (int i = 0; i < prog->spectra.len; i++)
    vec_push(ctx->arena, out, compose_spectrum(ctx, prog, prog->spectra.items[i], slot, target));
}

void compose(Ctx *ctx, Program *prog, DialectKind dialect, PtrVec *out) {
  compose_for(ctx, prog, dialect, dialect_get(dialect), out);
}

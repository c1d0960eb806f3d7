/* compose.c -- the planner: every plan, one codelet per level of the hierarchy,
 * as data (pass_plan); what a dialect prints of them (composition_for).
 *
 *   grid    DT  tiled (codelet `tiled`, p = blocks), partials + second pass
 *           DS  strided (codelet `strided`), partials + second pass
 *           DTA, DSA  the same, block results combined by global atomics
 *           DTL, DSL  the same, the last block to finish combines the
 *                     partials (one launch, deterministic)
 *           B1  a single block (small inputs)
 *   rows (--rows: out[r] = the spectrum over row r of an m x n matrix, rows
 *   ld elements apart; rows.c)
 *           RW  GROUP threads a row (GROUP = 1, 2, ..., the warp: a launch
 *               knob), BLOCK / GROUP rows a block; the block level's
 *               function for a group (xf_group.c)
 *           RB  a block a row
 *           RL  `parts` blocks a row (blockIdx.y the row), the last of them
 *               to finish combines the row's partials (xf_lastblock.c)
 *           RA  the same blocks (vector loads: RA.*.SV), each combining its
 *               value into out[row] with a global atomic after tgm_init_out
 *               (xf_gatomic.c)
 *   columns (--cols: out[c] over column c; cols.c)
 *           CT  `width` columns a block, each thread the scalar codelet down
 *               its column (stride ld) over its row lane's rows, folded in
 *               the block, `parts` blocks down the rows, the last combining
 *               (CT.SS, CT.SV: no block codelet)
 *           CA  the same (vector loads: CA.SV), the parts combining into
 *               out with global atomics after tgm_init_out
 *           their thread level: the row split over the group's (block's)
 *           threads as the strided grid splits a block's part (ST, SS, SV)
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
 * A plan is named grid.block.thread, e.g. DSA.VA2S.SS (columns: CT.SS). A plan that cannot
 * be built (a codelet missing from the spectrum, a pattern that does not
 * match, a type or dialect without an instruction) is left out with its
 * reason. */
#include "tgm.h"

#include <assert.h>
#include <string.h>

static const char *const grid_codes[G_COUNT] = {"DT", "DS", "DTA", "DSA", "DTL", "DSL", "B1",
                                                "RW", "RB", "RL",  "CT",  "CA",  "RA"};
static const char *const block_codes[B_COUNT] = {"V",   "VS",   "VR", "VA1",
                                                 "VA2", "VA2S", "VW", "VRW"};
static const char *const thread_codes[T_COUNT] = {"ST", "SS", "SV"};

const char *grid_code(GridKind g) { return grid_codes[g]; }
const char *block_code(BlockKind b) { return block_codes[b]; }
const char *thread_code(ThreadKind t) { return thread_codes[t]; }
bool grid_tiled(GridKind g) { return g == G_DT || g == G_DTA || g == G_DTL; }
bool grid_cols(GridKind g) { return g == G_CT || g == G_CA; }
bool grid_row_parts(GridKind g) { return g == G_RL || g == G_RA; }
const unsigned block_sizes[BLOCK_SIZES] = {128, 256, 512, 1024};

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

/* Which codelet serves block kind b, and what keeps it out before it is
 * lowered (a dialect's own limits come later: composition_for). */
static void plan_block(Ctx *ctx, Composition *c, BlockKind b) {
  Arena *a = ctx->arena;
  BlockImpl *im = &c->block[b];
  static const char *const suffix[B_COUNT] = {"", "_shfl", "_redux", "",
                                              "", "_shfl", "_fold",  "_redux_fold"};
  bool coop = b == B_V || b == B_VS || b == B_VR || b == B_VW || b == B_VRW;
  Codelet *cd = coop ? first_of(c->prog, c->name, CK_COOP, PART_NONE, -1)
                     : first_of(c->prog, c->name, CK_ATOMIC, PART_NONE, b == B_VA1 ? 0 : 1);
  if ((b == B_VW || b == B_VRW) && c->cols) {
    im->why = arena_printf(a,
                           "%s folds a whole block's partials in thread 0: columns have no "
                           "block level",
                           block_code(b));
    return;
  }
  if (b == B_VR || b == B_VRW) {
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
  }
  if (!cd) {
    static const char *const need[B_COUNT] =
        {"cooperative codelet",
         "cooperative codelet",
         "cooperative codelet",
         "shared-atomic codelet without a tree loop (figure 3(a))",
         "shared-atomic codelet with a tree loop (figure 3(b))",
         "shared-atomic codelet with a tree loop (figure 3(b))",
         "cooperative codelet",
         "cooperative codelet"};
    im->why = arena_printf(a, "spectrum '%s' has no %s", c->name, need[b]);
    return;
  }
  im->cd = cd;
  im->fname = arena_printf(a, "%s_%s%s", c->name, cd->id, suffix[b]);
  if (c->spec->pair && !coop)
    im->why = arena_printf(a,
                           "codelet '%s': a shared-memory atomic combines one word, and an Arg "
                           "is a (value, index) pair",
                           cd->id);
  else if (c->spec->acc_ty->kind == TY_BOOL && !coop)
    im->why = arena_printf(a,
                           "codelet '%s': a shared-memory atomic combines a 32- or 64-bit word, "
                           "and a bool accumulator is one byte",
                           cd->id);
}

/* A candidate: the plan's shape and properties, no code yet. */
static Plan *plan_candidate(Arena *a, const Composition *c, GridKind g, BlockKind b, ThreadKind t) {
  Plan *p = arena_alloc(a, sizeof *p);
  p->id = arena_printf(a, "%s.%s.%s", grid_code(g), block_code(b), thread_code(t));
  p->cname = arena_printf(a, "%s_%s_%s_%s", c->name, grid_code(g), block_code(b), thread_code(t));
  p->g = g;
  p->b = b;
  p->t = t;
  bool float_assoc = combiner_order_matters(combiner_of(c->op), c->acc_elem);
  bool atomics = b == B_VA1 || b == B_VA2 || b == B_VA2S || g == G_DTA || g == G_DSA || g == G_CA ||
                 g == G_RA;
  p->deterministic = !(float_assoc && atomics);
  p->needs_redux = b == B_VR || b == B_VRW;
  p->min_arch = p->needs_redux ? "sm_80" : "sm_75"; /* CUDA; HIP: any gfx9/gfx10+ */
  bool vec = t == T_SV;
  p->grid_rule = g == G_B1       ? "one"
                 : g == G_RW     ? "rows_group"
                 : g == G_RB     ? "rows"
                 : g == G_RL     ? "rows_parts"
                 : g == G_CT     ? "cols"
                 : g == G_CA     ? "cols_atomic"
                 : g == G_RA     ? "rows_atomic"
                 : grid_tiled(g) ? (vec ? "tiles_vec" : "tiles")
                                 : (vec ? "strided_vec" : "strided");
  return p;
}

/* The accumulator's type as an element type: what its identities and
 * atomics are spelled for. */
// clang-format off
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
// clang-format on

void composition_new(Ctx *ctx, Program *prog, bool rows, bool cols, PtrVec *out) {
  for (int i = 0; i < prog->spectra.len; i++) {
    const Spectrum *spec = prog->spectra.items[i];
    Composition *c = arena_alloc(ctx->arena, sizeof *c);
    c->prog = prog;
    c->spec = spec;
    c->name = spec->name;
    c->op = spec->op;
    c->elem = prog->elem;
    c->acc_elem = acc_elem(spec, prog->elem);
    c->rows = rows;
    c->cols = cols;
    c->dialect = (DialectKind)0;
    c->target = dialect_get(c->dialect); /* until a dialect takes it */
    c->scalar = (Codelet *)spec->scalar;
    vec_push(ctx->arena, out, c);
  }
}

void pass_plan(Ctx *ctx, Composition *c) {
  c->tiled = first_of(c->prog, c->name, CK_COMPOUND, PART_TILED, -1);
  c->strided = first_of(c->prog, c->name, CK_COMPOUND, PART_STRIDED, -1);
  for (int b = 0; b < B_COUNT; b++)
    plan_block(ctx, c, (BlockKind)b);
  if (c->cols) { /* no block codelet: the scalar codelet down each column, scalar or vector loads */
    static const struct {
      GridKind g;
      ThreadKind t;
    } cols[] = {{G_CT, T_SS}, {G_CT, T_SV}, {G_CA, T_SV}};
    for (size_t i = 0; i < COUNT_OF(cols); i++) {
      Plan *p = plan_candidate(ctx->arena, c, cols[i].g, B_V, cols[i].t);
      p->id = arena_printf(ctx->arena, "%s.%s", grid_code(cols[i].g), thread_code(cols[i].t));
      p->cname = arena_printf(ctx->arena, "%s_%s_%s", c->name, grid_code(cols[i].g),
                              thread_code(cols[i].t));
      vec_push(ctx->arena, &c->candidates, p);
    }
    return;
  }
  int first = c->rows ? G_RW : G_DT, last = c->rows ? G_RL : G_B1;
  for (int g = first; g <= last; g++)
    for (int b = 0; b < B_COUNT; b++)
      for (int t = 0; t < T_COUNT; t++)
        vec_push(ctx->arena, &c->candidates,
                 plan_candidate(ctx->arena, c, (GridKind)g, (BlockKind)b, (ThreadKind)t));
  /* RA: RL's parts combined with atomics, vector loads only (its rows are
     long: the rule takes it for few rows of 2^16 elements and more) */
  for (int b = 0; c->rows && b < B_COUNT; b++)
    vec_push(ctx->arena, &c->candidates, plan_candidate(ctx->arena, c, G_RA, (BlockKind)b, T_SV));
}

Composition *composition_for(Arena *a, const Composition *c, DialectKind slot,
                             const Dialect *target) {
  Composition *v = arena_alloc(a, sizeof *v);
  *v = *c;
  v->dialect = slot;
  v->target = target;
  v->plans = (PtrVec){0};
  v->left_out = (PtrVec){0};
  const char *no_redux = target->redux
                             ? NULL
                             : arena_printf(a, "no warp-reduce instruction on %s", target->gpus);
  if (no_redux) /* asked first at the block level: no codelet serves VR */
    v->block[B_VR] = v->block[B_VRW] = (BlockImpl){.why = no_redux};
  /* in the candidates' order: each plan kept, or left out with why */
  int kept = 0, left = 0;
  for (int i = 0; i < c->candidates.len; i++) {
    const Plan *p = c->candidates.items[i];
    const Plan *built = kept < c->plans.len ? c->plans.items[kept] : NULL;
    const LeftOut *lo = left < c->left_out.len ? c->left_out.items[left] : NULL;
    if (built && strcmp(built->id, p->id) == 0) {
      kept++;
      if (no_redux && p->needs_redux) {
        LeftOut *d = arena_alloc(a, sizeof *d);
        *d = (LeftOut){p->id, no_redux, LO_BLOCK};
        vec_push(a, &v->left_out, d);
      } else {
        vec_push(a, &v->plans, (void *)built);
      }
    } else if (lo && strcmp(lo->id, p->id) == 0) {
      left++;
      if (no_redux && p->needs_redux && lo->stage != LO_PARTS) {
        LeftOut *d = arena_alloc(a, sizeof *d);
        *d = (LeftOut){p->id, no_redux, LO_BLOCK};
        vec_push(a, &v->left_out, d);
      } else {
        vec_push(a, &v->left_out, (void *)lo);
      }
    }
  }
  /* the grid pass kept or left out every candidate, in the candidates' order */
  assert(kept == c->plans.len && left == c->left_out.len);
  return v;
}

/* No variant at all: an error that says why at each level. */
void compose_check_empty(Ctx *ctx, Composition *const by[DIALECT_COUNT]) {
  for (int d = 0; d < DIALECT_COUNT; d++) {
    Composition *c = by[d];
    if (c->plans.len > 0 || !c->thread_fn)
      continue;
    diag_error(ctx->diag, c->spec->scalar->loc, "spectrum '%s' has no %s variant for %s", c->name,
               c->target->title, elem_info(c->elem)->name);
    if (c->cols && c->left_out.len) { /* one plan: its reason */
      diag_note(ctx->diag, c->spec->scalar->loc, "columns (CT.SS): %s",
                ((const LeftOut *)c->left_out.items[0])->why);
      return;
    }
    if (!c->tiled && !c->strided)
      diag_note(ctx->diag, c->spec->scalar->loc,
                "grid level: no tiled or strided compound codelet (figure 1(b)) splits the input "
                "over blocks and threads");
    bool any_block = false;
    for (int b = 0; b < B_COUNT; b++)
      any_block |= c->block[b].fn != NULL;
    for (int b = 0; b < B_COUNT && !any_block; b++) {
      if (c->cols && (b == B_VW || b == B_VRW))
        continue; /* no block level down columns */
      bool dup = false;
      for (int o = 0; o < b; o++)
        dup |= strcmp(c->block[o].why, c->block[b].why) == 0;
      if (!dup)
        diag_note(ctx->diag,
                  c->block[b].why_loc.line ? c->block[b].why_loc
                  : c->block[b].cd         ? c->block[b].cd->loc
                                           : c->spec->scalar->loc,
                  "block level %s: %s", block_code((BlockKind)b), c->block[b].why);
    }
    return; /* one dialect's reasons say it */
  }
}

/* kernel.c -- the kernels' signatures, by role.
 *
 * Every plan's kernel is
 *   template <unsigned BLOCK>   (also on ITEMS where the thread level loads
 *                                vectors on a strided grid: kernel_values)
 *   __global__ void __launch_bounds__(BLOCK)
 *   NAME(const T *x, [const T *y, ...] tgm_size n, R *out, A *partials, unsigned *counter,
 *        unsigned items, [params...])
 * and a two-pass plan's second kernel
 *   NAME_pass2(const A *partials, tgm_size count, R *out, tgm_size n, [params...])
 * A row kernel (--rows; RW's also a template on GROUP) takes
 *   NAME(const T *x, [const T *y, ...] tgm_size m, tgm_size n, tgm_size ld, R *out,
 *        [A *partials, unsigned *counter,] unsigned items, [params...])
 * (RL, several blocks a row, has the partials and counters), and a column
 * kernel (--cols)
 *   NAME(const T *x, [...] tgm_size m, tgm_size n, tgm_size ld, R *out, A *partials,
 *        unsigned *counter, unsigned width, [params...])
 * The roles are named here once; transformations ask for a role, never for
 * a position, and the manifest's launch arguments are the role names
 * (`in` for a single input, `in:NAME` for several, `param:NAME`; NAME as the
 * user wrote it, as in the manifest's meaning, though names.c may have
 * renamed it in the code). */
#include "tgm.h"

#include <assert.h>

static Node *add(Arena *a, Kernel *k, const char *role, Node *param) {
  vec_push(a, &k->fn->kids, param);
  vec_push(a, &k->roles, (void *)role);
  return param;
}

const char *kernel_template_args(const Kernel *k) {
  static const char *const args[2][2] = {{"<BLOCK>", "<BLOCK, ITEMS>"},
                                         {"<BLOCK, GROUP>", "<BLOCK, GROUP, ITEMS>"}};
  return args[k->grouped][k->per_items];
}

/* the kernel's template head, from the same flags */
static void kernel_spell(Kernel *k) {
  static const char *const heads[2][2] = {{"template <unsigned BLOCK>\n__global__",
                                           "template <unsigned BLOCK, unsigned ITEMS>\n__global__"},
                                          {"template <unsigned BLOCK, unsigned GROUP>\n__global__",
                                           "template <unsigned BLOCK, unsigned GROUP, unsigned "
                                           "ITEMS>\n__global__"}};
  k->fn->spelling = heads[k->grouped][k->per_items];
}

static Kernel *kernel_begin(Arena *a, const Composition *c, const char *name, BlockKind b) {
  Loc loc = c->block[b].cd ? c->block[b].cd->loc : c->spec->scalar->loc;
  Kernel *k = arena_alloc(a, sizeof *k);
  Node *fn = node_new(a, ND_FUNC, loc);
  fn->name = name;
  fn->ty = type_new(a, TY_VOID);
  fn->qual = Q_KERNEL; /* printed with __launch_bounds__(BLOCK) */
  fn->body = mk_block(a, loc);
  k->fn = fn;
  kernel_spell(k);
  return k;
}

static void add_params(Arena *a, const Composition *c, Kernel *k) {
  Loc loc = k->fn->loc;
  for (int i = 0; i < c->spec->params.len; i++) {
    const SpecParam *sp = c->spec->params.items[i];
    vec_push(a, &k->params,
             add(a, k, arena_printf(a, "param:%s", sp->user),
                 mk_param(a, loc, sp->name, sp->ty, 0)));
  }
}

Kernel *kernel_main(Arena *a, const Composition *c, const char *name, BlockKind b) {
  Kernel *k = kernel_begin(a, c, name, b);
  Loc loc = k->fn->loc;
  const PtrVec *ins = &c->spec->inputs;
  for (int i = 0; i < ins->len; i++) {
    const SpecInput *in = ins->items[i];
    const char *role = ins->len == 1 ? "in" : arena_printf(a, "in:%s", in->user);
    vec_push(a, &k->inputs,
             add(a, k, role, mk_param(a, loc, in->name, ty_ptr(a, ty_elem(a), true), Q_RESTRICT)));
  }
  Type *uint = type_new(a, TY_UINT);
  k->n = add(a, k, "n", mk_param(a, loc, "n", type_new(a, TY_SIZE), 0));
  k->out = add(a, k, "out",
               mk_param(a, loc, "out", ty_ptr(a, type_new(a, TY_RES), false), Q_RESTRICT));
  k->partials = add(a, k, "partials",
                    mk_param(a, loc, "partials", ty_ptr(a, type_new(a, TY_ACC), false),
                             Q_RESTRICT));
  k->counter = add(a, k, "counter",
                   mk_param(a, loc, "counter", ty_ptr(a, uint, false), Q_RESTRICT));
  k->items = add(a, k, "items", mk_param(a, loc, "items", uint, 0));
  add_params(a, c, k);
  return k;
}

Kernel *kernel_rows(Arena *a, const Composition *c, const char *name, BlockKind b, bool grouped,
                    bool temp) {
  Kernel *k = kernel_begin(a, c, name, b);
  Loc loc = k->fn->loc;
  k->grouped = grouped;
  kernel_spell(k);
  const PtrVec *ins = &c->spec->inputs;
  for (int i = 0; i < ins->len; i++) {
    const SpecInput *in = ins->items[i];
    const char *role = ins->len == 1 ? "in" : arena_printf(a, "in:%s", in->user);
    vec_push(a, &k->inputs,
             add(a, k, role, mk_param(a, loc, in->name, ty_ptr(a, ty_elem(a), true), Q_RESTRICT)));
  }
  k->m = add(a, k, "m", mk_param(a, loc, "m", type_new(a, TY_SIZE), 0));
  k->n = add(a, k, "n", mk_param(a, loc, "n", type_new(a, TY_SIZE), 0));
  k->ld = add(a, k, "ld", mk_param(a, loc, "ld", type_new(a, TY_SIZE), 0));
  k->out = add(a, k, "out",
               mk_param(a, loc, "out", ty_ptr(a, type_new(a, TY_RES), false), Q_RESTRICT));
  if (temp) { /* RL: each row's partials, then each row's counter */
    k->partials = add(a, k, "partials",
                      mk_param(a, loc, "partials", ty_ptr(a, type_new(a, TY_ACC), false),
                               Q_RESTRICT));
    k->counter = add(a, k, "counter",
                     mk_param(a, loc, "counter", ty_ptr(a, type_new(a, TY_UINT), false),
                              Q_RESTRICT));
  }
  k->items = add(a, k, "items", mk_param(a, loc, "items", type_new(a, TY_UINT), 0));
  add_params(a, c, k);
  return k;
}

Kernel *kernel_cols(Arena *a, const Composition *c, const char *name) {
  Kernel *k = kernel_begin(a, c, name, B_V);
  Loc loc = k->fn->loc;
  const PtrVec *ins = &c->spec->inputs;
  for (int i = 0; i < ins->len; i++) {
    const SpecInput *in = ins->items[i];
    const char *role = ins->len == 1 ? "in" : arena_printf(a, "in:%s", in->user);
    vec_push(a, &k->inputs,
             add(a, k, role, mk_param(a, loc, in->name, ty_ptr(a, ty_elem(a), true), Q_RESTRICT)));
  }
  k->m = add(a, k, "m", mk_param(a, loc, "m", type_new(a, TY_SIZE), 0));
  k->n = add(a, k, "n", mk_param(a, loc, "n", type_new(a, TY_SIZE), 0));
  k->ld = add(a, k, "ld", mk_param(a, loc, "ld", type_new(a, TY_SIZE), 0));
  k->out = add(a, k, "out",
               mk_param(a, loc, "out", ty_ptr(a, type_new(a, TY_RES), false), Q_RESTRICT));
  k->partials = add(a, k, "partials",
                    mk_param(a, loc, "partials", ty_ptr(a, type_new(a, TY_ACC), false), 0));
  k->counter = add(a, k, "counter",
                   mk_param(a, loc, "counter", ty_ptr(a, type_new(a, TY_UINT), false), 0));
  k->items = add(a, k, "width", mk_param(a, loc, "width", type_new(a, TY_UINT), 0));
  add_params(a, c, k);
  return k;
}

Kernel *kernel_pass2(Arena *a, const Composition *c, const char *name, BlockKind b) {
  Kernel *k = kernel_begin(a, c, name, b);
  Loc loc = k->fn->loc;
  k->partials = add(a, k, "partials",
                    mk_param(a, loc, "partials", ty_ptr(a, type_new(a, TY_ACC), true), Q_RESTRICT));
  k->count = add(a, k, "grid", mk_param(a, loc, "count", type_new(a, TY_SIZE), 0));
  k->out = add(a, k, "out",
               mk_param(a, loc, "out", ty_ptr(a, type_new(a, TY_RES), false), Q_RESTRICT));
  k->n = add(a, k, "n", mk_param(a, loc, "n", type_new(a, TY_SIZE), 0));
  add_params(a, c, k);
  return k;
}

Node *kernel_use(Arena *a, const Node *param) { return mk_var(a, param->loc, (Node *)param); }

/* `tgm_epilogue(value, n, params...)`: the result from the accumulated value. */
Node *kernel_result(Arena *a, const Kernel *k, Node *value) {
  Loc loc = value->loc;
  Node *call = mk_call(a, loc, "tgm_epilogue", 2, mk_var(a, loc, value), kernel_use(a, k->n));
  for (int i = 0; i < k->params.len; i++)
    vec_push(a, &call->kids, kernel_use(a, k->params.items[i]));
  return call;
}

/* if (threadIdx.x == 0) out[0] = tgm_epilogue(value, n, ...); */
Node *kernel_write_result(Arena *a, const Kernel *k, Node *value) {
  return kernel_write_result_at(a, k, value, mk_int(a, value->loc, 0));
}

/* the same into out[at] */
Node *kernel_write_result_at(Arena *a, const Kernel *k, Node *value, Node *at) {
  Loc loc = value->loc;
  return mk_if(a, loc, mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "tid"), mk_int(a, loc, 0)),
               mk_expr(a, mk_assign(a, loc, OP_NONE, mk_index(a, loc, kernel_use(a, k->out), at),
                                    kernel_result(a, k, value))),
               NULL);
}

/* value = sum_coop_shfl<BLOCK>(value); */
Node *kernel_block_call(Arena *a, const BlockImpl *im, Node *value) {
  assert(im->fn && im->cd); /* only a plan whose block level exists is built */
  Loc loc = im->cd->loc;
  return mk_expr(a, mk_assign(a, loc, OP_NONE, mk_var(a, loc, value),
                              mk_call(a, loc, arena_printf(a, "%s<BLOCK>", im->fn->name), 1,
                                      mk_var(a, loc, value))));
}

/* tgm_values_DT_SS<BLOCK>(x, [y, ...] n, items, block index, block count,
 * thread index, [params]): this thread's value, reduced by the thread-level
 * codelet over its part (file.tpl's partition functions, by grid and thread
 * shape). A row kernel passes its group size as `threads`, each input moved
 * to the row (`ins`, NULL: the inputs) and the thread's place in its group.
 * `first` (strided vectors only): tgm_values_DS_SV_first, which loads a
 * block's first chunk before anything else is computed. */
Node *kernel_values(Arena *a, Kernel *k, GridKind g, ThreadKind t, bool first, const char *threads,
                    Node *const *ins, Node *bidx, Node *gdim, Node *tidx) {
  Loc loc = k->fn->loc;
  assert(!first || (t == T_SV && !grid_tiled(g)));
  /* vectors on a strided grid: ITEMS loads in flight, a kernel a path
   * (file.tpl's tgm_values_DS_SV); a tiled grid's items are its tiles' */
  k->per_items = t == T_SV && !grid_tiled(g);
  kernel_spell(k);
  Node *call = mk_call(a, loc,
                       arena_printf(a, "tgm_values_%s_%s%s<%s%s>", grid_tiled(g) ? "DT" : "DS",
                                    thread_code(t), first ? "_first" : "", threads,
                                    k->per_items ? ", ITEMS" : ""),
                       0);
  call->ty = type_new(a, TY_ACC);
  for (int i = 0; i < k->inputs.len; i++)
    vec_push(a, &call->kids, ins ? ins[i] : kernel_use(a, k->inputs.items[i]));
  vec_push(a, &call->kids, kernel_use(a, k->n));
  vec_push(a, &call->kids, kernel_use(a, k->items));
  vec_push(a, &call->kids, bidx);
  vec_push(a, &call->kids, gdim);
  vec_push(a, &call->kids, tidx);
  for (int i = 0; i < k->params.len; i++)
    vec_push(a, &call->kids, kernel_use(a, k->params.items[i]));
  return call;
}

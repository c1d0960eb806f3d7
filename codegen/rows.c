/* rows.c -- the grid level of row reductions (--rows): out[r] is the
 * spectrum over row r of an m x n matrix whose rows are ld elements apart.
 * Every row is one instance of the 1-D problem, so the codelets serve as
 * they are: the thread level splits a row as the strided grid splits a
 * block's part (file.tpl's tgm_values_DS_*, one part), and the block level
 * reduces it.
 *
 *   RW  template <BLOCK, GROUP>: GROUP threads a row, BLOCK / GROUP rows a
 *       block; the block level's function for a group (xf_group.c)
 *         tgm_size row = (tgm_size)blockIdx.x * (BLOCK / GROUP) + threadIdx.x / GROUP;
 *         A value = tgm_identity();
 *         if (row < m)
 *           value = tgm_values_DS_SS<GROUP>(in + row * ld, n, items, 0, 1, threadIdx.x % GROUP);
 *         value = sum_coop_shfl_group<BLOCK, GROUP>(value);
 *         if (row < m && threadIdx.x % GROUP == 0)
 *           out[row] = tgm_epilogue(value, n);
 *   RB  template <BLOCK>: a block a row (blockIdx.x), the block function
 *   RL  template <BLOCK>: gridDim.x blocks a row (blockIdx.y), each over its
 *       strided share of the row; the last of them to finish combines the
 *       row's partials (xf_lastblock_at: partials + row * gridDim.x,
 *       counter + row, out[row])
 *   RA  RL's blocks, each combining its value into out[row] with a global
 *       atomic (xf_gatomic_at) after tgm_init_out has set out[0..m) to the
 *       identity: no partials, counters, ticket or last-block fold. As
 *       DTA: a spectrum with an epilogue, an Arg, or a result type other
 *       than its accumulator's has none; floating-point + and * round
 *       differently from run to run.
 * A group past the last row still takes part with the identity: the group
 * function's barriers are warp-wide. */
#include "tgm.h"

#include <string.h>

const char *rows_wanting(Arena *a, const Composition *c, const Plan *p, LeftOutStage *stage) {
  *stage = LO_PARTS;
  if (p->t == T_ST && !c->tiled)
    return "the spectrum has no tiled compound codelet for a row's threads";
  if (p->t != T_ST && !c->strided)
    return "the spectrum has no strided compound codelet for a row's threads";
  if (!c->thread_fn)
    return "the spectrum has no scalar codelet for the thread";
  if (p->t == T_SV && !c->thread_vec_fn)
    return c->thread_vec_why;
  *stage = LO_BLOCK;
  const BlockImpl *im = &c->block[p->b];
  if (!im->fn)
    return im->why;
  if (p->g == G_RW && !im->group_fn)
    return im->group_why;
  *stage = LO_GRID;
  return p->g == G_RA ? atomics_wanting(a, c->spec) : NULL;
}

/* RW.SS of a spectrum of one input reads packed rows (ld == n < TGM_VW) as
 * one run of vectors where GROUP is 1 (file.tpl's tgm_rows_packed), the
 * launcher's grid a thread a vector (tgm_rows_packed_grid_of): a thread a
 * row's scalar loads left rows of 2 at 0.87-0.92 of a plain read. RW.SS,
 * not RW.SV: RW.SV's kernel holds 16 vectors a thread for long rows (96
 * registers), which left the packed path a third of the threads an SM. */
bool rows_packed(const Composition *c, const Plan *p) {
  return p->g == G_RW && p->t == T_SS && c->spec->inputs.len == 1;
}

/* in + row * ld, for each input */
static Node *const *row_inputs(Arena *a, const Kernel *k, Node *row) {
  Node **ins = arena_alloc(a, sizeof *ins * (size_t)(k->inputs.len ? k->inputs.len : 1));
  for (int i = 0; i < k->inputs.len; i++) {
    Loc loc = row->loc;
    ins[i] = mk_binary(a, loc, OP_ADD, kernel_use(a, k->inputs.items[i]),
                       mk_binary(a, loc, OP_MUL, mk_var(a, loc, row), kernel_use(a, k->ld)));
  }
  return ins;
}

static bool find_atomic(Node *n, void *ctx) {
  if (n->kind == ND_ATOMIC ||
      (n->kind == ND_CALL && n->name && strncmp(n->name, "tgm_atomic_", 11) == 0))
    *(bool *)ctx = true;
  return true;
}

void rows_build(Arena *a, Composition *c, Plan *p) {
  const BlockImpl *im = &c->block[p->b];
  bool grouped = p->g == G_RW, parts = grid_row_parts(p->g), atomic = p->g == G_RA;
  Kernel *k = kernel_rows(a, c, p->cname, p->b, grouped, p->g == G_RL);
  p->kernel = k;
  /* RB and RW.SV in blocks of 128: at least 1024 threads an SM, said to
   * ptxas. When one kernel held all three paths of items, its 16 vectors a
   * thread set 80-96 registers (sum, max f32, sm_90, CUDA 13.0): five or six
   * blocks of 128 an SM. With at most 64 (items 16 spills; no rule picks it
   * for rows), in one process on the H200 against CUB, (b): RB items 4 at n
   * = 1536-2048 1.04-1.25x (8192 x 1536 f32 max 21.0 -> 16.8 us), items 1 at
   * n = 4096-8192 within 1.5 %; RW.SV 16384 x 1024 f32 max/min 1.20x, sum
   * 1.03x. Larger blocks are the rule's for few long rows, where a block's
   * loads in flight count and the registers buy them: bounded, RB of 512 on
   * fewer rows than SMs was 0.88-0.99x (bench/results/2026-11-29-rows-bounds);
   * theirs is a minimum of one block (emit.c; below). So far as
   * measured: one input of 4 bytes into a 4-byte accumulator; an Arg, a
   * wider accumulator or a second input holds more a vector (argmax f32's
   * RB.SV spills 176 bytes at 64) and is left to ptxas */
  if ((p->g == G_RB || (grouped && p->t == T_SV)) && !c->spec->pair && c->spec->inputs.len == 1 &&
      elem_info(c->elem)->bytes == 4 && elem_info(c->acc_elem)->bytes == 4)
    k->fn->qual |= Q_MIN_THREADS1024;
  /* Larger blocks, and RL and RA with vector loads (a kernel a path of
   * items, kernel.c): a minimum of one block an SM. Without one ptxas (CUDA
   * 13.0, sm_90) compiled the ITEMS 1 kernels of max and min f32 in 32
   * registers with 4-8 bytes of spills (RB in blocks of 512 at 2048 x 32768,
   * H200: 0.98 -> 0.89x CUB) and RA's ITEMS 4 in 28-31 (200 x 4096: 7-17 %
   * slower); with it in 84-91 and 40, none spilled, as the kernel of all
   * three paths was (bench/results/2026-11-30-per-items). */
  else if (p->t == T_SV && (p->g == G_RL || p->g == G_RA))
    k->fn->qual |= Q_MIN_BLOCKS1;
  p->launches = 1;
  p->packed_rows = rows_packed(c, p);
  /* one group makes each row; the order of its shared atomics, if any is
   * left after xf_group's folding, varies (RA: and of its global atomics) */
  bool atomics = false;
  node_walk(grouped ? im->group_fn : im->fn, find_atomic, &atomics);
  p->deterministic = !((atomics || atomic) &&
                       combiner_order_matters(combiner_of(c->op), c->acc_elem));
  Node *body = k->fn->body;
  Loc loc = im->cd->loc;
  Type *size = type_new(a, TY_SIZE);

  /* the row: blockIdx.x, or blockIdx.x * (BLOCK / GROUP) + the group */
  Node *bid = node_new(a, ND_CAST, loc);
  bid->ty = size;
  bid->lhs = mk_gpu(a, loc, parts ? "bid_y" : "bid");
  Node *row_at = grouped ? mk_binary(a, loc, OP_ADD,
                                     mk_binary(a, loc, OP_MUL, bid,
                                               mk_binary(a, loc, OP_DIV, mk_gpu(a, loc, "block"),
                                                         mk_gpu(a, loc, "group"))),
                                     mk_gpu(a, loc, "group_id"))
                         : bid;
  if (p->packed_rows) { /* a thread a row over packed rows: file.tpl's tgm_rows_packed */
    Node *call = mk_call(a, loc, "tgm_rows_packed<BLOCK>", 5, kernel_use(a, k->inputs.items[0]),
                         kernel_use(a, k->m), kernel_use(a, k->n), kernel_use(a, k->ld),
                         kernel_use(a, k->out));
    for (int i = 0; i < k->params.len; i++)
      vec_push(a, &call->kids, kernel_use(a, k->params.items[i]));
    block_add(a, body,
              mk_comment(a, loc,
                         "rows packed into vectors (ld == n < TGM_VW), a thread a row: the "
                         "matrix as one run of vectors"));
    block_add(a, body,
              mk_if(a, loc,
                    mk_binary(a, loc, OP_LAND,
                              mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, "group"), mk_int(a, loc, 1)),
                              call),
                    mk_return(a, loc, NULL), NULL));
  }
  block_add(a, body,
            mk_comment(a, loc,
                       grouped ? "rows: GROUP threads a row, BLOCK / GROUP rows a block"
                       : parts ? "rows: gridDim.x blocks a row, blockIdx.y the row"
                               : "rows: a block a row"));
  Node *row = mk_decl(a, loc, "row", size, row_at);
  block_add(a, body, row);

  const char *part = p->t == T_ST ? "tiles" : p->t == T_SV ? "16-byte vector strides" : "strides";
  block_add(a, body,
            mk_comment(a, loc,
                       arena_printf(a, "thread: codelet '%s' on its part of the row (%s)",
                                    c->scalar->id, part)));
  /* the loop alone, without file.tpl's first chunk up front: with it RA and
   * RL took 95-116 registers (77-103) and ran 3-14 % slower on the H200
   * (bench/results/2026-11-29-peel) */
  Node *values = kernel_values(a, k, G_DS, p->t, false, grouped ? "GROUP" : "BLOCK",
                               row_inputs(a, k, row),
                               parts ? mk_gpu(a, loc, "bid") : mk_int(a, loc, 0),
                               parts ? mk_gpu(a, loc, "gdim") : mk_int(a, loc, 1),
                               mk_gpu(a, loc, grouped ? "group_tid" : "tid"));
  Node *value;
  if (grouped) {
    value = mk_decl(a, loc, "value", type_new(a, TY_ACC), mk_call(a, loc, "tgm_identity", 0));
    block_add(a, body, value);
    block_add(a, body,
              mk_if(a, loc, mk_binary(a, loc, OP_LT, mk_var(a, loc, row), kernel_use(a, k->m)),
                    mk_expr(a, mk_assign(a, loc, OP_NONE, mk_var(a, loc, value), values)), NULL));
  } else {
    value = mk_decl(a, loc, "value", type_new(a, TY_ACC), values);
    block_add(a, body, value);
  }

  block_add(a, body,
            mk_comment(a, loc,
                       arena_printf(a, "%s: codelet '%s' (%s)", grouped ? "group" : "block",
                                    im->cd->id, block_code(p->b))));
  const char *fname = grouped ? arena_printf(a, "%s<BLOCK, GROUP>", im->group_fn->name)
                              : arena_printf(a, "%s<BLOCK>", im->fn->name);
  block_add(a, body,
            mk_expr(a, mk_assign(a, loc, OP_NONE, mk_var(a, loc, value),
                                 mk_call(a, loc, fname, 1, mk_var(a, loc, value)))));

  if (atomic) { /* each block into out[row] (tgm_init_out set it first) */
    xf_gatomic_at(a, c, p, value, mk_var(a, loc, row));
    vec_push(a, &c->plans, p);
    return;
  }
  if (parts) { /* the row's last block combines its partials into out[row] */
    Node *off = mk_binary(a, loc, OP_MUL, mk_var(a, loc, row), mk_gpu(a, loc, "gdim"));
    xf_lastblock_at(a, c, p, value, mk_binary(a, loc, OP_ADD, kernel_use(a, k->partials), off),
                    mk_binary(a, loc, OP_ADD, kernel_use(a, k->counter), mk_var(a, loc, row)),
                    mk_var(a, loc, row));
    vec_push(a, &c->plans, p);
    return;
  }
  /* out[row] = tgm_epilogue(value, n, ...) by the group's first thread */
  Node *first = mk_binary(a, loc, OP_EQ, mk_gpu(a, loc, grouped ? "group_tid" : "tid"),
                          mk_int(a, loc, 0));
  Node *who = grouped
                  ? mk_binary(a, loc, OP_LAND,
                              mk_binary(a, loc, OP_LT, mk_var(a, loc, row), kernel_use(a, k->m)),
                              first)
                  : first;
  block_add(a, body,
            mk_if(a, loc, who,
                  mk_expr(a, mk_assign(a, loc, OP_NONE,
                                       mk_index(a, loc, kernel_use(a, k->out), mk_var(a, loc, row)),
                                       kernel_result(a, k, value))),
                  NULL));
  vec_push(a, &c->plans, p);
}

/* embed_rows.c -- tgm-gen --rows/--cols --embed: one self-contained header
 * with a CUB-like call over the rows (tgm_NAME_rows_TYPE) or the columns
 * (tgm_NAME_cols_TYPE) of a matrix.
 *
 * The call picks the kernel and its knobs at run time from m, n and the GPU
 * (tgm_rows_pick_of and tgm_cols_pick_of in templates/launch_rule.tpl, the
 * rule's one home); with --embed=DB, tgm-tune's choice first, where the
 * database has the GPU and the shape's cell (tgm_shape_cell) and the choice
 * fits the call's temp storage. What is chosen here is the variant for each
 * kind the pick can name:
 *   RW, scalar loads (rows under 128 elements), RW and RB and RL with vector
 *   loads where the spectrum has them, and RA where the spectrum has it (the
 *   rule's blocks a row for m < SMs; TGM_DETERMINISTIC as for CA.SV); for
 *   columns CT.SV (CT.SS for a
 *   spectrum of several inputs), and CA.SV where the spectrum has it (the
 *   rule's settings in parts; a header compiled with TGM_DETERMINISTIC
 *   leaves it where its atomics round floats differently from run to run).
 * The block level preferred is VS (shuffle trees), then V, then any. The
 * tuned cells add the variants they name ("slots"). The header is the
 * generated source restricted to those variants (templates/file.tpl,
 * launch_rows.tpl) followed by templates/embed_rows.tpl. */
#include "tgm.h"

#include <string.h>

/* The plan of grid kind g that a role wants: thread kind t (the other
 * thread kinds after it), block kind VS before V before the rest; where a
 * block is a row or a part of one (RB, RL, RA), VW first: thread 0 folding
 * the warps' sums, as CUB's block reduce does, where VS reduces them by a
 * second shuffle tree (bench/results/2026-11-30-rows-vw). */
static const Plan *pick_plan(const Composition *c, GridKind g, ThreadKind t) {
  static const BlockKind by_pref[] = {B_VS, B_V, B_VR, B_VA1, B_VA2, B_VA2S, B_VW, B_VRW};
  static const BlockKind by_pref_block[] = {B_VW, B_VS, B_V, B_VR, B_VA1, B_VA2, B_VA2S, B_VRW};
  _Static_assert(COUNT_OF(by_pref) == COUNT_OF(by_pref_block), "every block kind in each order");
  const BlockKind *pref = g == G_RB || g == G_RL || g == G_RA ? by_pref_block : by_pref;
  const ThreadKind threads[] = {t, T_SV, T_SS, T_ST};
  /* CA.SV or none: its rule settings are CT.SV's groups; RA has SV only */
  for (size_t ti = 0; ti < (g == G_CA || g == G_RA ? 1 : COUNT_OF(threads)); ti++)
    for (size_t bi = 0; bi < COUNT_OF(by_pref); bi++)
      for (int i = 0; i < c->plans.len; i++) {
        const Plan *p = c->plans.items[i];
        if (p->g == g && p->t == threads[ti] && p->b == pref[bi])
          return p;
      }
  return NULL;
}

static void add_plan(Arena *a, PtrVec *plans, const Plan *p) {
  for (int i = 0; i < plans->len; i++)
    if (plans->items[i] == p)
      return;
  vec_push(a, plans, (void *)p);
}

/* What the entry point says and takes, for rows and for columns. */
static const struct ShapeText {
  const char *flag, *shape, *plural, *out_count, *pick_fn, *pick_t, *empty_note, *temp_note,
      *temp_decl, *temp_arg, *temp_fn, *temp_contract;
} shape_texts[2] = {
    {"rows", "row", "rows", "m", "tgm_rows_pick_of", "tgm_rows_pick",
     "m = 0 writes nothing; n = 0 gives every row the spectrum of no elements",
     "the same for every shape and GPU", "", "", "tgm_rows_embed_temp(",
     "The temp size is the same for every m, n and ld on every GPU (about\n"
     "//   150 KiB for 4-byte accumulators), so one allocation serves every shape."},
    {"cols", "column", "columns", "n", "tgm_cols_pick_of", "tgm_cols_pick",
     "n = 0 writes nothing; m = 0 gives every column the spectrum of no elements",
     "it depends on n alone, and serves every m and every smaller n", "size_t n", "n",
     "tgm_cols_embed_temp(n, ",
     "The temp size depends on n alone (at most 16 KiB + 2^20 accumulators),\n"
     "//   and the size for n serves every m and every smaller n: allocate once\n"
     "//   for the widest matrix."},
};

/* The kinds the rule's pick names (tgm_rows_pick's kind and vec,
 * tgm_cols_pick), each a role the header fills with one variant. */
static const struct PickRole {
  const char *role, *grid;
  GridKind g;
  ThreadKind t;
} row_roles[] = {{"rw_narrow", "RW", G_RW, T_SS},
                 {"rw_wide", "RW", G_RW, T_SV},
                 {"rb", "RB", G_RB, T_SV},
                 {"rl", "RL", G_RL, T_SV},
                 {"ra", "RA", G_RA, T_SV}},
  col_roles[] = {{"ct", "CT", G_CT, T_SV}, {"ca", "CA", G_CA, T_SV}};

/* Role i of c's shape, or NULL past the last. */
static const struct PickRole *role_at(const Composition *c, int i) {
  int n = c->rows ? (int)COUNT_OF(row_roles) : (int)COUNT_OF(col_roles);
  return i < 0 || i >= n ? NULL : &(c->rows ? row_roles : col_roles)[i];
}

const char *pick_role_variant(const Composition *c, int i) {
  const struct PickRole *r = role_at(c, i);
  const Plan *p = r ? pick_plan(c, r->g, r->t) : NULL;
  return p ? p->id : NULL;
}

const char *pick_role_name(const Composition *c, int i) {
  const struct PickRole *r = role_at(c, i);
  return r ? r->role : NULL;
}

/* What the header says of its atomic plan, rows' RA or columns' CA.SV: its
 * role, its switch, what it combines, where the rule runs it and what the
 * plan without atomics does instead. */
struct AtomicRole {
  const char *role, *atomics, *what, *where, *fold;
};
static const struct AtomicRole row_atomic = {"ra", "tgm_rows_atomics",
                                             "each block combining into out[row] with an atomic",
                                             "blocks a row",
                                             "%s's last block folds the row's partials"},
                               col_atomic = {"ca", "tgm_cols_atomics",
                                             "the parts combining into out with atomics", "parts",
                                             "%s's last part folds the parts"};

/* The role of an atomic plan p (NULL: the spectrum has none): ROLE,
 * ROLE_c, ROLE_atomics (the header's switch, or 0) and the one block of
 * the template that declares the switch (atomic, atomic_exact /
 * atomic_float: whether TGM_DETERMINISTIC may leave it, ...), p added;
 * plain: the plan the rule runs without atomics. */
static void set_atomic_role(TplDict *d, Arena *a, PtrVec *plans, const struct AtomicRole *r,
                            const Plan *p, const char *plain) {
  tpl_set(d, r->role, p ? p->id : "");
  tpl_set(d, arena_printf(a, "%s_c", r->role), p ? p->cname : "");
  tpl_set(d, arena_printf(a, "%s_atomics", r->role), p ? r->atomics : "0");
  tpl_set(d, "atomic", p ? p->id : "");
  tpl_set(d, "atomic_exact", p && p->deterministic ? "1" : "");
  tpl_set(d, "atomic_float", p && !p->deterministic ? "1" : "");
  tpl_set(d, "atomic_switch", r->atomics);
  tpl_set(d, "atomic_what", r->what);
  tpl_set(d, "atomic_where", r->where);
  tpl_set(d, "atomic_fold", arena_printf(a, r->fold, plain));
  if (p)
    add_plan(a, plans, p);
}

/* The tuned cells as the template's tables (one per GPU, in the database's
 * order) and slots (each variant a cell names, once), their plans added. */
static void fill_cells(TplDict *d, Arena *a, const PtrVec *cells, const char *how, PtrVec *plans) {
  PtrVec slots = {0}, tables = {0};
  for (int i = 0; i < cells->len; i++) {
    const EmbedCell *ch = cells->items[i];
    bool seen = false;
    for (int j = 0; j < slots.len && !seen; j++)
      seen = slots.items[j] == ch->plan;
    if (!seen)
      vec_push(a, &slots, (void *)ch->plan);
    seen = false;
    for (int j = 0; j < tables.len && !seen; j++)
      seen = tables.items[j] == ch->table;
    if (!seen)
      vec_push(a, &tables, (void *)ch->table);
    add_plan(a, plans, ch->plan);
  }
  tpl_set(d, "tuned", "1");
  tpl_set(d, "tuned_how", text_comment_safe(a, how));
  tpl_list(d, "slots");
  for (int s = 0; s < slots.len; s++) {
    const Plan *p = slots.items[s];
    TplDict *it = tpl_item(d, "slots");
    tpl_setf(it, "slot", "%d", s);
    tpl_set(it, "slot_id", p->id);
    tpl_set(it, "slot_c", p->cname);
    tpl_set(it, "slot_knobs", grid_cols(p->g) ? "k.parts, k.width" : "k.items, k.per_row");
    /* the counters start at zero (CUB's temp storage holds anything): RL's
       a row, CT's a tile when in parts (CA, RA: none) */
    tpl_set(it, "slot_clear",
            p->g == G_RL   ? "(size_t)m * 4"
            : p->g == G_CT ? "k.parts > 1 ? (size_t)TGM_ROWS_PARTS_MAX * 4 : 0"
                           : "");
    tpl_set(it, "slot_fits",
            p->g == G_RL   ? "tgm_rows_parts_fit(m, k.per_row)"
            : p->g == G_CT ? arena_printf(a, "tgm_cols_parts_fit(n, k.width, %s, k.parts)",
                                          p->t == T_SV ? "TGM_VW" : "1")
            : p->g == G_RA ? "m <= 65535" /* its grid's rows */
                           : "true");     /* CA: no temp storage */
  }
  tpl_list(d, "tables");
  for (int t = 0; t < tables.len; t++) {
    const EmbedTable *tb = tables.items[t];
    TplDict *it = tpl_item(d, "tables");
    tpl_setf(it, "tindex", "%d", t);
    tpl_set(it, "note", tb->note); /* comment-safe already */
    tpl_list(it, "rows");
    int count = 0;
    for (int i = 0; i < cells->len; i++) {
      const EmbedCell *ch = cells->items[i];
      if (ch->table != tb)
        continue;
      int slot = 0;
      while (slots.items[slot] != ch->plan)
        slot++;
      count++;
      tpl_setf(tpl_item(it, "rows"), "row", "{%d, %d, %d, %u, %u, %u, %u, %u}, // %s", ch->log2m,
               ch->log2n, slot, ch->block, ch->items, ch->per_row, ch->width, ch->parts,
               ch->plan->id);
    }
    tpl_setf(it, "table_row", "{%s, %d, %d, %d, %d, tgm_cells_%d},", embed_c_string(a, tb->device),
             tb->cc_major, tb->cc_minor, tb->sms, count, t);
  }
  tpl_setf(d, "ntables", "%d", tables.len);
}

int gen_embed_rows(Buf *out, Arena *a, const Composition *c, const char *source,
                   const PtrVec *cells, const char *how, char *err, size_t errlen) {
  PtrVec plans = {0};
  TplDict *d = tpl_dict(a, NULL);
  embed_fill_signature(d, a, c);
  if (c->rows) {
    const struct PickRole *roles = row_roles;
    const char *rl = ""; /* RL's id: the table lists it before RA */
    for (size_t i = 0; i < COUNT_OF(row_roles); i++) {
      const Plan *p = pick_plan(c, roles[i].g, roles[i].t);
      if (roles[i].g == G_RA) { /* where the spectrum has it (no epilogue, no Arg) */
        set_atomic_role(d, a, &plans, &row_atomic, p, rl);
        continue;
      }
      if (!p) {
        snprintf(err, errlen,
                 "%s %s has no %s variant left for %s: the embedded row call needs RW, RB and RL",
                 c->name, elem_info(c->elem)->name, roles[i].grid, c->target->name);
        return -1;
      }
      tpl_set(d, roles[i].role, p->id);
      tpl_set(d, arena_printf(a, "%s_c", roles[i].role), p->cname);
      if (roles[i].g == G_RL)
        rl = p->id;
      add_plan(a, &plans, p);
    }
  } else {
    const Plan *p = pick_plan(c, col_roles[0].g, col_roles[0].t);
    if (!p) {
      snprintf(err, errlen, "%s %s has no column variant left for %s", c->name,
               elem_info(c->elem)->name, c->target->name);
      return -1;
    }
    tpl_set(d, "ct", p->id);
    tpl_set(d, "ct_how",
            p->t == T_SV ? "k.groups groups of TGM_VW columns a block"
                         : "k.groups * TGM_VW columns a block, at most the block, scalar loads");
    tpl_set(d, "ct_c", p->cname);
    add_plan(a, &plans, p);
    const Plan *ca = pick_plan(c, col_roles[1].g, col_roles[1].t);
    tpl_set(d, "no_ca", ca ? "" : "1");
    /* the launchers' width: CA.SV's and CT.SV's k.groups, CT.SS's in columns */
    const char *ct_width = p->t == T_SV
                               ? "k.groups"
                               : "k.groups * TGM_VW < k.block ? k.groups * TGM_VW : k.block";
    tpl_set(d, "cols_width",
            ca && p->t != T_SV ? arena_printf(a, "atomic ? k.groups : %s", ct_width) : ct_width);
    set_atomic_role(d, a, &plans, &col_atomic, ca, p->id);
  }
  const struct ShapeText *st = &shape_texts[c->rows ? 0 : 1];
  tpl_set(d, st->flag, "1");
  tpl_set(d, "early_launch", c->target->early_launch ? "1" : "");
  tpl_set(d, "no_early_launch", c->target->early_launch ? "" : "1");
  tpl_set(d, "shape", st->shape);
  tpl_set(d, "shape_plural", st->plural);
  tpl_set(d, "out_count", st->out_count);
  tpl_set(d, "pick_fn", st->pick_fn);
  tpl_set(d, "pick_t", st->pick_t);
  tpl_set(d, "empty_note", st->empty_note);
  tpl_set(d, "temp_note", st->temp_note);
  tpl_set(d, "temp_decl", st->temp_decl);
  tpl_set(d, "temp_arg", st->temp_arg);
  tpl_set(d, "temp_fn", st->temp_fn);
  tpl_set(d, "temp_contract", st->temp_contract);
  if (cells && cells->len)
    fill_cells(d, a, cells, how, &plans);
  size_t start = out->len;
  if (gen_source(out, a, c, source, &plans, true, err, errlen) != 0 ||
      tpl_expand(out, "embed_rows.tpl", tpl_text("embed_rows.tpl"), d, err, errlen) != 0)
    return -1;
  embed_guard(out, start, a, c);
  return 0;
}

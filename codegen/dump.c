/* dump.c -- deterministic text dumps: one node per line, indented by depth,
 * each with its line:col. No addresses, nothing hash-ordered. */
#include "tgm.h"

#include <string.h>

static void dump_node(Buf *out, Arena *a, const Node *n, int depth, const char *role);

static void field(Buf *out, Arena *a, const Node *n, int depth, const char *role) {
  if (n)
    dump_node(out, a, n, depth, role);
}

static void quals(Buf *out, const Node *n) {
  if (n->qual & Q_SHARED)
    buf_puts(out, " __shared");
  if (n->qual & Q_TUNABLE)
    buf_puts(out, " __tunable");
  if (n->atomic_op != OP_NONE)
    buf_printf(out, " atomic(%s)", op_name(n->atomic_op));
}

static void dump_node(Buf *out, Arena *a, const Node *n, int depth, const char *role) {
  buf_printf(out, "%*s", depth * 2, "");
  if (role)
    buf_printf(out, "%s: ", role);
  buf_puts(out, node_kind_name(n->kind));
  switch (n->kind) {
  case ND_CODELET:
    buf_printf(out, " %s", n->name);
    if (n->cd->tag)
      buf_printf(out, " tag=%s", n->cd->tag);
    if (n->cd->coop)
      buf_puts(out, " __coop");
    buf_printf(out, " -> %s", type_str(a, n->ty));
    break;
  case ND_PARAM: buf_printf(out, " %s : %s", n->name, type_str(a, n->ty)); break;
  case ND_DECL:
    buf_printf(out, " %s : %s", n->name, type_str(a, n->ty));
    quals(out, n);
    break;
  case ND_INT:
  case ND_FLOAT:
  case ND_BOOL: buf_printf(out, " %s", n->spelling); break;
  case ND_VAR:
    buf_printf(out, " %s", n->name);
    if (!n->decl)
      buf_puts(out, " (function)");
    break;
  case ND_BINARY:
  case ND_UNARY: buf_printf(out, " %s", op_name(n->op)); break;
  case ND_ASSIGN: buf_printf(out, " %s=", op_name(n->op)); break;
  case ND_CALL:
  case ND_METHOD: buf_printf(out, " %s", n->name); break;
  default: break;
  }
  if (n->ty && n->kind != ND_CODELET && n->kind != ND_PARAM && n->kind != ND_DECL)
    buf_printf(out, " : %s", type_str(a, n->ty));
  buf_printf(out, " @%d:%d\n", n->loc.line, n->loc.col);

  switch (n->kind) {
  case ND_FOR:
    field(out, a, n->init, depth + 1, "init");
    field(out, a, n->cond, depth + 1, "cond");
    field(out, a, n->inc, depth + 1, "inc");
    field(out, a, n->body, depth + 1, "body");
    return;
  case ND_IF:
  case ND_COND:
    field(out, a, n->cond, depth + 1, "cond");
    field(out, a, n->then, depth + 1, "then");
    field(out, a, n->els, depth + 1, "else");
    return;
  case ND_DECL:
    field(out, a, n->dim, depth + 1, "size");
    field(out, a, n->init, depth + 1, "init");
    for (int i = 0; i < n->kids.len; i++)
      field(out, a, n->kids.items[i], depth + 1, "arg");
    return;
  case ND_CALL:
  case ND_METHOD:
    field(out, a, n->lhs, depth + 1, "object");
    for (int i = 0; i < n->kids.len; i++)
      field(out, a, n->kids.items[i], depth + 1, "arg");
    return;
  default: break;
  }
  field(out, a, n->cond, depth + 1, NULL);
  field(out, a, n->lhs, depth + 1, NULL);
  field(out, a, n->rhs, depth + 1, NULL);
  for (int i = 0; i < n->kids.len; i++)
    field(out, a, n->kids.items[i], depth + 1, NULL);
  field(out, a, n->body, depth + 1, NULL);
}

void dump_ast(Buf *out, Arena *a, const Program *prog) {
  buf_printf(out, "file %s type=%s codelets=%d\n", prog->file->path, elem_info(prog->elem)->name,
             prog->codelets.len);
  for (int i = 0; i < prog->codelets.len; i++) {
    const Codelet *cd = prog->codelets.items[i];
    dump_node(out, a, cd->fn, 1, NULL);
  }
}

static void tunables(Buf *out, const Codelet *cd) {
  buf_puts(out, " tunables=[");
  for (int i = 0; i < cd->tunables.len; i++) {
    const Node *t = cd->tunables.items[i];
    buf_printf(out, "%s%s@%d:%d", i ? "," : "", t->name, t->loc.line, t->loc.col);
  }
  buf_puts(out, "]");
}

void dump_sema(Buf *out, Arena *a, const Program *prog) {
  (void)a;
  buf_printf(out, "file %s type=%s codelets=%d\n", prog->file->path, elem_info(prog->elem)->name,
             prog->codelets.len);
  for (int i = 0; i < prog->codelets.len; i++) {
    const Codelet *cd = prog->codelets.items[i];
    buf_printf(out, "  codelet %s tag=%s kind=%s", cd->name, cd->id, codelet_kind_name(cd->kind));
    if (cd->part != PART_NONE)
      buf_printf(out, " partition=%s", part_kind_name(cd->part));
    buf_printf(out, " op=%s%s", op_name(cd->op), cd->op_inherited ? " (from the spectrum)" : "");
    tunables(out, cd);
    if (cd->atomic)
      buf_printf(out, " atomic=%s@%d:%d", cd->atomic->name, cd->atomic->loc.line,
                 cd->atomic->loc.col);
    if (cd->vector)
      buf_printf(out, " vector=%s", cd->vector->name);
    buf_printf(out, " @%d:%d\n", cd->loc.line, cd->loc.col);
  }
}

void dump_summary(Buf *out, const Program *prog) {
  buf_printf(out, "%s: %d codelet%s (type %s)\n", prog->file->path, prog->codelets.len,
             prog->codelets.len == 1 ? "" : "s", elem_info(prog->elem)->name);
  for (int i = 0; i < prog->codelets.len; i++) {
    const Codelet *cd = prog->codelets.items[i];
    buf_printf(out, "  %-10s %-12s %-9s op %s\n", cd->name, cd->id, codelet_kind_name(cd->kind),
               op_name(cd->op));
  }
}

static const char *const stage_names[] = {"parts", "block", "grid"};

static void dump_fn_or(Buf *out, Arena *a, const Dialect *dl, const char *what, const Node *fn,
                       const char *why) {
  if (fn)
    emit_func(out, a, dl, fn);
  else
    buf_printf(out, "// %s: %s\n", what, why ? why : "none");
}

static void dump_blocks(Buf *out, Arena *a, const Composition *c) {
  for (int b = 0; b < B_COUNT; b++) {
    dump_fn_or(out, a, c->target, block_code((BlockKind)b), c->block[b].fn, c->block[b].why);
    if (c->rows && c->block[b].fn) /* --rows: its form for a row's group */
      dump_fn_or(out, a, c->target, arena_printf(a, "%s for a group", block_code((BlockKind)b)),
                 c->block[b].group_fn, c->block[b].group_why);
  }
}

/* --dump=plan|lower|block|grid: a spectrum after that pass, before any
 * dialect takes its share (device code printed as the first dialect). */
void dump_pass(Buf *out, Arena *a, const char *pass, const Composition *c) {
  buf_printf(out, "// ===== %s %s after the %s pass (printed as %s)\n", c->name,
             elem_info(c->elem)->name, pass, c->target->name);
  if (strcmp(pass, "plan") == 0) {
    buf_printf(out, "thread  %s (scalar)\n", c->scalar->id);
    buf_printf(out, "grid    tiled %s, strided %s\n", c->tiled ? c->tiled->id : "(none)",
               c->strided ? c->strided->id : "(none)");
    for (int b = 0; b < B_COUNT; b++) {
      const BlockImpl *im = &c->block[b];
      buf_printf(out, "block   %-4s ", block_code((BlockKind)b));
      if (im->why)
        buf_printf(out, "(none: %s)\n", im->why);
      else
        buf_printf(out, "codelet '%s' as %s\n", im->cd->id, im->fname);
    }
    for (int i = 0; i < c->candidates.len; i++) {
      const Plan *p = c->candidates.items[i];
      buf_printf(out, "%-13s %s shape=%s deterministic=%s min_arch=%s%s\n", p->id, p->cname,
                 p->grid_rule, p->deterministic ? "yes" : "no", p->min_arch,
                 p->needs_redux ? " needs=redux" : "");
    }
    return;
  }
  if (strcmp(pass, "lower") == 0) {
    dump_fn_or(out, a, c->target, "thread", c->thread_fn,
               "the scalar codelet cannot run on one thread");
    dump_fn_or(out, a, c->target, "thread, vectors", c->thread_vec_fn, c->thread_vec_why);
    dump_fn_or(out, a, c->target, "reference", c->reference_fn, NULL);
    emit_func(out, a, c->target, c->epilogue_fn);
    dump_blocks(out, a, c);
    return;
  }
  if (strcmp(pass, "block") == 0) {
    dump_blocks(out, a, c);
    return;
  }
  /* grid: every kernel, then what was left out, in the candidates' order */
  for (int i = 0; i < c->plans.len; i++) {
    const Plan *p = c->plans.items[i];
    buf_printf(out, "// %s\n", p->id);
    emit_func(out, a, c->target, p->kernel->fn);
    if (p->pass2)
      emit_func(out, a, c->target, p->pass2->fn);
  }
  for (int i = 0; i < c->left_out.len; i++) {
    const LeftOut *lo = c->left_out.items[i];
    buf_printf(out, "// left out at the %s level: %s: %s\n", stage_names[lo->stage], lo->id,
               lo->why);
  }
  buf_printf(out, "// %d kernels built, %d left out\n", c->plans.len, c->left_out.len);
}

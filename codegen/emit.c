/* emit.c -- the printer: lowered, transformed ASTs as CUDA or HIP source.
 *
 * Read-only over the AST. CUDA and HIP differ only through the Dialect
 * table (target.c); everything else (precedence, layout, names) is shared.
 * Expressions get the parentheses C needs plus a few for the reader
 * (bitwise operators, && inside ||, a ternary's condition). */
#include "tgm.h"

#include <string.h>

typedef struct {
  Buf *out;
  Arena *a;
  const Dialect *d;
  bool text; /* emit_expr: the meaning's text (max and min without their type) */
} Printer;

// clang-format off
enum { P_COMMA = 1, P_ASSIGN, P_COND, P_LOR, P_LAND, P_BOR, P_BXOR, P_BAND, P_EQ, P_REL,
       P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POSTFIX, P_PRIMARY };
// clang-format on

// clang-format off
static int binary_prec(Op op) {
  switch (op) {
  case OP_MUL: case OP_DIV: case OP_REM: return P_MUL;
  case OP_ADD: case OP_SUB: return P_ADD;
  case OP_SHL: case OP_SHR: return P_SHIFT;
  case OP_LT: case OP_GT: case OP_LE: case OP_GE: return P_REL;
  case OP_EQ: case OP_NE: return P_EQ;
  case OP_AND: return P_BAND;
  case OP_XOR: return P_BXOR;
  case OP_OR: return P_BOR;
  case OP_LAND: return P_LAND;
  case OP_LOR: return P_LOR;
  case OP_COMMA: return P_COMMA;
  default: return P_PRIMARY;
  }
}
// clang-format on

static int prec(const Node *n) {
  switch (n->kind) {
  case ND_BINARY: return binary_prec(n->op);
  case ND_ASSIGN: return P_ASSIGN;
  case ND_COND: return P_COND;
  case ND_UNARY: return n->op == OP_POSTINC || n->op == OP_POSTDEC ? P_POSTFIX : P_UNARY;
  case ND_CAST:
  case ND_ADDR: return P_UNARY;
  case ND_GPU:
    return strcmp(n->name, "lane") == 0 || strcmp(n->name, "warp") == 0 ||
                   strncmp(n->name, "group_", 6) == 0
               ? P_MUL
               : P_PRIMARY;
  default: return P_PRIMARY;
  }
}

const char *emit_type(Arena *a, const Type *t) {
  switch (t->kind) {
  case TY_PTR: return arena_printf(a, "%s *", emit_type(a, t->base));
  case TY_ARG: return t->is_const ? "const tgm_arg" : "tgm_arg";
  default: return type_str(a, t);
  }
}

static void expr(Printer *p, const Node *n, int need);

static void operand(Printer *p, const Node *n, int need, bool clarify) {
  bool paren = prec(n) < need || (clarify && (n->kind == ND_BINARY || n->kind == ND_COND));
  if (paren)
    buf_puts(p->out, "(");
  expr(p, n, paren ? P_COMMA : need);
  if (paren)
    buf_puts(p->out, ")");
}

static const char *call_name(const char *name) {
  if (strcmp(name, "max") == 0)
    return "tgm_max";
  if (strcmp(name, "min") == 0)
    return "tgm_min";
  if (strcmp(name, "Lowest") == 0)
    return "tgm_lowest";
  if (strcmp(name, "Highest") == 0)
    return "tgm_highest";
  if (strcmp(name, "Arg") == 0)
    return "tgm_arg";
  return name;
}

static const char *gpu_name(const Dialect *d, const char *name) {
  for (const char *const *kv = d->builtins; kv[0]; kv += 2)
    if (strcmp(name, kv[0]) == 0)
      return kv[1];
  return name;
}

const char *atomic_name(Op op) {
  const Combiner *cb = combiner_of(op);
  return cb ? combiner_atomic(cb) : "tgm_atomic_unknown";
}

const char *redux_name(Op op) {
  const Combiner *cb = combiner_of(op);
  return cb ? cb->suffix : "unknown";
}

static char *expr_str(Printer *p, const Node *n) {
  Buf b = {0};
  Printer q = {&b, p->a, p->d, p->text};
  expr(&q, n, P_ASSIGN);
  char *s = arena_strdup(p->a, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

static void args(Printer *p, const Node *n) {
  buf_puts(p->out, "(");
  for (int i = 0; i < n->kids.len; i++) {
    if (i)
      buf_puts(p->out, ", ");
    expr(p, n->kids.items[i], P_ASSIGN);
  }
  buf_puts(p->out, ")");
}

static void expr(Printer *p, const Node *n, int need) {
  (void)need;
  Buf *o = p->out;
  switch (n->kind) {
  case ND_INT:
  case ND_FLOAT:
  case ND_BOOL: buf_puts(o, n->spelling); return;
  case ND_VAR: buf_puts(o, n->name); return;
  case ND_GPU: buf_puts(o, gpu_name(p->d, n->name)); return;
  case ND_BINARY: {
    int pr = binary_prec(n->op);
    bool bitwise = pr == P_BAND || pr == P_BXOR || pr == P_BOR || pr == P_SHIFT;
    operand(p, n->lhs, pr, bitwise || (n->op == OP_LOR && n->lhs->op == OP_LAND));
    buf_printf(o, n->op == OP_COMMA ? "%s " : " %s ", op_name(n->op));
    operand(p, n->rhs, pr + 1, bitwise || (n->op == OP_LOR && n->rhs->op == OP_LAND));
    return;
  }
  case ND_ASSIGN:
    operand(p, n->lhs, P_UNARY, false);
    buf_printf(o, " %s= ", op_name(n->op)); /* OP_NONE spells "" */
    operand(p, n->rhs, P_ASSIGN, false);
    return;
  case ND_COND:
    operand(p, n->cond, P_LOR, n->cond->kind == ND_BINARY);
    buf_puts(o, " ? ");
    operand(p, n->then, P_ASSIGN, false);
    buf_puts(o, " : ");
    operand(p, n->els, P_COND, false);
    return;
  case ND_UNARY: {
    const char *s = op_name(n->op);
    if (n->op == OP_POSTINC || n->op == OP_POSTDEC) {
      operand(p, n->lhs, P_POSTFIX, false);
      buf_puts(o, n->op == OP_POSTINC ? "++" : "--");
    } else {
      buf_puts(o, n->op == OP_PREINC   ? "++"
                  : n->op == OP_PREDEC ? "--"
                  : n->op == OP_NEG    ? "-"
                  : n->op == OP_PLUS   ? "+"
                                       : s);
      operand(p, n->lhs, P_UNARY, false);
    }
    return;
  }
  case ND_CAST:
    buf_printf(o, "(%s)", emit_type(p->a, n->ty));
    operand(p, n->lhs, P_UNARY, false);
    return;
  case ND_ADDR:
    buf_puts(o, "&");
    operand(p, n->lhs, P_UNARY, false);
    return;
  case ND_CALL:
    /* max and min compare in the call's type, C++'s common type of their
     * arguments (the prelude's overloads); tgm_max itself takes A's */
    if ((!strcmp(n->name, "max") || !strcmp(n->name, "min")) && !p->text && n->ty &&
        n->ty->kind != TY_ACC &&
        ((n->ty->kind >= TY_BOOL && n->ty->kind <= TY_ELEM) || n->ty->kind == TY_RES ||
         n->ty->kind == TY_SIZE || n->ty->kind == TY_OTHER))
      buf_printf(o, "%s_of<%s>", call_name(n->name),
                 emit_type(p->a, type_unqualified(p->a, n->ty)));
    else
      buf_puts(o, call_name(n->name));
    args(p, n);
    return;
  case ND_INDEX:
    operand(p, n->lhs, P_POSTFIX, false);
    buf_puts(o, "[");
    expr(p, n->rhs, P_COMMA);
    buf_puts(o, "]");
    return;
  case ND_MEMBER:
    operand(p, n->lhs, P_POSTFIX, false);
    buf_printf(o, ".%s", n->name);
    return;
  case ND_METHOD: /* only in what the manifest quotes: in.Index(i) */
    operand(p, n->lhs, P_POSTFIX, false);
    buf_printf(o, ".%s", n->name);
    args(p, n);
    return;
  case ND_SHFL:
    if (n->ty && n->ty->kind == TY_ARG) /* two shuffles: file.tpl */
      buf_printf(o, n->ival ? "tgm_shfl_down(%s, %s, GROUP)" : "tgm_shfl_down(%s, %s)",
                 expr_str(p, n->lhs), expr_str(p, n->rhs));
    else if (n->ival) /* within GROUP lanes */
      buf_printf(o, p->d->shfl_down_width, expr_str(p, n->lhs), expr_str(p, n->rhs), "GROUP");
    else
      buf_printf(o, p->d->shfl_down, expr_str(p, n->lhs), expr_str(p, n->rhs));
    return;
  case ND_FENCE: buf_puts(o, p->d->fence); return;
  case ND_TICKET: buf_printf(o, p->d->ticket, expr_str(p, n->lhs), expr_str(p, n->rhs)); return;
  case ND_REDUX: /* tgm_warp_reduce: __reduce_<op>_sync, see file.tpl */
    buf_printf(o, p->d->redux ? p->d->redux : "/* no warp-reduce instruction */ %s",
               expr_str(p, n->lhs));
    return;
  case ND_ATOMIC:
    buf_printf(o, "%s(&", atomic_name(n->op));
    operand(p, n->lhs, P_UNARY, false);
    buf_puts(o, ", ");
    expr(p, n->rhs, P_ASSIGN);
    buf_puts(o, ")");
    return;
  default: buf_printf(o, "/* %s */", node_kind_name(n->kind)); return;
  }
}

static void indent(Printer *p, int depth) { buf_printf(p->out, "%*s", depth * 2, ""); }

static void stmt(Printer *p, const Node *n, int depth);

/* The body of an if/for/while: a block in braces, or one statement. */
static void body(Printer *p, const Node *n, int depth) {
  if (n && n->kind == ND_BLOCK) {
    buf_puts(p->out, " {\n");
    for (int i = 0; i < n->kids.len; i++)
      stmt(p, n->kids.items[i], depth + 1);
    indent(p, depth);
    buf_puts(p->out, "}");
  } else {
    buf_puts(p->out, "\n");
    if (n)
      stmt(p, n, depth + 1);
    else {
      indent(p, depth + 1);
      buf_puts(p->out, ";\n");
    }
    p->out->len--; /* the caller ends the line */
    p->out->data[p->out->len] = '\0';
  }
}

static void decl(Printer *p, const Node *n) {
  Buf *o = p->out;
  if (n->qual & Q_SHARED)
    buf_puts(o, "__shared__ ");
  const Type *t = n->ty;
  if (t->kind == TY_CARRAY) {
    buf_printf(o, "%s %s[", emit_type(p->a, t->base), n->name);
    if (n->dim)
      expr(p, n->dim, P_COMMA);
    buf_puts(o, "]");
  } else {
    const char *ts = emit_type(p->a, t);
    buf_printf(o, "%s%s%s", ts, ts[strlen(ts) - 1] == '*' ? "" : " ", n->name);
  }
  if (n->init) {
    buf_puts(o, " = ");
    expr(p, n->init, P_ASSIGN);
  }
}

static void stmt(Printer *p, const Node *n, int depth) {
  Buf *o = p->out;
  indent(p, depth);
  switch (n->kind) {
  case ND_BLOCK:
    buf_puts(o, "{\n");
    for (int i = 0; i < n->kids.len; i++)
      stmt(p, n->kids.items[i], depth + 1);
    indent(p, depth);
    buf_puts(o, "}\n");
    return;
  case ND_DECL:
    decl(p, n);
    buf_puts(o, ";\n");
    return;
  case ND_EXPR:
    expr(p, n->lhs, P_COMMA);
    buf_puts(o, ";\n");
    return;
  case ND_IF:
    buf_puts(o, "if (");
    expr(p, n->cond, P_COMMA);
    buf_puts(o, ")");
    body(p, n->then, depth);
    if (n->els) {
      buf_puts(o, n->then && n->then->kind == ND_BLOCK ? " else" : "\n");
      if (!(n->then && n->then->kind == ND_BLOCK)) {
        indent(p, depth);
        buf_puts(o, "else");
      }
      body(p, n->els, depth);
    }
    buf_puts(o, "\n");
    return;
  case ND_FOR:
    buf_puts(o, "for (");
    if (n->init) {
      if (n->init->kind == ND_DECL)
        decl(p, n->init);
      else
        expr(p, n->init->kind == ND_EXPR ? n->init->lhs : n->init, P_COMMA);
    }
    buf_puts(o, "; ");
    if (n->cond)
      expr(p, n->cond, P_COMMA);
    buf_puts(o, "; ");
    if (n->inc)
      expr(p, n->inc, P_COMMA);
    buf_puts(o, ")");
    body(p, n->body, depth);
    buf_puts(o, "\n");
    return;
  case ND_WHILE:
    buf_puts(o, "while (");
    expr(p, n->cond, P_COMMA);
    buf_puts(o, ")");
    body(p, n->body, depth);
    buf_puts(o, "\n");
    return;
  case ND_DO:
    buf_puts(o, "do");
    body(p, n->body, depth);
    buf_puts(o, " while (");
    expr(p, n->cond, P_COMMA);
    buf_puts(o, ");\n");
    return;
  case ND_RETURN:
    buf_puts(o, "return");
    if (n->lhs) {
      buf_puts(o, " ");
      expr(p, n->lhs, P_COMMA);
    }
    buf_puts(o, ";\n");
    return;
  case ND_BREAK: buf_puts(o, "break;\n"); return;
  case ND_CONTINUE: buf_puts(o, "continue;\n"); return;
  case ND_NULL: buf_puts(o, ";\n"); return;
  case ND_SYNC:
    buf_printf(o, "%s;\n", n->ival == SYNC_WARP ? p->d->sync_warp : p->d->sync_block);
    return;
  case ND_COMMENT: buf_printf(o, "// %s\n", n->spelling); return;
  default:
    expr(p, n, P_COMMA);
    buf_puts(o, ";\n");
    return;
  }
}

void emit_func(Buf *out, Arena *a, const Dialect *d, const Node *fn) {
  Printer p = {out, a, d, false};
  if (fn->spelling)
    buf_printf(out, "%s\n", fn->spelling);
  const char *rt = fn->ty ? emit_type(a, fn->ty) : "void";
  buf_printf(out, "%s%s%s%s(", rt, rt[strlen(rt) - 1] == '*' ? "" : " ",
             !(fn->qual & Q_KERNEL)     ? ""
             : fn->qual & Q_MIN_BLOCKS1 ? "__launch_bounds__(BLOCK, 1) "
             : fn->qual & Q_MIN_THREADS1024 && d->min_blocks_bound
                 ? "__launch_bounds__(BLOCK, BLOCK <= 128 ? 1024 / BLOCK : 1) "
                 : "__launch_bounds__(BLOCK) ",
             fn->name);
  for (int i = 0; i < fn->kids.len; i++) {
    const Node *prm = fn->kids.items[i];
    const char *ts = emit_type(a, prm->ty);
    buf_printf(out, "%s%s%s%s%s", i ? ", " : "", ts, ts[strlen(ts) - 1] == '*' ? "" : " ",
               prm->qual & Q_RESTRICT ? "__restrict__ " : "", prm->name);
  }
  buf_puts(out, ") {\n");
  for (int i = 0; i < fn->body->kids.len; i++)
    stmt(&p, fn->body->kids.items[i], 1);
  buf_puts(out, "}\n");
}

const char *emit_expr(Arena *a, const Dialect *d, const Node *n) {
  Printer p = {NULL, a, d, true};
  return expr_str(&p, n);
}

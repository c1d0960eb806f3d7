/* sema.c -- what each codelet is, and the rules of the codelet language.
 *
 * Per codelet: its kind (scalar, compound, cooperative, shared-atomic), the
 * partition of a compound codelet (tiled or strided, read from the inc
 * Sequence), its tunables, and its combining operator, read from the code:
 *   x += e; x *= e; x &= e; x |= e; x ^= e; x = x op e;
 *   x = max(x, e); x = min(x, e);   __shared atomicAdd T x;
 * Per spectrum (codelets sharing a name): one operator for all, unique tags.
 * Every violation is an error at the user's file:line:col. */
#include "tgm.h"

#include <stdint.h>
#include <string.h>

const char *codelet_kind_name(CodeletKind k) {
  static const char *names[] = {"scalar", "compound", "cooperative", "shared-atomic"};
  return names[k];
}

const char *part_kind_name(PartKind k) {
  static const char *names[] = {"none", "tiled", "strided"};
  return names[k];
}

typedef struct {
  Ctx *ctx;
  Codelet *cd;
  ElemType elem;    /* T */
  PtrVec shared;    /* Node *: __shared declarations */
  PtrVec returns;   /* Node *: return statements */
  PtrVec combines;  /* Node *: the statements that combine, in order */
  PtrVec loop_vars; /* Node *: declared in a for's init or stepped in its inc */
  PtrVec returned;  /* Node *: the declarations a return statement reads */
  PtrVec in_loops;  /* Node *: declared in a loop's body, fresh each iteration */
  PtrVec maps;      /* Node *: the Map declarations, one per input */
  bool failed;
} Check;

static void error(Check *ck, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void error(Check *ck, Loc loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_report(ck->ctx->diag, "error", loc, msg);
  ck->failed = true;
}

/* A value type: T, or the codelet's own return type (a count's unsigned),
 * or a C array of one of them. */
static bool is_value_type(const Check *ck, const Type *t) {
  if (t && t->kind == TY_CARRAY)
    t = t->base;
  if (!t)
    return false;
  TypeKind ret = ck->cd->fn->ty->kind;
  return t->kind == TY_ELEM || (t->kind == ret && ret != TY_VOID && ret != TY_OTHER);
}

/* A value variable holds values being combined: a local or __shared of a
 * value type, or of any arithmetic type that a return reads (`double acc;
 * ... return (T)sqrt(acc / len);`) or that is an atomic accumulator, that
 * is not a loop's index nor declared in a loop's body (a temporary, `T v =
 * in[i]; v = v * v;`, combines nothing: spectrum.c says where it is
 * assigned). (spectrum.c holds every codelet's to the scalar codelet's
 * accumulator type.) */
static bool is_value(const Check *ck, const Node *decl) {
  return decl &&
         (is_value_type(ck, decl->ty) ||
          ((vec_has(&ck->returned, decl) || decl->atomic_op != OP_NONE) &&
           type_is_arith(decl->ty))) &&
         !vec_has(&ck->loop_vars, decl) && !vec_has(&ck->in_loops, decl);
}

/* The declaration an lvalue names: `x` or `x[i]`. */
static Node *lvalue_decl(Node *n) {
  if (n && n->kind == ND_INDEX)
    n = n->lhs;
  return n && n->kind == ND_VAR ? n->decl : NULL;
}

static bool same_var(const Node *a, const Node *b) {
  return a && b && a->kind == ND_VAR && b->kind == ND_VAR && a->decl && a->decl == b->decl;
}

/* A compound assignment `x OP= e` that combines (combiners.def). */
static bool is_combining_assign(Op op) {
  const Combiner *cb = combiner_of(op);
  return cb && cb->form == CF_ASSIGN;
}

/* `x = x OP e` or `x = e OP x` that combines. */
static bool is_combining_binary(Op op) {
  const Combiner *cb = combiner_of(op);
  return cb && cb->form != CF_CALL;
}

/* `x = f(x, e)`: the operator spelled f, or OP_NONE. */
static Op combining_call(const char *f) {
  const Combiner *cb = combiner_spelled(f);
  return cb && cb->form == CF_CALL ? cb->op : OP_NONE;
}

/* Records op as this codelet's operator, or reports a conflict. */
static void set_op(Check *ck, Op op, Loc loc) {
  Codelet *cd = ck->cd;
  if (cd->op == OP_NONE) {
    cd->op = op;
    cd->op_loc = loc;
  } else if (cd->op != op) {
    error(ck, loc, "codelet combines with '%s' here but with '%s' at line %d", op_name(op),
          op_name(cd->op), cd->op_loc.line);
  }
}

static const char *can_combine(Check *ck) {
  return arena_printf(ck->ctx->arena, "tgm combines with %s", combiner_forms(ck->ctx->arena));
}

/* An assignment to a T-typed variable or element: what operator is it? */
static void check_assign(Check *ck, Node *n) {
  Node *decl = lvalue_decl(n->lhs);
  /* `t = t * 2;` of a parameter: every part of a split reads the parameter
     as the caller passed it (was "combines with '+' here but with '*'", t
     taken for an accumulator: probe13 C3) */
  if (decl && decl->kind == ND_PARAM && decl->ty && decl->ty->kind != TY_ARRAY) {
    error(ck, n->loc,
          "parameter '%s' is assigned here: every part of the split reads it as the caller "
          "passed it; keep the new value in a local set once before the loop ('const %s %s2 = "
          "...;')",
          decl->name, type_str(ck->ctx->arena, decl->ty), decl->name);
    return;
  }
  if (!decl || !is_value(ck, decl))
    return;
  if (n->op != OP_NONE) {
    if (!is_combining_assign(n->op)) {
      error(ck, n->loc, "'%s=' cannot combine partial results; %s", op_name(n->op),
            can_combine(ck));
      return;
    }
    set_op(ck, n->op, n->loc);
    vec_push(ck->ctx->arena, &ck->combines, n);
    return;
  }
  Node *r = n->rhs;
  if (r && r->kind == ND_CALL && combining_call(r->name) != OP_NONE && r->kids.len == 2 &&
      (same_var(n->lhs, r->kids.items[0]) || same_var(n->lhs, r->kids.items[1]))) {
    set_op(ck, combining_call(r->name), n->loc);
    vec_push(ck->ctx->arena, &ck->combines, n);
    return;
  }
  if (r && r->kind == ND_BINARY && same_var(n->lhs, r->lhs) && same_var(n->lhs, r->rhs)) {
    /* `val = val * val`: the value with itself, a power, no combine (was
       "combines with '+' here but with '*'": probe12 C3) */
    error(ck, n->loc,
          "'%s' is combined with itself here ('%s %s %s'), which folds no element into it; "
          "compute a value in one expression from its element ('T v = in[i] * in[i];', a "
          "cooperative codelet's 'T val = in[tid] * in[tid];')",
          decl->name, decl->name, op_name(r->op), decl->name);
    return;
  }
  if (r && r->kind == ND_BINARY && (same_var(n->lhs, r->lhs) || same_var(n->lhs, r->rhs))) {
    if (!is_combining_binary(r->op)) {
      error(ck, r->loc, "'%s' cannot combine partial results; %s", op_name(r->op), can_combine(ck));
      return;
    }
    set_op(ck, r->op, n->loc);
    vec_push(ck->ctx->arena, &ck->combines, n);
    return;
  }
  if (decl->atomic_op != OP_NONE)
    vec_push(ck->ctx->arena, &ck->combines, n); /* an atomic combine */
}

static void check_decl(Check *ck, Node *n) {
  Codelet *cd = ck->cd;
  Arena *a = ck->ctx->arena;
  if (n->qual & Q_TUNABLE) {
    if (!type_is_unsigned(n->ty))
      error(ck, n->loc, "tunable '%s' must be unsigned, not '%s'", n->name, type_str(a, n->ty));
    if (n->init)
      error(ck, n->init->loc, "tunable '%s' is set by the tuner and cannot have an initializer",
            n->name);
    if (n->qual & Q_SHARED)
      error(ck, n->loc, "tunable '%s' cannot be __shared", n->name);
    vec_push(a, &cd->tunables, n);
  }
  if (n->qual & Q_SHARED) {
    vec_push(a, &ck->shared, n);
    /* CUDA refuses an initializer on shared memory (probe12 B1: an internal
       error, and with --no-check a file nvcc rejects) */
    if (n->init && n->atomic_op != OP_NONE)
      error(ck, n->init->loc,
            "atomic accumulator '%s' cannot have an initializer: tgm starts it from the "
            "identity of its operator",
            n->name);
    else if (n->init)
      error(ck, n->init->loc,
            "__shared '%s' cannot have an initializer: shared memory holds nothing when a block "
            "starts; assign it ('if (vthread.ThreadId() == 0) %s = ...;')",
            n->name, n->name);
    /* inside a statement an atomic one lost its meaning: a plain racy store,
       never started from the identity (probe12 E1) */
    if (cd->fn->body && !vec_has(&cd->fn->body->kids, n))
      error(ck, n->loc,
            "declare __shared '%s' at the top of the codelet's body: it is the whole block's, "
            "not a statement's",
            n->name);
    if (n->ty->kind == TY_CARRAY && n->ty->base && n->ty->base->kind == TY_CARRAY)
      error(ck, n->loc, "__shared array '%s' has more than one dimension; tgm lays out one",
            n->name);
  }
  if (n->atomic_op != OP_NONE) {
    if (!type_is_arith(n->ty))
      error(ck, n->loc,
            "atomic accumulator '%s' must be one value of the accumulator's type (T, int, "
            "float, double, ...), not '%s'",
            n->name, type_str(a, n->ty));
    if (cd->atomic)
      error(ck, n->loc, "a codelet has at most one atomic accumulator; '%s' is the second",
            n->name);
    cd->atomic = n;
    set_op(ck, n->atomic_op, n->loc);
  }
  if (n->ty->kind == TY_VECTOR) {
    if (cd->vector)
      error(ck, n->loc, "a codelet declares one Vector; '%s' is the second", n->name);
    cd->vector = n;
  }
  if (n->ty->kind == TY_MAP) {
    if (!cd->map)
      cd->map = n;
    vec_push(a, &ck->maps, n);
  }
}

static bool find_var(Node *n, void *data) {
  Check *ck = data;
  if (n->kind == ND_VAR && n->decl && !vec_has(&ck->returned, n->decl))
    vec_push(ck->ctx->arena, &ck->returned, n->decl);
  return true;
}

static bool find_returned(Node *n, void *data) {
  if (n->kind == ND_RETURN && n->lhs)
    node_walk(n->lhs, find_var, data);
  return true;
}

/* `if (x > acc) acc = x;`, `acc = x > acc ? x : acc;` and, for a float
 * acc, `acc = fmaxf(acc, x);` are how many write a max (< and fminf for a
 * min): each becomes `acc = max(acc, x);` (min), the
 * form tgm combines and prints. For floats the same too: a NaN x leaves acc
 * as fmax does (acc starts from Lowest(), never NaN). `acc = acc > x ? acc
 * : x` is that for integers only: for floats a NaN x replaces acc, and the
 * next element replaces the NaN, which no reduction order gives (an error). */
static Op minmax_of(const Node *cmp, const Node *acc, const Node *x) {
  if (!cmp || cmp->kind != ND_BINARY)
    return OP_NONE;
  bool x_first = node_equal(cmp->lhs, x) && node_is_var(cmp->rhs, acc);
  bool acc_first = node_is_var(cmp->lhs, acc) && node_equal(cmp->rhs, x);
  bool greater = cmp->op == OP_GT || cmp->op == OP_GE, less = cmp->op == OP_LT || cmp->op == OP_LE;
  if ((x_first && greater) || (acc_first && less))
    return OP_MAX; /* x > acc, acc < x */
  if ((x_first && less) || (acc_first && greater))
    return OP_MIN; /* x < acc, acc > x */
  return OP_NONE;
}

static Node *as_minmax(Check *ck, Loc loc, Node *acc_var, Op op, Node *x) {
  Arena *a = ck->ctx->arena;
  Node *call = mk_call(a, loc, op == OP_MAX ? "max" : "min", 2,
                       mk_var(a, acc_var->loc, acc_var->decl), x);
  call->ty = acc_var->ty;
  return mk_assign(a, loc, OP_NONE, acc_var, call);
}

static Node *desugar_minmax(Node *n, void *data) {
  Check *ck = data;
  Node *as = n->kind == ND_IF && !n->els ? n->then : n->kind == ND_EXPR ? n : NULL;
  if (as && as->kind == ND_BLOCK && as->kids.len == 1)
    as = as->kids.items[0];
  as = as && as->kind == ND_EXPR ? as->lhs : NULL;
  if (!as || as->kind != ND_ASSIGN || as->op != OP_NONE || !as->lhs || as->lhs->kind != ND_VAR ||
      !is_value(ck, as->lhs->decl) || (as->lhs->decl->qual & Q_SHARED))
    return n;
  const Node *acc = as->lhs->decl;
  if (n->kind == ND_IF) { /* if (x > acc) acc = x; */
    Op op = minmax_of(n->cond, acc, as->rhs);
    return op == OP_NONE ? n : mk_expr(ck->ctx->arena, as_minmax(ck, n->loc, as->lhs, op, as->rhs));
  }
  Node *t = as->rhs; /* acc = x > acc ? x : acc; */
  TypeKind k = as->lhs->ty ? type_concrete(as->lhs->ty, ck->elem) : TY_OTHER;
  bool float_acc = k == TY_FLOAT || k == TY_DOUBLE;
  if (t && t->kind == ND_CALL && t->kids.len == 2 &&
      (node_is_var(t->kids.items[0], acc) || node_is_var(t->kids.items[1], acc))) {
    /* acc = fmaxf(acc, x): max for a floating-point acc (fmax passes a NaN over, as max) */
    static const char *const f[][2] = {{"fmaxf", "max"},
                                       {"fmax", "max"},
                                       {"fminf", "min"},
                                       {"fmin", "min"}};
    bool c_form = false; /* fmaxf: NaN on either side passed over */
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
      if (strcmp(t->name, f[i][0]) == 0 && float_acc)
        t->name = f[i][1], c_form = true;
      else if (strcmp(t->name, f[i][0]) == 0)
        error(ck, as->loc,
              "%s takes '%s' through floating point, which rounds large integers; write '%s = "
              "%s(%s, ...)'",
              f[i][0], acc->name, acc->name, f[i][1], acc->name);
    /* acc = fmaxf(x, acc) is acc = max(acc, x): fmaxf(NaN, acc) is acc, and
       tgm_max(a, b) passes a NaN over only in b. max(x, acc) itself is `x <
       acc ? acc : x`, which for floats takes a NaN element and drops it at
       the next (probe13 B1: the oracle's internal error); for integers the
       two are one */
    bool swapped = (!strcmp(t->name, "max") || !strcmp(t->name, "min")) &&
                   node_is_var(t->kids.items[1], acc) && !node_is_var(t->kids.items[0], acc);
    if (swapped && float_acc && !c_form)
      error(ck, as->loc,
            "%s(x, %s) is 'x %s %s ? %s : x': for floating point it takes a NaN element into "
            "'%s' and drops it at the next, which no order of a reduction gives; write '%s = "
            "%s(%s, x)' (a NaN ignored)",
            t->name, acc->name, t->name[1] == 'a' ? "<" : ">", acc->name, acc->name, acc->name,
            acc->name, t->name, acc->name);
    else if (swapped) {
      void *x = t->kids.items[0];
      t->kids.items[0] = t->kids.items[1];
      t->kids.items[1] = x;
    }
    return n;
  }
  if (!t || t->kind != ND_COND)
    return n;
  if (node_is_var(t->els, acc)) {
    Op op = minmax_of(t->cond, acc, t->then);
    if (op != OP_NONE)
      n->lhs = as_minmax(ck, as->loc, as->lhs, op, t->then);
  } else if (node_is_var(t->then, acc)) { /* acc = acc > x ? acc : x; */
    Op op = minmax_of(t->cond, acc, t->els);
    if (op != OP_NONE && !float_acc)
      n->lhs = as_minmax(ck, as->loc, as->lhs, op == OP_MAX ? OP_MIN : OP_MAX, t->els);
    else if (op != OP_NONE && t->name) /* std::max(x, acc), front.c's std_minmax */
      error(ck, as->loc,
            "%s(x, %s) is 'x %s %s ? %s : x' (<algorithm>): for floating point it takes a NaN "
            "element into '%s' and drops it at the next, which no order of a reduction gives; "
            "write '%s = %s(%s, x)' (a NaN ignored)",
            t->name, acc->name, op == OP_MAX ? ">" : "<", acc->name, acc->name, acc->name,
            acc->name, t->name, acc->name);
    else if (op != OP_NONE)
      error(ck, as->loc,
            "for floating point, this takes a NaN element into '%s' and drops it at the next, "
            "which no order of a reduction gives; write '%s = %s(%s, ...)' (a NaN ignored) or "
            "'%s = x %s %s ? x : %s'",
            acc->name, acc->name, op == OP_MAX ? "min" : "max", acc->name, acc->name,
            op == OP_MAX ? "<" : ">", acc->name, acc->name);
  }
  return n;
}

/* acc++ and ++acc as a statement (a count: `if (c) accum++;`) are acc += 1
 * (were "cannot find how codelet ... combines values"). Not the loop's
 * index (is_value leaves loop variables out). */
static Node *desugar_increment(Node *n, void *data) {
  Check *ck = data;
  Node *u = n->kind == ND_EXPR ? n->lhs : NULL;
  if (!u || u->kind != ND_UNARY || (u->op != OP_POSTINC && u->op != OP_PREINC) || !u->lhs ||
      u->lhs->kind != ND_VAR || !is_value(ck, u->lhs->decl) || (u->lhs->decl->qual & Q_SHARED))
    return n;
  n->lhs = mk_assign(ck->ctx->arena, u->loc, OP_ADD, u->lhs, mk_int(ck->ctx->arena, u->loc, 1));
  return n;
}

/* A sum with the accumulator as one of its terms is `acc += (the others)`:
 * `acc -= x` is `acc += -x`, `acc = acc + x - 1` is `acc += x - 1`, `acc = 1
 * + acc + x` and `acc = (T)(acc + x)` alike (were "'-=' cannot combine" and
 * the like: probe13 D3). Only where every other term has the accumulator's
 * type, or is an integer literal (or a float one for a floating-point
 * accumulator), so that adding them first computes what C++ does step by
 * step: the same bits for integers (wrapping), a reordering for floats as
 * any split is. The accumulator must be a positive term, read once. */
typedef struct {
  Node *leaf[16];
  bool neg[16];
  int n;
} Terms;

static bool sum_terms(Node *e, bool neg, Terms *t) {
  if (e->kind == ND_BINARY && (e->op == OP_ADD || e->op == OP_SUB) && e->lhs && e->rhs)
    return sum_terms(e->lhs, neg, t) && sum_terms(e->rhs, e->op == OP_SUB ? !neg : neg, t);
  if (t->n == (int)COUNT_OF(t->leaf))
    return false;
  t->leaf[t->n] = e;
  t->neg[t->n++] = neg;
  return true;
}

static Node *desugar_sum(Node *n, void *data) {
  Check *ck = data;
  Arena *a = ck->ctx->arena;
  Node *as = n->kind == ND_EXPR ? n->lhs : NULL;
  if (!as || as->kind != ND_ASSIGN || (as->op != OP_NONE && as->op != OP_SUB) || !as->lhs ||
      as->lhs->kind != ND_VAR || !is_value(ck, as->lhs->decl) || (as->lhs->decl->qual & Q_SHARED) ||
      !as->rhs)
    return n;
  Node *acc = as->lhs->decl;
  TypeKind k = acc->ty ? type_concrete(acc->ty, ck->elem) : TY_VOID;
  bool floating = k == TY_FLOAT || k == TY_DOUBLE;
  if (!floating && k != TY_INT && k != TY_UINT && k != TY_LONG && k != TY_ULONG)
    return n;
  Node *e = as->rhs;
  while (e->kind == ND_CAST && e->ty && type_concrete(e->ty, ck->elem) == k &&
         !type_narrow_bits(e->ty) && e->lhs)
    e = e->lhs; /* (T)(acc + x) of T acc */
  Terms t = {0};
  if (as->op == OP_SUB) { /* acc -= e */
    t.leaf[0] = as->lhs;
    t.n = 1;
    if (!sum_terms(e, true, &t))
      return n;
  } else if (!sum_terms(e, false, &t)) {
    return n;
  }
  int at = -1;
  for (int i = 0; i < t.n; i++) {
    Node *x = t.leaf[i];
    if (node_is_var(x, acc)) {
      if (at >= 0 || t.neg[i])
        return n;
      at = i;
      continue;
    }
    bool literal = x->kind == ND_INT || (floating && x->kind == ND_FLOAT);
    if (node_reads(x, acc) || !x->ty ||
        (!literal && (type_concrete(x->ty, ck->elem) != k || type_narrow_bits(x->ty))))
      return n;
  }
  if (at < 0 || t.n < 2)
    return n;
  Node *rest = NULL;
  for (int i = 0; i < t.n; i++) {
    if (i == at)
      continue;
    Node *x = t.leaf[i];
    if (!rest) {
      rest = t.neg[i] ? mk_unary(a, x->loc, OP_NEG, x) : x;
      if (t.neg[i])
        rest->ty = acc->ty;
    } else {
      rest = mk_binary(a, x->loc, t.neg[i] ? OP_SUB : OP_ADD, rest, x);
      rest->ty = acc->ty;
    }
  }
  n->lhs = mk_assign(a, as->loc, OP_ADD, as->lhs, rest);
  n->lhs->ty = as->ty;
  return n;
}

/* `if (c) continue;` in a loop's body guards what follows: `if (c)
 * continue; acc += x;` is `if (!(c)) acc += x;`, the form a fold reads
 * (was the loop body's general error). Temporaries stay before the guard,
 * where they are read for every element: one after it is an error. */
/* The condition under which s continues: c of `if (c) continue;`, and of
 * nested ifs with no else, `if (a) { if (b) continue; }`, `a && b` (b read
 * only where a holds, as there); NULL for any other statement. */
static Node *continue_cond(Arena *a, Node *s) {
  if (!s || s->kind != ND_IF || s->els || !s->then)
    return NULL;
  Node *t = s->then;
  if (t->kind == ND_BLOCK && t->kids.len == 1)
    t = t->kids.items[0];
  if (t->kind == ND_CONTINUE)
    return s->cond;
  Node *inner = continue_cond(a, t);
  if (!inner)
    return NULL;
  Node *both = mk_binary(a, s->loc, OP_LAND, s->cond, inner);
  both->ty = type_new(a, TY_BOOL);
  return both;
}

static Node *desugar_continue(Node *n, void *data) {
  Check *ck = data;
  if ((n->kind != ND_FOR && n->kind != ND_WHILE) || !n->body || n->body->kind != ND_BLOCK)
    return n;
  Arena *a = ck->ctx->arena;
  Node *body = n->body, *guard = NULL;
  int j = 0;
  for (int i = 0; i < body->kids.len; i++) {
    Node *s = body->kids.items[i], *cc = continue_cond(a, s);
    if (cc) {
      if (guard) {
        guard = mk_binary(a, s->loc, OP_LOR, guard, cc);
        guard->ty = type_new(a, TY_BOOL);
      } else {
        guard = cc;
      }
      continue;
    }
    if (guard && s->kind == ND_DECL) {
      error(ck, s->loc,
            "declare '%s' before the 'if (...) continue;': tgm reads what follows a continue "
            "as 'if (!(...)) ...', and a temporary is read for every element",
            s->name);
      return n;
    }
    if (guard && s->kind != ND_NULL) {
      Node *neg = mk_unary(a, s->loc, OP_NOT, node_clone(a, guard));
      neg->ty = type_new(a, TY_BOOL);
      s = mk_if(a, s->loc, neg, s, NULL);
    }
    body->kids.items[j++] = s;
  }
  body->kids.len = j;
  return n;
}

static bool find_decl(Node *n, void *data) {
  Check *ck = data;
  if (n->kind == ND_DECL && !vec_has(&ck->in_loops, n))
    vec_push(ck->ctx->arena, &ck->in_loops, n);
  return true;
}

/* A while or do loop's counter: a local its test reads and its body steps
 * (`while (s > 0) { ...; s = s / 2; }` was read as an accumulator s, "updated
 * from its own value": probe12 C2). */
typedef struct {
  Check *ck;
  Node *body;
} Counters;

static bool find_counter(Node *n, void *data) {
  Counters *c = data;
  if (n->kind == ND_VAR && n->decl && n->decl->kind == ND_DECL &&
      !vec_has(&c->ck->loop_vars, n->decl) && node_assigned_in(c->body, n->decl))
    vec_push(c->ck->ctx->arena, &c->ck->loop_vars, n->decl);
  return true;
}

static bool find_loop_vars(Node *n, void *data) {
  Check *ck = data;
  if (n->kind == ND_WHILE || n->kind == ND_DO) {
    node_walk(n->body, find_decl, ck);
    Counters c = {ck, n->body};
    if (n->cond)
      node_walk(n->cond, find_counter, &c);
  }
  if (n->kind != ND_FOR)
    return true;
  node_walk(n->body, find_decl, ck);
  if (n->init && n->init->kind == ND_DECL)
    vec_push(ck->ctx->arena, &ck->loop_vars, n->init);
  if (n->init && n->init->kind == ND_EXPR && n->init->lhs && n->init->lhs->kind == ND_ASSIGN &&
      lvalue_decl(n->init->lhs->lhs))
    vec_push(ck->ctx->arena, &ck->loop_vars, lvalue_decl(n->init->lhs->lhs));
  Node *inc = n->inc && n->inc->kind == ND_EXPR ? n->inc->lhs : n->inc;
  if (inc && (inc->kind == ND_ASSIGN || inc->kind == ND_UNARY) && lvalue_decl(inc->lhs))
    vec_push(ck->ctx->arena, &ck->loop_vars, lvalue_decl(inc->lhs));
  return true;
}

static bool visit(Node *n, void *data) {
  Check *ck = data;
  switch (n->kind) {
  case ND_DECL: check_decl(ck, n); break;
  case ND_ASSIGN: check_assign(ck, n); break;
  case ND_RETURN: vec_push(ck->ctx->arena, &ck->returns, n); break;
  default: break;
  }
  return true;
}

/* Does every path through s end in a return? */
static bool always_returns(const Node *s) {
  if (!s)
    return false;
  switch (s->kind) {
  case ND_RETURN: return true;
  case ND_BLOCK:
    for (int i = 0; i < s->kids.len; i++)
      if (always_returns(s->kids.items[i]))
        return true;
    return false;
  case ND_IF: return always_returns(s->then) && always_returns(s->els);
  default: return false;
  }
}

/* narrow_int: 1 for char, short and the other signed narrow integers
 * (type_narrow_bits), 2 for the unsigned ones, 0 any other type. */
static int narrow_int(const Type *t) {
  int bits = type_narrow_bits(t);
  return bits < 0 ? 1 : bits > 0 ? 2 : 0;
}

/* What a compound codelet's Sequences say, evaluated. tgm runs tiles of
 * ceil(n / p) or strides of p whatever the Sequences spell, so they must
 * say the same thing: every element of the input in exactly one part.
 * They are evaluated over sample sizes and part counts, so any spelling
 * of the two forms passes and a partition that skips or repeats elements
 * is a located error. Arithmetic is C++'s: each value in its type's width
 * (char and short, int and unsigned, long long), signed division and
 * comparisons where the type is signed; the names a Sequence may read are
 * in.Size(), p, numbers and integer locals set once by their declaration. */
typedef struct {
  Node *body;         /* the codelet's body: locals must not be assigned in it */
  const Node *p_decl; /* the __tunable number of parts */
  ElemType elem;
  uint64_t len, p;
  /* the locals evaluated at this sample (each once), and those being
     evaluated (one that reads itself is an error) */
  struct {
    const Node *decl;
    uint64_t v;
  } memo[64];
  int nmemo;
  const Node *busy[64];
  int nbusy;
  Node *bad; /* the first node that cannot be evaluated, and why */
  char why[256];
} SeqEval;

static bool seq_eval(SeqEval *ev, Node *e, uint64_t *out);

static const char seq_ops[] =
    "a Sequence's arithmetic is +, -, *, /, %, shifts, comparisons, ?: and min/max of integers";

static bool seq_fail(SeqEval *ev, Node *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool seq_fail(SeqEval *ev, Node *e, const char *fmt, ...) {
  if (!ev->bad) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ev->why, sizeof ev->why, fmt, ap);
    va_end(ap);
    ev->bad = e;
  }
  return false;
}

/* The bits of an integer type, negative when it is signed; 0 for any other. */
static int int_bits(const Type *t, ElemType elem) {
  int narrow = type_narrow_bits(t);
  if (narrow)
    return narrow;
  switch (t ? type_concrete(t, elem) : TY_VOID) {
  case TY_BOOL: return 1;
  case TY_INT: return -32;
  case TY_UINT: return 32;
  case TY_LONG: return -64;
  case TY_ULONG: return 64;
  default: return 0;
  }
}

/* v as a value of `bits` (int_bits): its low bits, sign-extended if signed. */
static uint64_t seq_fit(uint64_t v, int bits) {
  int w = bits < 0 ? -bits : bits;
  if (w >= 64 || w == 0)
    return v;
  if (w == 1)
    return v != 0;
  v &= (1ull << w) - 1;
  return bits < 0 && (v >> (w - 1)) ? v | ~((1ull << w) - 1) : v;
}

static bool seq_eval_var(SeqEval *ev, Node *e, uint64_t *out) {
  const Node *d = e->decl;
  if (d == ev->p_decl) {
    *out = ev->p;
    return true;
  }
  if (!d || d->kind != ND_DECL || !d->init)
    return seq_fail(ev, e,
                    "a Sequence reads in.Size(), the number of parts, numbers and integer "
                    "locals set where they are declared");
  if (!int_bits(d->ty, ev->elem))
    return seq_fail(ev, e,
                    "'%s' is not of an integer type tgm evaluates (int, unsigned, long long, "
                    "unsigned long long, char, short): a Sequence reads integers",
                    d->name);
  for (int i = 0; i < ev->nmemo; i++)
    if (ev->memo[i].decl == d) {
      *out = ev->memo[i].v;
      return true;
    }
  for (int i = 0; i < ev->nbusy; i++)
    if (ev->busy[i] == d)
      return seq_fail(ev, e, "'%s' reads itself", d->name);
  if (ev->nbusy == (int)COUNT_OF(ev->busy))
    return seq_fail(ev, e, "'%s' is read through more than %d other locals", d->name,
                    (int)COUNT_OF(ev->busy));
  if (node_assigned_in(ev->body, d))
    return seq_fail(ev, e,
                    "'%s' is assigned after its declaration: a Sequence reads a local's "
                    "declared value, so it must keep it",
                    d->name);
  ev->busy[ev->nbusy++] = d;
  bool ok = seq_eval(ev, d->init, out);
  ev->nbusy--;
  *out = seq_fit(*out, int_bits(d->ty, ev->elem));
  if (ok && ev->nmemo < (int)COUNT_OF(ev->memo)) {
    ev->memo[ev->nmemo].decl = d;
    ev->memo[ev->nmemo++].v = *out;
  }
  return ok;
}

/* C++'s integer promotion (bool, char and short become int) and its usual
 * arithmetic conversions of two integer types, as int_bits gives them: the
 * wider type, or at one width the unsigned one, or a signed type wider than
 * the unsigned (long long with unsigned). An unknown type is taken as int. */
static int seq_promote(int bits) {
  return bits == 0 || (bits < 0 ? -bits : bits) < 32 ? -32 : bits;
}

static int seq_common(int a, int b) {
  a = seq_promote(a), b = seq_promote(b);
  if ((a < 0) == (b < 0))
    return (a < 0 ? -a : a) >= (b < 0 ? -b : b) ? a : b;
  int u = a > 0 ? a : b, sg = a < 0 ? a : b;
  return u >= -sg ? u : sg;
}

static bool seq_eval_binary(SeqEval *ev, Node *e, uint64_t *out) {
  uint64_t a = 0, b = 0;
  if (!seq_eval(ev, e->lhs, &a) || !seq_eval(ev, e->rhs, &b))
    return false;
  bool shift = e->op == OP_SHL || e->op == OP_SHR;
  int ct = shift ? seq_promote(int_bits(e->lhs->ty, ev->elem))
                 : seq_common(int_bits(e->lhs->ty, ev->elem), int_bits(e->rhs->ty, ev->elem));
  a = seq_fit(a, ct);
  if (!shift)
    b = seq_fit(b, ct);
  bool sgn = ct < 0;
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  switch (e->op) {
  case OP_ADD: *out = a + b; return true;
  case OP_SUB: *out = a - b; return true;
  case OP_MUL: *out = a * b; return true;
  case OP_DIV:
  case OP_REM:
    if (b == 0 || (sgn && sb == -1 && sa == INT64_MIN))
      return seq_fail(ev, e, "this division is by 0 for some sizes");
    *out = sgn ? (uint64_t)(e->op == OP_DIV ? sa / sb : sa % sb) : e->op == OP_DIV ? a / b : a % b;
    return true;
  case OP_SHL: *out = b < 64 ? a << b : 0; return true;
  case OP_SHR:
    *out = b >= 64 ? (sgn && sa < 0 ? ~0ull : 0) : sgn ? (uint64_t)(sa >> b) : a >> b;
    return true;
  case OP_LT: *out = sgn ? sa < sb : a < b; return true;
  case OP_GT: *out = sgn ? sa > sb : a > b; return true;
  case OP_LE: *out = sgn ? sa <= sb : a <= b; return true;
  case OP_GE: *out = sgn ? sa >= sb : a >= b; return true;
  case OP_EQ: *out = a == b; return true;
  case OP_NE: *out = a != b; return true;
  case OP_AND: *out = a & b; return true;
  case OP_XOR: *out = a ^ b; return true;
  case OP_OR: *out = a | b; return true;
  case OP_LAND: *out = a && b; return true;
  case OP_LOR: *out = a || b; return true;
  default: return seq_fail(ev, e, "%s", seq_ops);
  }
}

static bool seq_eval_node(SeqEval *ev, Node *e, uint64_t *out) {
  uint64_t a = 0, b = 0, c = 0;
  switch (e->kind) {
  case ND_INT:
  case ND_BOOL: *out = (uint64_t)e->ival; return true;
  case ND_VAR: return seq_eval_var(ev, e, out);
  case ND_CAST:
    if (!int_bits(e->ty, ev->elem) || !int_bits(e->lhs->ty, ev->elem))
      return seq_fail(ev, e, "%s", seq_ops);
    return seq_eval(ev, e->lhs, out);
  case ND_METHOD:
    if (node_is_method(e, TY_ARRAY, "Size")) { /* every input has the same size */
      *out = ev->len;
      return true;
    }
    return seq_fail(ev, e, "of an input, a Sequence reads its Size() only");
  case ND_COND:
    if (!seq_eval(ev, e->cond, &c) || !seq_eval(ev, e->then, &a) || !seq_eval(ev, e->els, &b))
      return false;
    *out = c ? a : b;
    return true;
  case ND_CALL:
    if (e->kids.len == 2 && (!strcmp(e->name, "min") || !strcmp(e->name, "max"))) {
      Node *x = e->kids.items[0], *y = e->kids.items[1];
      if (!seq_eval(ev, x, &a) || !seq_eval(ev, y, &b))
        return false;
      /* in the chosen overload's type (the prelude's max(int, unsigned) is
         unsigned, max(long long, unsigned) long long) */
      int ct = seq_promote(int_bits(e->ty, ev->elem));
      a = seq_fit(a, ct), b = seq_fit(b, ct);
      bool less = ct < 0 ? (int64_t)a < (int64_t)b : a < b;
      *out = less == !strcmp(e->name, "min") ? a : b;
      return true;
    }
    return seq_fail(ev, e, "%s", seq_ops);
  case ND_UNARY:
    if (!seq_eval(ev, e->lhs, &a))
      return false;
    switch (e->op) {
    case OP_NEG: *out = -a; return true;
    case OP_PLUS: *out = a; return true;
    case OP_NOT: *out = !a; return true;
    case OP_BITNOT: *out = ~a; return true;
    default: return seq_fail(ev, e, "a Sequence's arguments change nothing");
    }
  case ND_BINARY: return seq_eval_binary(ev, e, out);
  default: return seq_fail(ev, e, "%s", seq_ops);
  }
}

/* e's value in its type (a literal or a node of no integer type: as is). */
static bool seq_eval(SeqEval *ev, Node *e, uint64_t *out) {
  if (!seq_eval_node(ev, e, out))
    return false;
  int bits = int_bits(e->ty, ev->elem);
  if (bits)
    *out = seq_fit(*out, bits);
  return true;
}

/* A Sequence's arguments at one size and part count: (first), (first,
 * step) or (first, step, last), each an unsigned (Sequence's parameters).
 * Value j is first + j step, or last where that is beyond it: the talk's
 * end(tile, tile, len) ends the last tile at len. */
typedef struct {
  int n;
  uint32_t v[3];
} SeqArgs;

static bool seq_args(SeqEval *ev, const Node *s, SeqArgs *out) {
  *out = (SeqArgs){.n = s->kids.len};
  for (int i = 0; i < out->n && i < 3; i++) {
    uint64_t v = 0;
    if (!seq_eval(ev, s->kids.items[i], &v))
      return false;
    out->v[i] = (uint32_t)v;
  }
  return true;
}

static uint64_t seq_value(const SeqArgs *s, uint64_t j) {
  uint64_t v = s->n == 1 ? s->v[0] : (uint64_t)s->v[0] + j * s->v[1];
  return s->n == 3 && v > s->v[2] ? s->v[2] : v;
}

/* Does partition(x, p, start, inc, end) put every element of [0, len) in
 * exactly one of its p parts? Part j holds start[j], start[j] + inc[j],
 * ... below end[j] (and len). On a mismatch, says where in msg. Clears
 * *one (*by_p) where a non-empty part steps by other than 1 (p). */
static bool seq_covers(SeqEval *ev, Node *start, Node *inc, Node *end, unsigned char *seen,
                       Buf *msg, bool *one, bool *by_p) {
  SeqArgs sa, ia, ea;
  ev->nmemo = ev->nbusy = 0;
  if (!seq_args(ev, start, &sa) || !seq_args(ev, inc, &ia) || !seq_args(ev, end, &ea))
    return false;
  memset(seen, 0, ev->len);
  for (uint64_t j = 0; j < ev->p; j++) {
    uint64_t s = seq_value(&sa, j), step = seq_value(&ia, j), e = seq_value(&ea, j);
    if (e > ev->len)
      e = ev->len;
    if (s >= e)
      continue;
    if (step == 0) {
      buf_printf(msg, "part %llu steps by 0 from %llu", (unsigned long long)j,
                 (unsigned long long)s);
      return false;
    }
    *one &= step == 1;
    *by_p &= step == ev->p;
    for (uint64_t i = s; i < e; i += step)
      if (seen[i]++) {
        buf_printf(msg, "element %llu is in two parts (the second is part %llu)",
                   (unsigned long long)i, (unsigned long long)j);
        return false;
      }
  }
  for (uint64_t i = 0; i < ev->len; i++)
    if (!seen[i]) {
      buf_printf(msg, "element %llu is in no part", (unsigned long long)i);
      return false;
    }
  return true;
}

/* The partition's kind, read from what its Sequences evaluate to (every
 * non-empty part stepping by 1: tiles; by p: strides), after each sample
 * covered its input once; PART_NONE after an error. */
static PartKind check_cover(Check *ck, Node *part, const Node *p_decl, const Node *input) {
  static const uint32_t lens[] = {0,  1,  2,   3,   4,   5,   7,    8,    31,
                                  32, 33, 100, 255, 256, 257, 1000, 1025, 4099};
  static const uint32_t ps[] = {1,  2,  3,   4,   5,    7,    8,    16,  31,
                                32, 33, 100, 128, 1000, 1024, 1026, 4096};
  /* larger sizes, fewer part counts each: a bound or a narrow type that
     only bites beyond the small ones (2^16, 2^20 + 3, parts above 1024) */
  static const uint32_t big[][2] = {{65537, 3},
                                    {65537, 1026},
                                    {65537, 4096},
                                    {1048579, 7},
                                    {1048579, 5000}};
  const size_t nlens = sizeof lens / sizeof *lens, nps = sizeof ps / sizeof *ps,
               nbig = sizeof big / sizeof *big;
  Node *start = ((Node *)part->kids.items[2])->decl, *inc = ((Node *)part->kids.items[3])->decl,
       *end = ((Node *)part->kids.items[4])->decl;
  Node *seqs[] = {start, inc, end};
  for (int i = 0; i < 3; i++) {
    const Node *set = node_assigned_in(ck->cd->fn->body, seqs[i]);
    if (seqs[i]->kids.len < 1 || seqs[i]->kids.len > 3) {
      error(ck, seqs[i]->loc,
            "tgm reads a Sequence's arguments from its declaration: write 'Sequence %s(first, "
            "step, last);' (or (first, step), (value))",
            seqs[i]->name);
      return PART_NONE;
    }
    if (set) {
      error(ck, set->loc,
            "'%s' is assigned after its declaration: tgm reads a Sequence from its "
            "declaration, so it must keep it",
            seqs[i]->name);
      return PART_NONE;
    }
  }
  SeqEval ev = {.body = ck->cd->fn->body, .p_decl = p_decl, .elem = ck->elem};
  unsigned char *seen = arena_alloc(ck->ctx->arena, big[nbig - 1][0]);
  bool one = true, by_p = true;
  for (size_t k = 0; k < nlens * nps + nbig; k++) {
    Buf msg = {0};
    ev.len = k < nlens * nps ? lens[k / nps] : big[k - nlens * nps][0];
    ev.p = k < nlens * nps ? ps[k % nps] : big[k - nlens * nps][1];
    if (seq_covers(&ev, start, inc, end, seen, &msg, &one, &by_p))
      continue;
    if (ev.bad)
      error(ck, ev.bad->loc, "%s", ev.why);
    else
      error(ck, part->loc,
            "the parts do not cover the input once: with %s.Size() = %llu and %s = %llu, %s; "
            "tgm runs tiles, start(0, tile, len), end(tile, tile, len + tile), inc(1) with "
            "tile = (len + p - 1) / p, or strides, start(0, 1, p), end(len, 1, len + p), "
            "inc(p)",
            input->name, (unsigned long long)ev.len, p_decl->name, (unsigned long long)ev.p,
            msg.data);
    buf_free(&msg);
    return PART_NONE;
  }
  if (one)
    return PART_TILED;
  if (by_p)
    return PART_STRIDED;
  error(ck, inc->loc,
        "cannot tell a tiled from a strided partition: Sequence '%s' must step by 1 for tiles "
        "or by %s for strides",
        inc->name, p_decl->name);
  return PART_NONE;
}

/* One Map of a compound codelet: Map(spectrum, partition(x, p, start, inc,
 * end)) over input `input`. Returns its partition kind. */
static PartKind check_one_map(Check *ck, Node *map, Node *input) {
  Codelet *cd = ck->cd;
  Node *fn = node_kid(map, 0), *part = node_kid(map, 1);
  if (!fn || !part || map->kids.len != 2) {
    error(ck, map->loc, "Map takes the spectrum and a partition: Map %s(%s, partition(...))",
          map->name, cd->name);
    return PART_NONE;
  }
  if (fn->kind != ND_VAR || fn->decl || strcmp(fn->name, cd->name) != 0) {
    error(ck, fn->loc, "Map over '%s', which is not the spectrum '%s'",
          fn->kind == ND_VAR ? fn->name : "an expression", cd->name);
    return PART_NONE;
  }
  if (part->kind != ND_CALL || strcmp(part->name, "partition") != 0 || part->kids.len != 5) {
    error(ck, part->loc, "Map's second argument must be partition(in, p, start, inc, end)");
    return PART_NONE;
  }
  Node *x = part->kids.items[0];
  if (input && (x->kind != ND_VAR || x->decl != input)) {
    error(ck, x->loc, "Map '%s' must partition input '%s' (one Map per input, in order)", map->name,
          input->name);
    return PART_NONE;
  }
  Node *p = part->kids.items[1];
  if (p->kind != ND_VAR || !p->decl || !(p->decl->qual & Q_TUNABLE)) {
    error(ck, p->loc, "the number of parts must be a __tunable unsigned");
    return PART_NONE;
  }
  for (int i = 2; i < 5; i++) {
    Node *s = part->kids.items[i];
    if (s->kind != ND_VAR || !s->decl || s->decl->kind != ND_DECL) {
      error(ck, s->loc, "partition's start, inc and end must be Sequence variables");
      return PART_NONE;
    }
  }
  return check_cover(ck, part, p->decl, x->decl);
}

/* Compound codelets: one Map per input, Map(spectrum, partition(x, p,
 * start, inc, end)), returned through the spectrum with the codelet's
 * parameters: return sum(map); return dot(mx, my); return count(map, t); */
static void check_map(Check *ck) {
  Codelet *cd = ck->cd;
  Arena *a = ck->ctx->arena;
  PtrVec inputs = {0}, params = {0};
  for (int i = 0; i < cd->fn->kids.len; i++) {
    Node *p = cd->fn->kids.items[i];
    vec_push(a, p->ty->kind == TY_ARRAY ? &inputs : &params, p);
  }
  if (ck->maps.len != inputs.len) {
    error(ck, ((Node *)ck->maps.items[ck->maps.len > inputs.len ? inputs.len : 0])->loc,
          "a compound codelet has one Map per input: %d Map%s for %d input%s", ck->maps.len,
          ck->maps.len == 1 ? "" : "s", inputs.len, inputs.len == 1 ? "" : "s");
    return;
  }
  for (int i = 0; i < ck->maps.len; i++) {
    PartKind k = check_one_map(ck, ck->maps.items[i], inputs.items[i]);
    if (k == PART_NONE)
      return;
    if (i > 0 && k != cd->part) {
      error(ck, ((Node *)ck->maps.items[i])->loc,
            "the Maps of a compound codelet split every "
            "input the same way, tiled or strided");
      return;
    }
    cd->part = k;
  }
  Buf want = {0};
  buf_printf(&want, "%s(", cd->name);
  for (int i = 0; i < ck->maps.len; i++)
    buf_printf(&want, "%s%s", i ? ", " : "", ((Node *)ck->maps.items[i])->name);
  for (int i = 0; i < params.len; i++)
    buf_printf(&want, ", %s", ((Node *)params.items[i])->name);
  buf_puts(&want, ")");
  for (int i = 0; i < ck->returns.len; i++) {
    Node *r = ((Node *)ck->returns.items[i])->lhs;
    bool ok = r && r->kind == ND_CALL && strcmp(r->name, cd->name) == 0 &&
              r->kids.len == ck->maps.len + params.len;
    for (int k = 0; ok && k < r->kids.len; k++) {
      Node *arg = r->kids.items[k];
      Node *want_decl = k < ck->maps.len ? ck->maps.items[k] : params.items[k - ck->maps.len];
      ok = arg->kind == ND_VAR && arg->decl == want_decl;
    }
    if (!ok)
      error(ck, r ? r->loc : ((Node *)ck->returns.items[i])->loc,
            "a compound codelet returns %s, the spectrum over its Map%s", want.data,
            ck->maps.len == 1 ? "" : "s");
  }
  buf_free(&want);
}

/* The identity an accumulator must start from. */
static bool is_identity(const Node *e, Op op, const char **want) {
  while (e && e->kind == ND_CAST)
    e = e->lhs;
  bool zero = e && (((e->kind == ND_INT || e->kind == ND_BOOL) && e->ival == 0) ||
                    (e->kind == ND_FLOAT && e->fval == 0)); /* 0, 0.0f, false */
  bool one = e && (((e->kind == ND_INT || e->kind == ND_BOOL) && e->ival == 1) ||
                   (e->kind == ND_FLOAT && e->fval == 1)); /* 1, 1.0f, true */
  const Combiner *cb = combiner_of(op);
  if (!cb) {
    *want = "?";
    return true;
  }
  switch (cb->identity) {
  case ID_ZERO: *want = "0"; return zero;
  case ID_ONE: *want = "1"; return one;
  case ID_ONES:
    *want = "~0";
    return e && ((e->kind == ND_UNARY && e->op == OP_BITNOT && e->lhs->kind == ND_INT &&
                  e->lhs->ival == 0) ||
                 (e->kind == ND_UNARY && e->op == OP_NEG && e->lhs->kind == ND_INT &&
                  e->lhs->ival == 1));
  case ID_LOWEST:
    *want = "Lowest()";
    return e && e->kind == ND_CALL && strcmp(e->name, "Lowest") == 0;
  case ID_HIGHEST:
    *want = "Highest()";
    return e && e->kind == ND_CALL && strcmp(e->name, "Highest") == 0;
  }
  return false;
}

/* e as an integer constant: a literal, -e, ~e, a - b, a + b (a header's
 * INT_MIN is (-2147483647 - 1)). */
static bool const_int(const Node *e, long long *v) {
  long long a, b;
  while (e && e->kind == ND_CAST)
    e = e->lhs;
  if (!e)
    return false;
  if (e->kind == ND_INT) {
    *v = e->ival;
    return true;
  }
  if (e->kind == ND_UNARY && e->op == OP_NEG && const_int(e->lhs, &a)) {
    *v = (long long)(0ull - (unsigned long long)a);
    return true;
  }
  if (e->kind == ND_UNARY && e->op == OP_BITNOT && const_int(e->lhs, &a)) {
    *v = ~a; /* ~0u: all ones, as the type it is converted to holds them */
    return true;
  }
  if (e->kind == ND_BINARY && (e->op == OP_SUB || e->op == OP_ADD) && const_int(e->lhs, &a) &&
      const_int(e->rhs, &b)) {
    *v = (long long)(e->op == OP_SUB ? (unsigned long long)a - (unsigned long long)b
                                     : (unsigned long long)a + (unsigned long long)b);
    return true;
  }
  return false;
}

/* Is constant e, as a value of type k, the identity of op? Besides
 * is_identity's spellings: an integer limit spelled as a number (INT_MAX,
 * 2147483647, ~0u, -1 as an unsigned, 0 for a max of unsigned: the same
 * value as Highest() or Lowest() in k), all ones as a number for &, and for
 * a float an infinity (the prelude's INFINITY, __int_as_float(0x7f800000):
 * FLT_MAX is not one). For an accumulator's start and a cooperative
 * codelet's fallback for an empty lane alike. */
static bool is_identity_as(ElemType elem, const Node *e, const Type *ty, Op op, const char **want) {
  if (is_identity(e, op, want))
    return true;
  const Combiner *cb = combiner_of(op);
  if (!cb || !ty ||
      (cb->identity != ID_LOWEST && cb->identity != ID_HIGHEST && cb->identity != ID_ONES))
    return false;
  bool low = cb->identity == ID_LOWEST, ones = cb->identity == ID_ONES;
  TypeKind k = type_concrete(ty, elem);
  long long v;
  if (k == TY_FLOAT || k == TY_DOUBLE) {
    while (e && e->kind == ND_CAST)
      e = e->lhs;
    bool neg = e && e->kind == ND_UNARY && e->op == OP_NEG;
    if (neg)
      e = e->lhs;
    return !ones && e && e->kind == ND_CALL && e->name && strcmp(e->name, "__int_as_float") == 0 &&
           e->kids.len == 1 && const_int(e->kids.items[0], &v) && v == 0x7f800000 && neg == low;
  }
  if (k == TY_BOOL) { /* a bool holds 0 or 1: true is ~0 and Highest(), false Lowest() */
    while (e && e->kind == ND_CAST)
      e = e->lhs;
    if (e && e->kind == ND_BOOL)
      v = e->ival;
    else if (!const_int(e, &v))
      return false;
    return low ? v == 0 : v != 0;
  }
  if (!const_int(e, &v))
    return false;
  switch (k) { /* the constant converted to k, as C converts it */
  case TY_INT: return (int32_t)v == (ones ? -1 : low ? INT32_MIN : INT32_MAX);
  case TY_UINT: return (uint32_t)v == (ones || !low ? UINT32_MAX : 0);
  case TY_LONG: return v == (ones ? -1 : low ? INT64_MIN : INT64_MAX);
  case TY_ULONG: return (unsigned long long)v == (ones || !low ? UINT64_MAX : 0);
  default: return false;
  }
}

bool sema_is_identity(const Node *e, const Type *ty, ElemType elem, Op op) {
  const char *want;
  return is_identity_as(elem, e, ty, op, &want);
}

/* A constant a lane without an element could fall back to: 0, -1, 1.5f,
 * Lowest(), Highest(). */
static bool is_constant(const Node *e) {
  long long v;
  while (e && e->kind == ND_CAST)
    e = e->lhs;
  return e && (const_int(e, &v) || e->kind == ND_FLOAT || e->kind == ND_BOOL ||
               (e->kind == ND_UNARY && e->op == OP_NEG && e->lhs && e->lhs->kind == ND_FLOAT) ||
               (e->kind == ND_CALL && e->kids.len == 0 &&
                (strcmp(e->name, "Lowest") == 0 || strcmp(e->name, "Highest") == 0)));
}

/* In a cooperative codelet, `v = c ? x : k` and `v = max(v, c ? x : k)`
 * (any combine) give a lane with nothing to read the constant k: it must
 * be the identity, or an empty lane changes the result (a max of negative
 * numbers falling back to 0). */
static bool check_fallback(Node *n, void *data) {
  Check *ck = data;
  if (n->kind != ND_ASSIGN || !n->lhs || n->lhs->kind != ND_VAR || !is_value(ck, n->lhs->decl) ||
      (n->lhs->decl->qual & Q_SHARED) || ck->cd->op == OP_NONE)
    return true;
  Node **x = node_combine_operand(n, n->lhs->decl), *r = x ? *x : n->rhs; /* or a plain value */
  const char *want;
  if (r && r->kind == ND_COND && is_constant(r->els) &&
      !is_identity_as(ck->elem, r->els, n->lhs->decl->ty, ck->cd->op, &want))
    error(ck, r->els->loc,
          "a lane with nothing to read takes this value, which is not %s, the identity of "
          "'%s': an empty lane would change the result",
          want, op_name(ck->cd->op));
  return true;
}

static bool indexes_param(Node *n, void *ctx) {
  if (n->kind == ND_INDEX && n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl &&
      n->lhs->decl->kind == ND_PARAM)
    *(bool *)ctx = true;
  return true;
}

/* Does e read the codelet's input: in[...] or a transform of the inputs
 * (`a[tid] * b[tid]`: lowering makes it the thread's value), or cond ? that
 * : identity? (The one-statement form of `T val = 0; val = cond ? ... : 0;`.) */
static bool reads_input(const Node *e, Op op) {
  const char *want;
  bool found = false;
  if (e && e->kind == ND_COND) {
    /* `x > t ? 1 : 0`, `tid < n && x > t ? 1 : 0`: the test reads it (probe15 02) */
    node_walk(e->cond, indexes_param, &found);
    return found || (reads_input(e->then, op) &&
                     (is_identity(e->els, op, &want) || reads_input(e->els, op)));
  }
  if (e)
    node_walk((Node *)e, indexes_param, &found);
  return found;
}

/* Does declaration d convert a floating-point value (under any casts) into
 * its integer or bool type? */
static bool float_into_integer(const Check *ck, const Node *d) {
  const Node *e = d->init;
  while (e && e->kind == ND_CAST && e->lhs)
    e = e->lhs;
  TypeKind f = e && e->ty ? type_concrete(e->ty, ck->elem) : TY_VOID;
  return int_bits(d->ty, ck->elem) != 0 && (f == TY_FLOAT || f == TY_DOUBLE);
}

/* Why a start that looks right is not the identity. */
static const char *identity_hint(Check *ck, const Node *d, Op op) {
  const Node *e = d->init;
  while (e && (e->kind == ND_CAST || (e->kind == ND_UNARY && e->op == OP_NEG)))
    e = e->lhs;
  TypeKind k = type_concrete(d->ty, ck->elem);
  if (e && e->kind == ND_FLOAT && (op == OP_MAX || op == OP_MIN) &&
      (k == TY_FLOAT || k == TY_DOUBLE))
    return arena_printf(ck->ctx->arena,
                        ": for floating point that is an infinity (%s), not the %s "
                        "finite number (%s, std::numeric_limits<T>::%s()), which an "
                        "input of all %s would leave as the result",
                        op == OP_MAX ? "-INFINITY" : "INFINITY",
                        op == OP_MAX ? "lowest" : "largest",
                        op == OP_MAX ? (k == TY_FLOAT ? "-FLT_MAX" : "-DBL_MAX")
                                     : (k == TY_FLOAT ? "FLT_MAX" : "DBL_MAX"),
                        op == OP_MAX ? "lowest" : "max", op == OP_MAX ? "-inf" : "+inf");
  if (e && e->kind == ND_INDEX && e->lhs && e->lhs->kind == ND_VAR && e->lhs->decl &&
      e->lhs->decl->kind == ND_DECL) /* a local array's (probe12 C4) */
    return arena_printf(ck->ctx->arena,
                        ": not a value kept in the array '%s', which tgm does not follow; %s",
                        e->lhs->name,
                        ck->cd->coop ? "start from the thread's element itself ('T val = "
                                       "in[tid];', or its transform)"
                                     : "start from the identity");
  if (e && e->kind == ND_INDEX)
    return ": not an element, which a thread's part may not have (an empty part reads past "
           "it) and which the fold would take twice (a sum counts it twice)";
  if (!ck->cd->coop && float_into_integer(ck, d))
    return ": not a floating-point value, which C++ cuts to an integer, and leaves undefined "
           "outside the integer's range (-INFINITY); write the integer";
  return "";
}

/* A scalar codelet's accumulator may start from a value other than the
 * identity (`T acc = 0;` of a max over fabs, `float acc = -1;`, `T acc = 1;`
 * of a sum): C++ folds it in first, tgm once, into the result (spectrum.c
 * fold_start), the parts starting from the identity. Not an element (an
 * empty part has none, and a sum took it twice), not an Arg, and not a
 * float into an integer accumulator (-INFINITY is no int). */
static bool starts_elsewhere(Check *ck, const Node *d) {
  const Node *e = d->init;
  if (ck->cd->coop || !e || !d->ty || d->ty->kind == TY_ARG || reads_input(e, ck->cd->op))
    return false;
  return !float_into_integer(ck, d);
}

/* The first combine into a plain local is the accumulator; it must start
 * from the operator's identity (or, in a cooperative codelet, from the
 * thread's own input element), or threads with no input would corrupt the
 * result. */
static void check_accumulator(Check *ck) {
  Codelet *cd = ck->cd;
  for (int i = 0; i < ck->combines.len; i++) {
    Node *as = ck->combines.items[i];
    Node *d = lvalue_decl(as->lhs);
    if (!d || d->kind != ND_DECL || (d->qual & Q_SHARED) || as->lhs->kind != ND_VAR)
      continue;
    cd->accum = d;
    const char *want;
    /* a lane's own element starts a cooperative codelet's value; a scalar
       codelet's `T best = in[0];` folded in[0] twice into a sum, read past
       an empty input, and its vector form declared `best` four times (an
       internal error) */
    if (!is_identity_as(ck->elem, d->init, d->ty, cd->op, &want) &&
        !(cd->coop && reads_input(d->init, cd->op)) && !starts_elsewhere(ck, d))
      error(ck, d->init ? d->init->loc : d->loc,
            "accumulator '%s' must start from %s, the identity of '%s'%s%s", d->name, want,
            op_name(cd->op),
            cd->coop || d->ty->kind == TY_ARG ? "" : ", or from a value the return could use",
            identity_hint(ck, d, cd->op));
    return;
  }
}

/* Where a loop updates a local declared before it from that local (`acc =
 * acc * x + 1`, `acc = mine(acc, x)`, `if (!(x <= acc)) acc = x;`): the
 * statement a body tgm cannot read as a fold is at. guard: the nearest
 * enclosing if's condition. NULL: none. */
static const Node *self_update(const Check *ck, Node *n, bool in_loop, Node *guard) {
  if (!n)
    return NULL;
  const Node *r = NULL;
  switch (n->kind) {
  case ND_BLOCK:
    for (int i = 0; i < n->kids.len && !r; i++)
      r = self_update(ck, n->kids.items[i], in_loop, guard);
    return r;
  case ND_FOR:
  case ND_WHILE:
  case ND_DO: return self_update(ck, n->body, true, NULL);
  case ND_IF:
    r = self_update(ck, n->then, in_loop, n->cond);
    return r ? r : self_update(ck, n->els, in_loop, n->cond);
  case ND_EXPR: {
    Node *as = n->lhs;
    if (!in_loop || !as || as->kind != ND_ASSIGN || !as->lhs || as->lhs->kind != ND_VAR)
      return NULL;
    const Node *d = as->lhs->decl;
    if (!d || d->kind != ND_DECL || vec_has(&ck->in_loops, d) || vec_has(&ck->loop_vars, d))
      return NULL;
    return node_reads(as->rhs, d) || node_reads(guard, d) ? as : NULL;
  }
  default: return NULL;
  }
}

/* `if (in[i] > best) { best = in[i]; idx = i; }`: a condition (a
 * comparison) that sets two locals, the common argmax by hand. */
typedef struct {
  const Node *at;
  const char *names[2];
} HandArg;

static bool find_hand_arg(Node *n, void *data) {
  HandArg *h = data;
  if (h->at || n->kind != ND_IF || !n->cond || n->cond->kind != ND_BINARY ||
      !(n->cond->op == OP_LT || n->cond->op == OP_GT || n->cond->op == OP_LE ||
        n->cond->op == OP_GE))
    return !h->at;
  const Node *then = n->then;
  int k = 0;
  for (int i = 0; then && then->kind == ND_BLOCK && i < then->kids.len && k < 2; i++) {
    const Node *st = then->kids.items[i], *as = st->kind == ND_EXPR ? st->lhs : st;
    if (as && as->kind == ND_ASSIGN && as->op == OP_NONE && as->lhs && as->lhs->kind == ND_VAR &&
        as->lhs->decl && as->lhs->decl->kind == ND_DECL)
      h->names[k++] = as->lhs->name;
  }
  if (k == 2)
    h->at = n;
  return !h->at;
}

/* Why a codelet's combine was not found, where the loop's text says more
 * than "cannot find" (found by a probe): the returned accumulator of a type
 * tgm does not accumulate in (unsigned short), or passed to a function of
 * the file (by reference: what the function does to it is not read). */
typedef struct {
  const Node *acc;       /* the returned variable's declaration */
  const PtrVec *helpers; /* the file's functions */
  const Node *call;      /* a call of one of them with acc as an argument */
  const Node *replace;   /* in a loop, `acc = e` with e not reading acc */
} AccUse;

static bool find_returned_var(Node *n, void *p) {
  AccUse *u = p;
  if (n->kind == ND_RETURN && n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl && !u->acc)
    u->acc = n->lhs->decl;
  return true;
}

static bool find_acc_call(Node *n, void *p) {
  AccUse *u = p;
  if (u->call || n->kind != ND_CALL)
    return !u->call;
  bool helper = false;
  for (int i = 0; i < u->helpers->len; i++)
    helper |= !strcmp(((const Node *)u->helpers->items[i])->name, n->name);
  for (int i = 0; helper && i < n->kids.len; i++) {
    const Node *k = n->kids.items[i];
    if (k && k->kind == ND_VAR && k->decl == u->acc)
      u->call = n;
  }
  return true;
}

static bool find_replace_in(Node *n, void *p) {
  AccUse *u = p;
  if (!u->replace && n->kind == ND_ASSIGN && n->op == OP_NONE && node_is_var(n->lhs, u->acc) &&
      !node_reads(n->rhs, u->acc))
    u->replace = n;
  return !u->replace;
}

static bool find_replace(Node *n, void *p) {
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) {
    node_walk(n->body, find_replace_in, p);
    return false;
  }
  return true;
}

static bool combine_not_found_why(Check *ck, Node *fn, const PtrVec *helpers) {
  /* sdata[tid] = sdata[tid] + sdata[tid + s] (probe12 C2) */
  const Node *shared = ck->cd->coop ? node_shared_combine_in(fn->body) : NULL;
  if (shared) {
    error(ck, shared->loc,
          "this combines in shared memory ('%s'): tgm reads a cooperative codelet's combine "
          "from its thread's value, a local it returns: 'T val = in[tid]; tmp[tid] = val; ... "
          "if (tid < s) val += tmp[tid + s]; tmp[tid] = val; ... return val;' (tgm places the "
          "barriers)",
          lvalue_decl(shared->lhs)->name);
    return true;
  }
  AccUse u = {NULL, helpers, NULL, NULL};
  node_walk(fn->body, find_returned_var, &u);
  if (!u.acc)
    return false;
  if (u.acc->ty && u.acc->ty->kind == TY_OTHER) {
    error(ck, u.acc->loc,
          "the accumulator '%s' is '%s', a type tgm does not accumulate in (bool, int, "
          "unsigned, long long, unsigned long long, float, double): accumulate in one of "
          "them ('unsigned %s') and convert or mask where it is returned",
          u.acc->name, type_str(ck->ctx->arena, u.acc->ty), u.acc->name);
    return true;
  }
  node_walk(fn->body, find_acc_call, &u);
  if (u.call) {
    error(ck, u.call->loc,
          "'%s' is given the accumulator '%s': tgm reads how the loop combines from the loop's "
          "own text, not from inside '%s'; write the update in the loop ('%s += ...', '%s = "
          "max(%s, ...)')",
          u.call->name, u.acc->name, u.call->name, u.acc->name, u.acc->name, u.acc->name);
    return true;
  }
  node_walk(fn->body, find_replace, &u);
  /* `T t = acc + y; ... acc = t;`: the accumulator updated through a
     temporary that reads it (a Kahan sum: probe13 E1), not replaced */
  const Node *via = u.replace && u.replace->rhs && u.replace->rhs->kind == ND_VAR
                        ? u.replace->rhs->decl
                        : NULL;
  if (via && via->kind == ND_DECL && via->init && node_reads(via->init, u.acc)) {
    error(ck, u.replace->loc,
          "'%s' is updated through '%s', a temporary that reads it: tgm reads a combine from "
          "the update's own text ('%s += y', '%s = max(%s, y)'); a compensated (Kahan) sum, "
          "which carries a correction from one element to the next, no split of the loop "
          "keeps: write the plain sum (the check holds a float sum within the rounding of any "
          "order)",
          u.acc->name, via->name, u.acc->name, u.acc->name, u.acc->name);
    return true;
  }
  if (u.replace) {
    error(ck, u.replace->loc,
          "'%s = ...' replaces the accumulator without reading it, so the loop keeps the last "
          "value it sees: which one is last depends on the order the parts run in, so no "
          "split of the loop gives it; %s",
          u.acc->name, can_combine(ck));
    return true;
  }
  return false;
}

static void check_codelet(Ctx *ctx, Codelet *cd, ElemType elem, const PtrVec *helpers) {
  Check ck = {.ctx = ctx, .cd = cd, .elem = elem};
  Arena *a = ctx->arena;
  Node *fn = cd->fn;
  cd->id = cd->tag; /* untagged: named after their kind, below */

  if (!type_is_arith(fn->ty) && fn->ty->kind != TY_ARG)
    error(&ck, cd->loc,
          "codelet '%s' must return the element type T or one of tgm's arithmetic types "
          "(bool, int, unsigned, long long, unsigned long long, float, double), not '%s'",
          cd->name, type_str(a, fn->ty));
  Node *param = node_kid(fn, 0);
  if (!param || param->ty->kind != TY_ARRAY)
    error(&ck, param ? param->loc : cd->loc,
          "codelet '%s' takes its input first: 'const Array<1,T> in' (T is the --type element)",
          cd->name);
  for (int i = 0; i < fn->kids.len; i++) {
    Node *p = fn->kids.items[i];
    if (p->ty->kind == TY_ARRAY) {
      if (p->ty->dims != 1 || !p->ty->base || p->ty->base->kind != TY_ELEM)
        error(&ck, p->loc, "input '%s' must be 'const Array<1,T>', not '%s'", p->name,
              type_str(a, p->ty));
    } else if (!type_is_arith(p->ty)) {
      error(&ck, p->loc,
            "parameter '%s' must be an input 'const Array<1,T>' or a scalar (T, int, "
            "unsigned, long long, float, double), not '%s'",
            p->name, type_str(a, p->ty));
    }
  }

  /* a scalar codelet's second loop (`for (j < 3) acc /= 2;` after the one
     over its input): spectrum.c says a scalar codelet has one, but the
     combine checks below spoke first ("'/' cannot combine": probe13 C4) */
  const Node *loop = NULL, *again = NULL;
  bool parallel = false; /* a Vector or a Map: not a scalar codelet */
  for (int i = 0; fn->body && i < fn->body->kids.len; i++) {
    const Node *k = fn->body->kids.items[i];
    parallel |= k->kind == ND_DECL && k->ty && (k->ty->kind == TY_VECTOR || k->ty->kind == TY_MAP);
    if (k->kind == ND_FOR || k->kind == ND_WHILE || k->kind == ND_DO) {
      again = loop && !again ? k : again;
      loop = loop ? loop : k;
    }
  }
  if (again && !parallel) {
    error(&ck, again->loc,
          "a scalar codelet has one loop over its input; this is a second (the first at line "
          "%d): what is done with the result after the loop goes into the return ('return "
          "acc / 8;')",
          loop->loc.line);
    return;
  }
  node_walk(fn->body, find_loop_vars, &ck);
  node_walk(fn->body, find_returned, &ck);
  fn->body = node_rewrite(fn->body, desugar_increment, &ck);
  fn->body = node_rewrite(fn->body, desugar_sum, &ck);
  fn->body = node_rewrite(fn->body, desugar_continue, &ck);
  fn->body = node_rewrite(fn->body, desugar_minmax, &ck);
  node_walk(fn->body, visit, &ck);

  if (!always_returns(fn->body))
    error(&ck, cd->loc, "codelet '%s' does not return a value on every path", cd->name);

  /* the talk's figure 1(c) declares its Vector with no '__coop': a codelet
   * with a Vector is cooperative, marked or not */
  if (cd->vector && !cd->map)
    cd->coop = true;
  if (cd->coop && !cd->vector)
    error(&ck, cd->loc, "cooperative codelet '%s' declares no Vector (e.g. 'Vector vthread;')",
          cd->name);
  for (int i = 0; i < ck.shared.len; i++) {
    Node *s = ck.shared.items[i];
    if (!cd->coop)
      error(&ck, s->loc,
            "__shared '%s' in a codelet that is not cooperative (it declares no "
            "Vector)",
            s->name);
  }
  if (cd->map && cd->vector)
    error(&ck, cd->map->loc,
          "a codelet is either compound (Map) or cooperative (Vector), not both");

  if (cd->map) {
    cd->kind = CK_COMPOUND;
    check_map(&ck);
    if (cd->op != OP_NONE)
      error(&ck, cd->op_loc, "a compound codelet combines through its spectrum, not itself");
    if (cd->tunables.len == 0)
      error(&ck, cd->map->loc, "a compound codelet needs a __tunable number of parts");
    for (int i = 0; i < cd->tunables.len; i++) /* probe12 E4: accepted silently */
      if (!node_reads(fn->body, cd->tunables.items[i]))
        error(&ck, ((Node *)cd->tunables.items[i])->loc,
              "tunable '%s' is unused: tgm's tunables are the parts and the block's size and "
              "items; declare only the number of parts the partition uses",
              ((Node *)cd->tunables.items[i])->name);
  } else {
    cd->kind = cd->atomic ? CK_ATOMIC : cd->vector ? CK_COOP : CK_SCALAR;
    HandArg hand = {0};
    if (cd->op == OP_NONE && !ck.failed && !cd->vector)
      node_walk(fn->body, find_hand_arg, &hand);
    if (cd->op == OP_NONE && !ck.failed && hand.at)
      error(&ck, hand.at->loc,
            "this 'if' sets two values together ('%s' and '%s'): an argmax or argmin by hand, "
            "which is no fold tgm can split; keep the value and its index as one Arg: 'Arg "
            "accum = Lowest();', 'accum = max(accum, Arg(in[i], in.Index(i)));' (min and "
            "Highest() for the smallest), 'return accum;' (the result's key is the index, its "
            "value the element)",
            hand.names[0], hand.names[1]);
    else if (cd->op == OP_NONE && !ck.failed) {
      const Node *at = self_update(&ck, fn->body, false, NULL);
      /* a function of the user's own (one of the file's helpers): tgm reads
         only the loop's own text */
      const Node *call = NULL;
      for (int i = 0; at && at->rhs && at->rhs->kind == ND_CALL && i < helpers->len; i++)
        if (!strcmp(((const Node *)helpers->items[i])->name, at->rhs->name))
          call = at->rhs;
      /* std::min<float>(acc, x) of a double acc: the named type converts the
         accumulator itself at each step (probe14 11) */
      const Node *named = at && at->rhs && at->rhs->kind == ND_COND && at->rhs->name &&
                                  !strncmp(at->rhs->name, "std::", 5)
                              ? at->rhs
                              : NULL;
      const Node *conv = named && named->then && named->then->kind == ND_CAST &&
                                 node_is_var(named->then->lhs, at->lhs->decl)
                             ? named->then
                         : named && named->els && named->els->kind == ND_CAST &&
                                 node_is_var(named->els->lhs, at->lhs->decl)
                             ? named->els
                             : NULL;
      if (conv)
        error(&ck, at->loc,
              "%s<%s>(%s, ...) converts the accumulator '%s' to %s at every step, which no "
              "split of the loop repeats; name the accumulator's type (%s<%s>) or leave the "
              "type out",
              named->name, type_str(ck.ctx->arena, conv->ty), at->lhs->name, at->lhs->name,
              type_str(ck.ctx->arena, conv->ty), named->name,
              type_str(ck.ctx->arena, at->lhs->decl->ty));
      else if (at)
        error(&ck, at->loc,
              "'%s' is updated here from its own value in a way tgm cannot split into "
              "partial results%s%s%s: %s",
              at->lhs->name, call ? " (tgm does not look inside '" : "", call ? call->name : "",
              call ? "' for the combine)" : "", can_combine(&ck));
      else if (!combine_not_found_why(&ck, fn, helpers))
        error(&ck, cd->loc, "cannot find how codelet '%s' combines values: %s", cd->name,
              can_combine(&ck));
    } else if (!ck.failed)
      check_accumulator(&ck);
    if (!ck.failed && cd->coop)
      node_walk(fn->body, check_fallback, &ck);
    for (int i = 0; i < cd->tunables.len; i++)
      error(&ck, ((Node *)cd->tunables.items[i])->loc,
            "only compound codelets have tunables; '%s' is unused here",
            ((Node *)cd->tunables.items[i])->name);
  }
  if (cd->accum)
    cd->accum->qual |= Q_ACCUM;
}

/* An untagged codelet is named after its kind: scalar, coop, atomic,
 * tiled, strided; a second of a kind in its spectrum gets _2, ... */
static void name_untagged(Ctx *ctx, Program *prog) {
  for (int i = 0; i < prog->codelets.len; i++) {
    Codelet *c = prog->codelets.items[i];
    if (c->id)
      continue;
    const char *base = c->kind == CK_SCALAR   ? "scalar"
                       : c->kind == CK_COOP   ? "coop"
                       : c->kind == CK_ATOMIC ? "atomic"
                                              : part_kind_name(c->part);
    for (int k = 1; !c->id; k++) {
      const char *id = k == 1 ? base : arena_printf(ctx->arena, "%s_%d", base, k);
      bool taken = false;
      for (int j = 0; j < prog->codelets.len && !taken; j++) {
        Codelet *d = prog->codelets.items[j];
        taken = d != c && strcmp(d->name, c->name) == 0 && d->id && strcmp(d->id, id) == 0;
        taken |= d != c && strcmp(d->name, c->name) == 0 && d->tag && strcmp(d->tag, id) == 0;
      }
      if (!taken)
        c->id = id;
    }
  }
}

/* A tag names the codelet's device function, NAME_TAG, beside the ones tgm
 * writes: NAME_reference, NAME_TAG_shfl (and _redux, _fold, _group, _vec:
 * compose.c, rows.c), the kernels NAME_DT_V_ST, the launchers NAME_f32 and
 * NAME_f32_rows. A tag that makes one of those names again made a file that
 * does not compile (probe12 B3, B4): why it may not be one, or NULL. */
static const char *tag_clash(Arena *a, const char *tag) {
  static const char *const suffixes[] = {"_shfl", "_redux", "_fold", "_group",
                                         "_vec",  "_rows",  "_cols", "_pass2"};
  if (strcmp(tag, "reference") == 0)
    return "tgm's reference function is NAME_reference";
  size_t n = strlen(tag);
  for (size_t i = 0; i < COUNT_OF(suffixes); i++) {
    size_t k = strlen(suffixes[i]);
    if (n > k && strcmp(tag + n - k, suffixes[i]) == 0)
      return arena_printf(a,
                          "tgm's own names end in '%s' (a codelet's other forms, a kernel's "
                          "second pass)",
                          suffixes[i]);
  }
  for (int e = 0; e < ET_COUNT; e++)
    if (strcmp(tag, elem_info((ElemType)e)->name) == 0)
      return "tgm's launchers are NAME_TYPE (sum_i32)";
  bool kernel_like = true; /* DT_V_ST: capitals, digits and '_' */
  for (const char *p = tag; *p && kernel_like; p++)
    kernel_like = (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
  return kernel_like ? "tgm's kernels are NAME_ with a variant id of capitals (sum_DT_V_ST)" : NULL;
}

/* Codelets of one name form a spectrum: one operator, distinct tags. */
static void check_spectra(Ctx *ctx, Program *prog) {
  PtrVec *cds = &prog->codelets;
  for (int i = 0; i < cds->len; i++) {
    Codelet *c = cds->items[i];
    const char *why = c->tag ? tag_clash(ctx->arena, c->tag) : NULL;
    if (why)
      diag_error(ctx->diag, c->tag_loc, "tag '%s' would name a function as tgm's own do: %s",
                 c->tag, why);
    for (int j = 0; j < i; j++) {
      Codelet *d = cds->items[j];
      if (strcmp(c->name, d->name) == 0 && c->tag && d->tag && strcmp(c->tag, d->tag) == 0) {
        diag_error(ctx->diag, c->tag_loc, "tag '%s' is used twice in spectrum '%s'", c->tag,
                   c->name);
        diag_note(ctx->diag, d->tag_loc, "first used here");
      }
    }
  }
  for (int i = 0; i < cds->len; i++) {
    Codelet *c = cds->items[i];
    /* the spectrum's operator: its first codelet that combines */
    Codelet *first = NULL;
    for (int j = 0; j < cds->len && !first; j++) {
      Codelet *d = cds->items[j];
      if (strcmp(c->name, d->name) == 0 && d->kind != CK_COMPOUND && d->op != OP_NONE)
        first = d;
    }
    if (!first) {
      if (c->kind == CK_COMPOUND)
        diag_error(ctx->diag, c->loc,
                   "no codelet of spectrum '%s' says how to combine; a compound codelet needs "
                   "a scalar or cooperative one beside it",
                   c->name);
      continue;
    }
    if (c->kind == CK_COMPOUND) {
      c->op = first->op;
      c->op_inherited = true;
    } else if (c->op != first->op) {
      diag_error(ctx->diag, c->op_loc,
                 "spectrum '%s' combines with '%s', but this codelet with '%s'", c->name,
                 op_name(first->op), op_name(c->op));
      diag_note(ctx->diag, first->op_loc, "'%s' chosen here", op_name(first->op));
    }
  }
}

/* C's math on an integer: the prelude declares sqrt, fabs, exp, log,
 * floor and ceil of an integer as <cmath> does (double out), but CUDA's
 * device code has no such overload (nvcc: "calling a constexpr __host__
 * function", l2norm over i32 did not compile) and the simulator took it:
 * the argument is made double, as <cmath> makes it. abs of an unsigned
 * value C++ refuses (nvcc and hipcc: ambiguous); it would be the value
 * itself, and |a - b| of unsigned values wraps before abs sees it: an
 * error. */
typedef struct {
  Ctx *ctx;
  ElemType elem;
  Type *ret;             /* float_to_int: the function's result type */
  const Node *acc;       /* float_to_int: the scalar codelet's accumulator */
  const PtrVec *helpers; /* float_to_int: the file's functions, for their parameters */
} MathArgs;

static Node *math_args(Node *n, void *data) {
  MathArgs *m = data;
  static const char *const to_double[] = {"sqrt", "fabs",  "exp",   "log",     "floor",
                                          "ceil", "isnan", "isinf", "isfinite"};
  /* pow, fmax, fmin of two values: float of two floats, else double (the
     prelude's table, as <cmath>); each argument of another type is cast to
     it, so that no dialect's overloads choose otherwise */
  if (n->kind == ND_CALL && n->kids.len == 2 && n->name && n->ty &&
      (!strcmp(n->name, "pow") || !strcmp(n->name, "fmax") || !strcmp(n->name, "fmin"))) {
    TypeKind r = type_concrete(n->ty, m->elem);
    for (int i = 0; i < 2 && (r == TY_FLOAT || r == TY_DOUBLE); i++) {
      Node *x = n->kids.items[i];
      if (!x->ty || type_concrete(x->ty, m->elem) == r)
        continue;
      Node *c = node_new(m->ctx->arena, ND_CAST, x->loc);
      c->ty = type_new(m->ctx->arena, r);
      c->lhs = x;
      n->kids.items[i] = c;
    }
    return n;
  }
  if (n->kind != ND_CALL || n->kids.len != 1 || !n->name)
    return n;
  Node *x = n->kids.items[0];
  if (!x->ty)
    return n;
  TypeKind k = type_concrete(x->ty, m->elem);
  bool integer = k == TY_BOOL || k == TY_INT || k == TY_UINT || k == TY_LONG || k == TY_ULONG;
  if (!strcmp(n->name, "abs") && (k == TY_UINT || k == TY_ULONG))
    diag_error(m->ctx->diag, n->loc,
               "abs of an unsigned value ('%s' is %s): C++ has none, and it would be the value "
               "itself (a - b of unsigned values wraps below 0 before abs sees it); write "
               "'a > b ? a - b : b - a', or abs((int)(...)) for a signed difference",
               emit_expr(m->ctx->arena, dialect_get(DIALECT_CUDA), x),
               type_str(m->ctx->arena, type_new(m->ctx->arena, k)));
  for (size_t i = 0; integer && i < COUNT_OF(to_double); i++)
    if (!strcmp(n->name, to_double[i])) {
      Node *c = node_new(m->ctx->arena, ND_CAST, x->loc);
      c->ty = type_new(m->ctx->arena, TY_DOUBLE);
      c->lhs = x;
      n->kids.items[0] = c;
    }
  return n;
}

/* Float to integer, defined. C++ leaves the conversion of a NaN, or of a
 * value beyond the integer type's range, undefined, and platforms differ:
 * x86 gives 0x80..0, an NVIDIA GPU saturates (cvt.rzi; a NaN gives 0 or
 * 0x80..0 by the types). The CPU check would certify x86's answer for a
 * variant whose GPU answer is another (probe7 #4). So every float-to-integer
 * conversion of a codelet, written as a cast or implicit where a float value
 * is stored in an integer, returned as one, passed to a helper's integer
 * parameter or combined by max or min into an integer accumulator, becomes
 * tgm_ftoi<I>(x) (file.tpl): the GPU's rule on every platform. */
bool sema_float_into_int(const Type *to, const Node *x, ElemType elem) {
  if (!to || !x || !x->ty)
    return false;
  int bits = int_bits(to, elem); /* any integer type but bool (1: x != 0, defined) */
  TypeKind from = type_concrete(x->ty, elem);
  return (bits < -1 || bits > 1) && (from == TY_FLOAT || from == TY_DOUBLE);
}

bool sema_int_outside(const Type *to, const Node *x, ElemType elem) {
  if (!to || !x || !x->ty)
    return false;
  int a = int_bits(to, elem), b = int_bits(x->ty, elem);
  if (!a || !b || b == 1) /* not both integers; a bool fits every integer type */
    return false;
  if (a == 1) /* a bool accumulator: only bools */
    return true;
  int wa = a < 0 ? -a : a, wb = b < 0 ? -b : b;
  if (wa < 32) /* a narrow accumulator (promoted to int): the value must fit it */
    return b < 0 ? a > 0 || wa < wb : (a > 0 ? wa < wb : wa <= wb);
  /* else C++ compares in the accumulator's own type (an int into an unsigned
     max is converted first: a max over unsigned) unless their common type is
     another (an unsigned into an int max, a long long into an unsigned one) */
  return seq_common(a, b) != a;
}

/* An integer branch of a floating-point ?: goes through the float too, as
 * C++ converts it: (int)(float)16777217 is 16777216. A literal the float
 * holds exactly, or an end of its type's range (which saturates back to
 * itself: ~0u, INT_MIN), stays as it is, which keeps a cooperative
 * codelet's `c ? in[i] : ~0u` in the form it is read in. */
static bool fold_int(const Node *b, uint64_t *v) {
  uint64_t x = 0, y = 0;
  switch (b->kind) {
  case ND_INT: *v = (uint64_t)b->ival; return true;
  case ND_CAST: return b->lhs && fold_int(b->lhs, v);
  case ND_UNARY:
    if (!b->lhs || !fold_int(b->lhs, &x) || (b->op != OP_NEG && b->op != OP_BITNOT))
      return false;
    *v = b->op == OP_NEG ? -x : ~x;
    return true;
  case ND_BINARY:
    if (!b->lhs || !b->rhs || !fold_int(b->lhs, &x) || !fold_int(b->rhs, &y) ||
        (b->op != OP_ADD && b->op != OP_SUB))
      return false;
    *v = b->op == OP_ADD ? x + y : x - y;
    return true;
  default: return false;
  }
}

static bool branch_exact(const Node *b, const Type *fty, ElemType elem) {
  uint64_t v = 0;
  if (!fold_int(b, &v))
    return false;
  int bits = int_bits(b->ty, elem);
  v = seq_fit(v, bits ? bits : -32);
  uint64_t mag = (int64_t)v < 0 && bits <= 0 ? -v : v;
  int mant = type_concrete(fty, elem) == TY_DOUBLE ? 53 : 24;
  return mag <= (1ull << mant) || v == 0xffffffffull || v == 0x7fffffffull ||
         v == 0xffffffff80000000ull || v == 0x7fffffffffffffffull || v == 0x8000000000000000ull ||
         v == ~0ull;
}

static Node *int_branch(Arena *a, ElemType elem, Type *to, Type *fty, Node *b) {
  if (!b->ty || sema_float_into_int(to, b, elem) || branch_exact(b, fty, elem))
    return b;
  Node *f = node_new(a, ND_CAST, b->loc);
  f->ty = fty;
  f->lhs = b;
  return sema_to_int(a, elem, to, f);
}

/* A ?: converts its float branches (and its integer ones through the
 * float), so that `c ? in[i] : ~0u` keeps the form cooperative codelets are
 * read in. A narrow type converts through its 32-bit one:
 * (short)tgm_ftoi<int>(x). */
Node *sema_to_int(Arena *a, ElemType elem, Type *to, Node *x) {
  if (x->kind == ND_COND) {
    Type *fty = x->ty;
    x->then = sema_float_into_int(to, x->then, elem) ? sema_to_int(a, elem, to, x->then)
                                                     : int_branch(a, elem, to, fty, x->then);
    x->els = sema_float_into_int(to, x->els, elem) ? sema_to_int(a, elem, to, x->els)
                                                   : int_branch(a, elem, to, fty, x->els);
    x->ty = to;
    return x;
  }
  int narrow = narrow_int(to);
  Type *via = narrow ? type_new(a, narrow == 2 ? TY_UINT : TY_INT) : type_unqualified(a, to);
  Node *c = node_new(a, ND_CALL, x->loc);
  c->name = arena_printf(a, "tgm_ftoi<%s>", emit_type(a, via));
  c->ty = via;
  vec_push(a, &c->kids, x);
  if (!narrow)
    return c;
  Node *cast = node_new(a, ND_CAST, x->loc);
  cast->ty = to;
  cast->lhs = c;
  return cast;
}

static Node *float_to_int(Node *n, void *data) {
  MathArgs *m = data;
  Arena *a = m->ctx->arena;
  if (n->kind == ND_CAST && sema_float_into_int(n->ty, n->lhs, m->elem))
    return sema_to_int(a, m->elem, n->ty, n->lhs);
  /* b += x into an integer b: b = tgm_ftoi(b + x), as C++ computes it */
  if (n->kind == ND_ASSIGN &&
      (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL || n->op == OP_DIV) && n->lhs &&
      !node_is_var(n->lhs, m->acc) && sema_float_into_int(n->lhs->ty, n->rhs, m->elem)) {
    Node *b = node_new(a, ND_BINARY, n->loc);
    b->op = n->op;
    b->lhs = node_clone(a, n->lhs);
    b->rhs = n->rhs;
    b->ty = n->rhs->ty;
    n->op = OP_NONE;
    n->rhs = sema_to_int(a, m->elem, n->lhs->ty, b);
    return n;
  }
  if (n->kind == ND_DECL && n != m->acc && sema_float_into_int(n->ty, n->init, m->elem))
    n->init = sema_to_int(a, m->elem, n->ty, n->init);
  /* the accumulator's combines convert their element where the spectrum is
     derived (spectrum.c's combined_value), whatever their form */
  if (n->kind == ND_ASSIGN && n->op == OP_NONE && n->lhs && !node_is_var(n->lhs, m->acc) &&
      sema_float_into_int(n->lhs->ty, n->rhs, m->elem))
    n->rhs = sema_to_int(a, m->elem, n->lhs->ty, n->rhs);
  if (n->kind == ND_RETURN && sema_float_into_int(m->ret, n->lhs, m->elem))
    n->lhs = sema_to_int(a, m->elem, m->ret, n->lhs);
  /* a helper's parameters, where the name is one helper's (an overloaded
     one's call is C++'s to resolve: its arguments are left as they are) */
  int named = 0;
  for (int i = 0; n->kind == ND_CALL && n->name && i < m->helpers->len; i++)
    named += !strcmp(((const Node *)m->helpers->items[i])->name, n->name);
  for (int i = 0; named == 1 && i < m->helpers->len; i++) {
    const Node *h = m->helpers->items[i];
    for (int k = 0; !strcmp(h->name, n->name) && k < n->kids.len && k < h->kids.len; k++) {
      Type *to = ((Node *)h->kids.items[k])->ty;
      if (sema_float_into_int(to, n->kids.items[k], m->elem))
        n->kids.items[k] = sema_to_int(a, m->elem, to, n->kids.items[k]);
    }
  }
  return n;
}

void sema_check(Ctx *ctx, Program *prog) {
  MathArgs m = {ctx, prog->elem, NULL, NULL, &prog->helpers};
  for (int i = 0; i < prog->codelets.len; i++) {
    Codelet *cd = prog->codelets.items[i];
    cd->fn->body = node_rewrite(cd->fn->body, math_args, &m);
  }
  for (int i = 0; i < prog->helpers.len; i++) {
    Node *h = prog->helpers.items[i];
    h->body = node_rewrite(h->body, math_args, &m);
  }
  for (int i = 0; i < prog->codelets.len; i++)
    check_codelet(ctx, prog->codelets.items[i], prog->elem, &prog->helpers);
  for (int i = 0; i < prog->codelets.len && ctx->diag->nerrors == 0; i++) {
    Codelet *cd = prog->codelets.items[i];
    /* the scalar codelet's return is the result (R); a cooperative one's
       value stays in the accumulator's type (the block level's A) */
    m.ret = cd->kind == CK_SCALAR ? cd->fn->ty : NULL;
    m.acc = cd->kind == CK_SCALAR ? cd->accum : NULL;
    cd->fn->body = node_rewrite(cd->fn->body, float_to_int, &m);
  }
  for (int i = 0; i < prog->helpers.len && ctx->diag->nerrors == 0; i++) {
    Node *h = prog->helpers.items[i];
    m.ret = h->ty;
    m.acc = NULL;
    h->body = node_rewrite(h->body, float_to_int, &m);
  }
  if (ctx->diag->nerrors == 0)
    check_spectra(ctx, prog);
  if (ctx->diag->nerrors == 0)
    name_untagged(ctx, prog);
  if (ctx->diag->nerrors == 0)
    spectrum_derive(ctx, prog);
  if (ctx->diag->nerrors == 0)
    names_apart(ctx, prog);
}

/* spectrum.c -- what a spectrum means, read from its scalar codelet.
 *
 * Every spectrum is  epilogue(fold(op, identity, map(transform, inputs))).
 * Its scalar codelet (figure 1(a)) says all three, in this form:
 *
 *   R name(const Array<1,T> x, [const Array<1,T> y, ...] [P param, ...]) {
 *     [declarations: unsigned len = x.Size(); A acc = <identity>; ...]
 *     for (unsigned i = 0; i < x.Size(); i += x.Stride()) {
 *       [T v = <expression of x[i], y[i], params>;]   temporaries
 *       acc op= <transform>;          or acc = max(acc, e), acc = acc op e,
 *                                     if (c) acc op= e; [else acc op= e2;]
 *     }
 *     return <epilogue of acc>;       acc, acc / len, sqrt(acc), ...
 *   }
 *
 * The transform reads each input only at the loop's index, and parameters
 * and constants; the epilogue reads the accumulator, x.Size() (the whole
 * input's length), parameters and constants. What does not fit is a
 * located error that says what was found and which form fits.
 *
 * The other codelets of the spectrum take the same parameters. Each
 * spectrum has at most one codelet of each kind (scalar, cooperative,
 * shared-atomic with and without a tree, tiled, strided): a second one
 * would never be used, so it is an error rather than silently ignored. */
#include "tgm.h"

#include <string.h>

static const char *const SCALAR_FORM =
    "for (unsigned i = 0; i < in.Size(); i += in.Stride()) { acc op= f(in[i]); }";

typedef struct {
  Ctx *ctx;
  const Codelet *cd;
  Spectrum *s;
  Node *index;   /* the loop's index declaration */
  Node *acc;     /* the accumulator's declaration */
  PtrVec temps;  /* Node *: declarations inside the loop body */
  PtrVec locals; /* Node *: declarations before the loop */
  ElemType elem;
  bool failed;
  const char *use; /* what check_epilogue_use checks: the return, or the accumulator's start */
} Derive;

static void fail(Derive *dv, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(Derive *dv, Loc loc, const char *fmt, ...) {
  if (dv->failed)
    return; /* the first reason is the one to read */
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_report(dv->ctx->diag, "error", loc, msg);
  dv->failed = true;
}

static bool is_input_var(const Node *n) {
  return n && n->kind == ND_VAR && n->decl && n->decl->kind == ND_PARAM && n->decl->ty &&
         n->decl->ty->kind == TY_ARRAY;
}

static bool is_param_var(const Node *n) {
  return n && n->kind == ND_VAR && n->decl && n->decl->kind == ND_PARAM && n->decl->ty &&
         n->decl->ty->kind != TY_ARRAY;
}

static bool is_var_of(const Node *n, const Node *decl) {
  return n && n->kind == ND_VAR && decl && n->decl == decl;
}

static bool is_input_method(const Node *n, const char *method) {
  return n && n->kind == ND_METHOD && is_input_var(n->lhs) && strcmp(n->name, method) == 0;
}

static Node *strip_expr(Node *n) { return n && n->kind == ND_EXPR ? n->lhs : n; }

/* A local declared before the loop whose value is the input's length:
 * `unsigned len = in.Size();` */
/* A local before the loop initialised to in.METHOD() (`len = in.Size()`). */
static bool local_set_to(const Derive *dv, const Node *n, const char *method) {
  return n && n->kind == ND_VAR && vec_has(&dv->locals, n->decl) && n->decl->init &&
         is_input_method(n->decl->init, method);
}

static bool is_length(const Derive *dv, const Node *n) {
  /* (int)in.Size(), as `int len = in.Size();` is read: the length (which
     tgm keeps 64-bit, so any n works) */
  while (n && n->kind == ND_CAST && n->ty && type_is_integer(n->ty))
    n = n->lhs;
  return is_input_method(n, "Size") || local_set_to(dv, n, "Size");
}

/* in.Stride(), or a local set once to it before the loop (`const unsigned
 * step = in.Stride();`), as is_length reads in.Size()'s. */
static bool is_stride(const Derive *dv, const Node *n) {
  return is_input_method(n, "Stride") ||
         (local_set_to(dv, n, "Stride") && !node_assigned_in(dv->cd->fn->body, n->decl));
}

/* ------------------------------------------------------------ the loop */

static void check_loop(Derive *dv, Node *loop) {
  Node *init = loop->init;
  if (init && init->kind == ND_DECL) {
    dv->index = init;
  } else if (strip_expr(init) && strip_expr(init)->kind == ND_ASSIGN &&
             strip_expr(init)->op == OP_NONE && strip_expr(init)->lhs->kind == ND_VAR) {
    dv->index = strip_expr(init)->lhs->decl;
    init = strip_expr(init);
  } else if (!init && loop->cond && loop->cond->kind == ND_BINARY && loop->cond->lhs &&
             loop->cond->lhs->kind == ND_VAR) {
    fail(dv, loop->loc,
         "declare the loop's index '%s' in its header, from 0: 'for (unsigned %s = 0; ...' (tgm "
         "gives each thread its own start): %s",
         loop->cond->lhs->name, loop->cond->lhs->name, SCALAR_FORM);
    return;
  } else if (init && init->kind == ND_BLOCK) {
    fail(dv, init->loc,
         "the loop's header declares one index; declare the others before the loop "
         "('unsigned n = in.Size();'): %s",
         SCALAR_FORM);
    return;
  } else {
    fail(dv, loop->loc, "the loop must start its index at 0: %s", SCALAR_FORM);
    return;
  }
  Node *start = init->kind == ND_DECL ? init->init : init->rhs;
  if (!start || start->kind != ND_INT || start->ival != 0) {
    fail(dv, start ? start->loc : init->loc, "the loop's index '%s' must start at 0: %s",
         dv->index->name, SCALAR_FORM);
    return;
  }
  /* an int, unsigned or wider index, which tgm widens past 2^31 elements; a
     narrower one wraps (unsigned char at 256: C++'s loop never ends, and the
     CPU check ran 300 s a variant, probe9 #4), a float one loses counts */
  TypeKind ik = dv->index->ty ? type_concrete(dv->index->ty, dv->elem) : TY_VOID;
  if (ik != TY_INT && ik != TY_UINT && ik != TY_LONG && ik != TY_ULONG) {
    Arena *a = dv->ctx->arena;
    fail(dv, init->loc,
         "the loop's index '%s' is %s, which cannot count every element (a narrow integer "
         "wraps: an unsigned char's loop never ends past 255 elements); declare it 'unsigned' "
         "(tgm widens an int or unsigned index for more than 2^31 elements): %s",
         dv->index->name, type_str(a, dv->index->ty), SCALAR_FORM);
    return;
  }
  Node *cond = loop->cond;
  if (cond && cond->kind == ND_BINARY && cond->op == OP_GT && is_var_of(cond->rhs, dv->index) &&
      is_length(dv, cond->lhs)) { /* `len > i` is `i < len` */
    Node *l = cond->lhs;
    cond->lhs = cond->rhs;
    cond->rhs = l;
    cond->op = OP_LT;
  }
  if (!cond || cond->kind != ND_BINARY || cond->op != OP_LT || !is_var_of(cond->lhs, dv->index) ||
      !is_length(dv, cond->rhs)) {
    fail(dv, cond ? cond->loc : loop->loc, "the loop must run while %s < in.Size()%s: %s",
         dv->index->name,
         cond && cond->kind == ND_BINARY && cond->op == OP_NE
             ? " (a stride steps past the length, so '!=' would not end)"
             : "",
         SCALAR_FORM);
    return;
  }
  Node *inc = strip_expr(loop->inc);
  bool strided = inc && inc->kind == ND_ASSIGN && is_var_of(inc->lhs, dv->index) &&
                 ((inc->op == OP_ADD && is_stride(dv, inc->rhs)) ||
                  (inc->op == OP_NONE && inc->rhs->kind == ND_BINARY && inc->rhs->op == OP_ADD &&
                   ((is_var_of(inc->rhs->lhs, dv->index) && is_stride(dv, inc->rhs->rhs)) ||
                    (is_var_of(inc->rhs->rhs, dv->index) && is_stride(dv, inc->rhs->lhs)))));
  if (strided)
    return;
  bool steps = inc && ((inc->kind == ND_UNARY && is_var_of(inc->lhs, dv->index)) ||
                       (inc->kind == ND_ASSIGN && is_var_of(inc->lhs, dv->index)));
  if (steps)
    fail(dv, inc->loc,
         "the loop steps '%s' by other than in.Stride(); tgm runs the scalar codelet over strided "
         "parts, where any other step reads other parts' elements or skips its own: write '%s "
         "+= in.Stride()' (to take every other element, test its index: 'if (in.Index(%s) %% 2 "
         "== 0)')",
         dv->index->name, dv->index->name, dv->index->name);
  else if (inc && inc->kind == ND_BINARY && inc->op == OP_COMMA) /* probe13 C2 */
    fail(dv, inc->loc,
         "the loop's step does more than advance '%s': tgm runs the scalar codelet over parts, "
         "and a second variable stepped beside it would count the part's elements, not the "
         "input's; step only '%s += in.Stride()' (an element's index is in.Index(%s))",
         dv->index->name, dv->index->name, dv->index->name);
  else
    fail(dv, inc ? inc->loc : loop->loc,
         "the loop never advances '%s', so it would not end: write '%s += in.Stride()'",
         dv->index->name, dv->index->name);
}

/* ------------------------------------------------------- the transform */

typedef struct {
  Derive *dv;
  const char *what; /* "transform" or "return" */
} Uses;

/* What a transform may read: inputs at the index, parameters, temporaries,
 * constants, calls. */
static bool check_transform_use(Node *n, void *ctx) {
  Uses *u = ctx;
  Derive *dv = u->dv;
  if (dv->failed)
    return false;
  switch (n->kind) {
  case ND_INDEX:
    if (is_input_var(n->lhs)) {
      if (!is_var_of(n->rhs, dv->index))
        fail(dv, n->rhs->loc,
             "reads '%s' at another index than the loop's '%s'; the transform reads each input "
             "at the loop's index only",
             n->lhs->name, dv->index->name);
      return false;
    }
    return true;
  case ND_METHOD:
    if (is_input_method(n, "Index")) { /* x.Index(i): in[i]'s index in the whole input */
      if (n->kids.len != 1 || !is_var_of(n->kids.items[0], dv->index))
        fail(dv, n->kids.len ? ((Node *)n->kids.items[0])->loc : n->loc,
             "%s.Index() takes the loop's index: %s.Index(%s) is the index of %s[%s] in the "
             "whole input",
             n->lhs->name, n->lhs->name, dv->index->name, n->lhs->name, dv->index->name);
      dv->s->indexed = true;
      return false;
    }
    fail(dv, n->loc,
         "the value combined per element cannot use %s(): it differs between the "
         "parts tgm splits the input into",
         n->name);
    return false;
  case ND_VAR:
    if (!n->decl || is_param_var(n) || vec_has(&dv->temps, n->decl))
      return true; /* a function name, a parameter, a temporary */
    if (vec_has(&dv->locals, n->decl) && node_fixed_local(dv->cd->fn->body, n->decl))
      return true; /* `const T k = 2;`: stands for its value, as a temporary does */
    if (n->decl == dv->acc)
      fail(dv, n->loc, "the value combined into '%s' depends on '%s' itself, so it is not a fold",
           dv->acc->name, dv->acc->name);
    else if (n->decl == dv->index)
      fail(dv, n->loc,
           "the value combined per element uses the index '%s', which counts within "
           "each part tgm splits the input into, not over the whole input",
           dv->index->name);
    else if (is_input_var(n))
      fail(dv, n->loc, "uses input '%s' other than as %s[%s]", n->name, n->name, dv->index->name);
    else
      fail(dv, n->loc,
           "the value combined per element uses '%s', a local that differs between "
           "the parts tgm splits the input into; use a parameter or a constant",
           n->name);
    return false;
  default: return true;
  }
}

static bool same_type(const Type *x, const Type *y) {
  if (!x || !y)
    return x == y;
  return x->kind == y->kind &&
         (x->kind != TY_ARRAY || (x->dims == y->dims && same_type(x->base, y->base)));
}

/* Replaces temporaries (and locals set once from constants and parameters:
 * node_fixed_local) by their initialisers (the transform is one
 * expression of the loaded elements), and the temporaries those read in
 * turn (`T a = x[i] * s; T b = a + 1;`: b is x[i] * s + 1), converted to
 * the temporary's type where the initialiser has another (`double x =
 * in[i]; accum += x * x;` is (double)in[i] * (double)in[i], not a float
 * product). */
static bool is_inlined_temp(const Node *decl, void *ctx) {
  Derive *dv = ctx;
  return vec_has(&dv->temps, decl) || node_fixed_local(dv->cd->fn->body, decl);
}

static Node *inline_temps(Node *n, void *ctx) {
  Derive *dv = ctx;
  if (!(n->kind == ND_VAR && n->decl &&
        (vec_has(&dv->temps, n->decl) || node_fixed_local(dv->cd->fn->body, n->decl))))
    return n;
  Node *init = node_rewrite(node_clone(dv->ctx->arena, n->decl->init), inline_temps, ctx);
  return mk_value_as(dv->ctx->arena, n->loc, init, n->decl->ty, dv->elem);
}

/* The value one combining statement adds: `acc op= e`, `acc = max(acc, e)`,
 * `acc = acc op e`. NULL when s is not one. */
static Node *combined_value(Derive *dv, Node *s) {
  if (s && s->kind == ND_BLOCK && s->kids.len == 1)
    return combined_value(dv, s->kids.items[0]);
  Node *as = strip_expr(s), **x = node_combine_operand(as, dv->acc);
  if (!x || (as->op != OP_NONE && as->op != dv->s->op))
    return NULL;
  Node *r = as->rhs; /* of the calls, only max and min combine */
  if (as->op == OP_NONE && r->kind == ND_CALL && strcmp(r->name, "max") && strcmp(r->name, "min"))
    return NULL;
  /* a bool accumulator `+=` or `^=` a value of another type: C++ makes each
     step (acc + x) != 0, which no fold gives (5 then -1 is false; parts
     combined are true: probe13 A1). |, &, * of one are folds of bools */
  TypeKind acc_k = type_concrete(dv->acc->ty, dv->elem);
  if (acc_k == TY_BOOL && (as->op == OP_ADD || as->op == OP_XOR) && (*x)->ty &&
      type_concrete((*x)->ty, dv->elem) != TY_BOOL) {
    const char *name = dv->s->acc_user ? dv->s->acc_user : dv->acc->name;
    fail(dv, as->loc,
         "the bool accumulator '%s' takes '%s' a value that is not a bool: C++ makes each step "
         "(%s %s x) != 0, which no split of the loop repeats (%s); combine a bool ('%s %s= x "
         "!= 0') or count in an integer",
         name, as->op == OP_ADD ? "+=" : "^=", name, as->op == OP_ADD ? "+" : "^",
         as->op == OP_ADD ? "5 then -1 gives false, the two as parts true"
                          : "2 then 2 gives true, the two as parts false",
         name, as->op == OP_ADD ? "|" : "^");
    return NULL;
  }
  /* a float value into an integer accumulator by max or min: C++ compares
     in floating point (a NaN is skipped, `if (x > acc) acc = x;` too) and
     converts after, which no fold of converted values gives for a NaN. Over
     floating-point elements (NaN is an element's value) the codelet converts
     it; over integer ones (`max(acc, fabs(in[i]))`: no NaN but sqrt of a
     negative's) tgm converts each value as the GPU does, before the combine.
     (+ and * of one are an error: check_rounding.) */
  if (as->op == OP_NONE && r->kind == ND_CALL && sema_float_into_int(dv->acc->ty, *x, dv->elem) &&
      !elem_info(dv->elem)->is_float) {
    *x = sema_to_int(dv->ctx->arena, dv->elem, dv->acc->ty, *x);
    return *x;
  }
  if (as->op == OP_NONE && r->kind == ND_CALL && sema_float_into_int(dv->acc->ty, *x, dv->elem)) {
    Arena *a = dv->ctx->arena;
    const char *acc_t = type_str(a, type_new(a, type_concrete(dv->acc->ty, dv->elem)));
    const char *name = dv->s->acc_user ? dv->s->acc_user : dv->acc->name;
    fail(dv, as->loc,
         "the accumulator '%s' is %s but the element combined into it here is a %s: C++ "
         "compares the two as floating point (a NaN element is skipped) and converts after, "
         "which no split of the loop gives for a NaN; convert the element: '%s = %s(%s, "
         "(%s)(...))' (tgm converts as the GPU does: a NaN to 0, beyond the range its nearest "
         "end)",
         name, acc_t, type_str(a, type_new(a, type_concrete((*x)->ty, dv->elem))), name, r->name,
         name, acc_t);
    return NULL;
  }
  /* an integer value outside the accumulator's type (an int into an
     unsigned max, an unsigned or a long long into an int one): C++
     compares the two in their common type and converts the result back,
     which is no max over the accumulator's type (probe9 #1: an unsigned max
     of int elements kept 0 against -1 compared as 4294967295) */
  if (as->op == OP_NONE && r->kind == ND_CALL && sema_int_outside(dv->acc->ty, *x, dv->elem)) {
    Arena *a = dv->ctx->arena;
    const Type *at = dv->acc->ty->kind == TY_ELEM
                         ? type_new(a, type_concrete(dv->acc->ty, dv->elem))
                         : type_unqualified(a, dv->acc->ty);
    const Type *xt = (*x)->ty->kind == TY_ELEM ? type_new(a, type_concrete((*x)->ty, dv->elem))
                                               : type_unqualified(a, (*x)->ty);
    const char *acc_t = type_str(a, at), *x_t = type_str(a, xt);
    const char *name = dv->s->acc_user ? dv->s->acc_user : dv->acc->name;
    fail(dv, as->loc,
         "the accumulator '%s' is %s but the value combined into it here is %s: C++ compares "
         "the two in their common type, not %s, and converts the result back, which is no %s "
         "over %s; convert the value: '%s = %s(%s, (%s)(...))', or declare the accumulator as "
         "wide as the value",
         name, acc_t, x_t, acc_t, r->name, acc_t, name, r->name, name, acc_t);
    return NULL;
  }
  return *x;
}

static const char *const BODY_FORM =
    "the loop's body combines one value per element into the accumulator: 'acc op= f(in[i]);', "
    "'acc = max(acc, f(in[i]));' or 'if (c) acc op= f(in[i]);', after temporaries "
    "'T v = g(in[i]);'";

static bool is_integer_kind(TypeKind k) {
  return k == TY_BOOL || k == TY_INT || k == TY_UINT || k == TY_LONG || k == TY_ULONG;
}

/* `acc += v` with an integer accumulator and a floating-point v rounds
 * acc + v each step ((int)(acc + v)): no fold of per-element values, which
 * every variant is, gives that (1 + 0.5 + 0.5 is 1 this way, 2 summed in
 * pairs). max and min commute with the rounding; + and * do not. */
static void check_rounding(Derive *dv, const Node *at, const Node *value) {
  Arena *a = dv->ctx->arena;
  if (dv->failed || !value || !value->ty || (dv->s->op != OP_ADD && dv->s->op != OP_MUL))
    return;
  TypeKind acc = type_concrete(dv->acc->ty, dv->elem), v = type_concrete(value->ty, dv->elem);
  if (!is_integer_kind(acc) || (v != TY_FLOAT && v != TY_DOUBLE))
    return;
  const char *op = op_name(dv->s->op), *acc_t = type_str(a, type_new(a, acc));
  const char *name = dv->s->acc_user ? dv->s->acc_user : dv->acc->name;
  const char *declared = dv->acc->ty->kind == TY_ELEM
                             ? arena_printf(a, "T (%s for %s)", acc_t, elem_info(dv->elem)->name)
                             : acc_t;
  fail(dv, at->loc,
       "the accumulator '%s' is %s but the value combined into it here is a %s: each step "
       "rounds '%s %s value' to %s, which no other order of the steps gives; convert the value "
       "('%s %s= (%s)(...)') or accumulate in a floating-point type",
       name, declared, type_str(a, type_new(a, v)), name, op, acc_t, name, op,
       type_str(a, dv->acc->ty));
}

/* A combine into a local before the loop other than the accumulator: a
 * second accumulator (a mean and a variance in one loop). */
static bool second_accumulator(Derive *dv, Node *s) {
  if (s && s->kind == ND_BLOCK && s->kids.len == 1)
    s = s->kids.items[0];
  Node *as = strip_expr(s);
  if (!as || as->kind != ND_ASSIGN || !as->lhs || as->lhs->kind != ND_VAR ||
      as->lhs->decl == dv->acc || !vec_has(&dv->locals, as->lhs->decl))
    return false;
  /* `T v; for (...) { v = in[i] * 2; acc += v; }`: set afresh, a temporary
     (probe13 C6) */
  if (as->op == OP_NONE && !node_reads(as->rhs, as->lhs->decl)) {
    fail(dv, as->loc,
         "'%s' is set afresh for each element, declared before the loop: declare it inside "
         "the loop, where tgm reads a temporary ('%s %s = ...;')",
         as->lhs->name, type_str(dv->ctx->arena, as->lhs->decl->ty), as->lhs->name);
    return true;
  }
  fail(dv, as->loc,
       "'%s' is a second accumulator beside '%s': a spectrum folds one value per element "
       "into one accumulator; reduce each in a spectrum of its own (a sum, a sum of squares) "
       "and combine the results in the caller",
       as->lhs->name, dv->acc->name);
  return true;
}

/* A `break` or `return` in the loop's body: the loop stops at an element,
 * which no split into parts reduced side by side can know (found by a
 * probe: it was told the body's general form). */
static bool find_exit(Node *n, void *p) {
  Node **at = p;
  if (!*at && (n->kind == ND_BREAK || n->kind == ND_RETURN))
    *at = n;
  return !*at;
}

static bool loop_exit(Derive *dv, Node *s) {
  Node *at = NULL;
  node_walk(s, find_exit, &at);
  if (at)
    fail(dv, at->loc,
         "'%s' ends the loop at an element: tgm runs the loop over parts side by side, and no "
         "part can know where another would have stopped; reduce every element (skip some with "
         "'if (c) continue;' or a condition on the combine)",
         at->kind == ND_BREAK ? "break" : "return");
  return at != NULL;
}

/* The value an `if` adds per element: each branch a combine, none (the
 * identity) or, as an `else if` chain, an `if` again (c1 ? v1 : c2 ? v2 :
 * v3); NULL after an error, reported at the branch. */
static Node *if_value(Derive *dv, Node *s) {
  Arena *a = dv->ctx->arena;
  Node *branch[2] = {s->then, s->els}, *value[2];
  for (int k = 0; k < 2; k++) {
    Node *b = branch[k];
    Node *inner = b && b->kind == ND_BLOCK && b->kids.len == 1 ? b->kids.items[0] : b;
    if (!b)
      value[k] = mk_identity(a, s->loc, dv->s->op);
    else if (inner->kind == ND_IF)
      value[k] = if_value(dv, inner);
    else if ((value[k] = combined_value(dv, b)) != NULL)
      check_rounding(dv, b, value[k]);
    else if (!loop_exit(dv, b) && !second_accumulator(dv, b))
      fail(dv, b->loc, "%s", BODY_FORM);
    if (!value[k] || dv->failed)
      return NULL;
  }
  Uses u = {dv, "transform"};
  node_walk(s->cond, check_transform_use, &u);
  return mk_cond(a, s->loc, s->cond, value[0], value[1]);
}

/* The value statement s adds per element, or NULL (an error was reported). */
static Node *statement_value(Derive *dv, Node *s) {
  if (s->kind == ND_IF)
    return if_value(dv, s);
  Node *v = combined_value(dv, s);
  if (!v && !loop_exit(dv, s) && !second_accumulator(dv, s))
    fail(dv, s->loc, "%s", BODY_FORM);
  check_rounding(dv, s, v);
  return dv->failed ? NULL : v;
}

/* ---------------------------------------------------------- Arg pairs */

static const char *const PAIR_FORM =
    "acc = max(acc, Arg(f(in[i]), in.Index(i))) (or min): an element's value and its index in "
    "the whole input";

static bool is_call(const Node *n, const char *name, int nargs) {
  return n && n->kind == ND_CALL && n->name && strcmp(n->name, name) == 0 && n->kids.len == nargs;
}

/* An Arg accumulator combines Arg(value, x.Index(i)), the identity, or
 * these under a condition or combined (two statements): every pair it
 * takes in carries its element's own index. */
static void check_pair_value(Derive *dv, const Node *v) {
  if (dv->failed || !v)
    return;
  if (v->kind == ND_COND) {
    check_pair_value(dv, v->then);
    check_pair_value(dv, v->els);
    return;
  }
  if (is_call(v, "max", 2) || is_call(v, "min", 2)) {
    check_pair_value(dv, v->kids.items[0]);
    check_pair_value(dv, v->kids.items[1]);
    return;
  }
  if (is_call(v, "Lowest", 0) || is_call(v, "Highest", 0))
    return;
  if (is_call(v, "Arg", 2)) {
    const Node *key = v->kids.items[1];
    if (!(key->kind == ND_METHOD && is_input_method(key, "Index") && key->kids.len == 1 &&
          is_var_of(key->kids.items[0], dv->index)))
      fail(dv, key->loc,
           "the index of an Arg must be the element's own, %s.Index(%s): ties go "
           "to the lower index, so another key would change which element wins",
           ((SpecInput *)dv->s->inputs.items[0])->name, dv->index->name);
    return;
  }
  fail(dv, v->loc, "'%s' is an Arg accumulator, so each element comes in with its index: %s",
       dv->acc->name, PAIR_FORM);
}

static void check_pair(Derive *dv, Node *ret) {
  Spectrum *s = dv->s;
  if (s->op != OP_MAX && s->op != OP_MIN) {
    fail(dv, dv->cd->op_loc, "an Arg accumulator combines with max or min: %s", PAIR_FORM);
    return;
  }
  check_pair_value(dv, s->transform);
  if (!dv->failed && s->epilogue)
    fail(dv, ret->lhs->loc,
         "an Arg accumulator is the result as it is ('return %s;'): the "
         "value and the index of the element that wins",
         dv->acc->name);
}

static void derive_transform(Derive *dv, Node *loop) {
  Arena *a = dv->ctx->arena;
  Node *body = loop->body;
  PtrVec stmts = {0};
  if (body && body->kind == ND_BLOCK)
    stmts = body->kids;
  else if (body)
    vec_push(a, &stmts, body);
  Node *transform = NULL;
  for (int i = 0; i < stmts.len && !dv->failed; i++) {
    Node *s = stmts.items[i];
    if (s->kind == ND_NULL)
      continue;
    if (s->kind == ND_DECL && s->init && !(s->qual & (Q_SHARED | Q_TUNABLE)) && !s->dim) {
      Uses u = {dv, "transform"};
      node_walk(s->init, check_transform_use, &u);
      if (node_assigned_in(body, s))
        fail(dv, node_assigned_in(body, s)->loc,
             "temporary '%s' is assigned in the loop; a transform "
             "is one expression of the elements: declare a new temporary for the new value "
             "(e.g. 'T %s2 = ...;')",
             s->name, s->name);
      vec_push(a, &dv->temps, s);
      continue;
    }
    Node *v = statement_value(dv, s);
    if (!v)
      return;
    Uses u = {dv, "transform"};
    node_walk(v, check_transform_use, &u);
    transform = transform ? mk_combine(a, s->loc, dv->s->op, transform, v) : v;
  }
  if (dv->failed)
    return;
  if (!transform) {
    fail(dv, loop->loc, "the loop combines nothing into '%s': %s", dv->acc->name, BODY_FORM);
    return;
  }
  if (node_assigned_in(body, dv->index)) {
    fail(dv, node_assigned_in(body, dv->index)->loc, "the loop's body changes the index '%s'",
         dv->index->name);
    return;
  }
  if (node_inlined_size(a, transform, is_inlined_temp, dv, MAX_INLINED) > MAX_INLINED) {
    fail(dv, loop->loc,
         "the transform with every temporary written out has more than %d operations (a "
         "temporary read twice doubles what it stands for); tgm writes the transform as one "
         "expression: read each temporary once, or move the work into a helper function",
         MAX_INLINED);
    return;
  }
  dv->s->transform = node_rewrite(node_clone(a, transform), inline_temps, dv);
}

/* -------------------------------------------------------- the epilogue */

static bool check_epilogue_use(Node *n, void *ctx) {
  Derive *dv = ctx;
  if (dv->failed)
    return false;
  if (n->kind == ND_METHOD) {
    if (!is_input_method(n, "Size"))
      fail(dv, n->loc, "%s may use in.Size() but not %s()", dv->use, n->name);
    return false;
  }
  if (n->kind == ND_INDEX && is_input_var(n->lhs)) {
    fail(dv, n->loc, "%s reads the input; only the loop may", dv->use);
    return false;
  }
  if (n->kind != ND_VAR || !n->decl || n->decl == dv->acc || is_param_var(n))
    return true;
  bool pure_local = vec_has(&dv->locals, n->decl) && n->decl->init &&
                    !node_assigned_in(dv->cd->fn->body, n->decl);
  if (pure_local) {
    node_walk(n->decl->init, check_epilogue_use, dv); /* what it stands for */
    return true;
  }
  fail(dv, n->loc,
       "%s may use only the accumulator '%s', in.Size(), parameters, constants and "
       "locals set once from them; '%s' is none of these",
       dv->use, dv->acc->name, n->name);
  return false;
}

/* A local stands for its initial value converted to its own type: `int len
 * = in.Size()` is (int)in.Size() in the epilogue (xf_epilogue widens that
 * cast of n as lowering widens the local: long long), not the unsigned
 * in.Size() (which divided a negative sum as unsigned). */
static bool is_inlined_local(const Node *decl, void *ctx) {
  Derive *dv = ctx;
  return decl != dv->acc && vec_has(&dv->locals, decl);
}

static Node *inline_locals(Node *n, void *ctx) {
  Derive *dv = ctx;
  if (!(n->kind == ND_VAR && n->decl && n->decl != dv->acc && vec_has(&dv->locals, n->decl)))
    return n;
  Arena *a = dv->ctx->arena;
  Node *v = node_rewrite(node_clone(a, n->decl->init), inline_locals, dv);
  return mk_value_as(a, n->loc, v, n->decl->ty, dv->elem);
}

static bool is_literal(const Node *e) {
  while (e && e->kind == ND_CAST)
    e = e->lhs;
  return e && (e->kind == ND_INT || e->kind == ND_FLOAT || e->kind == ND_BOOL);
}

/* The return's unsigned values keep their C meaning once widened. Lowering
 * widens an unsigned local (`unsigned len = in.Size()`) and in.Size() to 64
 * bits, so that any n works; `accum / len` with a signed accumulator would
 * then divide as 64-bit unsigned where C divides as 32-bit unsigned (an int
 * accumulator) or 64-bit signed (long long: the mean of {-4, -2} was
 * 9223372036854775805). An explicit cast to C's common type, a no-op as
 * written, keeps the meaning through the widening: (unsigned)len,
 * (long long)len. A literal operand (len - 1, len > 0) keeps 64 bits. An int
 * divided, shifted or compared by an unsigned is unsigned in C, as tgm
 * keeps it, and rarely what is meant: a warning says so. */
static Node *keep_unsigned_meaning(Node *x, void *ctx) {
  Derive *dv = ctx;
  if (x->kind != ND_BINARY || x->op == OP_LAND || x->op == OP_LOR || x->op == OP_COMMA || !x->lhs ||
      !x->rhs)
    return x;
  for (int side = 0; side < 2; side++) {
    Node **u = side ? &x->rhs : &x->lhs, *o = side ? x->lhs : x->rhs;
    if (!(*u)->ty || !o->ty || (*u)->ty->kind != TY_UINT || (*u)->kind == ND_CAST ||
        is_literal(*u) || is_literal(o))
      continue;
    TypeKind ok = type_concrete(o->ty, dv->elem);
    TypeKind to = ok == TY_INT || ok == TY_BOOL ? TY_UINT : ok == TY_LONG ? TY_LONG : TY_VOID;
    if (to == TY_VOID)
      continue;
    Arena *a = dv->ctx->arena;
    bool sign_matters = x->op == OP_DIV || x->op == OP_REM || x->op == OP_SHR || x->op == OP_LT ||
                        x->op == OP_GT || x->op == OP_LE || x->op == OP_GE;
    if (to == TY_UINT && sign_matters)
      diag_warning(dv->ctx->diag, x->loc,
                   "'%s' is unsigned, so C computes this '%s' in unsigned: a negative int "
                   "becomes 2^32 more (-4 / 2u is 2147483646); tgm keeps that meaning; cast "
                   "the unsigned side ((int)%s) for a signed '%s'",
                   emit_expr(a, dialect_get(DIALECT_CUDA), *u), op_name(x->op),
                   emit_expr(a, dialect_get(DIALECT_CUDA), *u), op_name(x->op));
    Node *c = node_new(a, ND_CAST, (*u)->loc);
    c->ty = type_new(a, to);
    c->lhs = *u;
    *u = c;
    break;
  }
  return x;
}

static bool uses_size(Node *n, void *ctx) {
  if (is_input_method(n, "Size"))
    *(bool *)ctx = true;
  return true;
}

/* The return's 32-bit values stay 32-bit once the length is widened.
 * Lowering widens the length (in.Size(), `unsigned len = in.Size()`, an
 * `int len` and (int)in.Size(): xf_epilogue) to 64 bits, so that a mean of
 * any n divides right; but an expression C computes in 32 bits then changed
 * its type: `n ? acc / n : -1` of an unsigned acc and n gave -1 where C gives
 * 4294967295, `acc - len` wrapped at 2^64, `len * len` did not wrap at 2^32
 * (the check's oracle found the first two, probe10 1c). Each such int or
 * unsigned expression that holds the widened length is cast back to its C
 * type, innermost first: C's value for every n below 2^32, and a quotient
 * still computed in 64 bits. reads_wide_length: x's value holds the widened
 * length (an integer local may be one) other than through a cast to a
 * 32-bit type that stays (an (int) of the length itself is widened). */
static bool reads_wide_length(const Derive *dv, const Node *x) {
  if (!x)
    return false;
  switch (x->kind) {
  case ND_METHOD: return is_input_method(x, "Size");
  case ND_VAR:
    return x->decl && x->decl != dv->acc && x->decl->kind == ND_DECL && x->decl->ty &&
           (x->decl->ty->kind == TY_INT || x->decl->ty->kind == TY_UINT);
  case ND_CAST:
    return spectrum_cast_widens(x, dv->elem,
                                is_input_method(x->lhs, "Size") ||
                                    local_set_to(dv, x->lhs, "Size"));
  case ND_UNARY: return x->op != OP_NOT && reads_wide_length(dv, x->lhs);
  case ND_BINARY:
    switch (x->op) {
    case OP_LT:
    case OP_GT:
    case OP_LE:
    case OP_GE:
    case OP_EQ:
    case OP_NE:
    case OP_LAND:
    case OP_LOR: return false; /* a bool */
    case OP_SHL:
    case OP_SHR: return reads_wide_length(dv, x->lhs); /* the left's type */
    case OP_COMMA: return reads_wide_length(dv, x->rhs);
    default: return reads_wide_length(dv, x->lhs) || reads_wide_length(dv, x->rhs);
    }
  case ND_COND: return reads_wide_length(dv, x->then) || reads_wide_length(dv, x->els);
  default: return false;
  }
}

static Node *keep_narrow_width(Node *x, void *ctx) {
  Derive *dv = ctx;
  if (x->kind != ND_BINARY && x->kind != ND_UNARY && x->kind != ND_COND)
    return x;
  TypeKind k = x->ty ? type_concrete(x->ty, dv->elem) : TY_VOID;
  if ((k != TY_INT && k != TY_UINT) || !reads_wide_length(dv, x))
    return x;
  Node *c = node_new(dv->ctx->arena, ND_CAST, x->loc);
  c->ty = type_new(dv->ctx->arena, k);
  c->lhs = x;
  return c;
}

/* An accumulator started from a value other than the identity (sema.c
 * starts_elsewhere: `T acc = 0;` of a max over fabs, `T acc = 1;` of a
 * sum): C++ folds that value in first; every part of a split starts from
 * the identity instead, and the value is folded in once, into the return,
 * as one more part in front: `return acc;` is `return max(0, acc);`. (For a
 * max or a min taking it in each part would do too; a sum would count it
 * once a part.) It may use what the return may. */
static Node *start_first(Node *n, void *ctx) {
  Derive *dv = ctx;
  if (!is_var_of(n, dv->acc))
    return n;
  Arena *a = dv->ctx->arena;
  Node *start = node_clone(a, dv->acc->init);
  TypeKind k = type_concrete(dv->acc->ty, dv->elem);
  bool int_literal = start->kind == ND_INT && start->ty && start->ty->kind == TY_INT;
  if (!int_literal && (!start->ty || type_concrete(start->ty, dv->elem) != k)) {
    Node *c = node_new(a, ND_CAST, start->loc); /* as the declaration converts it */
    c->ty = dv->acc->ty;
    c->lhs = start;
    start = c;
  }
  Node *x = mk_combine(a, n->loc, dv->cd->op, start, n);
  x->ty = dv->acc->ty;
  return x;
}

static void fold_start(Derive *dv, Node *ret) {
  Node *d = dv->acc;
  if (!d->init || !ret->lhs || d->ty->kind == TY_ARG ||
      sema_is_identity(d->init, d->ty, dv->elem, dv->cd->op))
    return;
  dv->use = "the accumulator's start";
  node_walk(d->init, check_epilogue_use, dv);
  dv->use = "the return";
  if (dv->failed)
    return;
  ret->lhs = node_rewrite(ret->lhs, start_first, dv);
  dv->s->start = node_rewrite(node_clone(dv->ctx->arena, d->init), inline_locals, dv);
  node_walk(dv->s->start, uses_size, &dv->s->start_uses_n);
  d->init = mk_identity(dv->ctx->arena, d->init->loc, dv->cd->op);
  d->init->ty = d->ty;
}

static void derive_epilogue(Derive *dv, Node *ret) {
  Node *e = ret->lhs;
  if (!e) {
    fail(dv, ret->loc, "the scalar codelet must return its accumulator");
    return;
  }
  if (!node_reads(e, dv->acc)) {
    fail(dv, e->loc, "the return does not use the accumulator '%s'", dv->acc->name);
    return;
  }
  node_walk(e, check_epilogue_use, dv);
  if (dv->failed || is_var_of(e, dv->acc))
    return;
  e = ret->lhs = node_rewrite(e, keep_unsigned_meaning, dv); /* the reference's too */
  e = ret->lhs = node_rewrite(e, keep_narrow_width, dv);
  if (node_inlined_size(dv->ctx->arena, e, is_inlined_local, dv, MAX_INLINED) > MAX_INLINED) {
    fail(dv, e->loc,
         "the return with every local written out has more than %d operations (a local read "
         "twice doubles what it stands for); read each local once, or use a helper function",
         MAX_INLINED);
    return;
  }
  Node *epi = node_rewrite(node_clone(dv->ctx->arena, e), inline_locals, dv);
  dv->s->epilogue = epi;
  node_walk(epi, uses_size, &dv->s->epilogue_uses_n);
}

/* ------------------------------------------------------------- derive */

/* The accumulator: the value variable combined into in the loop. */
static Node *find_acc(const Codelet *cd) { return cd->accum; }

static void derive(Derive *dv) {
  Ctx *ctx = dv->ctx;
  Arena *a = ctx->arena;
  const Codelet *cd = dv->cd;
  Spectrum *s = dv->s;
  Node *fn = cd->fn;
  Node *loop = NULL, *ret = NULL;
  dv->acc = find_acc(cd);
  for (int i = 0; i < fn->body->kids.len && !dv->failed; i++) {
    Node *st = fn->body->kids.items[i];
    if (ret) {
      fail(dv, st->loc, "nothing may follow the scalar codelet's return");
      break;
    }
    switch (st->kind) {
    case ND_DECL:
      if (loop && st != dv->acc) {
        fail(dv, st->loc,
             "declare '%s' before the loop (a scalar codelet is declarations, one "
             "loop over its input, and a return)",
             st->name);
        break;
      }
      vec_push(a, &dv->locals, st);
      break;
    case ND_FOR:
      loop = st; /* the one: sema.c check_codelet refuses a second */
      break;
    case ND_RETURN: ret = st; break;
    case ND_NULL: break;
    case ND_IF:
      if (!loop && st->then &&
          (st->then->kind == ND_RETURN || (st->then->kind == ND_BLOCK && st->then->kids.len == 1 &&
                                           ((Node *)st->then->kids.items[0])->kind == ND_RETURN))) {
        fail(dv, st->loc,
             "an early return before the loop: tgm splits the loop into parts, and a part "
             "cannot return for the whole input; a guard for an empty input goes into the "
             "final return ('return %s.Size() ? ... : 0;'; n = 0 reduces to the identity)",
             node_kid(cd->fn, 0) ? node_kid(cd->fn, 0)->name : "in");
        break;
      }
      /* fall through */
    default:
      fail(dv, st->loc,
           "a scalar codelet is declarations, one loop over its input, and a return: "
           "%s",
           SCALAR_FORM);
      break;
    }
  }
  if (dv->failed)
    return;
  if (!loop) {
    fail(dv, cd->loc, "scalar codelet '%s' has no loop over its input: %s", cd->id, SCALAR_FORM);
    return;
  }
  if (!dv->acc || !vec_has(&dv->locals, dv->acc)) {
    fail(dv, loop->loc,
         "cannot find the accumulator: declare it before the loop, from the "
         "identity ('T acc = 0;'), and combine into it in the loop");
    return;
  }
  if (!ret) {
    fail(dv, cd->loc, "scalar codelet '%s' must end with a return of its accumulator", cd->id);
    return;
  }
  check_loop(dv, loop);
  if (!dv->failed)
    derive_transform(dv, loop);
  if (!dv->failed)
    fold_start(dv, ret);
  if (!dv->failed)
    derive_epilogue(dv, ret);
  s->pair = dv->acc->ty->kind == TY_ARG;
  if (!dv->failed && s->pair)
    check_pair(dv, ret);
  if (dv->failed)
    return;
  s->acc = dv->acc;
  s->acc_user = dv->acc->name;
  s->acc_ty = dv->acc->ty;
  s->acc_ctype = emit_type(a, dv->acc->ty); /* tgm_arg for an Arg */
  s->acc_float = dv->acc->ty->kind == TY_FLOAT || dv->acc->ty->kind == TY_DOUBLE ||
                 (dv->acc->ty->kind == TY_ELEM && elem_info(dv->elem)->is_float);
  s->result_ty = fn->ty;
  s->result_ctype = emit_type(a, fn->ty);
  s->transform_text = emit_expr(a, dialect_get(DIALECT_CUDA), s->transform);
  s->epilogue_text = s->epilogue ? emit_expr(a, dialect_get(DIALECT_CUDA), s->epilogue) : NULL;
}

/* The codelets of a spectrum take the same parameters and return the same type. */
static void check_signature(Ctx *ctx, const Codelet *ref, const Codelet *c) {
  Arena *a = ctx->arena;
  bool same = same_type(ref->fn->ty, c->fn->ty) && ref->fn->kids.len == c->fn->kids.len;
  for (int i = 0; same && i < ref->fn->kids.len; i++)
    same = same_type(((Node *)ref->fn->kids.items[i])->ty, ((Node *)c->fn->kids.items[i])->ty);
  if (same)
    return;
  Buf b = {0}, r = {0};
  for (int i = 0; i < c->fn->kids.len; i++)
    buf_printf(&b, "%s%s", i ? ", " : "", type_str(a, ((Node *)c->fn->kids.items[i])->ty));
  for (int i = 0; i < ref->fn->kids.len; i++)
    buf_printf(&r, "%s%s", i ? ", " : "", type_str(a, ((Node *)ref->fn->kids.items[i])->ty));
  diag_error(ctx->diag, c->loc, "codelet '%s' is '%s %s(%s)', but spectrum '%s' is '%s %s(%s)'",
             c->id, type_str(a, c->fn->ty), c->name, b.data ? b.data : "", c->name,
             type_str(a, ref->fn->ty), ref->name, r.data ? r.data : "");
  diag_note(ctx->diag, ref->loc, "the scalar codelet '%s' is here", ref->id);
  buf_free(&b);
  buf_free(&r);
}

static bool has_loop(Node *n, void *ctx) {
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO)
    *(bool *)ctx = true;
  return true;
}

/* One codelet per role: a second is never used, so it is an error. */
static int role_of(const Codelet *c) {
  bool loop = false;
  node_walk(c->fn->body, has_loop, &loop);
  switch (c->kind) {
  case CK_SCALAR: return 0;
  case CK_COOP: return 1;
  case CK_ATOMIC: return loop ? 3 : 2;
  default: return c->part == PART_TILED ? 4 : 5;
  }
}

static const char *const role_names[] = {"scalar codelet",
                                         "cooperative codelet",
                                         "shared-atomic codelet without a tree loop",
                                         "shared-atomic codelet with a tree loop",
                                         "tiled compound codelet",
                                         "strided compound codelet"};

static bool calls_ftoi(Node *n, void *ctx) {
  bool *found = ctx;
  if (n->kind == ND_CALL && n->name && !strncmp(n->name, "tgm_ftoi<", 9))
    *found = true;
  return !*found;
}

void spectrum_derive(Ctx *ctx, Program *prog) {
  Arena *a = ctx->arena;
  for (int i = 0; i < prog->codelets.len; i++) {
    Codelet *first = prog->codelets.items[i];
    if (spectrum_find(prog, first->name))
      continue;
    Spectrum *s = arena_alloc(a, sizeof *s);
    s->name = first->name;
    s->op = first->op;
    vec_push(a, &prog->spectra, s);

    const Codelet *by_role[6] = {0};
    for (int j = i; j < prog->codelets.len; j++) {
      Codelet *c = prog->codelets.items[j];
      if (strcmp(c->name, s->name) != 0)
        continue;
      int r = role_of(c);
      if (by_role[r]) {
        diag_error(ctx->diag, c->loc,
                   "spectrum '%s' has a second %s, '%s'; tgm uses one per spectrum, so this one "
                   "would never run",
                   s->name, role_names[r], c->id);
        diag_note(ctx->diag, by_role[r]->loc, "the first, '%s', is here", by_role[r]->id);
        continue;
      }
      by_role[r] = c;
    }
    const Codelet *scalar = by_role[0];
    if (!scalar) {
      diag_error(ctx->diag, first->loc,
                 "spectrum '%s' has no scalar codelet; tgm needs one (figure 1(a)): it says what "
                 "the spectrum computes and reduces each thread's elements: %s",
                 s->name, SCALAR_FORM);
      continue;
    }
    for (int j = i; j < prog->codelets.len; j++) {
      Codelet *c = prog->codelets.items[j];
      if (c != scalar && strcmp(c->name, s->name) == 0)
        check_signature(ctx, scalar, c);
    }
    for (int k = 0; k < scalar->fn->kids.len; k++) {
      Node *p = scalar->fn->kids.items[k];
      if (p->ty->kind == TY_ARRAY) {
        SpecInput *in = arena_alloc(a, sizeof *in);
        in->name = in->user = p->name;
        in->loc = p->loc;
        vec_push(a, &s->inputs, in);
      } else {
        SpecParam *pm = arena_alloc(a, sizeof *pm);
        pm->name = pm->user = p->name;
        pm->ty = p->ty;
        pm->ctype = type_str(a, p->ty);
        pm->loc = p->loc;
        vec_push(a, &s->params, pm);
      }
    }
    s->elem = prog->elem;
    Derive dv = {.ctx = ctx, .cd = scalar, .s = s, .elem = prog->elem, .use = "the return"};
    derive(&dv);
    s->scalar = scalar;
    /* whether the code converts a float to an integer (sema.c's
       float_to_int; combined_value's conversion is in the scalar codelet's
       own code, which the transform is copied from): file.tpl's tgm_ftoi is
       written only then */
    for (int j = i; j < prog->codelets.len; j++) {
      Codelet *c = prog->codelets.items[j];
      if (!strcmp(c->name, s->name))
        node_walk(c->fn->body, calls_ftoi, &s->ftoi);
    }
    for (int j = 0; j < prog->helpers.len; j++)
      node_walk(((Node *)prog->helpers.items[j])->body, calls_ftoi, &s->ftoi);
    /* a block's shared atomic combines accumulators: it has their type */
    for (int j = 0; s->acc_ty && j < prog->codelets.len; j++) {
      const Codelet *c = prog->codelets.items[j];
      if (strcmp(c->name, s->name) == 0 && c->atomic &&
          type_concrete(c->atomic->ty, prog->elem) != type_concrete(s->acc_ty, prog->elem))
        diag_error(ctx->diag, c->atomic->loc,
                   "atomic accumulator '%s' is '%s', but the spectrum's accumulator '%s' (line "
                   "%d) is '%s': the atomic combines the threads' accumulated values",
                   c->atomic->name, type_str(a, c->atomic->ty), s->acc->name, s->acc->loc.line,
                   type_str(a, s->acc_ty));
    }
  }
}

const Spectrum *spectrum_find(const Program *prog, const char *name) {
  for (int i = 0; i < prog->spectra.len; i++) {
    const Spectrum *s = prog->spectra.items[i];
    if (strcmp(s->name, name) == 0)
      return s;
  }
  return NULL;
}

/* ------------------------------------------------ matching the transform */

typedef struct {
  ElemType elem;
  const Node *scalar, *fn; /* the functions whose parameters p's and e's inputs are */
  bool (*at_index)(const Node *index, void *ctx);
  void *ctx;
} Match;

static int param_pos(const Node *fn, const Node *decl) {
  for (int i = 0; i < fn->kids.len; i++)
    if (fn->kids.items[i] == decl)
      return i;
  return -1;
}

/* n without casts to the type it has already ((double)x of a double x:
 * T is double for f64, so `(double)in[i]` is in[i]). */
static const Node *strip_noop_cast(const Match *m, const Node *n) {
  while (n && n->kind == ND_CAST && n->ty && n->lhs && n->lhs->ty &&
         type_concrete(n->ty, m->elem) == type_concrete(n->lhs->ty, m->elem) &&
         n->ty->kind != TY_OTHER)
    n = n->lhs;
  return n;
}

/* OP_MAX when n is the lowest value of type ty (a max's identity: Lowest(),
 * -INFINITY, INT_MIN), OP_MIN when the highest; OP_NONE otherwise. */
static Op extreme_of(const Match *m, const Node *n, const Type *ty) {
  return sema_is_identity(n, ty, m->elem, OP_MAX)   ? OP_MAX
         : sema_is_identity(n, ty, m->elem, OP_MIN) ? OP_MIN
                                                    : OP_NONE;
}

static bool match(const Match *m, const Node *p, const Node *e) {
  p = strip_noop_cast(m, p);
  e = strip_noop_cast(m, e);
  if (!p || !e)
    return p == e;
  /* an identity in any spelling: the transform's Lowest() (`if (c) acc =
     max(acc, x)`) is a cooperative codelet's -INFINITY */
  Op px = p->ty ? extreme_of(m, p, p->ty) : OP_NONE;
  if (px != OP_NONE)
    return extreme_of(m, e, p->ty) == px;
  if (p->kind == ND_INDEX && is_input_var(p->lhs))
    return e->kind == ND_INDEX && is_input_var(e->lhs) &&
           param_pos(m->fn, e->lhs->decl) == param_pos(m->scalar, p->lhs->decl) &&
           m->at_index(e->rhs, m->ctx);
  if (p->kind == ND_METHOD && is_input_method(p, "Index") && p->kids.len == 1)
    return e->kind == ND_METHOD && is_input_method(e, "Index") && e->kids.len == 1 &&
           param_pos(m->fn, e->lhs->decl) == param_pos(m->scalar, p->lhs->decl) &&
           m->at_index(e->kids.items[0], m->ctx);
  if (p->kind == ND_VAR && p->decl && p->decl->kind == ND_PARAM)
    return e->kind == ND_VAR && e->decl &&
           param_pos(m->fn, e->decl) == param_pos(m->scalar, p->decl);
  if (p->kind == ND_COND && e->kind == ND_COND && p->cond && e->cond) {
    /* `!c ? a : b` is `c ? b : a` (`if (c) continue; acc += x;` is `!(c) ? x : identity`) */
    const Node *pc = strip_noop_cast(m, p->cond), *ec = strip_noop_cast(m, e->cond);
    bool pn = pc->kind == ND_UNARY && pc->op == OP_NOT,
         en = ec->kind == ND_UNARY && ec->op == OP_NOT;
    if (pn != en)
      return match(m, pn ? pc->lhs : pc, en ? ec->lhs : ec) && match(m, p->then, e->els) &&
             match(m, p->els, e->then);
  }
  if (p->kind != e->kind || p->op != e->op || p->kids.len != e->kids.len)
    return false;
  switch (p->kind) {
  case ND_INT:
  case ND_BOOL: return p->ival == e->ival;
  case ND_FLOAT: return p->fval == e->fval;
  case ND_VAR:
  case ND_CALL:
    if (!p->name || !e->name || strcmp(p->name, e->name) != 0)
      return false;
    break;
  case ND_CAST:
    if (!same_type(p->ty, e->ty))
      return false;
    break;
  case ND_METHOD:
  case ND_INDEX:
  case ND_BINARY:
  case ND_UNARY:
  case ND_COND: break;
  default: return false;
  }
  for (int i = 0; i < p->kids.len; i++)
    if (!match(m, p->kids.items[i], e->kids.items[i]))
      return false;
  if (match(m, p->lhs, e->lhs) && match(m, p->rhs, e->rhs) && match(m, p->cond, e->cond) &&
      match(m, p->then, e->then) && match(m, p->els, e->els))
    return true;
  /* y[tid] * x[tid] is x[i] * y[i]: the same value either way round (probe12 D4) */
  bool commutes = p->op == OP_ADD || p->op == OP_MUL || p->op == OP_AND || p->op == OP_OR ||
                  p->op == OP_XOR || p->op == OP_EQ || p->op == OP_NE;
  return p->kind == ND_BINARY && commutes && match(m, p->lhs, e->rhs) && match(m, p->rhs, e->lhs);
}

bool spectrum_match_transform(const Spectrum *s, const Node *fn, const Node *e,
                              bool (*at_index)(const Node *index, void *ctx), void *ctx) {
  if (!s->transform || !s->scalar)
    return false;
  Match m = {s->elem, s->scalar->fn, fn, at_index, ctx};
  return match(&m, s->transform, e);
}

bool spectrum_cast_widens(const Node *x, ElemType elem, bool is_length) {
  return is_length && x->kind == ND_CAST && x->ty && type_concrete(x->ty, elem) == TY_INT;
}

bool spectrum_is_plain(const Spectrum *s) {
  const Node *t = s->transform;
  return s->inputs.len == 1 && s->params.len == 0 && !s->epilogue && s->acc_ty &&
         s->acc_ty->kind == TY_ELEM && s->result_ty->kind == TY_ELEM && t && t->kind == ND_INDEX &&
         is_input_var(t->lhs);
}

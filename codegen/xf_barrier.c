/* xf_barrier.c -- barrier insertion for cooperative codelets.
 *
 * Codelets are written without barriers. This pass walks a lowered block
 * function in program order, keeping the shared-memory accesses made since
 * the last barrier ("pending"). Before a statement whose accesses conflict
 * with a pending one (a write and another access to the same shared
 * variable, not both by the same thread to its own slot, not both atomic),
 * it inserts the narrowest barrier that orders them:
 *   - __syncwarp() when both accesses stay inside one warp: both index the
 *     shared array by ThreadId(), or by ThreadId() + k under a
 *     `LaneId() + k < Size()` guard, or both run in the same single warp
 *     (`if (VectorId() == 0)`);
 *   - __syncthreads() otherwise.
 * Inserting just before the first conflicting statement is the greedy
 * choice that needs the fewest barriers on straight-line code. Loops are
 * walked twice, so that accesses at the end of an iteration are ordered
 * before the next one's. A block-wide barrier may only go where every
 * thread of the block arrives, a warp barrier where every lane of the warp
 * does; statements under conditions that only some threads take are
 * treated as one unit. When no legal place exists the pass fails with a
 * reason, and the variant is left out. */
#include "tgm.h"

#include <string.h>

typedef enum { U_NONE, U_WARP, U_BLOCK } Uniform;

/* Which threads run a statement: all, those of one known warp, or some.
 * A warp's statement under a lane's condition (`LaneId() == 0`, `ThreadId()
 * == 0`) stays in that warp, but not every lane arrives: no warp barrier
 * may go there. */
typedef struct {
  enum { EX_ALL, EX_WARP, EX_SOME } kind;
  long long warp; /* EX_WARP: which warp */
  bool partial;   /* EX_WARP: only some of its lanes */
} Exec;

typedef struct {
  Node *decl;
  bool write, atomic, own, confined, wsynced;
  Exec exec;
  /* inside `if (tid < X)` (X a block-uniform variable, `below` its
   * declaration), an index tid or tid + X: the threads that run it touch
   * [0, X) and [X, 2X), each slot one thread's, within one statement */
  const Node *half;
} Access;

typedef struct {
  Access *items;
  int len, cap;
} Accesses;

typedef struct {
  Arena *a;
  PtrVec uniform_vars; /* Node *: declarations whose value is block-uniform */
  PtrVec sync_at;      /* Node *: statements to put a barrier before */
  PtrVec sync_scope;   /* (intptr_t) scope per entry of sync_at */
  const char *why;
  Loc why_loc;
} Barrier;

static void acc_push(Barrier *b, Accesses *v, Access x) {
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 16;
    Access *items = arena_alloc(b->a, sizeof(Access) * (size_t)cap);
    if (v->len)
      memcpy(items, v->items, sizeof(Access) * (size_t)v->len);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->len++] = x;
}

static Accesses acc_copy(Barrier *b, const Accesses *v) {
  Accesses c = {0};
  for (int i = 0; i < v->len; i++)
    acc_push(b, &c, v->items[i]);
  return c;
}

static bool is_uniform_var(Barrier *b, const Node *decl) {
  for (int i = 0; i < b->uniform_vars.len; i++)
    if (b->uniform_vars.items[i] == decl)
      return true;
  return false;
}

static Uniform uniformity(Barrier *b, const Node *n) {
  if (!n)
    return U_BLOCK;
  switch (n->kind) {
  case ND_INT:
  case ND_FLOAT:
  case ND_BOOL: return U_BLOCK;
  case ND_GPU:
    if (node_is_gpu(n, "tid") || node_is_gpu(n, "lane"))
      return U_NONE;
    return node_is_gpu(n, "warp") ? U_WARP : U_BLOCK;
  case ND_VAR: return n->decl && is_uniform_var(b, n->decl) ? U_BLOCK : U_NONE;
  case ND_BINARY: {
    Uniform l = uniformity(b, n->lhs), r = uniformity(b, n->rhs);
    return l < r ? l : r;
  }
  case ND_UNARY:
  case ND_CAST: return uniformity(b, n->lhs);
  case ND_COND: {
    Uniform c = uniformity(b, n->cond), t = uniformity(b, n->then), e = uniformity(b, n->els);
    Uniform m = c < t ? c : t;
    return m < e ? m : e;
  }
  default: return U_NONE;
  }
}

/* Loop counters with a uniform start, test and step are uniform: the
 * talk's `for (int offset = MaxValue() / 2; offset > 0; offset /= 2)`. */
static bool find_uniform_loops(Node *n, void *ctx) {
  Barrier *b = ctx;
  if (n->kind != ND_FOR || !n->init || n->init->kind != ND_DECL)
    return true;
  Node *v = n->init;
  if (uniformity(b, v->init) != U_BLOCK)
    return true;
  Node *inc = n->inc;
  if (!inc || inc->kind != ND_ASSIGN || !inc->lhs || inc->lhs->decl != v ||
      uniformity(b, inc->rhs) != U_BLOCK)
    return true;
  vec_push(b->a, &b->uniform_vars, v); /* the test uses it, so add it first */
  if (uniformity(b, n->cond) != U_BLOCK)
    b->uniform_vars.len--;
  return true;
}

/* Locals whose value is block-uniform beyond the for counters: a local
 * that starts from a uniform value and is written only with uniform values,
 * by statements every thread runs (`unsigned offset = in.Size() / 2; while
 * (offset > 0) { ...; offset /= 2; }`: probe12 D2). Found as the greatest
 * fixpoint: every candidate assumed uniform, then dropped while a write or
 * its start is not. Not where a break, continue or return inside the body
 * could let some threads skip a write (then only the for rule holds). */
typedef struct {
  Barrier *b;
  const Node *body;
  PtrVec cand;  /* Node *: ND_DECL */
  PtrVec depth; /* (intptr_t): the divergent conditions around each candidate's declaration */
  bool dropped, jumps;
} Locals;

static bool is_cand(const Locals *l, const Node *decl) { return vec_has(&l->cand, decl); }

static void drop(Locals *l, const Node *decl) {
  for (int i = 0; i < l->cand.len; i++)
    if (l->cand.items[i] == decl) {
      l->cand.items[i] = l->cand.items[--l->cand.len];
      l->depth.items[i] = l->depth.items[--l->depth.len];
      l->dropped = true;
      return;
    }
}

/* How many divergent conditions are around the declaration of candidate decl. */
static int decl_depth(const Locals *l, const Node *decl) {
  for (int i = 0; i < l->cand.len; i++)
    if (l->cand.items[i] == decl)
      return (int)(intptr_t)l->depth.items[i];
  return 0;
}

static bool find_cands(Node *n, void *ctx) {
  Locals *l = ctx;
  if (n->kind == ND_DECL && !(n->qual & Q_SHARED) && n->ty && type_is_integer(n->ty) &&
      !n->kids.len) {
    vec_push(l->b->a, &l->cand, n);
    vec_push(l->b->a, &l->depth, (void *)(intptr_t)0);
  }
  if (n->kind == ND_BREAK || n->kind == ND_CONTINUE ||
      (n->kind == ND_RETURN && !vec_has(&l->body->kids, n))) /* the last return is no jump */
    l->jumps = true;
  return true;
}

/* Drops the candidates written where not every thread that declared them
 * runs (under more divergent conditions than the declaration: depth counts
 * them) or with a value that is not uniform. A local declared inside `if
 * (VectorId() == 0)` and stepped there alike is uniform to the threads
 * that run it (probe14: a while tree in warp 0). */
static void scan_writes(Locals *l, Node *n, int depth) {
  if (!n)
    return;
  Barrier *b = l->b;
  switch (n->kind) {
  case ND_IF:
    scan_writes(l, n->cond, depth);
    depth += uniformity(b, n->cond) != U_BLOCK;
    scan_writes(l, n->then, depth);
    scan_writes(l, n->els, depth);
    return;
  case ND_FOR:
  case ND_WHILE:
  case ND_DO:
    scan_writes(l, n->init, depth);
    depth += uniformity(b, n->cond) != U_BLOCK;
    scan_writes(l, n->cond, depth);
    scan_writes(l, n->inc, depth);
    scan_writes(l, n->body, depth);
    return;
  case ND_DECL:
    for (int i = 0; i < l->cand.len; i++)
      if (l->cand.items[i] == n)
        l->depth.items[i] = (void *)(intptr_t)depth;
    if (is_cand(l, n) && n->init && uniformity(b, n->init) != U_BLOCK)
      drop(l, n);
    scan_writes(l, n->init, depth);
    return;
  case ND_ASSIGN:
    if (n->lhs && n->lhs->kind == ND_VAR && is_cand(l, n->lhs->decl) &&
        (depth > decl_depth(l, n->lhs->decl) || uniformity(b, n->rhs) != U_BLOCK))
      drop(l, n->lhs->decl);
    scan_writes(l, n->rhs, depth);
    return;
  case ND_UNARY:
    if ((n->op == OP_PREINC || n->op == OP_PREDEC || n->op == OP_POSTINC || n->op == OP_POSTDEC) &&
        n->lhs && n->lhs->kind == ND_VAR && is_cand(l, n->lhs->decl) &&
        depth > decl_depth(l, n->lhs->decl))
      drop(l, n->lhs->decl);
    scan_writes(l, n->lhs, depth);
    return;
  default:
    scan_writes(l, n->lhs, depth);
    scan_writes(l, n->rhs, depth);
    scan_writes(l, n->cond, depth);
    scan_writes(l, n->then, depth);
    scan_writes(l, n->els, depth);
    scan_writes(l, n->body, depth);
    for (int i = 0; i < n->kids.len; i++)
      scan_writes(l, n->kids.items[i], depth);
    return;
  }
}

static void find_uniform_locals(Barrier *b, Node *body) {
  Locals l = {.b = b, .body = body};
  node_walk(body, find_cands, &l);
  if (l.jumps)
    return;
  int base = b->uniform_vars.len;
  do {
    l.dropped = false;
    b->uniform_vars.len = base; /* the candidates left, as uniform, while scanning */
    for (int i = 0; i < l.cand.len; i++)
      if (!is_uniform_var(b, l.cand.items[i]))
        vec_push(b->a, &b->uniform_vars, l.cand.items[i]);
    scan_writes(&l, body, 0);
  } while (l.dropped);
  b->uniform_vars.len = base;
  for (int i = 0; i < l.cand.len; i++)
    if (!is_uniform_var(b, l.cand.items[i]))
      vec_push(b->a, &b->uniform_vars, l.cand.items[i]);
}

static bool find_jump(Node *n, void *ctx) {
  if (n->kind == ND_BREAK || n->kind == ND_CONTINUE || n->kind == ND_RETURN)
    *(bool *)ctx = true;
  return true;
}

/* Is every write to decl inside the loop's own increment? */
static bool only_inc_writes(Node *n, void *ctx) {
  Node **pair = ctx; /* [decl, the for's inc, result flag] */
  if (n->kind == ND_ASSIGN && n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl == pair[0] &&
      n != pair[1])
    pair[2] = n;
  if (n->kind == ND_UNARY && n->op >= OP_PREINC && n->lhs && n->lhs->kind == ND_VAR &&
      n->lhs->decl == pair[0])
    pair[2] = n;
  return true;
}

typedef struct {
  Barrier *b;
  Accesses *out;
  Exec exec;
  bool guarded;      /* inside `LaneId() + k < Size() ? ... :` */
  const Node *below; /* inside `if (ThreadId() < X)`: X's declaration (Access.half) */
  bool write;        /* the node is being assigned to */
  bool atomic;
} Collect;

static bool is_lane_guard(const Node *c) {
  /* lane + k < warp_size */
  return c && c->kind == ND_BINARY && c->op == OP_LT && node_is_gpu(c->rhs, "warp_size") &&
         c->lhs && c->lhs->kind == ND_BINARY && c->lhs->op == OP_ADD &&
         (node_is_gpu(c->lhs->lhs, "lane") || node_is_gpu(c->lhs->rhs, "lane"));
}

static void collect(Collect *c, Node *n);

static bool is_var_decl(const Node *n, const Node *decl) {
  return n && n->kind == ND_VAR && n->decl == decl;
}

/* `ThreadId() < X` with X a block-uniform variable: X's declaration. */
static const Node *below_of(Barrier *b, const Node *c) {
  return c && c->kind == ND_BINARY && c->op == OP_LT && node_is_gpu(c->lhs, "tid") && c->rhs &&
                 c->rhs->kind == ND_VAR && c->rhs->decl && is_uniform_var(b, c->rhs->decl)
             ? c->rhs->decl
             : NULL;
}

static void record(Collect *c, Node *decl, Node *idx) {
  Access x = {.decl = decl, .write = c->write, .atomic = c->atomic, .exec = c->exec};
  x.own = idx && node_is_gpu(idx, "tid");
  x.confined = x.own || (idx && c->guarded && idx->kind == ND_BINARY && idx->op == OP_ADD &&
                         (node_is_gpu(idx->lhs, "tid") || node_is_gpu(idx->rhs, "tid")));
  if (c->below && (x.own || (idx && idx->kind == ND_BINARY && idx->op == OP_ADD &&
                             ((node_is_gpu(idx->lhs, "tid") && is_var_decl(idx->rhs, c->below)) ||
                              (node_is_gpu(idx->rhs, "tid") && is_var_decl(idx->lhs, c->below))))))
    x.half = c->below;
  acc_push(c->b, c->out, x);
}

static void collect_sub(Collect *c, Node *n, bool write, bool atomic, bool guarded) {
  Collect d = *c;
  d.write = write;
  d.atomic = atomic;
  d.guarded = guarded;
  collect(&d, n);
}

static Exec exec_under(Barrier *b, Exec parent, const Node *cond, bool negated);

/* Shared accesses of an expression or statement, in evaluation order. */
static void collect(Collect *c, Node *n) {
  if (!n)
    return;
  switch (n->kind) {
  case ND_VAR:
    if (n->decl && (n->decl->qual & Q_SHARED))
      record(c, n->decl, NULL);
    return;
  case ND_INDEX:
    collect_sub(c, n->rhs, false, false, c->guarded);
    if (n->lhs && n->lhs->kind == ND_VAR && n->lhs->decl && (n->lhs->decl->qual & Q_SHARED))
      record(c, n->lhs->decl, n->rhs);
    else
      collect_sub(c, n->lhs, c->write, c->atomic, c->guarded);
    return;
  case ND_ASSIGN:
    collect_sub(c, n->rhs, false, false, c->guarded);
    if (n->op != OP_NONE) /* x += e reads x too */
      collect_sub(c, n->lhs, false, false, c->guarded);
    collect_sub(c, n->lhs, true, false, c->guarded);
    return;
  case ND_ATOMIC:
    collect_sub(c, n->rhs, false, false, c->guarded);
    collect_sub(c, n->lhs, true, true, c->guarded);
    return;
  case ND_COND:
    collect_sub(c, n->cond, false, false, c->guarded);
    collect_sub(c, n->then, false, false, c->guarded || is_lane_guard(n->cond));
    collect_sub(c, n->els, false, false, c->guarded);
    return;
  case ND_IF: {
    collect_sub(c, n->cond, false, false, c->guarded);
    Collect t = *c;
    t.exec = exec_under(c->b, c->exec, n->cond, false);
    t.guarded = c->guarded || is_lane_guard(n->cond);
    t.below = below_of(c->b, n->cond);
    if (!t.below)
      t.below = c->below;
    collect(&t, n->then);
    Collect e = *c; /* the else: the threads at or above X (an outer guard's still holds) */
    e.exec = exec_under(c->b, c->exec, n->cond, true);
    collect(&e, n->els);
    return;
  }
  default: {
    Node *fields[] = {n->dim, n->init, n->cond, n->lhs, n->rhs, n->then, n->els, n->body, n->inc};
    for (size_t i = 0; i < COUNT_OF(fields); i++)
      collect_sub(c, fields[i], false, false, c->guarded);
    for (int i = 0; i < n->kids.len; i++)
      collect_sub(c, n->kids.items[i], false, false, c->guarded);
    return;
  }
  }
}

static bool int_value(const Node *n, long long *v) {
  if (n && n->kind == ND_INT) {
    *v = n->ival;
    return true;
  }
  return false;
}

/* The threads that run the branch of `if (cond)` (or its else). */
static Exec exec_under(Barrier *b, Exec parent, const Node *cond, bool negated) {
  Uniform u = uniformity(b, cond);
  if (u == U_BLOCK)
    return parent;
  long long k;
  if (!negated && cond && cond->kind == ND_BINARY && cond->op == OP_EQ) {
    /* warp == k: one warp; tid == k: one thread, so one warp */
    const Node *x = cond->lhs, *y = cond->rhs;
    if (!int_value(y, &k)) {
      const Node *t = x;
      x = y;
      y = t;
    }
    if (int_value(y, &k) && node_is_gpu(x, "warp"))
      return (Exec){EX_WARP, k, parent.kind == EX_WARP && parent.partial};
    if (int_value(y, &k) && node_is_gpu(x, "tid") && k < 32)
      return (Exec){EX_WARP, 0, true};
  }
  return parent.kind == EX_WARP ? (Exec){EX_WARP, parent.warp, true} : (Exec){EX_SOME, 0, false};
}

static Uniform region_of(Exec e) {
  return e.kind == EX_ALL ? U_BLOCK : e.kind == EX_WARP && !e.partial ? U_WARP : U_NONE;
}

/* The barrier two accesses need, or -1 for none. */
static int conflict(const Access *p, const Access *n) {
  if (p->decl != n->decl || (!p->write && !n->write) || (p->atomic && n->atomic))
    return -1;
  if (p->own && n->own)
    return -1; /* a thread and its own slot */
  bool same_warp = p->exec.kind == EX_WARP && n->exec.kind == EX_WARP &&
                   p->exec.warp == n->exec.warp;
  int scope = same_warp || (p->confined && n->confined) ? SYNC_WARP : SYNC_BLOCK;
  if (scope == SYNC_WARP && p->wsynced)
    return -1;
  return scope;
}

static int needed(const Accesses *pending, const Accesses *now) {
  int scope = -1;
  for (int i = 0; i < now->len; i++)
    for (int j = 0; j < pending->len; j++) {
      int s = conflict(&pending->items[j], &now->items[i]);
      if (s == SYNC_BLOCK || (s == SYNC_WARP && scope < 0))
        scope = s;
    }
  return scope;
}

/* Conflicts among the accesses of one unit that no barrier can order. Harris's
 * in-place step `if (tid < s) a[tid] += a[tid + s]` has none: within it the
 * threads below s touch a[0, s) and a[s, 2s), each slot one thread's (the
 * accesses of one half: s is the same for all of them there; between
 * statements, and iterations, they conflict as any others). */
static bool internal_conflict(const Accesses *acc) {
  for (int i = 0; i < acc->len; i++)
    for (int j = 0; j < i; j++)
      if (conflict(&acc->items[j], &acc->items[i]) >= 0 &&
          !(acc->items[i].half && acc->items[i].half == acc->items[j].half))
        return true;
  return false;
}

static void fail(Barrier *b, Loc loc, const char *why) {
  if (!b->why) {
    b->why = why;
    b->why_loc = loc;
  }
}

static void sync_before(Barrier *b, Node *s, int scope, Uniform region, Accesses *pending) {
  if ((scope == SYNC_BLOCK && region != U_BLOCK) || region == U_NONE) {
    fail(b, s->loc,
         scope == SYNC_BLOCK ? "needs a block-wide barrier where only some threads arrive"
                             : "needs a warp barrier where only some lanes arrive");
    return;
  }
  for (int i = 0; i < b->sync_at.len; i++) {
    if (b->sync_at.items[i] == s) {
      if ((intptr_t)b->sync_scope.items[i] > scope)
        b->sync_scope.items[i] = (void *)(intptr_t)scope; /* block is 0: the wider */
      goto done;
    }
  }
  vec_push(b->a, &b->sync_at, s);
  vec_push(b->a, &b->sync_scope, (void *)(intptr_t)scope);
done:
  if (scope == SYNC_BLOCK)
    pending->len = 0;
  else
    for (int i = 0; i < pending->len; i++)
      pending->items[i].wsynced = true;
}

static void walk_list(Barrier *b, Node *list, Exec exec, Accesses *pending);

static void append(Barrier *b, Accesses *to, const Accesses *from) {
  for (int i = 0; i < from->len; i++)
    acc_push(b, to, from->items[i]);
}

/* One statement, as a unit: its accesses, a barrier before it if needed. */
static void unit(Barrier *b, Node *s, Exec exec, Accesses *pending) {
  Accesses now = {0};
  Collect c = {.b = b, .out = &now, .exec = exec};
  collect(&c, s);
  if (internal_conflict(&now)) {
    /* an in-place step other than Harris's (probe12 D3, probe16 03): tgm
       cannot part its read from its write */
    fail(b, s->loc,
         node_shared_combine_in(s)
             ? "needs a barrier inside a statement that only some threads run: its threads read "
               "slots of a shared array that others write in it; tgm orders an in-place step as "
               "'if (ThreadId() < s) a[ThreadId()] += a[ThreadId() + s];' (s a counter every "
               "thread steps alike), or with the thread's value in a local ('val += a[tid + s]; "
               "a[tid] = val;')"
             : "needs a barrier inside a statement that only some threads run");
  }
  int scope = needed(pending, &now);
  if (scope >= 0)
    sync_before(b, s, scope, region_of(exec), pending);
  append(b, pending, &now);
}

static void walk_stmt(Barrier *b, Node *s, Exec exec, Accesses *pending) {
  switch (s->kind) {
  case ND_BLOCK: walk_list(b, s, exec, pending); return;
  case ND_IF: {
    Uniform u = uniformity(b, s->cond);
    Exec te = exec_under(b, exec, s->cond, false), ee = exec_under(b, exec, s->cond, true);
    bool into = u == U_BLOCK || (te.kind == EX_WARP && !te.partial &&
                                 (!s->els || (ee.kind == EX_WARP && !ee.partial)));
    if (!into) {
      unit(b, s, exec, pending);
      return;
    }
    /* order what the branches touch against what came before, at this level */
    if (u != U_BLOCK) {
      Accesses now = {0};
      Collect c = {.b = b, .out = &now, .exec = exec};
      collect(&c, s);
      Accesses block_only = acc_copy(b, pending);
      for (int i = 0; i < block_only.len; i++)
        block_only.items[i].wsynced = true; /* only the block-wide conflicts */
      if (needed(&block_only, &now) == SYNC_BLOCK)
        sync_before(b, s, SYNC_BLOCK, region_of(exec), pending);
    }
    Accesses then_p = acc_copy(b, pending);
    walk_stmt(b, s->then, te, &then_p);
    if (s->els) {
      Accesses else_p = acc_copy(b, pending);
      walk_stmt(b, s->els, ee, &else_p);
      append(b, &then_p, &else_p);
    } else {
      append(b, &then_p, pending);
    }
    *pending = then_p;
    return;
  }
  case ND_FOR:
  case ND_WHILE:
  case ND_DO: {
    bool uniform = s->kind == ND_FOR && s->init && s->init->kind == ND_DECL &&
                   is_uniform_var(b, s->init);
    if (uniform) {
      Node *check[3] = {s->init, s->inc, NULL};
      node_walk(s->body, only_inc_writes, check);
      uniform = check[2] == NULL;
    }
    /* a loop whose test every thread computes alike (uniform locals), and
       that no thread leaves early (a break, continue or return inside) */
    bool jumps = false;
    node_walk(s->body, find_jump, &jumps);
    uniform |= s->cond && uniformity(b, s->cond) == U_BLOCK && !jumps;
    if (!uniform) {
      unit(b, s, exec, pending);
      return;
    }
    Accesses before = acc_copy(b, pending);
    walk_stmt(b, s->body, exec, pending); /* first iteration */
    walk_stmt(b, s->body, exec, pending); /* the next one sees the end of the last */
    if (s->kind != ND_DO)
      append(b, pending, &before); /* zero iterations */
    return;
  }
  default: unit(b, s, exec, pending); return;
  }
}

static void walk_list(Barrier *b, Node *list, Exec exec, Accesses *pending) {
  for (int i = 0; i < list->kids.len; i++)
    walk_stmt(b, list->kids.items[i], exec, pending);
}

static Node *insert_syncs(Node *n, void *ctx) {
  Barrier *b = ctx;
  if (n->kind != ND_BLOCK)
    return n;
  PtrVec kids = {0};
  for (int i = 0; i < n->kids.len; i++) {
    Node *s = n->kids.items[i];
    for (int j = 0; j < b->sync_at.len; j++)
      if (b->sync_at.items[j] == s)
        vec_push(b->a, &kids, mk_sync(b->a, s->loc, (int)(intptr_t)b->sync_scope.items[j]));
    vec_push(b->a, &kids, s);
  }
  n->kids = kids;
  return n;
}

/* A loop or if body that is one statement becomes a block, so that a
 * barrier has a list to go in. */
static Node *blockify(Node *n, void *ctx) {
  Arena *a = ctx;
  Node **slots[] = {&n->then, &n->els, &n->body};
  if (n->kind != ND_IF && n->kind != ND_FOR && n->kind != ND_WHILE && n->kind != ND_DO)
    return n;
  for (size_t i = 0; i < COUNT_OF(slots); i++) {
    Node *s = *slots[i];
    if (s && s->kind != ND_BLOCK) {
      Node *blk = mk_block(a, s->loc);
      block_add(a, blk, s);
      *slots[i] = blk;
    }
  }
  return n;
}

/* Returns NULL on success, or why no barriers could make fn safe. */
const char *xf_barrier(Arena *a, Node *fn, Loc *why_loc) {
  Barrier b = {.a = a};
  node_rewrite(fn->body, blockify, a);
  node_walk(fn->body, find_uniform_loops, &b);
  find_uniform_locals(&b, fn->body);
  Accesses pending = {0};
  walk_list(&b, fn->body, (Exec){EX_ALL, 0, false}, &pending);
  if (b.why) {
    *why_loc = b.why_loc;
    return b.why;
  }
  node_rewrite(fn->body, insert_syncs, &b);
  return NULL;
}

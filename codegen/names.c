/* names.c -- the user's names kept apart from the names tgm writes itself.
 *
 * The generated code puts the user's names beside tgm's own: a parameter
 * (`T lo`) or an input goes into the signatures of the templates' functions
 * and of the kernels, whose locals have names too (`lo`, `hi`, `n`,
 * `value`, ...); a codelet's locals go into functions the passes also
 * declare names in (`in_size`, `v`, `value`, `lane`, ...); a helper
 * function sits among the templates' functions. Where a user's name is one
 * of tgm's, the compiler rejects the file or, in an inner scope, takes one
 * for the other. So after sema each such name is renamed in the code it
 * appears in (`lo` -> `lo_`, `lo__` where that is taken too); the manifest,
 * the generated comments and tgm-tune's --param keep the user's spelling
 * (SpecParam.user, SpecInput.user).
 *
 * tgm's names: for parameters, inputs and helpers, every identifier in the
 * code of the built-in templates (comments, strings and holes left out, and
 * members after `.` or `->`); for all of them, the names the passes declare
 * (names_invented: tests/unit/test_names.c holds codegen's sources to it),
 * names that start tgm_, TGM_ or __, each input's derived names (in_size,
 * in_stride, in_value, in_first) and, for helpers, the spectrum's name and
 * what starts with it and `_` (sum_scalar, sum_coop, ...). An input named
 * `in` keeps its name: the templates' `in` is the input. Compound codelets
 * are read, not printed: their names stay. */
#include "tgm.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Every name the passes declare in code (mk_decl, mk_param) or print as a
 * name of their own, and the GPU's built-in variables the templates do not
 * spell (a parameter `warpSize` met the simulator's `extern int warpSize`:
 * an internal error). */
const char *const names_invented[] = {
    "A",         "BLOCK",   "GROUP",    "ITEMS",   "R",         "T",        "V",        "bid",
    "bid_y",     "block",   "count",    "counter", "gdim",      "group",    "group_id", "group_tid",
    "in",        "is_last", "items",    "lane",    "ld",        "m",        "n",        "out",
    "partials",  "row",     "shfl",     "tid",     "v",         "value",    "w",        "warp",
    "warp_size", "width",   "warpSize", "gridDim", "threadIdx", "blockIdx", "blockDim",
};
const int names_invented_count = (int)(sizeof names_invented / sizeof *names_invented);

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

typedef struct {
  PtrVec names; /* const char *, sorted */
} NameSet;

static bool set_has(const NameSet *s, const char *name) {
  return s->names.len &&
         bsearch(&name, s->names.items, (size_t)s->names.len, sizeof(void *), cmp_str);
}

static void set_sort(NameSet *s) {
  if (s->names.len)
    qsort(s->names.items, (size_t)s->names.len, sizeof(void *), cmp_str);
}

/* What a template's hole puts in of the user's names: 1 parameters, 2
 * inputs, 0 neither. */
static int splices_names(const char *hole, size_t len) {
  static const struct {
    const char *part;
    int what;
  } parts[] = {{"param", 1}, {"in_", 2}, {"inputs", 2}, {"first_in", 2}, {"kernel_args", 3}};
  int what = 0;
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    size_t n = strlen(parts[i].part);
    for (size_t k = 0; k + n <= len; k++)
      if (memcmp(hole + k, parts[i].part, n) == 0)
        what |= parts[i].what;
  }
  return what;
}

/* The identifiers of a template's code: all of them into every_name, and
 * those of each top-level declaration (a function, a struct, ...; inside a
 * namespace or extern "C" block too) where the user's parameters are put in
 * into by_param, where the inputs are into by_input. Unsorted. */
static void template_names(Arena *a, PtrVec *every_name, PtrVec *by_param, PtrVec *by_input,
                           const char *text) {
  const size_t len = strlen(text);
  bool member = false;        /* the previous token was `.` or `->` */
  int user = 0;               /* this declaration's holes with the user's names: splices_names */
  int depth = 0, top = 0;     /* braces open; of them, namespace and extern "C" blocks */
  int item = every_name->len; /* where this declaration's names start */
  const char *last = NULL;    /* the last identifier, and the one before */
  const char *before = NULL;
  for (size_t i = 0; i < len;) {
    size_t past = front_skip_trivia(text, len, i); /* comments, strings */
    if (past != i) {
      member = member && text[i] == '/';
      i = past;
      continue;
    }
    const char *p = text + i;
    bool end_item = false;
    if (p[0] == '{' && p[1] == '{') {
      const char *e = strstr(p + 2, "}}");
      size_t hole = e ? (size_t)(e + 2 - p) : len - i;
      user |= splices_names(p, hole);
      i += hole;
      continue;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
      size_t n = 1;
      while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
      const char *id = arena_printf(a, "%.*s", (int)n, p);
      if (!member)
        vec_push(a, every_name, (void *)id);
      before = last, last = id;
      member = false;
      i += n;
      continue;
    }
    if (isdigit((unsigned char)*p)) {
      while (i < len && (isalnum((unsigned char)text[i]) || text[i] == '_' || text[i] == '.'))
        i++;
      member = false;
      continue;
    }
    if (*p == '.' || (p[0] == '-' && p[1] == '>')) {
      i += *p == '.' ? 1 : 2;
      member = true;
      continue;
    }
    if (*p == '{') {
      /* `namespace NAME {`, `extern "C" {` (its string skipped: extern is last) */
      bool wraps = (last && (strcmp(last, "extern") == 0 || strcmp(last, "namespace") == 0)) ||
                   (before && strcmp(before, "namespace") == 0);
      if (depth == top && wraps)
        top++, end_item = true;
      depth++;
    } else if (*p == '}' && depth > 0) {
      if (depth == top)
        top--;
      depth--;
      end_item = depth == top;
    } else if (*p == ';' && depth == top) {
      end_item = true;
    }
    if (!isspace((unsigned char)*p))
      member = false;
    i++;
    if (end_item) {
      for (int k = item; k < every_name->len; k++) {
        if (user & 1)
          vec_push(a, by_param, every_name->items[k]);
        if (user & 2)
          vec_push(a, by_input, every_name->items[k]);
      }
      item = every_name->len;
      user = 0;
      last = before = NULL;
    }
  }
}

typedef struct {
  Arena *a;
  const Program *prog;
  NameSet every;   /* tgm's names: every one in the templates, and the passes' */
  NameSet param;   /* the passes', and the templates' where parameters are put in */
  NameSet input;   /* the passes', and the templates' where inputs are put in */
  NameSet local;   /* the passes' names alone */
  NameSet user;    /* every name the user declared: a new name is none of them */
  PtrVec from, to; /* renamings made: a name renamed once is renamed alike */
} Names;

static bool tgm_prefix(const char *name) {
  return strncmp(name, "tgm_", 4) == 0 || strncmp(name, "TGM_", 4) == 0 ||
         strncmp(name, "__", 2) == 0;
}

static const char *const suffixes[DERIVED_COUNT] = {"_size", "_stride", "_value", "_first"};

const char *names_derive(Arena *a, const char *input, Derived d) {
  return arena_printf(a, "%s%s", input, suffixes[d]);
}

/* An input's derived names (names_derive), and d_<input>, its device
 * pointer in the embedded call (a parameter d_in made that call's
 * parameters two of one name). */
static bool derived(const Names *nm, const char *name) {
  for (int i = 0; i < nm->prog->spectra.len; i++) {
    const Spectrum *s = nm->prog->spectra.items[i];
    for (int k = 0; k < s->inputs.len; k++) {
      const char *in = ((const SpecInput *)s->inputs.items[k])->name;
      size_t len = strlen(in);
      if (strncmp(name, "d_", 2) == 0 && strcmp(name + 2, in) == 0)
        return true;
      for (size_t j = 0; j < sizeof suffixes / sizeof *suffixes; j++)
        if (strncmp(name, in, len) == 0 && strcmp(name + len, suffixes[j]) == 0)
          return true;
    }
  }
  return false;
}

typedef enum { AS_LOCAL, AS_SIGNATURE, AS_INPUT, AS_HELPER } NameRole;

static bool clashes(const Names *nm, const char *name, NameRole role) {
  if (tgm_prefix(name) || set_has(&nm->local, name) || derived(nm, name))
    return !(role == AS_INPUT && strcmp(name, "in") == 0);
  if (role == AS_LOCAL)
    return false;
  if (role == AS_INPUT && strcmp(name, "in") == 0)
    return false;
  const NameSet *theirs = role == AS_HELPER  ? &nm->every
                          : role == AS_INPUT ? &nm->input
                                             : &nm->param;
  if (set_has(theirs, name))
    return true;
  if (role == AS_HELPER)
    for (int i = 0; i < nm->prog->spectra.len; i++) {
      const char *s = ((const Spectrum *)nm->prog->spectra.items[i])->name;
      size_t len = strlen(s);
      if (strncmp(name, s, len) == 0 && (name[len] == 0 || name[len] == '_'))
        return true;
    }
  return false;
}

/* The name the code uses for the user's `name` in that role. */
static const char *code_name(Names *nm, const char *name, NameRole role) {
  for (int i = 0; i < nm->from.len; i++)
    if (strcmp(nm->from.items[i], name) == 0)
      return nm->to.items[i];
  if (!clashes(nm, name, role))
    return name;
  /* name_, name__, ...; a name of tgm's prefix (tgm_scale, __x) keeps it
     whatever follows, so it becomes u_tgm_scale, u___x first (appending
     alone looped for ever, memory growing) */
  const char *to = tgm_prefix(name) ? arena_printf(nm->a, "u_%s", name)
                                    : arena_printf(nm->a, "%s_", name);
  for (;;) {
    bool taken = clashes(nm, to, role) || set_has(&nm->user, to);
    for (int i = 0; i < nm->to.len && !taken; i++) /* another name's new name */
      taken = strcmp(nm->to.items[i], to) == 0;
    if (!taken)
      break;
    to = arena_printf(nm->a, "%s_", to);
  }
  vec_push(nm->a, &nm->from, (void *)name);
  vec_push(nm->a, &nm->to, (void *)to);
  return to;
}

typedef struct {
  Names *nm;
  PtrVec *users; /* the user's declarations seen */
} Collect;

static bool collect(Node *n, void *ctx) {
  Collect *c = ctx;
  if ((n->kind == ND_DECL || n->kind == ND_PARAM || n->kind == ND_FUNC) && n->name)
    vec_push(c->nm->a, c->users, (void *)n->name);
  return true;
}

typedef struct {
  const Node *decl;
  const char *to;
} Rename;

static bool rename_refs(Node *n, void *ctx) {
  const Rename *r = ctx;
  if (n->kind == ND_VAR && n->decl == r->decl)
    n->name = r->to;
  return true;
}

typedef struct {
  Names *nm;
  Node *root;
} Locals;

static bool rename_decls(Node *n, void *ctx) {
  Locals *l = ctx;
  if ((n->kind != ND_DECL && n->kind != ND_PARAM) || !n->name)
    return true;
  NameRole role = AS_LOCAL;
  if (n->kind == ND_PARAM)
    role = n->ty && n->ty->kind == TY_ARRAY ? AS_INPUT : AS_SIGNATURE;
  const char *to = code_name(l->nm, n->name, role);
  if (to != n->name) {
    Rename r = {n, to};
    node_walk(l->root, rename_refs, &r);
    n->name = to;
  }
  return true;
}

typedef struct {
  const char *from, *to;
} CallRename;

static bool rename_calls(Node *n, void *ctx) {
  const CallRename *r = ctx;
  if (n->kind == ND_CALL && n->name && strcmp(n->name, r->from) == 0)
    n->name = r->to;
  return true;
}

void names_apart(Ctx *ctx, Program *prog) {
  Arena *a = ctx->arena;
  Names nm = {.a = a, .prog = prog};
  for (const TplFile *t = tgm_templates; t->name; t++)
    template_names(a, &nm.every.names, &nm.param.names, &nm.input.names, t->text);
  NameSet *with_invented[] = {&nm.every, &nm.param, &nm.input, &nm.local};
  for (size_t k = 0; k < sizeof with_invented / sizeof *with_invented; k++) {
    for (int i = 0; i < names_invented_count; i++)
      vec_push(a, &with_invented[k]->names, (void *)names_invented[i]);
    set_sort(with_invented[k]);
  }
  Collect c = {&nm, &nm.user.names};
  for (int i = 0; i < prog->codelets.len; i++)
    node_walk(((Codelet *)prog->codelets.items[i])->fn, collect, &c);
  for (int i = 0; i < prog->helpers.len; i++)
    node_walk(prog->helpers.items[i], collect, &c);
  set_sort(&nm.user);

  /* the spectrum's inputs and parameters as the kernels and templates see them */
  for (int i = 0; i < prog->spectra.len; i++) {
    Spectrum *s = prog->spectra.items[i];
    for (int k = 0; k < s->inputs.len; k++) {
      SpecInput *in = s->inputs.items[k];
      in->user = in->name;
      in->name = code_name(&nm, in->name, AS_INPUT);
    }
    for (int k = 0; k < s->params.len; k++) {
      SpecParam *p = s->params.items[k];
      p->user = p->name;
      p->name = code_name(&nm, p->name, AS_SIGNATURE);
    }
  }
  /* the codelets that are printed: their parameters and locals */
  for (int i = 0; i < prog->codelets.len; i++) {
    Codelet *cd = prog->codelets.items[i];
    if (cd->kind == CK_COMPOUND)
      continue;
    Locals l = {&nm, cd->fn};
    node_walk(cd->fn, rename_decls, &l);
  }
  /* helper functions among the templates' */
  for (int i = 0; i < prog->helpers.len; i++) {
    Node *h = prog->helpers.items[i];
    const char *to = code_name(&nm, h->name, AS_HELPER);
    if (to == h->name)
      continue;
    CallRename r = {h->name, to};
    for (int k = 0; k < prog->codelets.len; k++)
      node_walk(((Codelet *)prog->codelets.items[k])->fn, rename_calls, &r);
    for (int k = 0; k < prog->helpers.len; k++)
      node_walk(prog->helpers.items[k], rename_calls, &r);
    for (int k = 0; k < prog->spectra.len; k++) { /* copies of the scalar codelet's code */
      Spectrum *s = prog->spectra.items[k];
      node_walk(s->transform, rename_calls, &r);
      node_walk(s->epilogue, rename_calls, &r);
    }
    h->name = to;
  }
}

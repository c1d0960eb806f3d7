/* front.c -- the codelet front end: libclang in, tgm's AST out.
 *
 * This is the only file that includes clang-c/Index.h; no libclang type
 * leaves it.
 *
 * A spectrum is several codelets with one name and one signature, which
 * C++ calls a redefinition. So the file is parsed once per codelet: in
 * parse k, every other codelet keeps its declaration but its body is
 * blanked out (replaced by ';' and spaces, newlines kept). Byte offsets,
 * lines and columns are therefore those of the user's own file, and clang's
 * diagnostics point at the user's file:line:col. The same diagnostic from
 * several parses is printed once (diag.c).
 *
 * Before that, two length-keeping rewrites (base_text): the talk's
 * `Vector vthread();`, and a concrete element type (`Array<1,int>`), which
 * fixes the file's type and is read as T. Each codelet's attributes are read
 * from its own declaration only (clang merges them across redeclarations).
 * Besides codelets, a file holds helper functions (prog->helpers) and
 * typedefs; anything else at file scope is an error. */
#include "tgm.h"

#include <clang-c/Index.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PRELUDE_PATH "/tgm-prelude/tgm_prelude.h"
/* The standard headers a codelet may include for names the prelude already
 * declares (INT_MAX, FLT_MAX, sqrtf, size_t): empty files here, so that
 * `#include <climits>` is no "file not found" (-nostdinc). */
#define STD_DIR "/tgm-prelude/std"
#define STD_TEXT "// tgm: the prelude declares what a codelet uses of this header\n"
static const char *const std_paths[] = {STD_DIR "/climits", STD_DIR "/limits.h",
                                        STD_DIR "/cfloat",  STD_DIR "/float.h",
                                        STD_DIR "/cmath",   STD_DIR "/math.h",
                                        STD_DIR "/cstddef", STD_DIR "/stddef.h",
                                        STD_DIR "/cstdint", STD_DIR "/stdint.h",
                                        STD_DIR "/cstdlib", STD_DIR "/stdlib.h",
                                        STD_DIR "/limits",  STD_DIR "/algorithm"};

/* ------------------------------------------------------- finding codelets */

typedef struct {
  size_t decl_start; /* just past the previous top-level declaration */
  size_t start;      /* offset of __codelet */
  size_t body_start; /* offset of the body's '{', or SIZE_MAX */
  size_t body_end;   /* offset just past the matching '}' */
} Span;

static bool is_ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Skips a comment, string or character literal starting at i; returns the
 * offset after it, or i when there is none. */
size_t front_skip_trivia(const char *s, size_t len, size_t i) {
  if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
    while (i < len && s[i] != '\n')
      i++;
    return i;
  }
  if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
    i += 2;
    while (i + 1 < len && !(s[i] == '*' && s[i + 1] == '/'))
      i++;
    return i + 2 < len ? i + 2 : len;
  }
  if (s[i] == '"' || s[i] == '\'') {
    char q = s[i++];
    while (i < len && s[i] != q && s[i] != '\n') {
      if (s[i] == '\\')
        i++;
      i++;
    }
    return i < len ? i + 1 : len;
  }
  return i;
}

/* The conditional groups find_codelets is in (probe9 #6: the braces of
 * each branch of an #ifdef, or of an #if 0, were all counted): the brace
 * depth at each open #if, the depth its first branch ends at (each branch
 * is taken to open what the first does), and the #if 0 being passed over. */
enum { COND_MAX = 64 };
typedef struct {
  int at_if[COND_MAX], first_end[COND_MAX], n;
  int skip; /* nesting inside the #if 0 being passed over: 0 compiled */
} Conditional;

static bool pp_is(const char *line, size_t len, const char *word) {
  size_t i = 1, w = strlen(word); /* after '#' */
  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i + w <= len && !strncmp(line + i, word, w) &&
         (i + w == len || !is_ident_char(line[i + w]));
}

/* `#if 0` exactly (its condition 0, nothing else) */
static bool pp_if0(const char *line, size_t len) {
  if (!pp_is(line, len, "if"))
    return false;
  const char *p = strstr(line, "if") + 2;
  while (p < line + len && (*p == ' ' || *p == '\t'))
    p++;
  if (p >= line + len || *p != '0')
    return false;
  for (p++; p < line + len; p++)
    if (*p != ' ' && *p != '\t' && *p != '\r')
      return *p == '/'; /* a comment after it */
  return true;
}

/* The brace depth after preprocessor line `line` (from '#', without its
 * newline). */
static int conditional(Conditional *c, const char *line, size_t len, int depth) {
  bool open = pp_is(line, len, "if") || pp_is(line, len, "ifdef") || pp_is(line, len, "ifndef");
  if (c->skip) { /* only the nesting counts, and the branch that ends the skip */
    if (open)
      c->skip++;
    else if (pp_is(line, len, "endif") && --c->skip == 0)
      c->n--;
    else if (c->skip == 1 && (pp_is(line, len, "else") || pp_is(line, len, "elif")))
      c->skip = 0; /* the #if 0's other branch is compiled */
    return depth;
  }
  if (open) {
    if (c->n < COND_MAX) {
      c->at_if[c->n] = depth;
      c->first_end[c->n] = -1;
    }
    c->n++;
    if (pp_if0(line, len))
      c->skip = 1;
    return depth;
  }
  if (c->n == 0)
    return depth;
  if (c->n > COND_MAX) { /* nested past what is kept: only the nesting counts */
    c->n -= pp_is(line, len, "endif");
    return depth;
  }
  int g = c->n - 1;
  if (pp_is(line, len, "else") || pp_is(line, len, "elif")) {
    if (c->first_end[g] < 0)
      c->first_end[g] = depth;
    return c->at_if[g];
  }
  if (pp_is(line, len, "endif")) {
    c->n--;
    return c->first_end[g] >= 0 ? c->first_end[g] : depth;
  }
  return depth;
}

/* Finds each top-level `__codelet` and the braces of its body, by a light
 * lexical scan (comments, strings and preprocessor lines skipped, the
 * branches of a conditional as its first). Exact parsing is clang's job;
 * this only decides what to blank. */
static void find_codelets(Arena *a, const SrcFile *f, PtrVec *out, size_t *nested) {
  const char *s = f->text;
  size_t len = f->len;
  int depth = 0;
  Conditional cond = {0};
  Span *cur = NULL; /* the codelet whose body we are looking for */
  bool line_start = true;
  size_t decl_start = 0; /* just past the last top-level ';', '}' or # line */
  for (size_t i = 0; i < len;) {
    size_t j = front_skip_trivia(s, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    char c = s[i];
    if (line_start && c == '#') { /* a preprocessor line, with continuations */
      size_t d = i;
      while (i < len && s[i] != '\n')
        i += (s[i] == '\\' && i + 1 < len) ? 2 : 1;
      depth = conditional(&cond, s + d, i - d, depth);
      if (depth == 0)
        decl_start = i;
      continue;
    }
    if (cond.skip) { /* within #if 0: not compiled, its braces not counted */
      if (c == '\n')
        line_start = true;
      else if (c != ' ' && c != '\t' && c != '\r')
        line_start = false;
      i++;
      continue;
    }
    if (c == '\n')
      line_start = true;
    else if (c != ' ' && c != '\t' && c != '\r')
      line_start = false;
    if (c == '{') {
      if (depth == 0 && cur && cur->body_start == SIZE_MAX)
        cur->body_start = i;
      depth++;
    } else if (c == '}') {
      if (depth > 0)
        depth--;
      if (depth == 0)
        decl_start = i + 1;
      if (depth == 0 && cur && cur->body_start != SIZE_MAX) {
        cur->body_end = i + 1;
        cur = NULL;
      }
    } else if (c == ';' && depth == 0) {
      decl_start = i + 1;
      if (cur && cur->body_start == SIZE_MAX)
        cur = NULL; /* a declaration without a body */
    } else if (depth > 0 && c == '_' && (i == 0 || !is_ident_char(s[i - 1])) &&
               strncmp(s + i, "__codelet", 9) == 0 && !is_ident_char(s[i + 9]) &&
               *nested == SIZE_MAX) {
      *nested = i; /* in a namespace, a class, a function: not where codelets live */
    } else if (depth == 0 && c == '_' && (i == 0 || !is_ident_char(s[i - 1])) &&
               strncmp(s + i, "__codelet", 9) == 0 && !is_ident_char(s[i + 9])) {
      cur = arena_alloc(a, sizeof *cur);
      cur->decl_start = decl_start;
      cur->start = i;
      cur->body_start = SIZE_MAX;
      cur->body_end = SIZE_MAX;
      vec_push(a, out, cur);
      i += 9;
      continue;
    }
    i++;
  }
}

/* A body blanked in place: its '{' a ';' (the definition a declaration),
 * the rest spaces, newlines kept. */
void front_blank_body(char *t, size_t start, size_t end) {
  t[start] = ';';
  for (size_t i = start + 1; i < end; i++)
    if (t[i] != '\n')
      t[i] = ' ';
}

/* The text of parse k: codelet k whole, the other bodies blanked. */
static char *text_for(Arena *a, const SrcFile *f, const char *base, const PtrVec *spans, int k) {
  char *t = arena_strndup(a, base, f->len);
  for (int j = 0; j < spans->len; j++) {
    const Span *sp = spans->items[j];
    if (j == k || sp->body_start == SIZE_MAX)
      continue;
    front_blank_body(t, sp->body_start, sp->body_end == SIZE_MAX ? f->len : sp->body_end);
  }
  return t;
}

/* ------------------------------------------------ the text clang is given
 *
 * Two rewrites keep every byte offset, line and column of the user's file:
 *   - `Vector vthread();` (the talk's notation; C++ reads a function
 *     declaration) becomes `Vector vthread  ;`;
 *   - a file whose codelets take `Array<1,int>` fixes the element type:
 *     every `int` becomes `T  `, so the file reads as one written with T
 *     (and parses with T = int). */

typedef struct {
  size_t start, end;
} Tok;

typedef struct {
  Tok *items;
  int len, cap;
} Toks;

/* The tokens of s for the light scans below: identifiers and numbers (runs
 * of identifier characters) and single punctuation characters; comments,
 * literals and preprocessor lines skipped. */
static Toks lex_all(const char *s, size_t len) {
  Toks ts = {0};
  bool line_start = true;
  for (size_t i = 0; i < len;) {
    size_t j = front_skip_trivia(s, len, i);
    if (j != i) {
      if (s[i] == '"' || s[i] == '\'')
        line_start = false;
      i = j;
      continue;
    }
    char c = s[i];
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      if (c == '\n')
        line_start = true;
      i++;
      continue;
    }
    if (line_start && c == '#') {
      while (i < len && s[i] != '\n')
        i += (s[i] == '\\' && i + 1 < len) ? 2 : 1;
      continue;
    }
    line_start = false;
    Tok t = {i, i + 1};
    if (is_ident_char(c))
      while (t.end < len && is_ident_char(s[t.end]))
        t.end++;
    if (ts.len == ts.cap) {
      ts.cap = ts.cap ? ts.cap * 2 : 256;
      ts.items = realloc(ts.items, sizeof(Tok) * (size_t)ts.cap);
      if (!ts.items)
        abort();
    }
    ts.items[ts.len++] = t;
    i = t.end;
  }
  return ts;
}

static bool tok_is(const char *s, Tok t, const char *word) {
  size_t n = strlen(word);
  return t.end - t.start == n && strncmp(s + t.start, word, n) == 0;
}

static bool is_type_keyword(const char *s, Tok t) {
  static const char *const kw[] = {"unsigned", "signed", "int",   "long",
                                   "short",    "char",   "float", "double"};
  for (size_t i = 0; i < COUNT_OF(kw); i++)
    if (tok_is(s, t, kw[i]))
      return true;
  return false;
}

enum { ELEM_UNSUPPORTED = -1 };

/* The element type that a run of type keywords names (`unsigned int` is
 * u32), or ELEM_UNSUPPORTED (long, short, char, unsigned long long, ...). */
static int keyword_elem(const char *s, const Tok *run, int n) {
  int longs = 0;
  bool is_unsigned = false, other = false, is_float = false, is_double = false;
  for (int i = 0; i < n; i++) {
    if (tok_is(s, run[i], "long"))
      longs++;
    else if (tok_is(s, run[i], "unsigned"))
      is_unsigned = true;
    else if (tok_is(s, run[i], "float"))
      is_float = true;
    else if (tok_is(s, run[i], "double"))
      is_double = true;
    else if (!tok_is(s, run[i], "int") && !tok_is(s, run[i], "signed"))
      other = true; /* short, char */
  }
  if (other)
    return ELEM_UNSUPPORTED;
  if (is_float || is_double)
    return n == 1 ? (is_float ? ET_F32 : ET_F64) : ELEM_UNSUPPORTED;
  if (longs == 0)
    return is_unsigned ? ET_U32 : ET_I32;
  if (longs == 2 && !is_unsigned)
    return ET_I64;
  return ELEM_UNSUPPORTED;
}

static Loc loc_of_offset(const SrcFile *f, size_t off) {
  Loc loc = {f->path, 1, 1};
  for (size_t i = 0; i < off && i < f->len; i++, loc.col++)
    if (f->text[i] == '\n')
      loc.line++, loc.col = 0;
  return loc;
}

/* The end of a codelet's declaration: its body's '{'. */
static size_t sig_end(const SrcFile *f, const Span *sp) {
  return sp->body_start != SIZE_MAX ? sp->body_start
         : sp->body_end != SIZE_MAX ? sp->body_end
                                    : f->len;
}

/* An Array's element type written as C keywords in a codelet's signature. */
typedef struct {
  int elem;          /* ElemType, or ELEM_UNSUPPORTED */
  size_t start, end; /* its spelling */
} ElemUse;

/* Reads `Array < D , type >` at token i, where type is a run of type
 * keywords (const allowed); false for T, another name or another shape. */
static bool array_elem_at(const char *s, const Toks *ts, int i, ElemUse *use) {
  if (i + 3 >= ts->len || !tok_is(s, ts->items[i], "Array") || !tok_is(s, ts->items[i + 1], "<"))
    return false;
  int j = i + 2, depth = 1; /* to the ',' after the dimension */
  while (j < ts->len && depth > 0 && !(depth == 1 && tok_is(s, ts->items[j], ","))) {
    if (tok_is(s, ts->items[j], "<") || tok_is(s, ts->items[j], "("))
      depth++;
    else if (tok_is(s, ts->items[j], ">") || tok_is(s, ts->items[j], ")"))
      depth--;
    j++;
  }
  int first = ++j, kw = 0;
  Tok run[8];
  for (; j < ts->len; j++) {
    if (tok_is(s, ts->items[j], "const"))
      continue;
    if (!is_type_keyword(s, ts->items[j]) || kw == (int)COUNT_OF(run))
      break;
    run[kw++] = ts->items[j];
  }
  if (kw == 0 || j >= ts->len || !tok_is(s, ts->items[j], ">"))
    return false;
  use->elem = keyword_elem(s, run, kw);
  use->start = ts->items[first].start;
  use->end = ts->items[j - 1].end;
  return true;
}

/* Does the signature from token i to offset end hold `Array < D , T >`? */
static bool t_array_in(const char *s, const Toks *ts, int i, size_t end) {
  for (; i + 5 < ts->len && ts->items[i].start < end; i++)
    if (tok_is(s, ts->items[i], "Array") && tok_is(s, ts->items[i + 1], "<") &&
        tok_is(s, ts->items[i + 3], ",") && tok_is(s, ts->items[i + 4], "T") &&
        tok_is(s, ts->items[i + 5], ">"))
      return true;
  return false;
}

/* Finds the element type a file's codelets fix, if any: the keyword element
 * types of their Array parameters (`T` and other names fix nothing). They
 * must be tgm's types and agree; with an explicit --type, agree with it.
 * Returns the type, -1 for none, or -2 after reporting an error. */
static int fixed_elem(Ctx *ctx, const SrcFile *f, const PtrVec *spans, const Toks *ts,
                      ElemType elem, bool elem_explicit) {
  const char *s = f->text;
  ElemUse first = {ELEM_UNSUPPORTED, 0, 0}, use;
  bool have = false;
  int k = 0; /* the codelet of token i, or the next one */
  for (int i = 0; i < ts->len; i++) {
    const Tok *t = &ts->items[i];
    while (k < spans->len && t->start >= sig_end(f, spans->items[k]))
      k++;
    if (k == spans->len)
      break;
    if (t->start < ((const Span *)spans->items[k])->decl_start || !array_elem_at(s, ts, i, &use))
      continue;
    int n = (int)(use.end - use.start);
    Loc at = loc_of_offset(f, use.start);
    if (use.elem == ELEM_UNSUPPORTED) {
      diag_error(ctx->diag, at,
                 "'%.*s' is not an element type of tgm: write T, or one of int (i32), "
                 "unsigned (u32), long long (i64), float (f32), double (f64)",
                 n, s + use.start);
      return -2;
    }
    if (!have) {
      first = use;
      have = true;
      if (elem_explicit && (ElemType)use.elem != elem) {
        const Span *sp = spans->items[k];
        int from = i;
        while (from > 0 && ts->items[from - 1].start >= sp->decl_start)
          from--;
        if (t_array_in(s, ts, from, sig_end(f, sp))) /* a mask of int beside Array<1,T> */
          diag_error(ctx->diag, at,
                     "the inputs of a spectrum share one element type: this one is %.*s, "
                     "another is T (%s with --type=%s); write Array<1,T> for it too (its "
                     "values then compare as T)",
                     n, s + use.start, elem_info(elem)->ctype, elem_info(elem)->name);
        else
          diag_error(ctx->diag, at, "codelet fixes the element type to %.*s (%s) but --type=%s", n,
                     s + use.start, elem_info((ElemType)use.elem)->name, elem_info(elem)->name);
        return -2;
      }
    } else if (use.elem != first.elem) {
      int n0 = (int)(first.end - first.start);
      diag_error(ctx->diag, at,
                 "the codelets of one file must agree on the element type: %.*s (%s) here, "
                 "%.*s (%s) before",
                 n, s + use.start, elem_info((ElemType)use.elem)->name, n0, s + first.start,
                 elem_info((ElemType)first.elem)->name);
      diag_note(ctx->diag, loc_of_offset(f, first.start), "the element type is first fixed here");
      return -2;
    }
  }
  return have ? first.elem : -1;
}

/* The text every parse starts from: the user's, with the rewrites above. */
static char *base_text(Arena *a, const SrcFile *f, const Toks *ts, int fixed) {
  char *t = arena_strndup(a, f->text, f->len);
  const char *s = f->text;
  int depth = 0;
  for (int i = 0; i < ts->len; i++) {
    const Tok *k = &ts->items[i];
    if (tok_is(s, *k, "{"))
      depth++;
    else if (tok_is(s, *k, "}"))
      depth--;
    /* Vector NAME ( ) ;  inside a body */
    if (depth > 0 && i + 4 < ts->len && tok_is(s, k[0], "Vector") && is_ident_char(s[k[1].start]) &&
        tok_is(s, k[2], "(") && tok_is(s, k[3], ")") && tok_is(s, k[4], ";")) {
      t[k[2].start] = ' ';
      t[k[3].start] = ' ';
    }
    /* a run of type keywords naming the fixed type, not a __tunable's */
    if (fixed >= 0 && is_type_keyword(s, *k)) {
      int j = i;
      while (j < ts->len && is_type_keyword(s, ts->items[j]))
        j++;
      bool tunable = i > 0 && tok_is(s, ts->items[i - 1], "__tunable");
      if (!tunable && keyword_elem(s, k, j - i) == fixed) {
        t[k->start] = 'T';
        for (size_t c = k->start + 1; c < ts->items[j - 1].end; c++)
          if (t[c] != '\n')
            t[c] = ' ';
      }
      i = j - 1;
    }
  }
  return t;
}

/* ------------------------------------------------------------ conversion */

typedef struct {
  CXCursor cursor;
  Node *node;
} Binding;

typedef struct {
  Ctx *ctx;
  Arena *arena;
  const SrcFile *file;
  CXTranslationUnit tu;
  PtrVec bindings; /* Binding *: clang declarations -> our ND_DECL/ND_PARAM */
  bool failed;
  bool helper;    /* converting a helper function's body, not a codelet's */
  int depth;      /* statements and expressions being converted, nested */
  bool deep_said; /* the nesting error is given once */
} Conv;

static char *take_string(Arena *a, CXString s) {
  const char *c = clang_getCString(s);
  char *r = arena_strdup(a, c ? c : "");
  clang_disposeString(s);
  return r;
}

static bool in_prelude(CXSourceLocation l) {
  CXFile file;
  clang_getExpansionLocation(l, &file, NULL, NULL, NULL);
  if (!file)
    return true;
  CXString name = clang_getFileName(file);
  bool r = strcmp(clang_getCString(name), PRELUDE_PATH) == 0;
  clang_disposeString(name);
  return r;
}

static Loc loc_at(Conv *cv, CXSourceLocation l) {
  CXFile file;
  unsigned line, col;
  clang_getExpansionLocation(l, &file, &line, &col, NULL);
  Loc loc = {cv->file->path, (int)line, (int)col};
  if (in_prelude(l))
    loc.file = "<tgm prelude>";
  return loc;
}

static Loc loc_of(Conv *cv, CXCursor c) { return loc_at(cv, clang_getCursorLocation(c)); }

static void conv_error(Conv *cv, CXCursor c, const char *fmt, const char *arg) {
  diag_error(cv->ctx->diag, loc_of(cv, c), fmt, arg);
  cv->failed = true;
}

typedef struct {
  CXCursor *items;
  int len, cap;
} Cursors;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Cursors *cs = data;
  if (cs->len == cs->cap) {
    cs->cap = cs->cap ? cs->cap * 2 : 8;
    cs->items = realloc(cs->items, sizeof(CXCursor) * (size_t)cs->cap);
    if (!cs->items)
      abort();
  }
  cs->items[cs->len++] = c;
  return CXChildVisit_Continue;
}

static Cursors children(CXCursor c) {
  Cursors cs = {0};
  clang_visitChildren(c, collect, &cs);
  return cs;
}

static void bind(Conv *cv, CXCursor c, Node *n) {
  Binding *b = arena_alloc(cv->arena, sizeof *b);
  b->cursor = c;
  b->node = n;
  vec_push(cv->arena, &cv->bindings, b);
}

static Node *lookup(Conv *cv, CXCursor c) {
  for (int i = cv->bindings.len - 1; i >= 0; i--) {
    Binding *b = cv->bindings.items[i];
    if (clang_equalCursors(b->cursor, c))
      return b->node;
  }
  return NULL;
}

/* The spelling of the first token of a cursor (literals keep their form). */
static const char *first_token(Conv *cv, CXCursor c) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(cv->tu, clang_getCursorExtent(c), &toks, &n);
  const char *s = n ? take_string(cv->arena, clang_getTokenSpelling(cv->tu, toks[0])) : "";
  clang_disposeTokens(cv->tu, toks, n);
  return s;
}

/* A literal's own spelling (42, 0x2a, 1.5f, .5), not a macro's name. */
static bool is_number(const char *s) {
  return s && ((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9'));
}

/* A literal's value as C spells it in type k: 2147483647, 4294967295u,
 * 9223372036854775807ll, 3.4028234663852886e+38f (a literal a macro gave:
 * its tokens are the macro's name, or the prelude's). */
static const char *number_text(Arena *a, enum CXTypeKind k, double d, long long v) {
  const char *f = arena_printf(a, k == CXType_Float ? "%.9g" : "%.17g", d);
  if (!strpbrk(f, ".e")) /* 2, not an int: 2.0 */
    f = arena_printf(a, "%s.0", f);
  switch (k) {
  case CXType_Float: return arena_printf(a, "%sf", f);
  case CXType_Double:
  case CXType_LongDouble: return f;
  case CXType_UInt: return arena_printf(a, "%lluu", (unsigned long long)(unsigned)v);
  /* an unsigned char or short promotes to int, as its value: 200, not 200u
     (a constexpr unsigned char K = 200 made in[i] - K unsigned: probe11) */
  case CXType_ULong:
  case CXType_ULongLong: return arena_printf(a, "%llullu", (unsigned long long)v);
  case CXType_Long:
  case CXType_LongLong: return arena_printf(a, "%lldll", v);
  default: return arena_printf(a, "%lld", v);
  }
}

static Type *conv_type(Conv *cv, CXType t);

/* Recognises the prelude's class templates and the element typedef T. */
static Type *conv_named(Conv *cv, CXType t) {
  CXCursor decl = clang_getTypeDeclaration(t);
  const char *name = take_string(cv->arena, clang_getCursorSpelling(decl));
  bool prelude = !clang_Cursor_isNull(decl) && in_prelude(clang_getCursorLocation(decl));
  if (prelude) {
    if (t.kind == CXType_Typedef && strcmp(name, "T") == 0)
      return type_new(cv->arena, TY_ELEM);
    if (strcmp(name, "Array") == 0) {
      Type *ty = type_new(cv->arena, TY_ARRAY);
      ty->dims = (int)clang_Cursor_getTemplateArgumentValue(decl, 0);
      ty->base = conv_type(cv, clang_Type_getTemplateArgumentAsType(t, 1));
      return ty;
    }
    static const struct {
      const char *name;
      TypeKind kind;
    } classes[] = {{"Vector", TY_VECTOR},
                   {"Sequence", TY_SEQUENCE},
                   {"Partition", TY_PARTITION},
                   {"Map", TY_MAP},
                   {"Arg", TY_ARG}};
    for (size_t i = 0; i < COUNT_OF(classes); i++)
      if (strcmp(name, classes[i].name) == 0)
        return type_new(cv->arena, classes[i].kind);
  }
  if (t.kind == CXType_Typedef && !clang_Cursor_isNull(decl)) /* the user's: through to T */
    return conv_type(cv, clang_getTypedefDeclUnderlyingType(decl));
  if (t.kind == CXType_Typedef)
    return conv_type(cv, clang_getCanonicalType(t));
  Type *ty = type_new(cv->arena, TY_OTHER);
  ty->name = take_string(cv->arena, clang_getTypeSpelling(t));
  return ty;
}

static Type *conv_type(Conv *cv, CXType t) {
  bool is_const = clang_isConstQualifiedType(t);
  Type *ty;
  switch (t.kind) {
  case CXType_Elaborated: ty = conv_type(cv, clang_Type_getNamedType(t)); break;
  case CXType_Typedef:
  case CXType_Record: ty = conv_named(cv, t); break;
  case CXType_Unexposed: /* template specialisations, substituted parameters */
    if (clang_Cursor_isNull(clang_getTypeDeclaration(t)) ||
        clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_NoDeclFound) {
      CXType canon = clang_getCanonicalType(t);
      ty = canon.kind == CXType_Unexposed ? conv_named(cv, t) : conv_type(cv, canon);
    } else {
      ty = conv_named(cv, t);
    }
    break;
  case CXType_Void: ty = type_new(cv->arena, TY_VOID); break;
  case CXType_Bool: ty = type_new(cv->arena, TY_BOOL); break;
  case CXType_Int: ty = type_new(cv->arena, TY_INT); break;
  case CXType_UInt: ty = type_new(cv->arena, TY_UINT); break;
  case CXType_Long:
  case CXType_LongLong: ty = type_new(cv->arena, TY_LONG); break;
  case CXType_ULong:
  case CXType_ULongLong: ty = type_new(cv->arena, TY_ULONG); break;
  case CXType_Float: ty = type_new(cv->arena, TY_FLOAT); break;
  case CXType_Double: ty = type_new(cv->arena, TY_DOUBLE); break;
  case CXType_ConstantArray:
  case CXType_VariableArray:
  case CXType_IncompleteArray:
    ty = type_new(cv->arena, TY_CARRAY);
    ty->base = conv_type(cv, clang_getArrayElementType(t));
    break;
  case CXType_LValueReference: ty = conv_type(cv, clang_getPointeeType(t)); break;
  case CXType_Auto: { /* a use of an `auto` local: its deduced type (was TY_OTHER "float",
                         which sema's float-into-int rules did not see: probe10 3a) */
    CXType canon = clang_getCanonicalType(t);
    if (canon.kind != CXType_Auto) {
      ty = conv_type(cv, canon);
      break;
    }
    ty = type_new(cv->arena, TY_OTHER);
    ty->name = take_string(cv->arena, clang_getTypeSpelling(clang_getUnqualifiedType(t)));
    break;
  }
  case CXType_FunctionProto: ty = type_new(cv->arena, TY_FUNC); break;
  default: /* its name without const (is_const below says that): `const short` is short */
    ty = type_new(cv->arena, TY_OTHER);
    ty->name = take_string(cv->arena, clang_getTypeSpelling(clang_getUnqualifiedType(t)));
    break;
  }
  if (is_const && !ty->is_const) {
    Type *c = arena_alloc(cv->arena, sizeof *c);
    *c = *ty;
    c->is_const = true;
    ty = c;
  }
  return ty;
}

static Node *conv_expr_at(Conv *cv, CXCursor c);
static Node *conv_stmt_at(Conv *cv, CXCursor c);

/* Every pass walks the tree recursively: a file nested deeper than this
 * (a chain of 30000 `+ 0`, an else-if chain as long) overflowed the stack
 * here, a crash. Clang stops brackets at 256. */
enum { MAX_NESTING = 1000 };

static Node *too_deep(Conv *cv, CXCursor c) {
  if (!cv->deep_said)
    diag_error(cv->ctx->diag, loc_of(cv, c),
               "this is nested more than %d statements and expressions deep; tgm "
               "stops there (split the expression or the if-else chain)",
               MAX_NESTING);
  cv->deep_said = cv->failed = true;
  return node_new(cv->arena, ND_INT, loc_of(cv, c)); /* nothing is generated */
}

/* conv(cv, c) one level deeper, or too_deep past MAX_NESTING */
static Node *nested(Conv *cv, CXCursor c, Node *(*conv)(Conv *, CXCursor)) {
  if (cv->depth >= MAX_NESTING)
    return too_deep(cv, c);
  cv->depth++;
  Node *n = conv(cv, c);
  cv->depth--;
  return n;
}

static Node *conv_expr(Conv *cv, CXCursor c) { return nested(cv, c, conv_expr_at); }

static Node *conv_stmt(Conv *cv, CXCursor c) { return nested(cv, c, conv_stmt_at); }

static Op binop(enum CXBinaryOperatorKind k, bool *assign) {
  *assign = false;
  switch (k) {
  case CXBinaryOperator_Mul: return OP_MUL;
  case CXBinaryOperator_Div: return OP_DIV;
  case CXBinaryOperator_Rem: return OP_REM;
  case CXBinaryOperator_Add: return OP_ADD;
  case CXBinaryOperator_Sub: return OP_SUB;
  case CXBinaryOperator_Shl: return OP_SHL;
  case CXBinaryOperator_Shr: return OP_SHR;
  case CXBinaryOperator_LT: return OP_LT;
  case CXBinaryOperator_GT: return OP_GT;
  case CXBinaryOperator_LE: return OP_LE;
  case CXBinaryOperator_GE: return OP_GE;
  case CXBinaryOperator_EQ: return OP_EQ;
  case CXBinaryOperator_NE: return OP_NE;
  case CXBinaryOperator_And: return OP_AND;
  case CXBinaryOperator_Xor: return OP_XOR;
  case CXBinaryOperator_Or: return OP_OR;
  case CXBinaryOperator_LAnd: return OP_LAND;
  case CXBinaryOperator_LOr: return OP_LOR;
  case CXBinaryOperator_Comma: return OP_COMMA;
  case CXBinaryOperator_Assign: *assign = true; return OP_NONE;
  case CXBinaryOperator_MulAssign: *assign = true; return OP_MUL;
  case CXBinaryOperator_DivAssign: *assign = true; return OP_DIV;
  case CXBinaryOperator_RemAssign: *assign = true; return OP_REM;
  case CXBinaryOperator_AddAssign: *assign = true; return OP_ADD;
  case CXBinaryOperator_SubAssign: *assign = true; return OP_SUB;
  case CXBinaryOperator_ShlAssign: *assign = true; return OP_SHL;
  case CXBinaryOperator_ShrAssign: *assign = true; return OP_SHR;
  case CXBinaryOperator_AndAssign: *assign = true; return OP_AND;
  case CXBinaryOperator_XorAssign: *assign = true; return OP_XOR;
  case CXBinaryOperator_OrAssign: *assign = true; return OP_OR;
  default: return OP_COUNT;
  }
}

static Op unop(enum CXUnaryOperatorKind k) {
  switch (k) {
  case CXUnaryOperator_PostInc: return OP_POSTINC;
  case CXUnaryOperator_PostDec: return OP_POSTDEC;
  case CXUnaryOperator_PreInc: return OP_PREINC;
  case CXUnaryOperator_PreDec: return OP_PREDEC;
  case CXUnaryOperator_Plus: return OP_PLUS;
  case CXUnaryOperator_Minus: return OP_NEG;
  case CXUnaryOperator_Not: return OP_BITNOT;
  case CXUnaryOperator_LNot: return OP_NOT;
  default: return OP_COUNT;
  }
}

/* The expression under implicit conversions and parentheses. */
static CXCursor strip(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
      return c;
    Cursors cs = children(c);
    if (cs.len != 1) {
      free(cs.items);
      return c;
    }
    c = cs.items[0];
    free(cs.items);
  }
}

/* Whether cursor x is written within cursor c's text (a default argument
 * of a call is written at its function's parameter, outside the call). */
static bool written_within(CXCursor x, CXCursor c) {
  CXFile fx, fc;
  unsigned ox, oc, ec;
  /* where macros are expanded: an argument a macro writes is the call's */
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(x)), &fx, NULL, NULL, &ox);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &fc, NULL, NULL, &oc);
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, NULL, NULL, &ec);
  return fx && fc && clang_File_isEqual(fx, fc) && ox >= oc && ox <= ec;
}

static void conv_args(Conv *cv, CXCursor call, Node *n) {
  int nargs = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < nargs; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    if (clang_getCursorKind(arg) == CXCursor_UnexposedExpr && clang_Cursor_isNull(strip(arg)))
      continue;
    if (!in_prelude(clang_getCursorLocation(call)) && !written_within(arg, call)) {
      /* probe9 #7: was "unsupported expression (UnexposedExpr)" at the prelude */
      diag_error(cv->ctx->diag, loc_of(cv, call),
                 "the call of '%s' leaves an argument to its default: write every argument "
                 "(tgm reads no default arguments)",
                 take_string(cv->arena, clang_getCursorSpelling(call)));
      cv->failed = true;
      return;
    }
    vec_push(cv->arena, &n->kids, conv_expr(cv, arg));
  }
}

static bool relocate(Node *n, void *loc) {
  n->loc = *(Loc *)loc;
  return true;
}

/* The value a prelude's static method returns (std::numeric_limits<T>'s
 * lowest(), max(), ...: `return INT_MIN;`), as if written at loc. */
static Node *prelude_return(Conv *cv, CXCursor method, Loc loc) {
  CXCursor def = clang_getCursorDefinition(method);
  Node *n = NULL;
  Cursors body = children(def);
  for (int i = 0; !n && i < body.len; i++) {
    if (clang_getCursorKind(body.items[i]) != CXCursor_CompoundStmt)
      continue;
    Cursors stmts = children(body.items[i]);
    if (stmts.len == 1 && clang_getCursorKind(stmts.items[0]) == CXCursor_ReturnStmt) {
      Cursors ret = children(stmts.items[0]);
      if (ret.len == 1)
        n = conv_expr(cv, ret.items[0]);
      free(ret.items);
    }
    free(stmts.items);
  }
  free(body.items);
  if (n)
    node_walk(n, relocate, &loc);
  else
    diag_error(cv->ctx->diag, loc, "internal: no value for the prelude's '%s'",
               take_string(cv->arena, clang_getCursorSpelling(method)));
  return n;
}

/* Is the call's callee spelled with a std:: qualifier (std::max)? */
static bool std_qualified(CXCursor call) {
  Cursors cs = children(call);
  bool std = false;
  if (cs.len) {
    Cursors fs = children(strip(cs.items[0]));
    for (int i = 0; i < fs.len && !std; i++)
      if (clang_getCursorKind(fs.items[i]) == CXCursor_NamespaceRef) {
        CXString sp = clang_getCursorSpelling(fs.items[i]);
        std = strcmp(clang_getCString(sp), "std") == 0;
        clang_disposeString(sp);
      }
    free(fs.items);
  }
  free(cs.items);
  return std;
}

/* An arithmetic type's rank in C++'s usual conversions, after promotion
 * (bool, char, short: int); 0 for any other type. */
static int arith_rank(CXType t) {
  switch (clang_getCanonicalType(t).kind) {
  case CXType_Bool:
  case CXType_Char_U:
  case CXType_UChar:
  case CXType_Char_S:
  case CXType_SChar:
  case CXType_Short:
  case CXType_UShort:
  case CXType_Int: return 1;
  case CXType_UInt: return 2;
  case CXType_Long:
  case CXType_LongLong: return 3;
  case CXType_ULong:
  case CXType_ULongLong: return 4;
  case CXType_Float: return 5;
  case CXType_Double: return 6;
  case CXType_LongDouble: return 7;
  default: return 0;
  }
}

static bool narrow_kind(CXType t) {
  enum CXTypeKind k = clang_getCanonicalType(t).kind;
  return arith_rank(t) == 1 && k != CXType_Int;
}

/* x and y the same arithmetic type as far as a value goes (long and long
 * long alike), neither narrower than int. */
static bool same_arith(CXType x, CXType y) {
  return arith_rank(x) && arith_rank(x) == arith_rank(y) && !narrow_kind(x) && !narrow_kind(y);
}

/* The type argument i of call c has before C++ converts it to the
 * parameter's. */
static CXType arg_type(CXCursor c, int i) {
  return clang_getCursorType(strip(clang_Cursor_getArgument(c, (unsigned)i)));
}

/* Does std::max<X>(a, b) name the type C++'s usual conversions give a and b
 * anyway (std::max<long long>(acc, in[i]) of an int in)? Then it is tgm's
 * max as written; otherwise each argument is converted to X first. */
static bool named_is_common(CXCursor c) {
  int x = arith_rank(arg_type(c, 0)), y = arith_rank(arg_type(c, 1));
  CXType t = clang_getCursorType(c);
  return x && y && same_arith(t, t) && arith_rank(t) == (x > y ? x : y);
}

/* std::max(a, b) is `a < b ? b : a` and std::min(a, b) `b < a ? b : a`, as
 * <algorithm> defines them: for floats a NaN a is the result, where CUDA's
 * max (fmax) passes it over. The condition's name says which it was, for
 * sema's messages. */
static Node *std_minmax(Conv *cv, Node *call, bool is_max) {
  Arena *a = cv->arena;
  Node *x = call->kids.items[0], *y = call->kids.items[1];
  Node *cmp = is_max ? mk_binary(a, call->loc, OP_LT, x, y)
                     : mk_binary(a, call->loc, OP_LT, node_clone(a, y), node_clone(a, x));
  cmp->ty = type_new(a, TY_BOOL);
  Node *n = is_max ? mk_cond(a, call->loc, cmp, node_clone(a, y), node_clone(a, x))
                   : mk_cond(a, call->loc, cmp, y, x);
  n->name = is_max ? "std::max" : "std::min";
  if (call->ty)
    n->ty = call->ty;
  return n;
}

/* Call expressions: method calls, operator[], constructors, conversion
 * operators (transparent) and plain calls. */
static Node *conv_call(Conv *cv, CXCursor c) {
  Arena *a = cv->arena;
  Loc loc = loc_of(cv, c);
  CXCursor callee = clang_getCursorReferenced(c);
  enum CXCursorKind ck = clang_getCursorKind(callee);
  const char *name = take_string(a, clang_getCursorSpelling(c));
  Cursors cs = children(c);
  Node *n = NULL;

  if (ck == CXCursor_ConversionFunction ||
      (ck == CXCursor_Constructor && cs.len == 1 && clang_Cursor_getNumArguments(c) == 1 &&
       clang_getCursorKind(strip(cs.items[0])) != CXCursor_IntegerLiteral)) {
    /* Map -> Array conversion, or a copy: the operand is what matters. */
    CXCursor inner = cs.len ? strip(cs.items[0]) : c;
    if (clang_getCursorKind(inner) == CXCursor_MemberRefExpr) {
      Cursors ms = children(inner);
      n = ms.len ? conv_expr(cv, ms.items[0]) : NULL;
      free(ms.items);
    } else if (cs.len) {
      n = conv_expr(cv, cs.items[0]);
    }
  } else if (strcmp(name, "operator[]") == 0 && clang_Cursor_getNumArguments(c) == 2) {
    n = node_new(a, ND_INDEX, loc);
    n->lhs = conv_expr(cv, clang_Cursor_getArgument(c, 0));
    n->rhs = conv_expr(cv, clang_Cursor_getArgument(c, 1));
    n->loc = n->lhs ? n->lhs->loc : loc;
    if (n->lhs && n->lhs->ty && n->lhs->ty->kind == TY_ARRAY) /* in[i] is a T */
      n->ty = n->lhs->ty->base;
  } else if (strcmp(name, "operator=") == 0 && clang_Cursor_getNumArguments(c) == 2) {
    /* an assignment to a class type (an Arg): a plain assignment */
    n = node_new(a, ND_ASSIGN, loc);
    n->op = OP_NONE;
    n->lhs = conv_expr(cv, clang_Cursor_getArgument(c, 0));
    n->rhs = conv_expr(cv, clang_Cursor_getArgument(c, 1));
    n->loc = n->lhs ? n->lhs->loc : loc;
  } else if (cs.len > 0 && clang_getCursorKind(strip(cs.items[0])) == CXCursor_MemberRefExpr &&
             ck == CXCursor_CXXMethod) {
    CXCursor member = strip(cs.items[0]);
    Cursors ms = children(member);
    n = node_new(a, ND_METHOD, loc);
    n->name = take_string(a, clang_getCursorSpelling(member));
    n->lhs = ms.len ? conv_expr(cv, ms.items[0]) : NULL;
    free(ms.items);
    conv_args(cv, c, n);
  } else if (ck == CXCursor_CXXMethod && clang_CXXMethod_isStatic(callee) &&
             in_prelude(clang_getCursorLocation(callee))) {
    n = prelude_return(cv, callee, loc); /* std::numeric_limits<T>::lowest() */
  } else if (ck == CXCursor_FunctionDecl || ck == CXCursor_FunctionTemplate ||
             ck == CXCursor_Constructor) {
    n = node_new(a, ND_CALL, loc);
    n->name = name;
    conv_args(cv, c, n);
    /* the prelude's std::max<X>: std::max<float>(a, b), or two shorts */
    CXCursor tmpl = clang_getSpecializedCursorTemplate(callee);
    bool named = !clang_Cursor_isNull(tmpl) && in_prelude(clang_getCursorLocation(tmpl));
    if ((!strcmp(name, "max") || !strcmp(name, "min")) && n->kids.len == 2 && n->kids.items[0] &&
        n->kids.items[1] && (named || std_qualified(c))) {
      n->ty = conv_type(cv, clang_getCursorType(c));
      for (int i = 0; named && !named_is_common(c) && i < 2; i++) { /* both converted to X */
        Node *arg = n->kids.items[i];
        if (same_arith(arg_type(c, i), clang_getCursorType(c)))
          continue; /* `acc` stays `acc`, for sema's x = max(x, e) */
        Node *cast = node_new(a, ND_CAST, arg->loc);
        cast->lhs = arg;
        cast->ty = n->ty;
        n->kids.items[i] = cast;
      }
      n = std_minmax(cv, n, name[1] == 'a');
    }
  } else {
    conv_error(cv, c, "unsupported call in a codelet: '%s'", name[0] ? name : "?");
  }
  free(cs.items);
  if (n && !n->ty)
    n->ty = conv_type(cv, clang_getCursorType(c));
  return n;
}

/* A file-scope constant of an arithmetic type with a value clang computes
 * (`constexpr int K = 3;`, `const float SCALE = 0.5f;`): a use of it is
 * that value, spelled in the constant's own type (`const T K = 3` over f32
 * is 3.0f, so that `n / K` divides as C++ does). NULL for anything else
 * (a lookup table, a variable). */
static Node *file_constant(Conv *cv, CXCursor ref, Loc loc) {
  Arena *a = cv->arena;
  if (clang_getCursorKind(ref) != CXCursor_VarDecl ||
      clang_getCursorKind(clang_getCursorSemanticParent(ref)) != CXCursor_TranslationUnit)
    return NULL;
  CXType t = clang_getCursorType(ref), ct = clang_getCanonicalType(t);
  if (!clang_isConstQualifiedType(t))
    return NULL;
  bool flt = ct.kind == CXType_Float || ct.kind == CXType_Double;
  bool integer = ct.kind == CXType_Bool || ct.kind == CXType_Int || ct.kind == CXType_UInt ||
                 ct.kind == CXType_Long || ct.kind == CXType_ULong || ct.kind == CXType_LongLong ||
                 ct.kind == CXType_ULongLong || ct.kind == CXType_Short ||
                 ct.kind == CXType_UShort || ct.kind == CXType_Char_S || ct.kind == CXType_Char_U ||
                 ct.kind == CXType_SChar || ct.kind == CXType_UChar;
  if (!flt && !integer)
    return NULL;
  CXEvalResult ev = clang_Cursor_Evaluate(ref);
  if (!ev)
    return NULL;
  CXEvalResultKind ek = clang_EvalResult_getKind(ev);
  Node *n = NULL;
  if (flt && ek == CXEval_Float) {
    n = node_new(a, ND_FLOAT, loc);
    n->spelling = number_text(a, ct.kind, clang_EvalResult_getAsDouble(ev), 0);
    n->fval = strtod(n->spelling, NULL);
  } else if (integer && ek == CXEval_Int) {
    long long v = clang_EvalResult_getAsLongLong(ev);
    n = node_new(a, ct.kind == CXType_Bool ? ND_BOOL : ND_INT, loc);
    n->ival = ct.kind == CXType_Bool ? v != 0 : v;
    n->spelling = ct.kind == CXType_Bool ? (v ? "true" : "false")
                                         : number_text(a, ct.kind, (double)v, v);
  }
  clang_EvalResult_dispose(ev);
  if (n)
    n->ty = conv_type(cv, ct);
  return n;
}

static Node *conv_expr_at(Conv *cv, CXCursor c) {
  Arena *a = cv->arena;
  c = strip(c);
  Loc loc = loc_of(cv, c);
  enum CXCursorKind k = clang_getCursorKind(c);
  Node *n = NULL;
  switch (k) {
  case CXCursor_IntegerLiteral: {
    n = node_new(a, ND_INT, loc);
    n->spelling = first_token(cv, c);
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (ev) {
      n->ival = clang_EvalResult_getAsLongLong(ev);
      clang_EvalResult_dispose(ev);
    }
    if (!is_number(n->spelling)) /* from a macro (INT_MAX): the number */
      n->spelling = number_text(a, clang_getCursorType(c).kind, (double)n->ival, n->ival);
    break;
  }
  case CXCursor_UnaryExpr: /* sizeof(T), alignof(T): this type's number */
  case CXCursor_CharacterLiteral: {
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (!ev || clang_EvalResult_getKind(ev) != CXEval_Int) {
      if (ev)
        clang_EvalResult_dispose(ev);
      conv_error(cv, c, "%s is not part of the codelet language",
                 k == CXCursor_UnaryExpr ? "this sizeof or alignof" : "this character literal");
      return NULL;
    }
    n = node_new(a, ND_INT, loc);
    n->ival = clang_EvalResult_getAsLongLong(ev);
    clang_EvalResult_dispose(ev);
    bool size = k == CXCursor_UnaryExpr;
    n->ty = type_new(a, size ? TY_ULONG : TY_INT);
    n->spelling = arena_printf(a, size ? "%lldULL" : "%lld", (long long)n->ival);
    break;
  }
  case CXCursor_FloatingLiteral: {
    n = node_new(a, ND_FLOAT, loc);
    n->spelling = first_token(cv, c);
    if (!is_number(n->spelling)) { /* from a macro (FLT_MAX): the number */
      CXEvalResult ev = clang_Cursor_Evaluate(c);
      double d = ev ? clang_EvalResult_getAsDouble(ev) : 0;
      if (ev)
        clang_EvalResult_dispose(ev);
      n->spelling = number_text(a, clang_getCursorType(c).kind, d, 0);
    }
    n->fval = strtod(n->spelling, NULL);
    break;
  }
  case CXCursor_CXXBoolLiteralExpr:
    n = node_new(a, ND_BOOL, loc);
    n->spelling = first_token(cv, c);
    n->ival = strcmp(n->spelling, "true") == 0;
    break;
  case CXCursor_DeclRefExpr: {
    n = node_new(a, ND_VAR, loc);
    n->name = take_string(a, clang_getCursorSpelling(c));
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_FunctionDecl) {
      n->ty = type_new(a, TY_FUNC);
    } else {
      n->decl = lookup(cv, ref);
      Node *k = n->decl ? NULL : file_constant(cv, ref, loc);
      if (k)
        return k;
      if (!n->decl) {
        conv_error(cv, c, "'%s' is not a variable of this codelet", n->name);
        return NULL;
      }
    }
    break;
  }
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: {
    bool assign;
    Op op = binop(clang_getCursorBinaryOperatorKind(c), &assign);
    Cursors cs = children(c);
    if (op == OP_COUNT || cs.len != 2) {
      free(cs.items);
      conv_error(cv, c, "unsupported operator in a codelet%s", "");
      return NULL;
    }
    n = node_new(a, assign ? ND_ASSIGN : ND_BINARY, loc);
    n->op = op;
    n->lhs = conv_expr(cv, cs.items[0]);
    n->rhs = conv_expr(cv, cs.items[1]);
    free(cs.items);
    break;
  }
  case CXCursor_UnaryOperator: {
    Op op = unop(clang_getCursorUnaryOperatorKind(c));
    Cursors cs = children(c);
    if (op == OP_COUNT || cs.len != 1) {
      free(cs.items);
      conv_error(cv, c, "unsupported operator in a codelet (%s)", "address, dereference or other");
      return NULL;
    }
    n = node_new(a, ND_UNARY, loc);
    n->op = op;
    n->lhs = conv_expr(cv, cs.items[0]);
    free(cs.items);
    break;
  }
  case CXCursor_ConditionalOperator: {
    Cursors cs = children(c);
    if (cs.len != 3) {
      free(cs.items);
      conv_error(cv, c, "unsupported conditional expression%s", "");
      return NULL;
    }
    n = node_new(a, ND_COND, loc);
    n->cond = conv_expr(cv, cs.items[0]);
    n->then = conv_expr(cv, cs.items[1]);
    n->els = conv_expr(cv, cs.items[2]);
    free(cs.items);
    break;
  }
  case CXCursor_ArraySubscriptExpr: {
    Cursors cs = children(c);
    n = node_new(a, ND_INDEX, loc);
    if (cs.len == 2) {
      n->lhs = conv_expr(cv, cs.items[0]);
      n->rhs = conv_expr(cv, cs.items[1]);
    }
    free(cs.items);
    break;
  }
  case CXCursor_CallExpr: n = conv_call(cv, c); break;
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_CXXStaticCastExpr: {
    Cursors cs = children(c);
    n = node_new(a, ND_CAST, loc);
    for (int i = 0; i < cs.len; i++)
      if (clang_isExpression(clang_getCursorKind(cs.items[i])))
        n->lhs = conv_expr(cv, cs.items[i]);
    free(cs.items);
    break;
  }
  case CXCursor_MemberRefExpr: {
    Cursors cs = children(c);
    Type *of = cs.len ? conv_type(cv, clang_getCursorType(cs.items[0])) : NULL;
    free(cs.items);
    if (of && of->kind == TY_ARG)
      conv_error(cv, c,
                 "'.%s' of an Arg: the pair is the result as it is ('return accum;'); the "
                 "caller reads its key (the index) and value",
                 take_string(a, clang_getCursorSpelling(c)));
    else
      conv_error(cv, c, "a member ('.%s') in a codelet: its values are numbers, Arrays, Args",
                 take_string(a, clang_getCursorSpelling(c)));
    return NULL;
  }
  default: {
    static const struct {
      enum CXCursorKind kind;
      const char *what;
    } words[] = {{CXCursor_LambdaExpr, "a lambda"},  {CXCursor_StringLiteral, "a string"},
                 {CXCursor_CXXNewExpr, "'new'"},     {CXCursor_CXXDeleteExpr, "'delete'"},
                 {CXCursor_CXXThrowExpr, "'throw'"}, {CXCursor_CXXThisExpr, "'this'"},
                 {CXCursor_CXXTypeidExpr, "typeid"}};
    const char *what = NULL;
    for (size_t i = 0; i < COUNT_OF(words); i++)
      if (words[i].kind == k)
        what = words[i].what;
    if (what)
      conv_error(cv, c, "%s is not part of the codelet language", what);
    else
      conv_error(cv, c, "unsupported expression in a codelet (%s)",
                 take_string(a, clang_getCursorKindSpelling(k)));
    return NULL;
  }
  }
  if (n && !n->ty)
    n->ty = conv_type(cv, clang_getCursorType(c));
  return n;
}

/* Reads __codelet, __coop, __tag(x), __tunable, __shared, atomicX from the
 * annotate attributes the prelude's macros expand to. */
typedef struct {
  bool codelet, coop, tunable, shared;
  const char *tag;
  Loc tag_loc;
  Op atomic;
  Loc atomic_loc;
} Attrs;

/* `__shared atomicAdd T x;`: the prelude's annotation "tgm.atomic:+" names
 * the operator as ops.def spells it. */
static Op atomic_op(const char *s) {
  const Combiner *cb = combiner_spelled(s);
  return cb ? cb->op : OP_NONE;
}

/* Only the attributes written in [lo, hi) count: clang merges attributes
 * across redeclarations, so without this an untagged codelet would take
 * the __coop or __tag of another codelet of its spectrum. */
static Attrs read_attrs(Conv *cv, const Cursors *cs, size_t lo, size_t hi) {
  Attrs at = {0};
  for (int i = 0; i < cs->len; i++) {
    if (clang_getCursorKind(cs->items[i]) != CXCursor_AnnotateAttr)
      continue;
    unsigned off;
    CXSourceLocation where = clang_getCursorLocation(cs->items[i]);
    clang_getExpansionLocation(where, NULL, NULL, NULL, &off);
    if (in_prelude(where) || off < lo || off >= hi)
      continue;
    const char *s = take_string(cv->arena, clang_getCursorSpelling(cs->items[i]));
    if (strcmp(s, "tgm.codelet") == 0)
      at.codelet = true;
    else if (strcmp(s, "tgm.coop") == 0)
      at.coop = true;
    else if (strcmp(s, "tgm.tunable") == 0)
      at.tunable = true;
    else if (strcmp(s, "tgm.shared") == 0)
      at.shared = true;
    else if (strncmp(s, "tgm.tag:", 8) == 0) {
      at.tag = s + 8;
      at.tag_loc = loc_of(cv, cs->items[i]);
    } else if (strncmp(s, "tgm.atomic:", 11) == 0) {
      at.atomic = atomic_op(s + 11);
      at.atomic_loc = loc_of(cv, cs->items[i]);
    }
  }
  return at;
}

/* A reference that is not const (`T &x`): tgm writes values, so a write
 * through one would be lost (a helper's parameter, a local). */
static bool writable_reference(CXType t) {
  enum CXTypeKind k = clang_getCanonicalType(t).kind;
  return (k == CXType_LValueReference || k == CXType_RValueReference) &&
         !clang_isConstQualifiedType(clang_getPointeeType(t));
}

static Node *conv_var(Conv *cv, CXCursor c) {
  Arena *a = cv->arena;
  Node *n = node_new(a, ND_DECL, loc_of(cv, c));
  n->name = take_string(a, clang_getCursorSpelling(c));
  CXType t = clang_getCursorType(c);
  n->ty = conv_type(cv, t);
  Cursors cs = children(c);
  Attrs at = read_attrs(cv, &cs, 0, SIZE_MAX);
  if (at.shared)
    n->qual |= Q_SHARED;
  if (at.tunable)
    n->qual |= Q_TUNABLE;
  if (n->ty->is_const)
    n->qual |= Q_CONST;
  n->atomic_op = at.atomic;
  if (at.atomic != OP_NONE && !at.shared) {
    diag_error(cv->ctx->diag, at.atomic_loc,
               "'%s' needs '__shared': only shared scalars can be atomic accumulators", n->name);
    cv->failed = true;
  }
  /* a local that aliases another (`T &r = acc;`, `T *p = tmp;`): tgm reads
     combines, shared accesses and barriers by the variables' own names, so
     an alias hid them (probe13 C5: "cannot find how codelet combines";
     probe12 E2: a shared array written through p got no barrier) */
  enum CXTypeKind tk = clang_getCanonicalType(t).kind;
  bool ref = tk == CXType_LValueReference || tk == CXType_RValueReference;
  /* in a helper, a pointer is emitted as written and a const reference read
     as a copy; a reference written through would be a copy too (probe14) */
  if ((!cv->helper && (ref || tk == CXType_Pointer)) || writable_reference(t)) {
    diag_error(cv->ctx->diag, n->loc,
               cv->helper ? "'%s' is a %s that is not const: tgm writes a helper's locals as "
                            "values, where a write through it would be lost; use the variable "
                            "itself"
                          : "'%s' is a %s: tgm reads a codelet's combines, shared memory and "
                            "barriers by the variables' own names, through no alias; use the "
                            "variable itself",
               n->name, tk == CXType_Pointer ? "pointer" : "reference");
    cv->failed = true;
  }
  if (clang_Cursor_getStorageClass(c) == CX_SC_Static &&
      !n->ty->is_const) { /* a static const is its value */
    /* device code has no static locals; one that counts calls is state
       shared by every element, which no order of a reduction keeps */
    conv_error(cv, c,
               "'static' local '%s': a codelet or helper keeps no state between calls; "
               "declare it without 'static' (or make it a parameter)",
               n->name);
  }
  CXCursor init = clang_Cursor_getVarDeclInitializer(c);
  bool has_init = !clang_Cursor_isNull(init) && clang_getCursorKind(init) != CXCursor_InvalidCode;
  /* A VLA's size is the first expression child that is not the initializer. */
  if (t.kind == CXType_VariableArray || t.kind == CXType_ConstantArray) {
    for (int i = 0; i < cs.len; i++) {
      if (!clang_isExpression(clang_getCursorKind(cs.items[i])))
        continue;
      if (has_init && clang_equalCursors(cs.items[i], init))
        continue;
      n->dim = conv_expr(cv, cs.items[i]);
      break;
    }
    if (!n->dim && t.kind == CXType_ConstantArray) {
      n->dim = node_new(a, ND_INT, n->loc);
      n->dim->ival = clang_getArraySize(t);
      n->dim->spelling = arena_printf(a, "%lld", (long long)n->dim->ival);
      n->dim->ty = type_new(a, TY_ULONG);
    }
  }
  free(cs.items);
  bind(cv, c, n);
  if (has_init) {
    CXCursor in = strip(init);
    /* Class types are built by their constructor: keep its arguments. */
    if (clang_getCursorKind(in) == CXCursor_CallExpr &&
        clang_getCursorKind(clang_getCursorReferenced(in)) == CXCursor_Constructor &&
        (n->ty->kind == TY_SEQUENCE || n->ty->kind == TY_MAP || n->ty->kind == TY_VECTOR)) {
      conv_args(cv, in, n);
    } else if (clang_getCursorKind(in) == CXCursor_CallExpr &&
               clang_getCursorKind(clang_getCursorReferenced(in)) == CXCursor_Constructor &&
               clang_Cursor_getNumArguments(in) == 0) {
      /* default construction, e.g. `Vector vthread{};` */
    } else if (clang_getCursorKind(in) == CXCursor_InitListExpr) {
      /* `T x{in[i]}`: a scalar's braces hold its one initial value */
      Cursors ls = children(in);
      if (ls.len == 1) {
        n->init = conv_expr(cv, ls.items[0]);
      } else if (ls.len == 0 && type_is_arith(n->ty)) { /* `T accum{};` is 0 */
        n->init = node_new(a, ND_INT, n->loc);
        n->init->spelling = "0";
        n->init->ty = type_new(a, TY_INT);
      } else
        conv_error(cv, in,
                   "'%s' is initialised from a list in braces that is not one value; a "
                   "codelet's locals are scalars: write 'T x = value;'",
                   n->name);
      free(ls.items);
    } else {
      n->init = conv_expr(cv, init);
    }
  }
  /* `auto x = in[i]` is what its value is, T included (clang's deduced
   * type is T's underlying int or float, which would cast in[i] to int) */
  if (t.kind == CXType_Auto && n->init && n->init->ty && n->init->ty->kind != TY_OTHER) {
    Type *ty = arena_alloc(a, sizeof *ty);
    *ty = *n->init->ty;
    ty->is_const = clang_isConstQualifiedType(t);
    n->ty = ty;
  } else if (t.kind == CXType_Auto) {
    n->ty = conv_type(cv, clang_getCanonicalType(t));
  }
  return n;
}

/* Offsets of the two ';' in a for header, to tell init, cond and inc apart
 * (libclang skips absent parts). */
static void for_semis(Conv *cv, CXCursor c, unsigned *s1, unsigned *s2, unsigned *rp) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(cv->tu, clang_getCursorExtent(c), &toks, &n);
  int depth = 0, semis = 0;
  *s1 = *s2 = *rp = UINT_MAX;
  for (unsigned i = 0; i < n; i++) {
    CXString sp = clang_getTokenSpelling(cv->tu, toks[i]);
    const char *s = clang_getCString(sp);
    unsigned off;
    clang_getFileLocation(clang_getTokenLocation(cv->tu, toks[i]), NULL, NULL, NULL, &off);
    if (strcmp(s, "(") == 0)
      depth++;
    else if (strcmp(s, ")") == 0 && --depth == 0 && *rp == UINT_MAX)
      *rp = off;
    else if (strcmp(s, ";") == 0 && depth == 1 && semis < 2)
      *(semis++ == 0 ? s1 : s2) = off;
    clang_disposeString(sp);
    if (*rp != UINT_MAX)
      break;
  }
  clang_disposeTokens(cv->tu, toks, n);
}

static unsigned offset_of(CXCursor c) {
  unsigned off;
  clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
  return off;
}

/* `typedef T acc_t;` or `using acc_t = T;` alone: a local type name, which
 * declares nothing to run (its uses are their type: conv_named reads
 * through to T). */
static bool only_type_names(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_DeclStmt)
    return false;
  Cursors cs = children(c);
  bool only = cs.len > 0;
  for (int i = 0; i < cs.len; i++)
    only &= clang_getCursorKind(cs.items[i]) == CXCursor_TypedefDecl ||
            clang_getCursorKind(cs.items[i]) == CXCursor_TypeAliasDecl;
  free(cs.items);
  return only;
}

static Node *conv_block(Conv *cv, CXCursor c) {
  Node *n = node_new(cv->arena, ND_BLOCK, loc_of(cv, c));
  Cursors cs = children(c);
  for (int i = 0; i < cs.len; i++) {
    if (only_type_names(cs.items[i]))
      continue;
    Node *s = conv_stmt(cv, cs.items[i]);
    if (s && s->kind == ND_BLOCK && clang_getCursorKind(cs.items[i]) == CXCursor_DeclStmt) {
      /* `const unsigned tid = ..., two = 2;`: declarations of this block,
         not of a block of their own (probe14: undeclared after it) */
      for (int k = 0; k < s->kids.len; k++)
        vec_push(cv->arena, &n->kids, s->kids.items[k]);
    } else if (s) {
      vec_push(cv->arena, &n->kids, s);
    }
  }
  free(cs.items);
  return n;
}

static Node *conv_stmt_at(Conv *cv, CXCursor c) {
  Arena *a = cv->arena;
  enum CXCursorKind k = clang_getCursorKind(c);
  Loc loc = loc_of(cv, c);
  Cursors cs = children(c);
  Node *n = NULL;
  switch (k) {
  case CXCursor_CompoundStmt: n = conv_block(cv, c); break;
  case CXCursor_DeclStmt:
    if (cs.len == 1 && clang_getCursorKind(cs.items[0]) == CXCursor_VarDecl) {
      n = conv_var(cv, cs.items[0]);
    } else {
      n = node_new(a, ND_BLOCK, loc); /* `int a, b;` -- a block of declarations */
      for (int i = 0; i < cs.len; i++) {
        if (clang_getCursorKind(cs.items[i]) == CXCursor_VarDecl)
          vec_push(a, &n->kids, conv_var(cv, cs.items[i]));
        else
          conv_error(cv, cs.items[i], "unsupported declaration in a codelet%s", "");
      }
    }
    break;
  case CXCursor_IfStmt:
    if (cs.len < 2 || cs.len > 3 || !clang_isExpression(clang_getCursorKind(cs.items[0]))) {
      conv_error(cv, c, "unsupported form of 'if' in a codelet%s", "");
      break;
    }
    n = node_new(a, ND_IF, loc);
    n->cond = conv_expr(cv, cs.items[0]);
    n->then = conv_stmt(cv, cs.items[1]);
    n->els = cs.len == 3 ? conv_stmt(cv, cs.items[2]) : NULL;
    break;
  case CXCursor_ForStmt: {
    unsigned s1, s2, rp;
    for_semis(cv, c, &s1, &s2, &rp);
    n = node_new(a, ND_FOR, loc);
    for (int i = 0; i < cs.len; i++) {
      unsigned off = offset_of(cs.items[i]);
      if (off < s1)
        n->init = conv_stmt(cv, cs.items[i]);
      else if (off < s2)
        n->cond = conv_expr(cv, cs.items[i]);
      else if (off < rp)
        n->inc = conv_expr(cv, cs.items[i]);
      else
        n->body = conv_stmt(cv, cs.items[i]);
    }
    break;
  }
  case CXCursor_WhileStmt:
    if (cs.len != 2) {
      conv_error(cv, c, "unsupported form of 'while' in a codelet%s", "");
      break;
    }
    n = node_new(a, ND_WHILE, loc);
    n->cond = conv_expr(cv, cs.items[0]);
    n->body = conv_stmt(cv, cs.items[1]);
    break;
  case CXCursor_DoStmt:
    n = node_new(a, ND_DO, loc);
    if (cs.len == 2) {
      n->body = conv_stmt(cv, cs.items[0]);
      n->cond = conv_expr(cv, cs.items[1]);
    }
    break;
  case CXCursor_ReturnStmt:
    n = node_new(a, ND_RETURN, loc);
    n->lhs = cs.len ? conv_expr(cv, cs.items[0]) : NULL;
    break;
  case CXCursor_BreakStmt: n = node_new(a, ND_BREAK, loc); break;
  case CXCursor_ContinueStmt: n = node_new(a, ND_CONTINUE, loc); break;
  case CXCursor_NullStmt: n = node_new(a, ND_NULL, loc); break;
  default:
    if (clang_isExpression(k)) {
      n = node_new(a, ND_EXPR, loc);
      n->lhs = conv_expr(cv, c);
      n->loc = n->lhs ? n->lhs->loc : loc;
    } else {
      const char *kind = take_string(a, clang_getCursorKindSpelling(k));
      conv_error(cv, c, "unsupported statement in a codelet (%s)", kind);
    }
    break;
  }
  free(cs.items);
  return n;
}

/* The parameters and body of a function definition, into n. */
static void conv_params_body(Conv *cv, const Cursors *cs, Node *n) {
  Arena *a = cv->arena;
  for (int i = 0; i < cs->len; i++) {
    enum CXCursorKind k = clang_getCursorKind(cs->items[i]);
    if (k == CXCursor_ParmDecl) {
      Node *p = node_new(a, ND_PARAM, loc_of(cv, cs->items[i]));
      p->name = take_string(a, clang_getCursorSpelling(cs->items[i]));
      CXType t = clang_getCursorType(cs->items[i]);
      p->ty = conv_type(cv, t);
      /* `void fix(T &x)` was emitted `void fix(T x)`, its writes lost
         (probe14: a silent wrong answer); a const one reads alike */
      if (writable_reference(t)) {
        diag_error(cv->ctx->diag, p->loc,
                   "parameter '%s' is a reference that is not const: tgm passes parameters by "
                   "value; return the new value instead ('T f(T x) { ...; return x; }')",
                   p->name);
        cv->failed = true;
      }
      bind(cv, cs->items[i], p);
      vec_push(a, &n->kids, p);
    } else if (k == CXCursor_CompoundStmt) {
      n->body = conv_block(cv, cs->items[i]);
    }
  }
}

static bool is_identifier(const char *s) {
  if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (; *s; s++)
    if (!is_ident_char(*s))
      return false;
  return true;
}

/* Where the argument of the __tag(...) written at loc starts. */
static Loc tag_arg_loc(Conv *cv, Loc loc) {
  const SrcFile *f = cv->file;
  size_t off = 0;
  for (int line = 1; off < f->len && line < loc.line; off++)
    if (f->text[off] == '\n')
      line++;
  off += (size_t)(loc.col > 0 ? loc.col - 1 : 0);
  if (off + 5 > f->len || strncmp(f->text + off, "__tag", 5) != 0)
    return loc;
  size_t i = off + 5;
  while (i < f->len && (f->text[i] == ' ' || f->text[i] == '\t'))
    i++;
  if (i >= f->len || f->text[i] != '(')
    return loc;
  for (i++; i < f->len && (f->text[i] == ' ' || f->text[i] == '\t'); i++)
    ;
  Loc r = loc;
  r.col += (int)(i - off);
  return r;
}

/* A codelet; only the attributes written in its own declaration, from
 * sig_lo to its body, are its own. */
static Codelet *conv_codelet(Conv *cv, CXCursor fn, int index, size_t sig_lo, size_t sig_hi) {
  Arena *a = cv->arena;
  Cursors cs = children(fn);
  Attrs at = read_attrs(cv, &cs, sig_lo, sig_hi);
  Codelet *cd = arena_alloc(a, sizeof *cd);
  cd->name = take_string(a, clang_getCursorSpelling(fn));
  cd->loc = loc_of(cv, fn);
  cd->coop = at.coop;
  cd->tag = at.tag;
  cd->tag_loc = at.tag_loc;
  cd->index = index;
  if (at.tag && !is_identifier(at.tag)) {
    diag_error(cv->ctx->diag, tag_arg_loc(cv, at.tag_loc),
               at.tag[0] ? "tag '%s' is not an identifier: a tag names generated code, so it "
                           "takes letters, digits and '_', and no digit first"
                         : "empty tag%s: write __tag(name)",
               at.tag);
    cv->failed = true;
  }
  Node *n = node_new(a, ND_CODELET, cd->loc);
  n->name = cd->name;
  n->cd = cd;
  n->ty = conv_type(cv, clang_getCursorResultType(fn));
  cd->fn = n;
  conv_params_body(cv, &cs, n);
  free(cs.items);
  return cd;
}

/* A helper function of the user's (ND_FUNC), emitted with the kernels. */
static Node *conv_helper(Conv *cv, CXCursor fn) {
  Arena *a = cv->arena;
  Cursors cs = children(fn);
  Node *n = node_new(a, ND_FUNC, loc_of(cv, fn));
  n->name = take_string(a, clang_getCursorSpelling(fn));
  n->ty = conv_type(cv, clang_getCursorResultType(fn));
  cv->helper = true; /* a helper's own locals may alias: they are emitted as written */
  conv_params_body(cv, &cs, n);
  cv->helper = false;
  free(cs.items);
  return n;
}

/* ------------------------------------------------------------- parsing */

typedef struct {
  Conv *cv;
  size_t lo, hi; /* the span of the codelet we want */
  CXCursor found;
  bool have;
} FindFn;

static enum CXChildVisitResult find_fn(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  FindFn *ff = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
    return CXChildVisit_Continue;
  unsigned off;
  clang_getFileLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
  if (off >= ff->lo && off < ff->hi && !in_prelude(clang_getCursorLocation(c))) {
    ff->found = c;
    ff->have = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* At most MAX_ERRORS errors per file are shown: a cascade stops early, with
 * its root cause (clang's first error) on top. Each error keeps at most
 * MAX_NOTES of clang's notes. */
enum { MAX_ERRORS = 5, MAX_NOTES = 4 };

/* Forwards clang's diagnostics, each with its notes; returns the number of
 * errors. */
static int forward_diagnostics(Conv *cv) {
  Diag *d = cv->ctx->diag;
  int errors = 0;
  unsigned n = clang_getNumDiagnostics(cv->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic dg = clang_getDiagnostic(cv->tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
    const char *msg = take_string(cv->arena, clang_getDiagnosticSpelling(dg));
    if (sev >= CXDiagnostic_Error)
      errors++;
    if (sev >= CXDiagnostic_Warning && strncmp(msg, "too many errors emitted", 23) != 0) {
      Loc loc = loc_at(cv, clang_getDiagnosticLocation(dg));
      diag_report(d, sev >= CXDiagnostic_Error ? "error" : "warning", loc, msg);
      CXDiagnosticSet notes = clang_getChildDiagnostics(dg);
      unsigned nn = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
      for (unsigned j = 0; j < nn && j < MAX_NOTES; j++) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, j);
        const char *text = take_string(cv->arena, clang_getDiagnosticSpelling(note));
        diag_report(d, "note", loc_at(cv, clang_getDiagnosticLocation(note)), text);
        clang_disposeDiagnostic(note);
      }
      if (nn > MAX_NOTES)
        diag_report(d, "note", (Loc){loc.file, 0, 0},
                    arena_printf(cv->arena, "%u more notes on this %s not shown", nn - MAX_NOTES,
                                 sev >= CXDiagnostic_Error ? "error" : "warning"));
    }
    clang_disposeDiagnostic(dg);
  }
  return errors;
}

static bool in_span(const SrcFile *f, const PtrVec *spans, size_t off) {
  for (int i = 0; i < spans->len; i++) {
    const Span *sp = spans->items[i];
    size_t end = sp->body_end != SIZE_MAX ? sp->body_end : sig_end(f, sp);
    if (off >= sp->decl_start && off < end)
      return true;
  }
  return false;
}

/* `using namespace std;`, `using std::max;`: its tokens name std right after `using` (and
 * `namespace`). */
static bool names_std(Conv *cv, CXCursor c) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(cv->tu, clang_getCursorExtent(c), &toks, &n);
  unsigned i = 1;
  if (i < n &&
      strcmp(take_string(cv->arena, clang_getTokenSpelling(cv->tu, toks[i])), "namespace") == 0)
    i++;
  if (i < n && strcmp(take_string(cv->arena, clang_getTokenSpelling(cv->tu, toks[i])), "::") == 0)
    i++;
  bool std = i < n &&
             strcmp(take_string(cv->arena, clang_getTokenSpelling(cv->tu, toks[i])), "std") == 0;
  clang_disposeTokens(cv->tu, toks, n);
  return std;
}

/* What the file holds besides its codelets: helper functions, converted
 * into prog->helpers (a function marked __device, or any other function
 * defined in the file), typedefs, constants and using-directives of std.
 * Anything else tgm cannot emit is an error. */
static void conv_file_scope(Conv *cv, const PtrVec *spans, Program *prog) {
  Arena *a = cv->arena;
  Cursors cs = children(clang_getTranslationUnitCursor(cv->tu));
  for (int i = 0; i < cs.len; i++) {
    CXCursor c = cs.items[i];
    CXSourceLocation where = clang_getCursorLocation(c);
    if (in_prelude(where))
      continue;
    unsigned off;
    clang_getExpansionLocation(where, NULL, NULL, NULL, &off);
    enum CXCursorKind k = clang_getCursorKind(c);
    const char *name = take_string(a, clang_getCursorSpelling(c));
    const char *what = NULL;
    switch (k) {
    case CXCursor_FunctionDecl:
      if (in_span(cv->file, spans, off))
        break; /* a codelet */
      if (clang_isCursorDefinition(c)) {
        bool failed = cv->failed;
        cv->failed = false;
        Node *h = conv_helper(cv, c);
        if (!cv->failed)
          vec_push(a, &prog->helpers, h);
        cv->failed |= failed;
      } else if (clang_Cursor_isNull(clang_getCursorDefinition(c))) {
        conv_error(cv, c,
                   "'%s' is declared but not defined: tgm emits the functions this file "
                   "defines, so give it a body here",
                   name);
      }
      break;
    case CXCursor_TypedefDecl:
    case CXCursor_TypeAliasDecl:
    case CXCursor_StaticAssert: break;
    case CXCursor_VarDecl: /* a constant is its value at each use (file_constant) */
      if (!file_constant(cv, c, loc_of(cv, c)))
        what = "a global variable";
      break;
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_UnionDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization: what = "a class"; break;
    case CXCursor_UsingDirective:   /* `using namespace std;`: the prelude's std names are
                                       its global ones, what the code is written with */
    case CXCursor_UsingDeclaration: /* `using std::max;` */
      if (!names_std(cv, c))
        what = k == CXCursor_UsingDirective ? "a using-directive other than of std"
                                            : "a using-declaration other than of std's";
      break;
    case CXCursor_FunctionTemplate: what = "a template"; break;
    case CXCursor_EnumDecl: what = "an enum"; break;
    case CXCursor_Namespace: what = "a namespace"; break;
    default:
      what = arena_printf(a, "this declaration (%s)",
                          take_string(a, clang_getCursorKindSpelling(k)));
      break;
    }
    if (what)
      conv_error(cv, c, "%s",
                 arena_printf(a,
                              "tgm cannot emit %s%s%s%s: a codelet file holds codelets, "
                              "helper functions, typedefs and constants of a number type "
                              "('constexpr int K = 3;')",
                              what, name[0] ? " ('" : "", name, name[0] ? "')" : ""));
  }
  free(cs.items);
}

/* -DTGM_ELEM=int: T; -DTGM_ELEM_ID=1: which of the prelude's types is T. */
static const char *clang_args_elem(Arena *a, ElemType elem) {
  return arena_printf(a, "-DTGM_ELEM=%s", elem_info(elem)->ctype);
}

static const char *clang_args_elem_id(Arena *a, ElemType elem) {
  static const int ids[ET_COUNT] =
      {[ET_I32] = 1, [ET_U32] = 2, [ET_I64] = 3, [ET_F32] = 4, [ET_F64] = 5};
  return arena_printf(a, "-DTGM_ELEM_ID=%d", ids[elem]);
}

/* Clang parses on a thread of 8 MiB stack and recurses once a level of an
 * expression or an if-else chain: a chain of 100000 '+ 0' or 20000 'else
 * if' overflowed it, a crash before any error of tgm's (which stops at
 * MAX_NESTING levels when it converts the tree). Before clang, from the
 * tokens: operators and if/else in one statement (no ';', '{', '}'
 * between), and an else-if chain (its ';' and '}' followed by 'else'), past
 * MAX_CHAIN, are an error at the token where the count passes it. */
enum { MAX_CHAIN = 4 * MAX_NESTING };

static bool chains_fit(Diag *d, const SrcFile *f, const Toks *ts) {
  const char *s = f->text;
  int depth = 0, ops = 0, elses[257] = {0};
  for (int i = 0; i < ts->len; i++) {
    Tok t = ts->items[i];
    char c = s[t.start];
    bool word = is_ident_char(c),
         next_else = i + 1 < ts->len && tok_is(s, ts->items[i + 1], "else");
    if (c == '{' || c == '}') {
      depth += c == '{' ? 1 : -1;
      depth = depth < 0 ? 0 : depth > 256 ? 256 : depth; /* clang stops brackets at 256 */
      ops = 0;
      if (c == '}' && !next_else)
        elses[depth] = 0;
      continue;
    }
    if (c == ';') {
      ops = 0;
      if (!next_else)
        elses[depth] = 0;
      continue;
    }
    if (word && tok_is(s, t, "else"))
      elses[depth]++;
    if ((!word && c != '(' && c != ')' && c != '[' && c != ']' && c != ',') ||
        (word && (tok_is(s, t, "if") || tok_is(s, t, "else"))))
      ops++;
    if (ops > MAX_CHAIN || elses[depth] > MAX_CHAIN) {
      diag_error(d, loc_of_offset(f, t.start),
                 "%s is nested deeper than tgm parses (more than %d operators or else-ifs "
                 "in one chain); split it",
                 ops > MAX_CHAIN ? "this expression" : "this if-else chain", MAX_CHAIN);
      return false;
    }
  }
  return true;
}

/* The prelude's qualifiers are macros: `T atomicAdd(...)` as a name, or a
 * call `atomicAdd(&x, v)`, expanded into clang's "expected unqualified-id". */
static bool qualifiers_unused_as_names(Diag *d, const SrcFile *f, const Toks *ts) {
  static const char *const quals[] = {"__codelet", "__coop",    "__tunable", "__shared",
                                      "__device",  "atomicAdd", "atomicMul", "atomicMax",
                                      "atomicMin", "atomicAnd", "atomicOr",  "atomicXor"};
  for (int i = 0; i + 1 < ts->len; i++) {
    if (f->text[ts->items[i + 1].start] != '(')
      continue;
    for (size_t q = 0; q < COUNT_OF(quals); q++)
      if (tok_is(f->text, ts->items[i], quals[q])) {
        diag_error(d, loc_of_offset(f, ts->items[i].start),
                   "'%s' is a qualifier of the codelet language%s, not a name or a function",
                   quals[q],
                   quals[q][0] == 'a' ? " ('__shared atomicAdd T acc;': every assignment to acc "
                                        "combines atomically)"
                                      : "");
        return false;
      }
  }
  return true;
}

static const char prelude_name[] = "<tgm prelude>";

Program *front_parse(Ctx *ctx, const char *path, ElemType elem, bool elem_explicit) {
  Arena *a = ctx->arena;
  Diag *d = ctx->diag;
  SrcFile *f = diag_read_file(d, path);
  if (!f)
    return NULL;
  Program *prog = arena_alloc(a, sizeof *prog);
  prog->file = f;
  prog->elem = elem;

  PtrVec spans = {0};
  size_t nested = SIZE_MAX;
  find_codelets(a, f, &spans, &nested);
  if (nested != SIZE_MAX) {
    diag_error(d, loc_of_offset(f, nested),
               "a codelet inside braces (a namespace, a class or a function): codelets live at "
               "the file's top level, where tgm finds them");
    return prog;
  }
  Toks toks = lex_all(f->text, f->len);
  if (!chains_fit(d, f, &toks) || !qualifiers_unused_as_names(d, f, &toks)) {
    free(toks.items);
    return prog;
  }
  int fixed = fixed_elem(ctx, f, &spans, &toks, elem, elem_explicit);
  char *base = fixed == -2 ? NULL : base_text(a, f, &toks, fixed);
  free(toks.items);
  if (!base)
    return prog;
  if (fixed >= 0)
    prog->elem = elem = (ElemType)fixed;

  /* clang's notes may point into the prelude: show its lines too */
  bool have_prelude = false;
  for (int i = 0; i < d->files.len && !have_prelude; i++)
    have_prelude = strcmp(((SrcFile *)d->files.items[i])->path, prelude_name) == 0;
  if (!have_prelude) {
    SrcFile *pf = arena_alloc(a, sizeof *pf);
    pf->path = prelude_name;
    pf->text = tgm_prelude_text;
    pf->len = strlen(tgm_prelude_text);
    diag_add_file(d, pf);
  }

  const char *args[] = {
      "-x",
      "c++",
      "-std=c++17",
      "-fsyntax-only",
      "-nostdinc",
      "-nostdinc++",
      "-isystem",
      STD_DIR,
      "-include",
      PRELUDE_PATH,
      clang_args_elem(a, elem),
      clang_args_elem_id(a, elem),
      "-Wno-vla-cxx-extension",
      "-Wno-vla-extension",
      "-Wno-unused-value",
      "-Wno-return-type", /* sema reports a missing return itself */
      "-ferror-limit=0",  /* diag.c stops a cascade (MAX_ERRORS) */
  };
  /* clang wants an absolute path for the main file; we print the user's. */
  char *abs = realpath(path, NULL);
  const char *main_path = abs ? arena_strdup(a, abs) : path;
  free(abs);

  CXIndex index = clang_createIndex(0, 0);
  int nparses = spans.len ? spans.len : 1;
  int errors_before = d->nerrors;
  bool file_scope_done = false;
  diag_limit_begin(d, MAX_ERRORS);
  for (int k = 0; k < nparses; k++) {
    char *text = spans.len ? text_for(a, f, base, &spans, k) : base;
    struct CXUnsavedFile files[2 + COUNT_OF(std_paths)] = {
        {main_path, text, (unsigned long)f->len},
        {PRELUDE_PATH, tgm_prelude_text, (unsigned long)strlen(tgm_prelude_text)},
    };
    for (size_t h = 0; h < COUNT_OF(std_paths); h++)
      files[2 + h] = (struct CXUnsavedFile){std_paths[h], STD_TEXT,
                                            (unsigned long)strlen(STD_TEXT)};
    Conv cv = {.ctx = ctx, .arena = a, .file = f};
    enum CXErrorCode ec = clang_parseTranslationUnit2(index, main_path, args, (int)COUNT_OF(args),
                                                      files, (unsigned)COUNT_OF(files),
                                                      CXTranslationUnit_KeepGoing, &cv.tu);
    if (ec != CXError_Success || !cv.tu) {
      diag_error(d, (Loc){f->path, 0, 0}, "libclang could not parse the file (code %d)", (int)ec);
      break;
    }
    if (forward_diagnostics(&cv) > 0 || !spans.len) {
      clang_disposeTranslationUnit(cv.tu);
      continue;
    }
    if (!file_scope_done) { /* the same in every parse: once */
      file_scope_done = true;
      conv_file_scope(&cv, &spans, prog);
      cv.failed = false;
    }
    const Span *sp = spans.items[k];
    FindFn ff = {.cv = &cv,
                 .lo = sp->start,
                 .hi = sp->body_end == SIZE_MAX ? f->len : sp->body_end};
    clang_visitChildren(clang_getTranslationUnitCursor(cv.tu), find_fn, &ff);
    if (!ff.have) {
      diag_error(d, loc_of_offset(f, sp->start),
                 "'__codelet' must mark a function definition with a body");
    } else {
      Codelet *cd = conv_codelet(&cv, ff.found, prog->codelets.len, sp->decl_start, sig_end(f, sp));
      cd->body_start = sp->body_start;
      cd->body_end = sp->body_end == SIZE_MAX ? f->len : sp->body_end;
      if (!cv.failed)
        vec_push(a, &prog->codelets, cd);
    }
    clang_disposeTranslationUnit(cv.tu);
  }
  clang_disposeIndex(index);
  diag_limit_end(d, f->path);

  if (spans.len == 0 && d->nerrors == errors_before)
    diag_error(d, (Loc){f->path, 1, 1},
               f->len == 0 ? "empty file: no codelet to compile"
                           : "no codelet in this file (mark codelets with '__codelet')");
  /* what this file's outputs will be named after: output.c reports two
   * inputs that make the same output at the second one's codelet */
  for (int i = 0; i < prog->codelets.len; i++) {
    const Codelet *cd = prog->codelets.items[i];
    const char *stem = arena_printf(a, "%s_%s", cd->name, elem_info(prog->elem)->name);
    if (!diag_find_origin(d, stem, f->path))
      diag_origin(d, stem, cd->loc);
  }
  return prog;
}

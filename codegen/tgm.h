/* tgm.h -- the one internal header of the tgm-gen compiler.
 *
 * One section per .c file, in pipeline order:
 *   arena.c   allocation (never freed in the compiler)
 *   buf.c     growable text buffers
 *   diag.c    source files and diagnostics (file:line:col, source line, caret)
 *   types.c   element types (--type) and AST types
 *   ast.c     node constructors and helpers
 *   front.c   libclang -> AST (the only file that sees libclang)
 *   sema.c    codelet kinds, combining operator, tunables, DSL rules
 *   dump.c    --dump=ast / --dump=sema
 *   output.c  output files, committed only when there were no errors
 */
#ifndef TGM_H
#define TGM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TGM_VERSION "0.1.0"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- arena.c */

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size); /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A growable array of pointers living in an arena. */
typedef struct {
  void **items;
  int len, cap;
} PtrVec;

void vec_push(Arena *a, PtrVec *v, void *item);

/* ------------------------------------------------------------------ buf.c */

typedef struct {
  char *data;
  size_t len, cap;
} Buf;

void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_puts(Buf *b, const char *s);
void buf_free(Buf *b);

/* ----------------------------------------------------------------- diag.c */

/* A location in a user's file; line and col are 1-based, col counts bytes. */
typedef struct {
  const char *file;
  int line, col;
} Loc;

typedef struct {
  const char *path; /* as the user named it */
  const char *text; /* NUL-terminated copy of the contents */
  size_t len;
} SrcFile;

typedef struct {
  Arena *arena;
  FILE *out;          /* where diagnostics go (stderr) */
  int nerrors, nwarnings;
  PtrVec files;       /* SrcFile *: for printing source lines */
  PtrVec seen;        /* char *: printed diagnostics, to drop duplicates */
} Diag;

void diag_init(Diag *d, Arena *a, FILE *out);
void diag_add_file(Diag *d, SrcFile *f);
void diag_error(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prints one diagnostic; severity is "error", "warning" or "note". */
void diag_report(Diag *d, const char *severity, Loc loc, const char *msg);
/* Reads a codelet file; reports unreadable, too large and binary files. */
SrcFile *diag_read_file(Diag *d, const char *path);

/* ---------------------------------------------------------------- types.c */

/* The element type, chosen with --type. */
typedef enum { ET_I32, ET_U32, ET_I64, ET_F32, ET_F64, ET_COUNT } ElemType;

typedef struct {
  const char *name;   /* i32 */
  const char *ctype;  /* int */
  bool is_float;
  bool is_signed;
  int bytes;
} ElemInfo;

const ElemInfo *elem_info(ElemType t);
bool elem_parse(const char *name, ElemType *out);

typedef enum {
  TY_VOID,
  TY_BOOL,
  TY_INT,
  TY_UINT,
  TY_LONG,
  TY_ULONG,
  TY_FLOAT,
  TY_DOUBLE,
  TY_ELEM,      /* T, the element type */
  TY_ARRAY,     /* Array<1,T>: base = element type */
  TY_CARRAY,    /* a C array (shared memory): base = element type */
  TY_VECTOR,
  TY_SEQUENCE,
  TY_PARTITION,
  TY_MAP,
  TY_FUNC,
  TY_OTHER,     /* anything else; name holds clang's spelling */
} TypeKind;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  bool is_const;
  Type *base;
  int dims;          /* TY_ARRAY: the dimension count */
  const char *name;  /* TY_OTHER: clang's spelling */
};

Type *type_new(Arena *a, TypeKind kind);
const char *type_str(Arena *a, const Type *t); /* e.g. "const Array<1,T>" */
bool type_is_integer(const Type *t);
bool type_is_unsigned(const Type *t);

/* ------------------------------------------------------------------ ast.c */

typedef enum {
#define X(k, s) k,
#include "nodes.def"
#undef X
  ND_COUNT
} NodeKind;

typedef enum {
#define X(k, s) k,
#include "ops.def"
#undef X
  OP_COUNT
} Op;

/* Qualifiers of a declaration. */
enum { Q_SHARED = 1, Q_TUNABLE = 2, Q_CONST = 4 };

typedef struct Codelet Codelet;
typedef struct Node Node;

struct Node {
  NodeKind kind;
  Loc loc;
  Type *ty;
  Op op;
  const char *name;
  Node *lhs, *rhs;
  Node *cond, *then, *els, *init, *inc, *body;
  Node *dim;        /* ND_DECL: array size of a C array */
  Node *decl;       /* ND_VAR: what it names (NULL: a function) */
  PtrVec kids;      /* Node *: statements, arguments, parameters */
  unsigned qual;    /* ND_DECL: Q_* */
  Op atomic_op;     /* ND_DECL: __shared atomicAdd etc. */
  int64_t ival;
  double fval;
  const char *spelling; /* literals: as written */
  Codelet *cd;      /* ND_CODELET */
};

const char *node_kind_name(NodeKind k);
const char *op_name(Op op);
Node *node_new(Arena *a, NodeKind kind, Loc loc);
Node *node_kid(const Node *n, int i);
int node_nkids(const Node *n);
/* Calls fn on n and every node below it, parents first; fn returns false
 * to prune the walk below that node. */
typedef bool (*NodeVisit)(Node *n, void *ctx);
void node_walk(Node *n, NodeVisit fn, void *ctx);
/* True when n is `obj.method(...)` with obj of type kind tk. */
bool node_is_method(const Node *n, TypeKind tk, const char *method);

/* --------------------------------------------------------------- sema.c */

typedef enum { CK_SCALAR, CK_COMPOUND, CK_COOP, CK_ATOMIC } CodeletKind;
typedef enum { PART_NONE, PART_TILED, PART_STRIDED } PartKind;

const char *codelet_kind_name(CodeletKind k);
const char *part_kind_name(PartKind k);

struct Codelet {
  /* filled by front.c */
  const char *name;   /* the spectrum's name: sum */
  const char *tag;    /* __tag(...), or NULL */
  Loc loc, tag_loc;
  bool coop;          /* marked __coop */
  int index;          /* position in the file, from 0 */
  Node *fn;           /* ND_CODELET */
  /* filled by sema.c */
  const char *id;     /* the tag, or name#index when untagged */
  CodeletKind kind;
  PartKind part;
  Op op;              /* combining operator */
  Loc op_loc;
  bool op_inherited;  /* compound: the operator comes from the spectrum */
  PtrVec tunables;    /* Node * (ND_DECL) */
  Node *vector;       /* the Vector declaration */
  Node *map;          /* the Map declaration */
  Node *atomic;       /* the __shared atomic declaration */
  Node *accum;        /* the accumulator declaration */
};

typedef struct {
  SrcFile *file;
  ElemType elem;
  PtrVec codelets; /* Codelet * in file order */
} Program;

typedef struct {
  Arena *arena;
  Diag *diag;
} Ctx;

/* --------------------------------------------------------------- front.c */

/* Parses one codelet file. Returns NULL when nothing could be parsed;
 * errors are reported through ctx->diag either way. */
Program *front_parse(Ctx *ctx, const char *path, ElemType elem);
/* The prelude that declares the codelet language (prelude.h, built in). */
extern const char tgm_prelude_text[];

/* ---------------------------------------------------------------- sema.c */

void sema_check(Ctx *ctx, Program *prog);

/* ---------------------------------------------------------------- dump.c */

void dump_ast(Buf *out, Arena *a, const Program *prog);
void dump_sema(Buf *out, Arena *a, const Program *prog);
void dump_summary(Buf *out, const Program *prog);

/* -------------------------------------------------------------- output.c */

/* Outputs are gathered in memory and written only when the whole run had no
 * error: each to a temporary file in its directory, then renamed. */
typedef struct {
  Arena *arena;
  PtrVec names; /* char * */
  PtrVec bufs;  /* Buf * */
} Outputs;

Buf *outputs_add(Outputs *o, const char *path);
/* Returns 0, or -1 after printing why to stderr (nothing is left behind). */
int outputs_commit(Outputs *o, const char *dir);

#endif

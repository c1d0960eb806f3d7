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
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable array of pointers living in an arena. */
typedef struct {
  void **items;
  int len, cap;
} PtrVec;

void vec_push(Arena *a, PtrVec *v, void *item);
bool vec_has(const PtrVec *v, const void *item); /* item is one of v's */

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
  FILE *out; /* where diagnostics go (stderr) */
  int nerrors, nwarnings;
  PtrVec files; /* SrcFile *: for printing source lines */
  PtrVec seen;  /* char *: printed diagnostics, to drop duplicates */
  /* diag_limit: at most `limit` errors are shown (0: no limit); the rest
   * are counted in `suppressed`, with their notes. */
  int limit, shown, suppressed;
  bool hiding;            /* the last error was suppressed: so are its notes */
  PtrVec origins;         /* Origin *: what each input file defines (diag_origin) */
  const SrcFile *current; /* the codelet file read last */
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
/* Between diag_limit_begin and diag_limit_end at most max errors (and their
 * notes) are printed, root cause first; diag_limit_end prints one line with
 * how many more there were. (A cascade of clang errors stops early.) */
void diag_limit_begin(Diag *d, int max);
void diag_limit_end(Diag *d, const char *file);
/* Where an output's stem (e.g. sum_i32, a spectrum and a type) comes from:
 * the front end records it, output.c reads it to locate a collision. */
typedef struct {
  const char *stem;
  Loc loc;
} Origin;
void diag_origin(Diag *d, const char *stem, Loc loc);
/* The latest origin of stem in file, or NULL. */
const Origin *diag_find_origin(const Diag *d, const char *stem, const char *file);

/* ---------------------------------------------------------------- types.c */

/* The element type, chosen with --type. */
typedef enum { ET_I32, ET_U32, ET_I64, ET_F32, ET_F64, ET_COUNT } ElemType;

typedef struct {
  const char *name;  /* i32 */
  const char *ctype; /* int */
  bool is_float;
  bool is_signed;
  int bytes;
  const char *host_ctype; /* in a host signature: int32_t, uint32_t, long long, float, double */
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
  TY_ELEM,   /* T, the element type */
  TY_ACC,    /* A, the accumulator type (lowered code) */
  TY_RES,    /* R, the result type (lowered code) */
  TY_ARRAY,  /* Array<1,T>: base = element type */
  TY_CARRAY, /* a C array (shared memory): base = element type */
  TY_VECTOR,
  TY_SEQUENCE,
  TY_PARTITION,
  TY_MAP,
  TY_FUNC,
  TY_SIZE,  /* tgm_size: 64-bit unsigned index (lowered code) */
  TY_PTR,   /* pointer to base (lowered code) */
  TY_VEC,   /* the 16-byte vector of T (int4, float4, double2, ...) */
  TY_ARG,   /* Arg: an element's value and its index (argmax, argmin) */
  TY_OTHER, /* anything else; name holds clang's spelling */
} TypeKind;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  bool is_const;
  Type *base;
  int dims;         /* TY_ARRAY: the dimension count */
  const char *name; /* TY_OTHER: clang's spelling */
};

Type *type_new(Arena *a, TypeKind kind);
/* t without const (a template argument: tgm_ftoi<int>, not <const int>) */
Type *type_unqualified(Arena *a, const Type *t);
const char *type_str(Arena *a, const Type *t); /* e.g. "const Array<1,T>" */
bool type_is_integer(const Type *t);
/* A scalar type's kind, T as the element type it stands for (TY_FLOAT for f32). */
TypeKind type_concrete(const Type *t, ElemType elem);
/* How lowering widens a thread-level local so that any n works: unsigned
 * to tgm_size, int to long long; any other type as it is. */
TypeKind type_widened(TypeKind k);
bool type_is_arith(const Type *t); /* T, bool, int, unsigned, long long, float, double */
/* char, short, their unsigned forms, char16_t, ...: their bits, negative when signed; else 0 */
int type_narrow_bits(const Type *t);
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
// clang-format off
enum { Q_SHARED = 1, Q_TUNABLE = 2, Q_CONST = 4, Q_RESTRICT = 8, Q_KERNEL = 16,
       Q_ACCUM = 32 /* a scalar codelet's accumulator (sema) */,
       Q_INDEX = 64 /* a thread function's index of its first element (lowering) */,
       Q_MIN_BLOCKS1 = 128 /* a kernel: __launch_bounds__(BLOCK, 1) (cols.c's CA, rows.c's RL and
                              RA with vector loads) */,
       Q_MIN_THREADS1024 = 256 /* a kernel in blocks of up to 128: 1024 threads an SM at least (CUDA:
                                  __launch_bounds__(BLOCK, BLOCK <= 128 ? 1024 / BLOCK : 1), 64
                                  registers a thread at most; for larger blocks a minimum of one
                                  block, which ptxas reads as leave to take registers (rows.c's
                                  RB, RW.SV: why) */ };
// clang-format on
/* ND_SYNC scopes */
enum { SYNC_BLOCK = 0, SYNC_WARP = 1 };

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
  Node *dim;     /* ND_DECL: array size of a C array */
  Node *decl;    /* ND_VAR: what it names (NULL: a function) */
  PtrVec kids;   /* Node *: statements, arguments, parameters */
  unsigned qual; /* ND_DECL: Q_* */
  Op atomic_op;  /* ND_DECL: __shared atomicAdd etc. */
  int64_t ival;
  double fval;
  const char *spelling; /* literals: as written */
  Codelet *cd;          /* ND_CODELET */
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
/* True when n is the GPU built-in `name` (ND_GPU: "tid", "lane", "warp", ...). */
bool node_is_gpu(const Node *n, const char *name);
/* True when n is a use of the variable declared by decl. */
bool node_is_var(const Node *n, const Node *decl);
/* Does n (an expression or a statement) name decl anywhere in it? */
bool node_reads(Node *n, const Node *decl);
/* The value a combine into acc adds: as is `acc op= X`, `acc = f(acc, X)`
 * or `f(X, acc)` (max, min: any call of two), `acc = acc op X` or
 * `X op acc`; the slot holding X, NULL when as is none of those. The one
 * reading of a combine's operand (spectrum.c, sema.c, xf_shuffle.c). */
Node **node_combine_operand(Node *as, const Node *acc);
/* The assignment (=, op=, ++, --) of decl below n, or NULL. */
const Node *node_assigned_in(Node *n, const Node *decl);
/* The first combine below n made in a shared array itself (`a[tid] +=
 * a[tid + s]`, `a[tid] = a[tid] + a[tid + s]`: an assignment to an element
 * of a __shared array, compound or reading that array), or NULL. sema.c and
 * xf_barrier.c say what to write instead. */
const Node *node_shared_combine_in(Node *n);
/* Is decl a local of body set once (initialised, never assigned) from
 * constants, scalar parameters and such locals (`const T k = 2;`, `T twice
 * = scale * k;`)? It is the same wherever it is read: the scalar codelet's
 * transform and a cooperative codelet's thread value read it as its value. */
bool node_fixed_local(Node *body, const Node *decl);
/* The nodes of n once every variable whose declaration `inlined` takes is
 * replaced by its initialiser, recursively (a temporary, a fixed local),
 * counted without building it, up to about cap: a chain of `T t2 = t1 +
 * t1;` doubles at each step, and 40 of them ran tgm out of memory. */
long node_inlined_size(Arena *a, Node *n, bool (*inlined)(const Node *decl, void *ctx), void *ctx,
                       long cap);
/* The most nodes tgm writes out for one expression (a transform, an epilogue). */
enum { MAX_INLINED = 20000 };
/* Rebuilds n bottom-up: fn gets each node after its children were rebuilt
 * and returns the node to put in its place (itself, another, or NULL to
 * drop a statement from a block). */
typedef Node *(*NodeRewrite)(Node *n, void *ctx);
Node *node_rewrite(Node *n, NodeRewrite fn, void *ctx);
/* A deep copy; variables of the copy name the copied declarations. */
Node *node_clone(Arena *a, const Node *n);
bool node_equal(const Node *x, const Node *y); /* same shape and names */

/* ------------------------------------------------------------ combiner.c */

/* Element types as bits: TS_OF(ET_I32) ... */
#define TS_OF(e) (1u << (e))
#define TS_I32 TS_OF(ET_I32)
#define TS_U32 TS_OF(ET_U32)
#define TS_I64 TS_OF(ET_I64)
#define TS_F32 TS_OF(ET_F32)
#define TS_F64 TS_OF(ET_F64)
#define TS_INT (TS_I32 | TS_U32 | TS_I64)
#define TS_ALL (TS_INT | TS_F32 | TS_F64)

typedef enum { CF_ASSIGN, CF_BINARY, CF_CALL } CombineForm;
typedef enum { ID_ZERO, ID_ONE, ID_ONES, ID_LOWEST, ID_HIGHEST } IdentityKind;

/* A combining operator: one line of combiners.def (its columns say what
 * each field means). */
typedef struct {
  Op op;
  const char *name;   /* in the manifest and the database: sum, max, * */
  const char *suffix; /* tgm_atomic_SUFFIX, __reduce_SUFFIX_sync */
  CombineForm form;
  IdentityKind identity;
  const char *native;      /* the device's atomic, or NULL */
  unsigned native_on;      /* TS_ bits */
  const char *fpos, *fneg; /* a float's atomics through its bits, or NULL */
  unsigned redux_on;       /* TS_ bits */
  const char *cub;         /* the CUB operator */
  const char *bound;       /* sum, product, exact */
} Combiner;

int combiner_count(void);
const Combiner *combiner_at(int i);
const Combiner *combiner_of(Op op);                     /* NULL: op does not combine */
const Combiner *combiner_spelled(const char *spelling); /* "+", "max"; NULL: none */
/* How a codelet may combine, for errors: "+=, *=, ... or x = min(x, e)" */
const char *combiner_forms(Arena *a);
const char *combiner_atomic(const Combiner *cb); /* tgm_atomic_add */
/* Does a float result depend on the order of the fold? */
bool combiner_order_matters(const Combiner *cb, ElemType acc);

/* ---------------------------------------------------------------- build.c */

/* Builders for the nodes that lowering and transformations create. Each
 * takes the location of the user's code it stands for. */
Node *mk_int(Arena *a, Loc loc, long long v);
Node *mk_var(Arena *a, Loc loc, Node *decl);
Node *mk_gpu(Arena *a, Loc loc, const char *name);
Node *mk_unary(Arena *a, Loc loc, Op op, Node *x);
Node *mk_binary(Arena *a, Loc loc, Op op, Node *l, Node *r);
Node *mk_assign(Arena *a, Loc loc, Op op, Node *l, Node *r);
Node *mk_cond(Arena *a, Loc loc, Node *c, Node *t, Node *e);
/* v as a local of type ty stands for it: cast where its concrete type (T
 * read for elem) differs (`double x = in[i]` is (double)in[i]; `auto x =
 * in[i]`, int for i32, is in[i]) -- a temporary, a local, a fixed local. */
Node *mk_value_as(Arena *a, Loc loc, Node *v, Type *ty, ElemType elem);
Node *mk_index(Arena *a, Loc loc, Node *base, Node *idx);
Node *mk_member(Arena *a, Loc loc, Node *obj, const char *field);
Node *mk_call(Arena *a, Loc loc, const char *name, int nargs, ...);
Node *mk_expr(Arena *a, Node *e);
Node *mk_if(Arena *a, Loc loc, Node *c, Node *then, Node *els);
Node *mk_block(Arena *a, Loc loc);
Node *mk_decl(Arena *a, Loc loc, const char *name, Type *ty, Node *init);
Node *mk_param(Arena *a, Loc loc, const char *name, Type *ty, unsigned qual);
Node *mk_sync(Arena *a, Loc loc, int scope);
Node *mk_comment(Arena *a, Loc loc, const char *text);
Node *mk_return(Arena *a, Loc loc, Node *v);
Node *mk_fence(Arena *a, Loc loc);                              /* a device-wide memory fence */
Node *mk_ticket(Arena *a, Loc loc, Node *counter, Node *limit); /* see ND_TICKET */
void block_add(Arena *a, Node *block, Node *stmt);
Type *ty_elem(Arena *a);
Type *ty_ptr(Arena *a, Type *base, bool is_const);
/* The operator's combine of two values as an expression: a + b, max(a, b) */
Node *mk_combine(Arena *a, Loc loc, Op op, Node *x, Node *y);
/* The operator's identity: 0, 1, ~0, Lowest(), Highest() */
Node *mk_identity(Arena *a, Loc loc, Op op);

/* --------------------------------------------------------------- sema.c */

typedef enum { CK_SCALAR, CK_COMPOUND, CK_COOP, CK_ATOMIC } CodeletKind;
typedef enum { PART_NONE, PART_TILED, PART_STRIDED } PartKind;

const char *codelet_kind_name(CodeletKind k);
const char *part_kind_name(PartKind k);

struct Codelet {
  /* filled by front.c */
  const char *name; /* the spectrum's name: sum */
  const char *tag;  /* __tag(...), or NULL */
  Loc loc, tag_loc;
  bool coop; /* marked __coop */
  int index; /* position in the file, from 0 */
  Node *fn;  /* ND_CODELET */
  /* the body's bytes in the file: '{' to just past its '}' (check.c blanks
     the other codelets' for the oracle) */
  size_t body_start, body_end;
  /* filled by sema.c */
  const char *id; /* the tag, or name#index when untagged */
  CodeletKind kind;
  PartKind part;
  Op op; /* combining operator */
  Loc op_loc;
  bool op_inherited; /* compound: the operator comes from the spectrum */
  PtrVec tunables;   /* Node * (ND_DECL) */
  Node *vector;      /* the Vector declaration */
  Node *map;         /* the Map declaration */
  Node *atomic;      /* the __shared atomic declaration */
  Node *accum;       /* the accumulator declaration */
};

/* What a spectrum means, derived by sema from its scalar codelet:
 *   result = epilogue(fold(op, identity, map(transform, inputs)))
 * Every variant applies the transform once per input element, combines
 * partial results only with op, and runs the epilogue once. */
typedef struct {
  const char *name; /* the parameter's name in the code: x (names.c) */
  const char *user; /* as the user wrote it, for the manifest */
  Loc loc;
} SpecInput;

typedef struct {
  const char *name;  /* in the code: threshold (names.c) */
  const char *user;  /* as the user wrote it: the manifest, tgm-tune's --param */
  const char *ctype; /* its C type as printed: T, float, unsigned */
  Type *ty;
  Loc loc;
} SpecParam;

typedef struct Spectrum {
  const char *name;             /* the spectrum: sum */
  const struct Codelet *scalar; /* the codelet it is read from */
  Node *acc;                    /* the scalar codelet's accumulator declaration */
  const char *acc_user;         /* its name as the user wrote it (names.c may rename it) */
  Op op;                        /* the combining operator */
  PtrVec inputs;                /* SpecInput *: the Array<1,T> parameters, >= 1, one length */
  PtrVec params;                /* SpecParam *: scalar parameters, passed through */
  Type *acc_ty;                 /* the accumulator's type (TY_ELEM: T) */
  const char *acc_ctype;        /* A, as C: int, unsigned long long, float */
  bool acc_float;
  Type *result_ty;            /* the codelet's return type */
  const char *result_ctype;   /* R, as C */
  Node *transform;            /* the value combined per element, in[i] for a plain fold */
  const char *transform_text; /* as printed, for the manifest: in[i] * in[i] */
  Node *epilogue;             /* the returned expression of the accumulator, or NULL */
  Node *start; /* a start other than the identity, folded into the return (fold_start), or NULL */
  bool start_uses_n;
  const char *epilogue_text; /* NULL, or e.g. acc / len */
  bool epilogue_uses_n;
  bool indexed;  /* the transform uses in.Index(i), an element's index in the whole input */
  bool pair;     /* the accumulator is an Arg: (value, index), combined by max or min */
  bool ftoi;     /* its code converts a float to an integer: tgm_ftoi (sema.c, file.tpl) */
  ElemType elem; /* T of the program it was derived in */
} Spectrum;

typedef struct {
  SrcFile *file;
  ElemType elem;
  PtrVec codelets; /* Codelet * in file order */
  PtrVec spectra;  /* Spectrum *, one per spectrum name, filled by sema */
  PtrVec helpers;  /* Node * (ND_FUNC): the user's own device helper functions */
} Program;

typedef struct {
  Arena *arena;
  Diag *diag;
} Ctx;

/* --------------------------------------------------------------- names.c */

/* After sema: renames, in the code, each user name that is also one tgm
 * writes (a template's, a pass's), so the two never meet in one scope. */
void names_apart(Ctx *ctx, Program *prog);
extern const char *const names_invented[]; /* the names the passes declare */
extern const int names_invented_count;
/* The names lowering derives from an input's (xf_lower.c): in_size,
 * in_stride, in_value, in_first; names.c keeps the user's apart from them. */
typedef enum { DERIVED_SIZE, DERIVED_STRIDE, DERIVED_VALUE, DERIVED_FIRST, DERIVED_COUNT } Derived;
const char *names_derive(Arena *a, const char *input, Derived d);

/* --------------------------------------------------------------- front.c */

/* Parses one codelet file. Returns NULL when nothing could be parsed;
 * errors are reported through ctx->diag either way. A file whose codelets
 * take Array<1,int> (float, ...) fixes its element type: prog->elem is
 * that type, and an explicit --type (elem_explicit) that differs is an
 * error; otherwise prog->elem is elem. */
Program *front_parse(Ctx *ctx, const char *path, ElemType elem, bool elem_explicit);
/* The prelude that declares the codelet language (prelude.h, built in). */
extern const char tgm_prelude_text[];
/* Skips a comment, string or character literal of C at s[i]; the offset
 * after it, or i where there is none (front.c's light scans, names.c's). */
size_t front_skip_trivia(const char *s, size_t len, size_t i);
/* Blanks the body at [start, end) of a text in place: ';' and spaces, newlines kept. */
void front_blank_body(char *t, size_t start, size_t end);

/* ---------------------------------------------------------------- sema.c */

void sema_check(Ctx *ctx, Program *prog);
/* A float stored or combined into an integer type: written as the GPU
 * converts it, tgm_ftoi<I>(x) (file.tpl), on every platform. */
bool sema_float_into_int(const Type *to, const Node *x, ElemType elem);
/* An integer value x whose common type with an integer type `to` is not
 * `to` (unsigned into int, long long into unsigned; for a narrow `to`, any
 * type it does not hold): max(acc, x) compares in that common type and
 * converts after, not a max over `to`. */
bool sema_int_outside(const Type *to, const Node *x, ElemType elem);
Node *sema_to_int(Arena *a, ElemType elem, Type *to, Node *x);
/* Is constant e, as a value of type ty (T = elem), the identity of op:
 * Lowest(), -INFINITY, INT_MIN, ~0u, ... (an accumulator's start, a lane's
 * fallback, the spectrum's transform) */
bool sema_is_identity(const Node *e, const Type *ty, ElemType elem, Op op);

/* ------------------------------------------------------------ spectrum.c */

/* Derives each spectrum's meaning (Spectrum) from its scalar codelet into
 * prog->spectra; what does not fit is a located error. */
void spectrum_derive(Ctx *ctx, Program *prog);
const Spectrum *spectrum_find(const Program *prog, const char *name);
/* A plain fold: one input, in[i] as it is, no parameters, no epilogue, the
 * accumulator and result of the element type (what tgm-tune handles). */
bool spectrum_is_plain(const Spectrum *s);
/* Does e match the spectrum's transform, with every input read at an index
 * for which `at_index(index, ctx)` holds? (fn: the function e lives in,
 * whose parameters are the spectrum's in the same order) */
bool spectrum_match_transform(const Spectrum *s, const Node *fn, const Node *e,
                              bool (*at_index)(const Node *index, void *ctx), void *ctx);
/* Does cast x, of the length (is_length: in.Size(), a local holding it, the
 * epilogue's n), widen with it to 64 bits? `(int)len` does, as lowering
 * widens an int local set from the length (a mean's `acc / (T)len` of 2^32
 * elements over i32 would divide by 0); an (unsigned) cast keeps C's
 * unsigned meaning and stays. */
bool spectrum_cast_widens(const Node *x, ElemType elem, bool is_length);

/* ------------------------------------------------------------ xf_lower.c */

/* Lowers a codelet to a device function: the scalar codelet for one thread
 * (LOWER_THREAD: returns the accumulator), the same as written, epilogue
 * included (LOWER_REFERENCE), or a cooperative codelet for the threads of a
 * block (LOWER_BLOCK). Returns NULL and the reason when the codelet cannot
 * serve at that level. */
typedef enum { LOWER_THREAD, LOWER_REFERENCE, LOWER_BLOCK } LowerLevel;
Node *lower_codelet(Ctx *ctx, const Spectrum *spec, const Codelet *cd, LowerLevel level,
                    const char *fname, const char **why, Loc *why_loc);

/* ------------------------------------------- block-level transformations */

int xf_satomic(Arena *a, Node *fn);      /* xf_satomic.c: shared atomics */
int xf_shuffle(Arena *a, Node *fn);      /* xf_shuffle.c: tree loops -> shuffles */
int xf_redux(Arena *a, Node *fn, Op op); /* xf_redux.c: shuffle trees -> redux */
int xf_fold(Arena *a, Node *fn);         /* xf_fold.c: the partials' tree -> lane 0's fold */
/* xf_barrier.c: returns NULL, or why no barriers make fn safe */
const char *xf_barrier(Arena *a, Node *fn, Loc *why_loc);

/* xf_epilogue.c: R tgm_epilogue(A acc, tgm_size n, params...) */
Node *xf_epilogue(Arena *a, const Spectrum *s);
/* A tgm_start(tgm_size n, params...): the accumulator's start folded into the
 * return (Spectrum.start), whose size widens a float sum's rounding bound;
 * NULL without one. */
Node *xf_start(Arena *a, const Spectrum *s);

/* xf_vector.c: the scalar codelet over 16-byte vectors of `width` elements */
Node *xf_vector(Arena *a, const Node *scalar_fn, int width, const char *name, const char **why,
                Loc *why_loc);

/* ------------------------------------------- compose.c and the passes */

/* The passes, as main.c runs them on each spectrum's Composition (one for
 * every dialect), each with --dump=NAME:
 *   plan   compose.c  the candidate plans, one codelet per level: data
 *   lower  xf_lower.c the codelets as device functions (thread, reference,
 *                     vector, each block kind's codelet)
 *   block  block.c    the block transformations (shared atomics, shuffles,
 *                     redux, barriers) on each block kind's function
 *   grid   grid.c     each plan's kernels, finished by its grid
 *                     transformation, or left out with why
 * then each dialect takes what it can print (composition_for), the CPU
 * check drops what is wrong, and gen/manifest/embed print. */

typedef enum { DIALECT_CUDA, DIALECT_HIP, DIALECT_COUNT } DialectKind; /* target.c */

/* G_RW, G_RB, G_RL, G_RA: the grid levels of row reductions (--rows,
 * rows.c); G_CT, G_CA: of column reductions (--cols, cols.c) */
typedef enum {
  G_DT,
  G_DS,
  G_DTA,
  G_DSA,
  G_DTL,
  G_DSL,
  G_B1,
  G_RW,
  G_RB,
  G_RL,
  G_CT,
  G_CA,
  G_RA,
  G_COUNT
} GridKind;
typedef enum { B_V, B_VS, B_VR, B_VA1, B_VA2, B_VA2S, B_VW, B_VRW, B_COUNT } BlockKind;
typedef enum { T_ST, T_SS, T_SV, T_COUNT } ThreadKind;

const char *grid_code(GridKind g);     /* DT, DS, DTA, ... */
const char *block_code(BlockKind b);   /* V, VS, ... */
const char *thread_code(ThreadKind t); /* ST, SS, SV */
bool grid_tiled(GridKind g);           /* DT, DTA, DTL */
bool grid_cols(GridKind g);            /* CT, CA: the column plans */
bool grid_row_parts(GridKind g);       /* RL, RA: blocks a row (per_row) */
/* The blocks (threads) a variant is launched in: the manifest's tunable
 * `block`, what tgm-tune, tgm_reduce and the headers choose among, and what
 * the CPU check runs each block level in. */
enum { BLOCK_SIZES = 4 };
extern const unsigned block_sizes[BLOCK_SIZES]; /* 128, 256, 512, 1024 */

/* One block-level implementation: a transformed cooperative codelet. */
typedef struct {
  Node *fn;              /* NULL when unavailable */
  const char *why;       /* then: why */
  Loc why_loc;           /* and where in the codelet, when one statement is (line 0: none) */
  Node *group_fn;        /* --rows: fn for a group of GROUP threads (xf_group.c), or NULL */
  const char *group_why; /* then: why */
  Codelet *cd;
  const char *fname; /* the device function's name: sum_coop_shfl */
} BlockImpl;

/* A kernel's signature by role (kernel.c). */
typedef struct {
  Node *fn;      /* ND_FUNC */
  PtrVec inputs; /* Node * (ND_PARAM): const T *x, ... (main kernel) */
  Node *n, *out, *partials, *counter, *items, *count; /* NULL where absent */
  Node *m, *ld;   /* a row kernel's rows and leading dimension */
  PtrVec params;  /* Node * (ND_PARAM): the spectrum's scalar parameters */
  PtrVec roles;   /* const char *: each parameter's role, in order (manifest) */
  bool grouped;   /* a template on GROUP too (RW: a row's threads) */
  bool per_items; /* and on ITEMS: a strided grid's vector loads in flight (kernel_values) */
} Kernel;

typedef struct {
  const char *id;    /* DTA.VA2S.SS */
  const char *cname; /* sum_DTA_VA2S_SS: the kernel's name */
  GridKind g;
  BlockKind b;
  ThreadKind t;
  int launches;           /* kernel launches for n > 0, the initialisation included */
  bool needs_init;        /* the output is set to the identity before (global atomics) */
  bool packed_rows;       /* RW: a thread a row reads packed rows as vectors (rows_packed) */
  bool deterministic;     /* the same bits every run, also for floating point */
  bool partials, counter; /* temp storage: one A per block; a completion counter */
  bool needs_redux;       /* a dialect without the warp-reduce instruction drops it */
  const char *min_arch;   /* CUDA: sm_75, or sm_80 for VR */
  const char *grid_rule;  /* tiles, tiles_vec, strided, strided_vec, one */
  Kernel *kernel, *pass2; /* pass2 may be NULL */
} Plan;

/* Where a plan was found wanting: its parts (codelets, the thread level),
 * its block level, or its grid level; a dialect's own reason replaces the
 * block's and the grid's, as the dialect is asked first at that level. */
typedef enum { LO_PARTS, LO_BLOCK, LO_GRID } LeftOutStage;

typedef struct {
  const char *id;
  const char *why;
  LeftOutStage stage;
} LeftOut;

typedef struct {
  Program *prog;
  const Spectrum *spec; /* what it means (sema) */
  const char *name;     /* the spectrum */
  Op op;
  ElemType elem;
  bool rows;                    /* --rows: each row of an m x n matrix reduced */
  bool cols;                    /* --cols: each column of it */
  DialectKind dialect;          /* its slot among the dialects */
  const struct Dialect *target; /* what it is printed for (target.c) */
  Codelet *scalar, *tiled, *strided;
  BlockImpl block[B_COUNT];
  Node *thread_fn, *thread_vec_fn;
  const char *thread_vec_why;       /* why there is no thread_vec_fn */
  Node *reference_fn, *epilogue_fn; /* the verification reference; tgm_epilogue */
  Node *start_fn;                   /* tgm_start (xf_start), or NULL */
  ElemType acc_elem; /* the accumulator's type as an element type (atomics, identities) */
  PtrVec candidates; /* Plan *: every grid.block.thread, from the planner */
  PtrVec plans;      /* Plan *: those the grid pass built (and a dialect prints) */
  PtrVec left_out;   /* LeftOut * */
} Composition;

/* One composition per spectrum of prog, before any pass; rows: of the
 * spectrum over each row of a matrix (--rows). */
void composition_new(Ctx *ctx, Program *prog, bool rows, bool cols, PtrVec *out);

/* Every pass has this signature; errors go to ctx->diag. */
typedef void (*Pass)(Ctx *ctx, Composition *c);
void pass_plan(Ctx *ctx, Composition *c);  /* compose.c */
void pass_lower(Ctx *ctx, Composition *c); /* xf_lower.c */
void pass_block(Ctx *ctx, Composition *c); /* block.c */
void pass_grid(Ctx *ctx, Composition *c);  /* grid.c */

/* What a dialect prints of a composition that went through every pass:
 * the plans it can do, the rest left out with why (a shallow copy; the
 * functions are shared). */
Composition *composition_for(Arena *a, const Composition *c, DialectKind slot,
                             const struct Dialect *target);
/* A spectrum with no variant in a dialect is an error, with why at each level. */
void compose_check_empty(Ctx *ctx, Composition *const by_dialect[DIALECT_COUNT]);

/* kernel.c: the kernels' signatures by role */
Kernel *kernel_main(Arena *a, const Composition *c, const char *name, BlockKind b);
Kernel *kernel_pass2(Arena *a, const Composition *c, const char *name, BlockKind b);
Node *kernel_use(Arena *a, const Node *param);
Node *kernel_result(Arena *a, const Kernel *k, Node *value);       /* tgm_epilogue(value, n, ...) */
Node *kernel_write_result(Arena *a, const Kernel *k, Node *value); /* thread 0: out[0] = ... */
Node *kernel_write_result_at(Arena *a, const Kernel *k, Node *value, Node *at); /* out[at] */
/* `value = sum_coop<BLOCK>(value);`: the block level's function on value */
Node *kernel_block_call(Arena *a, const BlockImpl *im, Node *value);
/* tgm_values_DT_SS<BLOCK>(x, [y, ...] n, items, block index, block count,
 * thread index, [params]): a thread's value, reduced by the thread level
 * over its part; `threads` share it (BLOCK, or a row's GROUP), `ins` are the
 * inputs as the call passes them (NULL: the kernel's parameters); `first`:
 * DS_SV's form that loads a block's first chunk before anything else
 * (tgm_values_DS_SV_first, the 1-D kernels') */
Node *kernel_values(Arena *a, Kernel *k, GridKind g, ThreadKind t, bool first, const char *threads,
                    Node *const *ins, Node *bidx, Node *gdim, Node *tidx);
/* The template arguments a kernel's name takes, as the manifest's name
 * expression and the launchers write them: "<BLOCK>", "<BLOCK, GROUP>",
 * "<BLOCK, ITEMS>" or "<BLOCK, GROUP, ITEMS>" */
const char *kernel_template_args(const Kernel *k);

/* Grid-level transformations: each finishes plan p's kernel, whose body
 * ends with `value` (a declaration) holding the block's result in thread
 * 0, and may make a second kernel (grid.c calls them). */
void xf_twopass(Arena *a, const Composition *c, Plan *p, Node *value); /* xf_twopass.c */
void xf_gatomic(Arena *a, const Composition *c, Plan *p, Node *value); /* xf_gatomic.c */
/* xf_gatomic.c: thread 0 combines value into out[index] atomically (RA) */
void xf_gatomic_at(Arena *a, const Composition *c, Plan *p, Node *value, Node *index);
void xf_lastblock(Arena *a, const Composition *c, Plan *p, Node *value); /* xf_lastblock.c */
/* the same with the partials, the counter and out's index given (a row's) */
void xf_lastblock_at(Arena *a, const Composition *c, Plan *p, Node *value, Node *partials,
                     Node *counter, Node *out_at);
void xf_oneblock(Arena *a, const Composition *c, Plan *p, Node *value); /* grid.c: B1 */
/* rows.c: a row plan's kernel (RW: GROUP threads a row; RB: a block a row) */
void rows_build(Arena *a, Composition *c, Plan *p);
/* rows.c: whether a row plan's kernel reads packed rows (RW.SS, one input) */
bool rows_packed(const Composition *c, const Plan *p);
/* kernel.c: a column kernel (const T *x, ..., m, n, ld, R *out, A *partials,
 * unsigned *counter, unsigned width, params) */
Kernel *kernel_cols(Arena *a, const Composition *c, const char *name);
/* cols.c: a column plan's kernel, or why it cannot be built */
void cols_build(Arena *a, Composition *c, Plan *p);
const char *atomics_wanting(Arena *a, const Spectrum *s); /* grid.c: DTA, DSA, CA */
const char *cols_wanting(Arena *a, const Composition *c, const Plan *p, LeftOutStage *stage);
/* why a row plan cannot be built, and at which level; NULL: it can */
const char *rows_wanting(Arena *a, const Composition *c, const Plan *p, LeftOutStage *stage);
/* xf_group.c: a transformed block function for groups of GROUP threads, or
 * NULL with why */
Node *xf_group(Arena *a, const Node *block_fn, const char **why);
/* kernel.c: a row kernel (const T *x, ..., m, n, ld, R *out, items, params) */
Kernel *kernel_rows(Arena *a, const Composition *c, const char *name, BlockKind b, bool grouped,
                    bool temp);

/* dump.c: what --dump=plan, lower, block and grid print */
void dump_pass(Buf *out, Arena *a, const char *pass, const Composition *c);

/* ---------------------------------------------------------------- emit.c */

/* A dialect: everything that differs between CUDA and HIP (target.c). */
typedef struct Dialect {
  const char *name;      /* cuda, hip: in manifests, file names, messages */
  const char *title;     /* CUDA, HIP: in prose */
  const char *ext;       /* file extension: cu, hip */
  const char *rtc_name;  /* the runtime compiler a database names: nvrtc, hiprtc */
  const char *chosen_by; /* how tgm-gen --embed is asked for it: "--hip" */
  const char *gpus;      /* whose GPUs run it: "AMD GPUs" */
  /* device code, printf formats of the abstract nodes */
  const char *sync_block;      /* ND_SYNC SYNC_BLOCK */
  const char *sync_warp;       /* ND_SYNC SYNC_WARP: a warp-wide barrier */
  const char *shfl_down;       /* ND_SHFL: value, offset */
  const char *shfl_down_width; /* ND_SHFL within GROUP lanes (ival 1): value, offset, width */
  const char *redux;           /* ND_REDUX: value; NULL: no warp-reduce instruction */
  const char *fence;           /* ND_FENCE: a device-wide memory fence */
  const char *ticket;          /* ND_TICKET: counter, limit; wraps to 0 after limit */
  /* a kernel may be launched to start before the one ahead of it in the
   * stream ends, waiting for it only where it says so (CUDA's programmatic
   * dependent launch, sm_90+): the embedded column call's counters are
   * cleared by a kernel so launched ahead, not by a memset */
  bool early_launch;
  /* __launch_bounds__'s second argument is the blocks an SM (CUDA), so a
   * kernel can ask for Q_MIN_THREADS1024; HIP's counts waves an execution
   * unit, and its kernels are printed without it (not measured there) */
  bool min_blocks_bound;
  /* file.tpl's text: includes, TGM_WARP's definition, device helpers */
  const char *includes, *warp_def, *device_prelude;
  /* the warp widths of its GPUs: the CPU check runs each (the last one
   * counts in its summary), defining warp_flag (printf: the width) */
  int warps[4];
  int nwarps;
  const char *warp_flag;
  /* ND_GPU's built-ins: "tid", "threadIdx.x", ..., NULL */
  const char *const *builtins;
  /* the host API's names: "hole", "name", ..., NULL (dialect_set_holes) */
  const char *const *host;
} Dialect;

const Dialect *dialect_get(DialectKind k);
/* sets the host API's holes (err_t, stream_t, ...) of a template */
struct TplDict;
void dialect_set_holes(struct TplDict *d, const Dialect *dl);
const char *dialect_hole(const Dialect *dl, const char *hole); /* one of them: "rtc" */
void emit_func(Buf *out, Arena *a, const Dialect *d, const Node *fn);
const char *emit_expr(Arena *a, const Dialect *d, const Node *n);
const char *emit_type(Arena *a, const Type *t);
const char *atomic_name(Op op);
const char *redux_name(Op op); /* add, max, ...: __reduce_<name>_sync */

/* ------------------------------------------------------------ template.c */

typedef struct TplDict TplDict;
typedef struct {
  const char *name, *text;
} TplFile;
extern const TplFile tgm_templates[]; /* templates/NAME.tpl, built in; ends with {NULL} */

TplDict *tpl_dict(Arena *a, TplDict *parent);
void tpl_set(TplDict *d, const char *key, const char *value);
void tpl_setf(TplDict *d, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
TplDict *tpl_item(TplDict *d, const char *list); /* a new item of list */
void tpl_list(TplDict *d, const char *list);     /* list exists, maybe empty */
/* Returns 0, or -1 with a message in err. */
int tpl_expand(Buf *out, const char *name, const char *text, TplDict *d, char *err, size_t errlen);
const char *tpl_text(const char *name); /* a built-in template, or NULL */

/* ----------------------------------------------------- gen.c, manifest.c */

const char *gen_base_name(Arena *a, const Composition *c); /* sum_i32 */
const char *plan_summary(Arena *a, const Plan *p);
/* The CUDA or HIP source of a composition (only the plans in `only`, when
 * not NULL; embedded: the start of an embedded header, which embed.tpl and
 * embed_rows.tpl end); 0, or -1 with err (a template bug). */
int gen_source(Buf *out, Arena *a, const Composition *c, const char *source, const PtrVec *only,
               bool embedded, char *err, size_t errlen);
/* NAME_TYPE.cub.cu, the CUB baseline of the spectrum (templates/cub.tpl) */
int gen_cub(Buf *out, Arena *a, const Composition *c, const char *source, char *err, size_t errlen);
const char *gen_grid_enum(const char *rule);                 /* tiles -> TGM_TILES */
const char *gen_meaning(Arena *a, const Composition *c);     /* out[0] = ... in a line */
const char *gen_identity_text(const Composition *c);         /* 0, tgm_lowest(), ... */
const char *gen_kernel_args(Arena *a, const Composition *c); /* const T *in, tgm_size n, ... */
const char *gen_param_decls(Arena *a, const Composition *c); /* ", float threshold" or "" */
const char *
gen_reference_bound(const Composition *c); /* sum, product, exact: tgm_reference_kernel */

/* ---------------------------------------------------------- reduce_api.c */
/* tgm-gen --reduce-api: tgm/reduce_spectra.h, a typed tgm_reduce call per
 * spectrum and type (templates/reduce_api.tpl). */
typedef struct {
  Arena *arena;
  TplDict *dict;
  bool pair_done[ET_COUNT]; /* tgm_arg_TYPE declared */
  PtrVec made;              /* const char *: the calls' names, "NAME_TYPE" */
  PtrVec made_from;         /* const char *: the file each was made from */
} ReduceApi;
void reduce_api_start(ReduceApi *r, Arena *a);
/* Adds tgm_reduce_NAME_TYPE (made from file); NULL, or the file that made
 * it already (one spectrum given twice: its call would be defined twice). */
const char *reduce_api_add(ReduceApi *r, const Composition *c, const char *file);
/* 0, or -1 with err (a template bug); guard: the include guard, from the
 * header's name */
int reduce_api_write(ReduceApi *r, Buf *out, const char *sources, const char *guard, char *err,
                     size_t errlen);

/* --------------------------------------------------------------- check.c */

typedef struct {
  bool strict;     /* a wrong variant is an error, not left out */
  bool keep;       /* keep the check's folder (its path is printed) */
  bool quiet;      /* no summary line */
  const char *cxx; /* the C++17 compiler: $CXX, or c++ */
  int jobs;        /* at once: the processors, or $TGM_CHECK_JOBS */
} CheckOptions;

/* tgm-gen --check: runs every variant of both dialects on the CPU simulator
 * against the spectrum's scalar codelet run sequentially. A wrong variant is
 * removed from its dialect's plans (added to left_out, with a warning), or
 * with strict is an error. 0, or -1 with errors reported (nothing could be
 * checked: no compiler, a harness that does not build). */
int check_compositions(Ctx *ctx, Composition *const by[DIALECT_COUNT], const char *source,
                       const CheckOptions *o);

/* --------------------------------------------------------------- embed.c */

/* The GPU a table of choices was tuned on (NULL device: any GPU). */
typedef struct {
  const char *device;          /* the name, as the CUDA/HIP runtime gives it */
  int cc_major, cc_minor, sms; /* compute capability, SM count */
  const char *label;           /* what tgm_<spectrum>_<type>_table() returns */
  const char *note;            /* for the header's comments (made comment-safe) */
} EmbedTable;

/* A variant chosen for sizes 2^from ... 2^(to+1) - 1, with its knobs, in a
 * table (several tables: one header for several GPUs, and a portable one). */
typedef struct {
  int from, to;
  const Plan *plan;
  unsigned block, items, cap; /* cap: blocks per SM for strided grids, else 0 */
  const EmbedTable *table;
} EmbedChoice;

int embed_choose_variant(Ctx *ctx, const Composition *c, const char *id, EmbedChoice *out);
/* A row or column setting tgm-tune chose for the cell 2^log2m x 2^log2n
 * (m in [2^(log2m-1), 2^(log2m+1)), n likewise: launch_rule.tpl's
 * tgm_shape_cell) on the GPU of its table: RW's per_row threads a row, RL's
 * per_row blocks a row, CT's width and parts (0 where the kind has none). */
typedef struct {
  int log2m, log2n;
  const Plan *plan;
  unsigned block, items, per_row, width, parts;
  const EmbedTable *table;
} EmbedCell;
/* --rows/--cols --embed=DB: every tuned GPU's cells of the database (out:
 * EmbedCell *, grouped by table, in the database's order), checked as
 * embed_choose_db checks buckets. 0, or -1 with errors said. */
int embed_choose_cells(Ctx *ctx, const Composition *c, const char *db_path, const char *source_hash,
                       const char *device, const char *mode, PtrVec *out);
/* Every tuned GPU's table of the database (out: EmbedChoice *, grouped by
 * table, in order of size), and with several GPUs a portable table last.
 * The database is checked as tgm-tune checks it, and every bucket against
 * the manifest (variant, tunables); errors name the file, entry and bucket. */
int embed_choose_db(Ctx *ctx, const Composition *c, const char *db_path, const char *source_hash,
                    const char *device, const char *mode, PtrVec *out);
int gen_embed(Buf *out, Arena *a, const Composition *c, const char *source, const PtrVec *choices,
              const char *how, char *err, size_t errlen);
/* s as a C string literal, every byte as it is (escaped where it must be). */
const char *embed_c_string(Arena *a, const char *s);
/* The entry point's holes shared by gen_embed and gen_embed_rows. */
void embed_fill_signature(TplDict *d, Arena *a, const Composition *c);
/* --rows/--cols --embed (embed_rows.c): the row or column call, its kernel
 * picked at run time by templates/launch_rule.tpl's rule, or with cells
 * (EmbedCell *, from embed_choose_cells; NULL or empty: none) by tgm-tune's
 * choice where the GPU and the shape's cell are tuned (`how` says from
 * where). 0, or -1 with err. */
int gen_embed_rows(Buf *out, Arena *a, const Composition *c, const char *source,
                   const PtrVec *cells, const char *how, char *err, size_t errlen);
/* Wraps the embedded header written into out from `start` in its include
 * guard (embed.c: gen_embed and gen_embed_rows end with it). */
void embed_guard(Buf *out, size_t start, Arena *a, const Composition *c);
/* The kinds the rule's pick names, for rows (c->rows: rw_narrow, rw_wide,
 * rb, rl, as tgm_rows_pick's kind and vec) or columns (ct): role i's name
 * and the variant the embedded header runs for it (NULL: no such role, or
 * no variant left). The manifest lists them ("pick_variants"), so that
 * tgm-tune times the rule's choice with the same kernels. */
const char *pick_role_name(const Composition *c, int i);
const char *pick_role_variant(const Composition *c, int i);
const char *source_hash(Arena *a, const char *text); /* manifest.c */
/* A variant's "tunables" as the manifest lists them (a jansson object). */
struct json_t *manifest_tunables(const Plan *p);
/* The manifest of a spectrum and type: both dialects' variants; texts: the
 * files it names as written (each dialect's, then the CUB baseline or NULL),
 * whose hashes it holds ("sources_hash"). */
void gen_manifest(Buf *out, Arena *a, Composition *const by_dialect[DIALECT_COUNT],
                  const char *source, const char *source_text,
                  const Buf *const texts[DIALECT_COUNT + 1]);
/* --list: one variant per line */
void gen_list(Buf *out, Arena *a, Composition *const by_dialect[DIALECT_COUNT]);

/* ---------------------------------------------------------------- dump.c */

void dump_ast(Buf *out, Arena *a, const Program *prog);
void dump_sema(Buf *out, Arena *a, const Program *prog);
void dump_summary(Buf *out, const Program *prog);

/* -------------------------------------------------------------- output.c */

/* Outputs are gathered in memory and written only when the whole run had no
 * error: each to a temporary file in its directory, then renamed. */
typedef struct {
  Arena *arena;
  Diag *diag;    /* where a collision is reported (NULL: at commit) */
  PtrVec names;  /* char * */
  PtrVec bufs;   /* Buf * */
  PtrVec from;   /* const char *: the input file each output is made from */
  PtrVec inputs; /* char *: the run's input files, which no output may be */
} Outputs;

/* A new output, made from the codelet file read last; two outputs with one
 * name (two inputs defining one spectrum) are an error, and nothing is
 * written. */
Buf *outputs_add(Outputs *o, const char *path);
/* An input file of the run (a codelet file, the database of --embed=DB):
 * an output that is the same file is an error. */
void outputs_input(Outputs *o, const char *path);
/* Before any work: can dir (an -o directory, or an -o file's directory) be
 * written, or made, and file (-o FILE, or NULL) be replaced? An error
 * printed, -1, when not (was found only after the check had run). */
int outputs_usable(Outputs *o, const char *dir, const char *file);
/* Returns 0, or -1 after printing why to stderr (nothing is left behind). */
int outputs_commit(Outputs *o, const char *dir);

/* ---------------------------------------------------------------- text.c */

/* Outside text (a path) made safe inside a comment of generated code:
 * control characters, backslashes, comment delimiters, trigraphs and
 * invalid UTF-8 written as %XX. Never NULL (NULL gives ""). */
const char *text_comment_safe(Arena *a, const char *s);
/* The file name of a path (what follows its last '/'), made safe the same
 * way: how generated code names its codelet file. */
const char *text_file_name(Arena *a, const char *path);
/* Generated spelling turned back into the codelet language's for a message:
 * tgm_arg( -> Arg(, tgm_lowest() -> Lowest(), tgm_highest() -> Highest(). */
const char *text_user_spelling(Arena *a, const char *s);

#endif

/* check.c -- tgm-gen --check: every variant is run on the CPU before it is
 * written.
 *
 *   compositions --gen--> NAME.cu, NAME.hip        (the text -o would write)
 *                --check.tpl--> harnesses           (CUDA warp 32, HIP 64 and 32;
 *                                                    the variants dealt into shards)
 *   system C++ compiler + the simulator (sim/, built into tgm-gen) --> programs
 *   run them --> RESULT lines --> wrong variants dropped (or, --strict, errors)
 *
 * Each harness runs every variant of its shard in a child process against the
 * spectrum's scalar codelet run sequentially (tgm_reference): sizes 0, 1, 31,
 * 33, 4097, 70001, a misaligned start, random data, several block and thread
 * orders, temp storage reused. A variant wrong in a dialect is dropped from
 * that dialect; what cannot be checked at all (no compiler, a harness that
 * does not build) is an error: nothing unchecked is written. */
#define _GNU_SOURCE /* mkdtemp */
#include "tgm.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const TplFile tgm_sim_files[]; /* sim/, built in (embed.cmake) */

/* The settings a composition is checked in: a dialect and a warp width. */
typedef struct {
  DialectKind dialect;
  const Dialect *dl; /* the composition's target */
  int warp;
  const char *tag; /* in file names: cuda32, hip64, hip32 */
} Target;

/* Each dialect at each of its warp widths (target.c): cuda32, hip64, hip32 */
static int make_targets(Arena *a, Composition *const by[DIALECT_COUNT], Target *out, int max) {
  int n = 0;
  for (int d = 0; d < DIALECT_COUNT; d++) {
    const Dialect *dl = by[d]->target;
    for (int w = 0; w < dl->nwarps && n < max; w++)
      out[n++] = (Target){(DialectKind)d, dl, dl->warps[w],
                          arena_printf(a, "%s%d", dl->name, dl->warps[w])};
  }
  return n;
}

/* One program to build and run: a shard of one target's variants. */
typedef struct {
  const Target *target;
  int shard;
  const char *name;   /* h_cuda32_0 */
  PtrVec plans;       /* Plan * */
  const char *output; /* its stdout, read back */
} Harness;

/* The text the check compiles: the file as written, each shared declaration
 * (`__shared__ T x[N];`, alone on its line, as emit.c and the templates
 * print it) followed on its line by `TGM_SIM_FRESH(x);` (sim/tgm_sim.h), so
 * that the sim's shared memory holds junk until a block writes it, as a
 * GPU's does: a kernel reading a slot nobody wrote fails the check rather
 * than reading the zero of a C++ static. -1 where a `__shared__` is in
 * another form (a new one: teach this scan, never check without it). */
static int fresh_shared(Buf *out, const char *text) {
  int seen = 0, marked = 0;
  for (const char *p = strstr(text, "__shared__"); p; p = strstr(p + 1, "__shared__"))
    seen++;
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    const char *at = line;
    while (at < line + len && (*at == ' ' || *at == '\t'))
      at++;
    const char *semi = memchr(line, ';', len);
    if (strncmp(at, "__shared__ ", 11) == 0 && semi && semi == line + len - 1) {
      const char *name_end = at + 11; /* the declarator: before its first [ or the ; */
      while (name_end < semi && *name_end != '[')
        name_end++;
      const char *name = name_end;
      while (name > at + 11 && (name[-1] == '_' || (name[-1] >= '0' && name[-1] <= '9') ||
                                ((name[-1] | 32) >= 'a' && (name[-1] | 32) <= 'z')))
        name--;
      if (name < name_end && name[-1] == ' ' && !memchr(at, ',', (size_t)(semi - at))) {
        buf_printf(out, "%.*s TGM_SIM_FRESH(%.*s);", (int)len, line, (int)(name_end - name), name);
        marked++;
      } else
        buf_printf(out, "%.*s", (int)len, line);
    } else
      buf_printf(out, "%.*s", (int)len, line);
    if (!end)
      break;
    buf_puts(out, "\n");
    line = end + 1;
  }
  return seen == marked ? 0 : -1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int write_file(const char *dir, const char *name, const char *text, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = 0; /* the folders of include/hip/... */
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
      return -1;
    *s = '/';
  }
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t w = fwrite(text, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

static char *read_file(Arena *a, const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  long len = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    if (f)
      fclose(f);
    return arena_strdup(a, "");
  }
  char *s = arena_alloc(a, (size_t)len + 1);
  size_t got = fread(s, 1, (size_t)len, f);
  s[got] = 0;
  fclose(f);
  return s;
}

/* What a signal that stops tgm-gen during the check must clean up: the
 * jobs running (each its own process group: the compiler and what it
 * started, a harness and its variants' processes) and the check's folder
 * (was left in $TMPDIR for ever, the compilers running on as orphans). */
static struct {
  const char *dir; /* the folder, or NULL (kept, or gone) */
  pid_t *pids;     /* run_all's jobs (0: not started or done) */
  int n;
} running_check;

static void rm_tree(const char *dir) {
  const char *argv[] = {"rm", "-rf", dir, NULL};
  pid_t pid = fork();
  if (pid == 0) {
    execvp("rm", (char *const *)argv);
    _exit(127);
  }
  int st;
  if (pid > 0)
    waitpid(pid, &st, 0);
}

/* SIGINT, SIGTERM, SIGHUP during the check: the jobs killed, the folder
 * removed (fork, exec and waitpid are async-signal-safe), then the signal's
 * own end. */
static void check_interrupted(int sig) {
  /* SIGTERM first (the compiler driver removes its own temporaries), up to
     2 s for the jobs to end, then SIGKILL */
  pid_t *p = running_check.pids;
  for (int i = 0; p && i < running_check.n; i++)
    if (p[i] > 0)
      kill(-p[i], SIGTERM);
  for (int tick = 0; p && tick < 200; tick++) {
    int left = 0, st;
    for (int i = 0; i < running_check.n; i++)
      if (p[i] > 0 && waitpid(p[i], &st, WNOHANG) == 0)
        left++;
    if (!left)
      break;
    nanosleep(&(struct timespec){0, 10000000}, NULL);
  }
  for (int i = 0; p && i < running_check.n; i++)
    if (p[i] > 0)
      kill(-p[i], SIGKILL);
  if (running_check.dir)
    rm_tree(running_check.dir);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Runs shell commands in dir, at most `jobs` at once; status[i] is each one's
 * exit status (128 + signal when killed). */
static void run_all(const char *dir, const char *const *cmds, int n, int jobs, int *status) {
  pid_t *pids = calloc((size_t)n, sizeof *pids);
  int next = 0, running = 0;
  running_check.pids = pids, running_check.n = pids ? n : 0;
  while (next < n || running > 0) {
    while (next < n && running < jobs) {
      pid_t pid = fork();
      if (pid == 0) {
        setpgid(0, 0); /* a group of its own: a signal to tgm-gen ends it whole */
        if (chdir(dir) != 0)
          _exit(126);
        execl("/bin/sh", "sh", "-c", cmds[next], (char *)NULL);
        _exit(127);
      }
      if (pid > 0)
        setpgid(pid, pid); /* (either may run first) */
      if (pids)
        pids[next] = pid > 0 ? pid : 0;
      status[next] = pid < 0 ? 126 : -1;
      running += pid > 0;
      next++;
    }
    int st;
    pid_t done = wait(&st);
    if (done < 0)
      break;
    for (int i = 0; i < next; i++)
      if (pids && pids[i] == done) {
        status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        pids[i] = 0;
        running--;
      }
  }
  running_check.pids = NULL, running_check.n = 0;
  free(pids);
}

/* A literal for the k-th scalar parameter's value: 3, 303, 603, ... for
 * integers, 0.25, 0.75, 1.25, ... for floats (a count_if threshold splits
 * random data in [-1000, 1000] or [-1, 1]; two parameters a band, lo < hi,
 * that holds some of it: every parameter 3 left `lo < x && x < hi` empty, so
 * a codelet passing them the other way round went unseen). */
static const char *param_value(Arena *a, const SpecParam *p, ElemType elem, int k) {
  const Type *t = p->ty;
  bool is_float = t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE ||
                        (t->kind == TY_ELEM && elem_info(elem)->is_float));
  return is_float ? arena_printf(a, "(%s)%g", p->ctype, 0.25 + 0.5 * k)
                  : arena_printf(a, "(%s)%d", p->ctype, 3 + 300 * k);
}

/* The blocks (threads) the check runs plan p in. Every block level runs in
 * each size tgm launches (block_sizes): its variants take the sizes in turn,
 * one each, or several each where the level has fewer variants than sizes
 * (--embed --variant: one variant, every size). A block level's function is
 * one for all its variants, so a cooperative codelet right only in blocks of
 * 128 (a warp count written as a number) is found at the cost of one run a
 * variant; where one is wrong in a block of another size, every variant of
 * its level is (check_compositions). RW's group form is a level of its own.
 * Blocks other than the first run one setting of the data and (rows) one
 * group, the widest: what depends on the block is the block level, and the
 * whole check in each block cost the CPU check of the rows two thirds more
 * time (sum f32 --rows: 85 s before, 83 s so, 140 s with every setting). */
static bool same_level(const Plan *p, const Plan *q) {
  return p->b == q->b && (p->g == G_RW) == (q->g == G_RW);
}

static int check_blocks(const Composition *c, const Plan *p, unsigned out[BLOCK_SIZES]) {
  if (c->cols) { /* no block level: the scalar codelet down each column */
    out[0] = block_sizes[0];
    return 1;
  }
  int j = 0, n = 0;
  for (int i = 0; i < c->plans.len; i++) {
    const Plan *q = c->plans.items[i];
    if (!same_level(p, q))
      continue;
    if (q == p)
      j = n;
    n++;
  }
  int k = 0;
  for (int s = 0; s < BLOCK_SIZES; s++)
    if (n >= BLOCK_SIZES ? s == j % BLOCK_SIZES : s % n == j)
      out[k++] = block_sizes[s];
  return k;
}

/* The harness of one shard. */
static int harness_text(Buf *out, Arena *a, const Composition *c, const Harness *h,
                        const char *file, char *err, size_t errlen) {
  const Spectrum *s = c->spec;
  TplDict *d = tpl_dict(a, NULL);
  tpl_setf(d, "harness", "%s.cpp", h->name);
  tpl_set(d, "version", TGM_VERSION);
  tpl_set(d, "file", file);
  tpl_setf(d, "namespace", "tgm_kernels_%s", gen_base_name(a, c));
  tpl_set(d, "dialect", h->target->dl->name);
  tpl_setf(d, "warp", "%d", h->target->warp);
  tpl_setf(d, "full_block", "%u", block_sizes[0]);
  tpl_setf(d, "nin", "%d", s->inputs.len);
  /* an Arg result (argmax, argmin) is compared field by field */
  tpl_set(d, "pair", s->pair ? "1" : "");
  tpl_set(d, "ftoi", s->ftoi ? "1" : "");
  tpl_set(d, "scalar_result", s->pair ? "" : "1");
  tpl_set(d, "pair_extreme", s->op == OP_MAX ? "lowest" : "highest");
  /* a plain fold is also checked on sparse data (check.tpl) */
  tpl_set(d, "sparse", spectrum_is_plain(s) ? "1" : "");
  tpl_set(d, "sparse_zero", s->op == OP_LAND ? "1" : "");
  /* a floating-point element is also checked with NaN elements (check.tpl) */
  tpl_set(d, "float_elem", elem_info(c->elem)->is_float ? "1" : "");
  Buf ins = {0}, pargs = {0};
  for (int i = 0; i < s->inputs.len; i++)
    buf_printf(&ins, c->rows || c->cols ? "%sx[%d]" : "%sdata[s][i][%d].data() + off",
               i ? ", " : "", i);
  tpl_list(d, "params");
  for (int i = 0; i < s->params.len; i++) {
    const SpecParam *p = s->params.items[i];
    TplDict *it = tpl_item(d, "params");
    tpl_set(it, "ctype", p->ctype);
    tpl_set(it, "name", p->name);
    tpl_set(it, "value", param_value(a, p, c->elem, i));
    buf_printf(&pargs, ", %s", p->name);
  }
  tpl_set(d, "ins", arena_strndup(a, ins.data, ins.len));
  tpl_set(d, "param_args", pargs.len ? arena_strndup(a, pargs.data, pargs.len) : "");
  buf_free(&ins);
  buf_free(&pargs);
  tpl_list(d, "variants");
  for (int i = 0; i < h->plans.len; i++) {
    const Plan *p = h->plans.items[i];
    TplDict *it = tpl_item(d, "variants");
    tpl_set(it, "id", p->id);
    tpl_set(it, "cname", p->cname);
    const char *groups = p->g == G_RW           ? "row_groups"
                         : grid_row_parts(p->g) ? "row_parts"
                         : grid_cols(p->g)      ? "col_widths"
                                                : "block_groups";
    /* run_variant in each of its blocks, then report_ok (check.tpl) */
    unsigned blocks[BLOCK_SIZES];
    int nb = check_blocks(c, p, blocks);
    Buf runs = {0};
    for (int k = 0; k < nb; k++)
      if (c->rows || c->cols)
        buf_printf(&runs,
                   "run_variant(\"%s\", %u, [](auto... a) { return ns::launch_%s<%u>(a...); }, "
                   "ns::temp_bytes_%s<%u>, %s, sizeof %s / sizeof *%s, %s) ||\n               ",
                   p->id, blocks[k], p->cname, blocks[k], p->cname, blocks[k], groups, groups,
                   groups, p->kernel->per_items ? "true" : "false");
      else
        buf_printf(&runs,
                   "run_variant(\"%s\", %u, ns::launch_%s<%u>, ns::temp_bytes_%s<%u>, %s) ||\n"
                   "               ",
                   p->id, blocks[k], p->cname, blocks[k], p->cname, blocks[k],
                   p->kernel->per_items ? "true" : "false");
    tpl_set(it, "runs", arena_strndup(a, runs.data, runs.len));
    buf_free(&runs);
  }
  /* rows (--rows): each row against the reference over it */
  tpl_set(d, "cols_bool", c->cols ? "true" : "false");
  /* templates/check_compare.tpl: how a result is compared with the
   * reference (close_enough, print_got), one home for check.tpl and
   * check_rows.tpl, whose hole "compare" holds it (its line ends it) */
  Buf compare = {0};
  if (tpl_expand(&compare, "check_compare.tpl", tpl_text("check_compare.tpl"), d, err, errlen) != 0)
    return -1;
  size_t len = compare.len;
  while (len && compare.data[len - 1] == '\n')
    len--;
  tpl_set(d, "compare", arena_strndup(a, compare.data, len));
  buf_free(&compare);
  /* templates/check_oracle.tpl: the scalar codelet as C++ (oracle.h, the
   * user's file), called with its inputs and parameters in its own order */
  const Codelet *sc = s->scalar;
  Buf call = {0};
  buf_printf(&call, "tgm_oracle::%s(", sc->name);
  for (int i = 0, ki = 0, kp = 0; i < sc->fn->kids.len; i++) {
    const Node *p = sc->fn->kids.items[i];
    if (p->ty->kind == TY_ARRAY)
      buf_printf(&call, "%stgm_oracle::Array<1, T>(x[%d], n)", i ? ", " : "", ki++);
    else
      buf_printf(&call, "%s::%s", i ? ", " : "", ((const SpecParam *)s->params.items[kp++])->name);
  }
  buf_puts(&call, ")");
  tpl_set(d, "oracle_call", arena_strndup(a, call.data, call.len));
  buf_free(&call);
  tpl_set(d, "oracle_value", s->pair ? "T" : "A");
  tpl_set(d, "spectrum", sc->name);
  tpl_set(d, "source_name", text_file_name(a, c->prog->file->path));
  Buf oracle = {0};
  if (tpl_expand(&oracle, "check_oracle.tpl", tpl_text("check_oracle.tpl"), d, err, errlen) != 0)
    return -1;
  tpl_set(d, "oracle", arena_strndup(a, oracle.data, oracle.len));
  buf_free(&oracle);
  const char *tpl = c->rows || c->cols ? "check_rows.tpl" : "check.tpl";
  return tpl_expand(out, tpl, tpl_text(tpl), d, err, errlen);
}

/* The compiler's first lines of complaint, for a message. */
static const char *first_lines(Arena *a, const char *text, int lines) {
  const char *p = text;
  for (int i = 0; i < lines && *p; i++) {
    const char *nl = strchr(p, '\n');
    p = nl ? nl + 1 : p + strlen(p);
  }
  return arena_strndup(a, text, (size_t)(p - text));
}

static Plan *plan_by_id(const Composition *c, const char *id, size_t len) {
  for (int i = 0; i < c->plans.len; i++) {
    Plan *p = c->plans.items[i];
    if (strlen(p->id) == len && strncmp(p->id, id, len) == 0)
      return p;
  }
  return NULL;
}

typedef struct {
  const Plan *plan;
  const Target *target;
  const char *why;
} Failure;

/* Where the wrong variants all run one of the user's block-level codelets
 * (a cooperative or shared-atomic one), that codelet is what is wrong: a
 * note at it, since the warning stands at the scalar codelet (probe12 C1:
 * 88 lines of got/want, and the codelet never named). */
static void note_codelet(Ctx *ctx, Composition *const *by, const PtrVec *fails) {
  const Codelet *cd = NULL;
  const char *levels = "";
  for (int i = 0; i < fails->len; i++) {
    const Failure *f = fails->items[i];
    const Codelet *fc = by[f->target->dialect]->block[f->plan->b].cd;
    if (!fc || (cd && fc != cd))
      return;
    cd = fc;
    const char *code = block_code(f->plan->b);
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) {
      const Failure *g = fails->items[j];
      seen = g->plan->b == f->plan->b;
    }
    if (!seen)
      levels = arena_printf(ctx->arena, "%s%s%s", levels, *levels ? ", " : "", code);
  }
  diag_note(ctx->diag, cd->loc,
            "every wrong variant runs codelet '%s' (block level%s %s): a block's result from it "
            "differs from the scalar codelet's",
            cd->id, strchr(levels, ',') ? "s" : "", levels);
}

/* oracle.h (check_oracle.tpl): the codelet file as the user wrote it, but
 * for the bodies of every codelet no spectrum is read from (compound,
 * cooperative, shared-atomic: they share the scalar one's signature, a
 * redefinition to C++), blanked as front.c blanks them (front_blank_body),
 * after a #line naming the file, so that a compiler's
 * message points at the user's line. */
static char *oracle_text(Arena *a, const Program *prog) {
  const SrcFile *f = prog->file;
  char *t = arena_strndup(a, f->text, f->len);
  for (int i = 0; i < prog->codelets.len; i++) {
    const Codelet *cd = prog->codelets.items[i];
    bool read = false;
    for (int k = 0; k < prog->spectra.len && !read; k++)
      read = ((const Spectrum *)prog->spectra.items[k])->scalar == cd;
    if (!read && cd->body_start < cd->body_end && cd->body_end <= f->len)
      front_blank_body(t, cd->body_start, cd->body_end);
  }
  Buf b = {0};
  buf_puts(&b, "#line 1 \"");
  for (const char *p = f->path; *p; p++)
    buf_printf(&b, *p == '"' || *p == '\\' ? "\\%c" : *p == '\n' ? "?" : "%c", *p);
  buf_printf(&b, "\"\n%s\n", t);
  char *s = arena_strndup(a, b.data, b.len);
  buf_free(&b);
  return s;
}

/* The first shift by a count that is no literal: where a shift by the
 * width or more (REFERENCE UB) is reported. */
static bool find_shift(Node *n, void *ctx) {
  Node **first = ctx;
  if (!*first && (n->kind == ND_BINARY || n->kind == ND_ASSIGN) &&
      (n->op == OP_SHL || n->op == OP_SHR) && n->rhs && n->rhs->kind != ND_INT)
    *first = n; /* x << k, x <<= k */
  return !*first;
}

int check_compositions(Ctx *ctx, Composition *const by[DIALECT_COUNT], const char *source,
                       const CheckOptions *o) {
  Arena *a = ctx->arena;
  const Composition *c0 = by[DIALECT_CUDA];
  Loc loc = c0->spec && c0->spec->scalar ? c0->spec->scalar->loc : (Loc){source, 0, 0};
  const char *base = gen_base_name(a, c0);
  double t0 = now();

  const char *tmp = getenv("TMPDIR");
  char *dir = arena_printf(a, "%s/tgm-check-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    diag_error(ctx->diag, loc, "--check: cannot make a folder in %s: %s", tmp ? tmp : "/tmp",
               strerror(errno));
    return -1;
  }
  running_check.dir = o->keep ? NULL : dir;
  struct sigaction on_stop = {.sa_handler = check_interrupted}, was[3];
  sigemptyset(&on_stop.sa_mask);
  static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 3; i++)
    sigaction(stops[i], &on_stop, &was[i]);
  int rc = -1;
  for (int i = 0; tgm_sim_files[i].name; i++)
    if (write_file(dir, arena_printf(a, "sim/%s", tgm_sim_files[i].name), tgm_sim_files[i].text,
                   strlen(tgm_sim_files[i].text)) != 0) {
      diag_error(ctx->diag, loc, "--check: cannot write into %s: %s", dir, strerror(errno));
      goto out;
    }

  {
    const char *text = oracle_text(a, c0->prog);
    if (write_file(dir, "oracle.h", text, strlen(text)) != 0) {
      diag_error(ctx->diag, loc, "--check: cannot write into %s: %s", dir, strerror(errno));
      goto out;
    }
  }

  /* the sources, exactly as they would be written, with shared memory fresh */
  const char *files[DIALECT_COUNT];
  for (int d = 0; d < DIALECT_COUNT; d++) {
    Buf text = {0}, sim = {0};
    char err[512];
    files[d] = arena_printf(a, "%s.%s", base, by[d]->target->ext);
    int bad = gen_source(&text, a, by[d], source, NULL, false, err, sizeof err);
    if (!bad && fresh_shared(&sim, text.data ? text.data : "") != 0) {
      diag_error(ctx->diag, loc,
                 "internal error: a shared declaration of the generated %s is in a form the "
                 "check cannot give fresh memory; please report it, with the codelet file",
                 files[d]);
      buf_free(&text);
      buf_free(&sim);
      goto out;
    }
    if (!bad)
      bad = write_file(dir, files[d], sim.data ? sim.data : "", sim.len);
    buf_free(&text);
    buf_free(&sim);
    if (bad) {
      diag_error(ctx->diag, loc, "--check: cannot write %s/%s", dir, files[d]);
      goto out;
    }
  }

  /* the harnesses: each target's variants dealt into `jobs` shards */
  PtrVec hs = {0};
  Target *targets = arena_alloc(a, 4 * DIALECT_COUNT * sizeof *targets);
  int ntargets = make_targets(a, by, targets, 4 * DIALECT_COUNT);
  for (int t = 0; t < ntargets; t++) {
    const Composition *c = by[targets[t].dialect];
    int shards = c->plans.len < o->jobs ? c->plans.len : o->jobs;
    for (int k = 0; k < shards; k++) {
      Harness *h = arena_alloc(a, sizeof *h);
      h->target = &targets[t];
      h->shard = k;
      h->name = arena_printf(a, "h_%s_%d", targets[t].tag, k);
      for (int i = k; i < c->plans.len; i += shards)
        vec_push(a, &h->plans, c->plans.items[i]);
      Buf text = {0};
      char err[512];
      int bad = harness_text(&text, a, c, h, files[targets[t].dialect], err, sizeof err);
      if (bad)
        diag_error(ctx->diag, loc, "internal error in the check's template: %s", err);
      else if (write_file(dir, arena_printf(a, "%s.cpp", h->name), text.data, text.len) != 0)
        diag_error(ctx->diag, loc, "--check: cannot write into %s", dir);
      buf_free(&text);
      if (ctx->diag->nerrors)
        goto out;
      vec_push(a, &hs, h);
    }
  }

  /* build: the simulator and every harness at once, then link and run each */
  /* trapping (SIGILL): the oracle's float-to-integer conversions out of
   * range (check_oracle.tpl skips them; tgm's own go through tgm_ftoi and
   * stay in range), a shift by the width or more (check_compare.tpl:
   * the codelet's, reported at it), and an index past a fixed-size array:
   * a __shared array smaller than the block, or read beyond (probe12), which
   * a GPU does not stop (the variant is left out, check_compare.tpl's
   * isolated) */
  const char *kflags = "-std=c++17 -O1 -fwrapv -fno-strict-aliasing -w "
                       "-fsanitize=float-cast-overflow,shift-exponent,bounds "
                       "-fsanitize-undefined-trap-on-error -x c++ "
                       "-include sim/tgm_sim.h -Isim/include -I.";
  const char **cmds = arena_alloc(a, (size_t)(hs.len + 1) * sizeof *cmds);
  int *status = arena_alloc(a, (size_t)(hs.len + 1) * sizeof *status);
  cmds[0] = arena_printf(a, "%s -std=c++17 -O2 -w -c sim/tgm_sim.cpp -o sim.o 2>sim.err", o->cxx);
  for (int i = 0; i < hs.len; i++) {
    const Harness *h = hs.items[i];
    const Dialect *dl = h->target->dl;
    const char *wave = dl->warp_flag
                           ? arena_printf(a, arena_printf(a, " %s", dl->warp_flag), h->target->warp)
                           : "";
    cmds[i + 1] = arena_printf(a, "%s %s%s -c %s.cpp -o %s.o 2>%s.err", o->cxx, kflags, wave,
                               h->name, h->name, h->name);
  }
  run_all(dir, cmds, hs.len + 1, o->jobs, status);
  double t_build = now();
  if (status[0] != 0) {
    if (status[0] == 127)
      diag_error(ctx->diag, loc,
                 "--check runs every variant on the CPU before writing it, and needs a C++17 "
                 "compiler: '%s' is not there (set CXX, install g++, or pass --no-check to write "
                 "unchecked variants)",
                 o->cxx);
    else
      diag_error(ctx->diag, loc, "--check: '%s' cannot build the CPU simulator:\n%s", o->cxx,
                 first_lines(a, read_file(a, dir, "sim.err"), 12));
    goto out;
  }
  for (int i = 0; i < hs.len; i++)
    if (status[i + 1] != 0) {
      const Harness *h = hs.items[i];
      const char *why = read_file(a, dir, arena_printf(a, "%s.err", h->name));
      /* the oracle's part: the user's file (its #line) or tgm_oracle.h first */
      const char *at_user = why ? strstr(why, c0->prog->file->path) : NULL;
      const char *at_oracle = why ? strstr(why, "tgm_oracle.h") : NULL;
      const char *at_generated = why ? strstr(why, files[h->target->dialect]) : NULL;
      const char *first_oracle = !at_user              ? at_oracle
                                 : !at_oracle          ? at_user
                                 : at_user < at_oracle ? at_user
                                                       : at_oracle;
      if (first_oracle && (!at_generated || first_oracle < at_generated))
        diag_error(ctx->diag, loc,
                   "internal error: the scalar codelet does not compile as C++ for the check's "
                   "oracle (the codelet as written, under sim/tgm_oracle.h); please report it, "
                   "with the codelet file:\n%s",
                   first_lines(a, why, 12));
      else
        diag_error(ctx->diag, loc,
                   "internal error: the generated %s does not compile for the CPU check (%s); "
                   "please report it, with the codelet file:\n%s",
                   files[h->target->dialect], h->target->tag, first_lines(a, why ? why : "", 12));
      goto keep;
    }
  for (int i = 0; i < hs.len; i++) {
    const Harness *h = hs.items[i];
    cmds[i] = arena_printf(a, "%s %s.o sim.o -o %s && ./%s >%s.out 2>%s.err", o->cxx, h->name,
                           h->name, h->name, h->name, h->name);
  }
  run_all(dir, cmds, hs.len, o->jobs, status);

  /* results: every variant of every shard must report */
  PtrVec fails = {0};
  int checked[DIALECT_COUNT] = {0};
  for (int i = 0; i < hs.len; i++) {
    const Harness *h = hs.items[i];
    const Composition *c = by[h->target->dialect];
    char *out = read_file(a, dir, arena_printf(a, "%s.out", h->name));
    int reported = 0;
    const char *fpe = NULL;    /* the n at which the scalar codelet divided by zero */
    const char *oracle = NULL; /* where tgm's reference and the codelet as C++ disagree */
    const char *ub = NULL;     /* the n at which it shifted by its width or more */
    for (char *line = out; line && *line;) {
      char *nl = strchr(line, '\n');
      if (nl)
        *nl = 0;
      if (strncmp(line, "REFERENCE\tFPE\t", 14) == 0)
        fpe = line + 14;
      if (strncmp(line, "REFERENCE\tUB\t", 13) == 0)
        ub = line + 13;
      if (strncmp(line, "ORACLE\tFAIL\t", 12) == 0)
        oracle = line + 12;
      if (strncmp(line, "RESULT\t", 7) == 0) {
        char *id = line + 7, *tab = strchr(id, '\t');
        Plan *p = tab ? plan_by_id(c, id, (size_t)(tab - id)) : NULL;
        if (p) {
          reported++;
          if (strncmp(tab + 1, "ok", 2) != 0) {
            Failure *f = arena_alloc(a, sizeof *f);
            f->plan = p;
            f->target = h->target;
            f->why = arena_strdup(a, strncmp(tab + 1, "FAIL\t", 5) == 0 ? tab + 6 : tab + 1);
            vec_push(a, &fails, f);
          }
        }
      }
      line = nl ? nl + 1 : NULL;
    }
    if (fpe) { /* the user's code, not tgm's: at the epilogue where n = 0 has one */
      const Spectrum *sp = c->spec;
      bool empty = strcmp(fpe, "0") == 0, at_epilogue = empty && sp && sp->epilogue;
      diag_error(ctx->diag, at_epilogue ? sp->epilogue->loc : loc,
                 "the scalar codelet divides an integer by zero at n = %s%s: a CPU stops there, "
                 "a GPU gives an undefined value; guard the division%s",
                 fpe, at_epilogue ? " (its return, for an empty input)" : " (the check's data)",
                 at_epilogue ? " (e.g. 'len ? accum / len : 0')" : "");
      goto out;
    }
    if (ub) {
      Node *shift = NULL;
      if (c->spec && c->spec->scalar)
        node_walk(c->spec->scalar->fn->body, find_shift, &shift);
      diag_error(ctx->diag, shift ? shift->loc : loc,
                 "the scalar codelet does what C++ leaves undefined at n = %s (the check's "
                 "data): %s",
                 ub,
                 shift ? "a shift by its type's width or more (or by a negative count), which a "
                         "CPU masks and a GPU does not; bound the count (e.g. 'x << (k & 31)')"
                       : "a float converted to an integer out of its range, which tgm should "
                         "have written as the GPU converts (tgm_ftoi): please report it, with "
                         "the codelet file");
      goto out;
    }
    if (oracle) { /* tgm's translation of the scalar codelet, which every variant shares */
      diag_error(ctx->diag, loc,
                 "internal error: tgm's translation of the scalar codelet '%s' disagrees with the "
                 "codelet compiled as C++ (the check's oracle) at %s ('got' is C++'s result, "
                 "'want' tgm's); nothing is written: please report it, with the codelet file",
                 c->spec->scalar->name, oracle);
      goto keep;
    }
    if (status[i] != 0 || reported != h->plans.len) {
      diag_error(ctx->diag, loc,
                 "internal error: the CPU check of %s (%s) stopped after %d of %d variants "
                 "(exit %d):\n%s",
                 files[h->target->dialect], h->target->tag, reported, h->plans.len, status[i],
                 first_lines(a, read_file(a, dir, arena_printf(a, "%s.err", h->name)), 12));
      goto keep;
    }
    const Dialect *hd = h->target->dl;
    if (h->target->warp == hd->warps[hd->nwarps - 1]) /* each variant once per dialect */
      checked[h->target->dialect] += reported;
  }

  /* a variant wrong in a block of another size than the first's: its block
   * level is, in that size, for every variant of the level (check_blocks) */
  for (int i = 0, n0 = fails.len; i < n0; i++) {
    const Failure *f = fails.items[i];
    const Composition *c = by[f->target->dialect];
    unsigned block = 0, blocks[BLOCK_SIZES];
    if (sscanf(f->why, "block=%u", &block) != 1) /* a crash or a hang: its largest block */
      block = blocks[check_blocks(c, f->plan, blocks) - 1];
    if (block == block_sizes[0])
      continue;
    for (int k = 0; k < c->plans.len; k++) {
      const Plan *q = c->plans.items[k];
      if (!same_level(f->plan, q))
        continue;
      bool listed = false;
      for (int j = 0; j < fails.len && !listed; j++) {
        const Failure *g = fails.items[j];
        listed = g->plan == q && g->target == f->target;
      }
      if (listed)
        continue;
      Failure *g = arena_alloc(a, sizeof *g);
      g->plan = q;
      g->target = f->target;
      g->why = arena_printf(a, "its block level %s%s is wrong in blocks of %u (as %s: %s)",
                            block_code(q->b), q->g == G_RW ? " (a row's group)" : "", block,
                            f->plan->id, f->why);
      vec_push(a, &fails, g);
    }
  }

  /* drop what is wrong (from its dialect), or with --strict refuse it: one
   * message at the scalar codelet, a note per variant */
  int wrong = 0; /* variants, each counted once per dialect */
  for (int i = 0; i < fails.len; i++) {
    const Failure *f = fails.items[i];
    bool again = false;
    for (int j = 0; j < i && !again; j++) {
      const Failure *g = fails.items[j];
      again = g->plan == f->plan && g->target->dialect == f->target->dialect;
    }
    wrong += !again;
  }
  if (fails.len) {
    const Failure *f0 = fails.items[0];
    if (o->strict)
      diag_error(ctx->diag, loc,
                 "%d variant%s of %s %s wrong on the CPU check (--strict: nothing is written); "
                 "the first, %s (%s, warp %d): %s",
                 wrong, wrong == 1 ? "" : "s", base, wrong == 1 ? "is" : "are", f0->plan->id,
                 f0->target->dl->name, f0->target->warp, f0->why);
    else
      diag_warning(ctx->diag, loc,
                   "%d variant%s of %s %s wrong on the CPU check and %s not written; the first, "
                   "%s (%s, warp %d): %s",
                   wrong, wrong == 1 ? "" : "s", base, wrong == 1 ? "is" : "are",
                   wrong == 1 ? "is" : "are", f0->plan->id, f0->target->dl->name, f0->target->warp,
                   f0->why);
  }
  if (fails.len)
    note_codelet(ctx, by, &fails);
  for (int i = 0; i < fails.len; i++) {
    const Failure *f = fails.items[i];
    Composition *c = by[f->target->dialect];
    diag_note(ctx->diag, (Loc){loc.file, 0, 0}, "%s (%s, warp %d): %s", f->plan->id,
              f->target->dl->name, f->target->warp, f->why);
    if (o->strict)
      continue;
    for (int k = 0; k < c->plans.len; k++)
      if (c->plans.items[k] == f->plan) { /* once: it may be wrong at both warp widths */
        memmove(&c->plans.items[k], &c->plans.items[k + 1],
                (size_t)(c->plans.len - k - 1) * sizeof c->plans.items[0]);
        c->plans.len--;
        LeftOut *lo = arena_alloc(a, sizeof *lo);
        lo->id = f->plan->id;
        lo->why = arena_printf(a, "wrong on the CPU check (warp %d): %s", f->target->warp, f->why);
        vec_push(a, &c->left_out, lo);
        break;
      }
  }
  if (!o->quiet) {
    /* 42 CUDA variants (warp 32), 42 HIP (warps 64 and 32) */
    const char *counts = "";
    for (int d = 0; d < DIALECT_COUNT; d++) {
      if (!checked[d] && d) /* --embed --variant: CUDA's only */
        continue;
      const Dialect *dl = by[d]->target;
      const char *warps = "";
      for (int w = 0; w < dl->nwarps; w++)
        warps = arena_printf(a, "%s%s%d", warps,
                             w == 0                ? ""
                             : w == dl->nwarps - 1 ? " and "
                                                   : ", ",
                             dl->warps[w]);
      counts = arena_printf(a, "%s%s%d %s%s (warp%s %s)", counts, d ? ", " : "", checked[d],
                            dl->title,
                            d                 ? ""
                            : checked[d] == 1 ? " variant"
                                              : " variants",
                            dl->nwarps > 1 ? "s" : "", warps);
    }
    fprintf(stderr,
            "tgm-gen: checked %s on the CPU in %.1f s (build %.1f s, run %.1f s, %d jobs): %s, "
            "%d wrong%s\n",
            base, now() - t0, t_build - t0, now() - t_build, o->jobs, counts, wrong,
            wrong ? (o->strict ? " (--strict: nothing written)" : ", left out") : "");
  }
  rc = ctx->diag->nerrors ? -1 : 0;
out:
  if (o->keep)
    fprintf(stderr, "tgm-gen: the check's files are in %s\n", dir);
  else
    rm_tree(dir);
  goto done;
keep:
  fprintf(stderr, "tgm-gen: the check's files are kept in %s\n", dir);
  rc = -1;
done:
  running_check.dir = NULL;
  for (int i = 0; i < 3; i++)
    sigaction(stops[i], &was[i], NULL);
  return rc;
}

/* main.c -- tgm-gen: the whole pipeline, one straight line of calls.
 *
 *   file --front--> AST --sema--> kinds, operator, tunables, the user's names
 *        apart from tgm's (names.c)
 *        --plan--> candidate plans --lower--> device functions
 *        --block--> block transformations --grid--> kernels
 *        --each dialect takes what it prints--> CPU check --> .cu .hip .json .cub.cu
 * Every pass can be printed with --dump=PASS (run_one). The passes after sema
 * share one signature (Pass, tgm.h) and run on each spectrum once, for every
 * dialect (run_passes).
 *
 * Exit status: 0 success, 1 errors in the input, 2 bad usage. Outputs are
 * written only when there was no error at all (output.c). */
#include "tgm.h"

#include <ctype.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

typedef enum {
  DUMP_NONE,
  DUMP_AST,
  DUMP_SEMA,
  DUMP_PLAN,
  DUMP_LOWER,
  DUMP_BLOCK,
  DUMP_GRID,
  DUMP_CODE,
  DUMP_COUNT
} DumpKind;
static const char *const dump_names[DUMP_COUNT] = {"",      "ast",   "sema", "plan",
                                                   "lower", "block", "grid", "code"};

/* The passes after sema, in order, and the --dump that stops after each. */
static const struct {
  Pass run;
  DumpKind dump;
} passes[] = {
    {pass_plan, DUMP_PLAN},
    {pass_lower, DUMP_LOWER},
    {pass_block, DUMP_BLOCK},
    {pass_grid, DUMP_GRID},
};

typedef struct {
  ElemType types[ET_COUNT];
  int ntypes;
  bool types_explicit; /* --type given: a file that fixes another type is an error */
  DumpKind dump;
  bool list;
  const char *outdir;
  bool embed;           /* --embed[=DB] */
  const char *embed_db; /* NULL: --variant */
  const char *variant;
  const char *device, *mode;
  DialectKind dialect; /* of the embedded header */
  bool no_check;       /* --no-check: write variants unchecked */
  bool strict;         /* --strict: a variant wrong on the check is an error */
  bool reduce_api;     /* --reduce-api: the typed tgm_reduce calls, -o FILE */
  bool rows;           /* --rows: the spectrum over each row of a matrix */
  bool cols;           /* --cols: over each column */
  CheckOptions check;
} Options;

static void usage(FILE *fp) {
  fputs("usage: tgm-gen [options] FILE...\n"
        "\n"
        "Parses Tangram codelet files, composes every variant of each spectrum\n"
        "and writes them as CUDA and HIP source with a JSON manifest.\n"
        "\n"
        "options:\n"
        "  --type=T[,T...] element types: i32 (default), u32, i64, f32, f64\n"
        "  --rows          the rows of an m x n matrix (rows ld elements apart), each\n"
        "                  reduced by the spectrum: out[r] for row r; NAME_TYPE_rows.*\n"
        "  --cols          the columns of such a matrix: out[j] for column j;\n"
        "                  NAME_TYPE_cols.*\n"
        "  --list          print every variant, one per line: id, then properties\n"
        "                  (several types or spectra: each list after # NAME_TYPE)\n"
        "  --dump=PASS     print a pass's result and stop: ast, sema, plan (the\n"
        "                  candidate variants), lower (the device functions), block\n"
        "                  (after the block transformations), grid (every kernel),\n"
        "                  code (what each dialect prints: CUDA, then HIP)\n"
        "  -o DIR          write into DIR: NAME_TYPE.cu, NAME_TYPE.hip, NAME_TYPE.json,\n"
        "                  NAME_TYPE.cub.cu (the CUB baseline tgm-tune times)\n"
        "                  (with --dump: the dump, as NAME.TYPE.WHAT)\n"
        "\n"
        "checking (with -o DIR, on by default):\n"
        "  every variant is run on the CPU (the simulator, built with $CXX or c++)\n"
        "  against the scalar codelet run sequentially, before anything is written;\n"
        "  a wrong variant is left out with a warning\n"
        "  --strict        a wrong variant is an error: nothing is written\n"
        "  --no-check      write every variant unchecked\n"
        "\n"
        "embedding (one header with the chosen kernels and a CUB-like call):\n"
        "  --embed=DB      the winners of a tgm-tune database, per size bucket\n"
        "  --embed --variant=ID   one variant (an id from --list), untuned, checked\n"
        "                  on the CPU first (--no-check: not)\n"
        "  --rows --embed, --cols --embed   tgm_NAME_rows_TYPE / tgm_NAME_cols_TYPE: the\n"
        "                  variants checked, the kernel picked per call from the shape\n"
        "                  and the GPU (templates/launch_rule.tpl); --embed=DB: tgm-tune's\n"
        "                  choice first, per tuned GPU and cell of (log2 m, log2 n)\n"
        "  --hip           a HIP header (.hip.h) instead of CUDA (.cuh)\n"
        "  --device=NAME, --mode=both|stream|graph|one   pick among several tunings\n"
        "  -o FILE         the header to write (required with --embed)\n"
        "\n"
        "tgm_reduce's typed calls (one header, no kernels):\n"
        "  --reduce-api -o FILE [TYPES:]FILE...   a tgm_reduce_NAME_TYPE() per spectrum\n"
        "                  and type; TYPES (i32,u32,...) before a file replaces --type for it\n"
        "\n"
        "  -h, --help      show this help\n"
        "  --version       show the version\n"
        "\n"
        "exit status: 0 success, 1 errors in the input, 2 bad usage\n",
        fp);
}

static int bad_usage(const char *fmt, const char *arg) {
  fputs("tgm-gen: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\ntry 'tgm-gen --help'\n", stderr);
  return EXIT_USAGE;
}

/* Parses the command line; returns -1 to go on, or an exit status. */
static int parse_options(int argc, char **argv, Options *opt) {
  enum {
    OPT_TYPE = 256,
    OPT_DUMP,
    OPT_VERSION,
    OPT_LIST,
    OPT_EMBED,
    OPT_VARIANT,
    OPT_HIP,
    OPT_DEVICE,
    OPT_MODE,
    OPT_NO_CHECK,
    OPT_STRICT,
    OPT_REDUCE_API,
    OPT_ROWS,
    OPT_COLS
  };
  // clang-format off
  static const struct option longopts[] = {
      {"type", required_argument, NULL, OPT_TYPE},
      {"list", no_argument, NULL, OPT_LIST},
      {"embed", optional_argument, NULL, OPT_EMBED},
      {"variant", required_argument, NULL, OPT_VARIANT},
      {"hip", no_argument, NULL, OPT_HIP},
      {"device", required_argument, NULL, OPT_DEVICE},
      {"mode", required_argument, NULL, OPT_MODE},
      {"dump", required_argument, NULL, OPT_DUMP},
      {"no-check", no_argument, NULL, OPT_NO_CHECK},
      {"strict", no_argument, NULL, OPT_STRICT},
      {"reduce-api", no_argument, NULL, OPT_REDUCE_API},
      {"rows", no_argument, NULL, OPT_ROWS},
      {"cols", no_argument, NULL, OPT_COLS},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0},
  };
  // clang-format on
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case OPT_TYPE: {
      if (opt->types_explicit) /* the first would be dropped without a word */
        return bad_usage("--type given twice; list the types in one: --type=i32,f32%s", "");
      opt->ntypes = 0;
      opt->types_explicit = true;
      char *list = optarg, *save = NULL;
      size_t len = strlen(list); /* strtok_r passes over empty items: "i32," and ",i32" */
      if (len && (list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,")))
        return bad_usage("--type=%s has an empty item (expected --type=i32,f32)", list);
      for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        ElemType e;
        if (!elem_parse(t, &e))
          return bad_usage("unknown --type '%s' (expected i32, u32, i64, f32 or f64)", t);
        for (int i = 0; i < opt->ntypes; i++)
          if (opt->types[i] == e)
            return bad_usage("--type names '%s' twice", t);
        opt->types[opt->ntypes++] = e;
      }
      if (opt->ntypes == 0)
        return bad_usage("--type needs a type%s", "");
      break;
    }
    case OPT_LIST: opt->list = true; break;
    case OPT_NO_CHECK: opt->no_check = true; break;
    case OPT_STRICT: opt->strict = true; break;
    case OPT_EMBED:
      if (optarg && !*optarg) {
        fprintf(stderr, "tgm-gen: --embed= needs a database (or --embed --variant=ID)\n");
        return EXIT_USAGE;
      }
      opt->embed = true;
      opt->embed_db = optarg;
      break;
    case OPT_VARIANT: opt->variant = optarg; break;
    case OPT_HIP: opt->dialect = DIALECT_HIP; break;
    case OPT_DEVICE: opt->device = optarg; break;
    case OPT_MODE:
      if (strcmp(optarg, "stream") != 0 && strcmp(optarg, "graph") != 0 &&
          strcmp(optarg, "both") != 0 && strcmp(optarg, "one") != 0)
        return bad_usage("unknown --mode '%s' (expected both, stream, graph or one)", optarg);
      opt->mode = optarg;
      break;
    case OPT_DUMP:
      opt->dump = DUMP_NONE;
      for (int k = 1; k < DUMP_COUNT; k++)
        if (strcmp(optarg, dump_names[k]) == 0)
          opt->dump = (DumpKind)k;
      if (opt->dump == DUMP_NONE)
        return bad_usage("unknown --dump '%s' (expected ast, sema, plan, lower, block, grid or "
                         "code)",
                         optarg);
      break;
    case 'o': opt->outdir = optarg; break;
    case OPT_REDUCE_API: opt->reduce_api = true; break;
    case OPT_ROWS: opt->rows = true; break;
    case OPT_COLS: opt->cols = true; break;
    case 'h': usage(stdout); return 0;
    case OPT_VERSION: printf("tgm-gen %s\n", TGM_VERSION); return 0;
    case ':': return bad_usage("option '%s' needs a value", argv[optind - 1]);
    default: return bad_usage("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc)
    return bad_usage("no input file%s", "");
  if (opt->list && opt->dump != DUMP_NONE)
    return bad_usage("--list and --dump%s do not go together", "");
  if (opt->list && opt->outdir)
    return bad_usage("--list prints; it writes no files%s", "");
  if (opt->reduce_api && (!opt->outdir || opt->embed || opt->list || opt->dump != DUMP_NONE ||
                          opt->no_check || opt->strict))
    return bad_usage("--reduce-api writes one header: -o FILE, without --embed, --list, --dump, "
                     "--no-check or --strict%s",
                     "");
  if (opt->rows && opt->cols)
    return bad_usage("--rows and --cols go one at a time: one run writes one shape%s", "");
  if ((opt->rows || opt->cols) && opt->reduce_api)
    return bad_usage("--rows and --cols write the row and column variants with -o DIR (or "
                     "--list, --dump, --embed); tgm_reduce for them does not exist yet%s",
                     "");
  bool shaped = opt->rows || opt->cols;
  if (opt->embed) {
    if (!opt->outdir)
      return bad_usage("--embed needs -o FILE, the header to write%s", "");
    if (shaped && opt->variant)
      return bad_usage("--rows and --cols with --embed pick their kernels at run time from the "
                       "shape and the GPU (and --embed=DB, tgm-tune's choice): no --variant%s",
                       "");
    if (shaped && !opt->embed_db && (opt->device || opt->mode))
      return bad_usage("--device and --mode choose among a database's tunings: --embed=DB%s", "");
    if (!shaped && !opt->embed_db == !opt->variant)
      return bad_usage("--embed takes a database (--embed=DB) or --variant=ID, one of them%s", "");
    if (argc - optind != 1 || opt->ntypes != 1)
      return bad_usage("--embed makes one header: one FILE and one --type%s", "");
    if (opt->list || opt->dump != DUMP_NONE)
      return bad_usage("--embed goes with neither --list nor --dump%s", "");
  } else if (opt->variant || opt->device || opt->mode || opt->dialect != DIALECT_CUDA) {
    return bad_usage("--variant, --device, --mode and --hip go with --embed%s", "");
  }
  if (opt->no_check && opt->strict)
    return bad_usage("--strict asks for the check that --no-check turns off%s", "");
  if ((opt->no_check || opt->strict) && (!opt->outdir || (opt->embed && !shaped && !opt->variant) ||
                                         opt->list || opt->dump != DUMP_NONE))
    return bad_usage("--strict and --no-check go with -o DIR (or --rows/--cols --embed, or "
                     "--embed --variant), when variants are written%s",
                     "");
  return -1;
}

/* The output name for a file's dump: sum.tgm -> sum.i32.sema */
static const char *dump_name(Arena *a, const char *path, ElemType elem, const char *ext) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return arena_printf(a, "%.*s.%s.%s", (int)n, base, elem_info(elem)->name, ext);
}

/* --dump=code: the lowered and transformed device functions, one kernel per
 * grid plan (block V, thread SS: what the grid transformations make), and
 * why variants were left out; CUDA, then HIP. The complete output is what
 * -o writes. */
static void dump_code(Buf *out, Arena *a, Composition *const by[DIALECT_COUNT]) {
  for (int d = 0; d < DIALECT_COUNT; d++) {
    const Composition *c = by[d];
    const Dialect *dl = c->target;
    buf_printf(out, "// ===== %s %s %s\n", c->name, elem_info(c->elem)->name, dl->name);
    if (c->thread_fn)
      emit_func(out, a, dl, c->thread_fn);
    if (c->thread_vec_fn)
      emit_func(out, a, dl, c->thread_vec_fn);
    emit_func(out, a, dl, c->epilogue_fn);
    for (int b = 0; b < B_COUNT; b++) {
      if (c->block[b].fn)
        emit_func(out, a, dl, c->block[b].fn);
      else
        buf_printf(out, "// %s: %s\n", block_code((BlockKind)b), c->block[b].why);
    }
    for (int i = 0; i < c->plans.len; i++) {
      const Plan *p = c->plans.items[i];
      if (p->b != B_V || p->t != T_SS)
        continue;
      buf_printf(out, "// %s: %s\n", p->id, plan_summary(a, p));
      emit_func(out, a, dl, p->kernel->fn);
      if (p->pass2)
        emit_func(out, a, dl, p->pass2->fn);
    }
    buf_printf(out, "// %d variants, %d left out\n", c->plans.len, c->left_out.len);
    for (int i = 0; i < c->left_out.len; i++) { /* one line per distinct reason */
      const LeftOut *lo = c->left_out.items[i];
      bool seen = false;
      for (int j = 0; j < i && !seen; j++)
        seen = strcmp(((const LeftOut *)c->left_out.items[j])->why, lo->why) == 0;
      if (!seen)
        buf_printf(out, "// left out (%s first): %s\n", lo->id, lo->why);
    }
  }
}

/* comp in every dialect (by), each with variants left (else an error);
 * with `check`, run on the CPU first: wrong variants are left out, and
 * what is left must not be empty either. 0, or -1 with errors reported. */
static int dialects_checked(Ctx *ctx, const Options *opt, const char *path, const Composition *comp,
                            bool check, Composition *by[DIALECT_COUNT]) {
  for (int d = 0; d < DIALECT_COUNT; d++)
    by[d] = composition_for(ctx->arena, comp, (DialectKind)d, dialect_get((DialectKind)d));
  compose_check_empty(ctx, by);
  if (ctx->diag->nerrors)
    return -1;
  if (!check)
    return 0;
  /* nothing is written that was not run: wrong variants are left out */
  if (check_compositions(ctx, by, path, &opt->check) != 0)
    return -1;
  compose_check_empty(ctx, by);
  return ctx->diag->nerrors ? -1 : 0;
}

/* --embed --variant=ID: that variant alone, on the CPU check in the
 * header's dialect at every warp width, before it is written (a database's
 * winners were checked by tgm-tune on the GPU). It was written unchecked: a
 * variant the check of -o DIR leaves out went into the header, exit 0. */
static int variant_checked(Ctx *ctx, const Options *opt, const char *path,
                           const Composition *comp) {
  Composition *by[DIALECT_COUNT];
  for (int d = 0; d < DIALECT_COUNT; d++) {
    by[d] = composition_for(ctx->arena, comp, (DialectKind)d, dialect_get((DialectKind)d));
    int kept = 0;
    for (int i = 0; i < by[d]->plans.len; i++) {
      Plan *p = by[d]->plans.items[i];
      if (d == (int)opt->dialect && strcmp(p->id, opt->variant) == 0)
        by[d]->plans.items[kept++] = p;
    }
    by[d]->plans.len = kept;
  }
  if (check_compositions(ctx, by, path, &opt->check) != 0 || ctx->diag->nerrors)
    return -1;
  if (by[opt->dialect]->plans.len == 0) {
    diag_error(ctx->diag, (Loc){path, 0, 0},
               "--variant=%s is wrong on the CPU check (above): nothing written", opt->variant);
    return -1;
  }
  return 0;
}

/* --embed: one header with the chosen variants (from a database or one
 * named variant) and the CUB-like entry point. */
static void run_embed(Ctx *ctx, const Options *opt, const char *path, Program *prog,
                      const PtrVec *comps, Outputs *outs) {
  Arena *arena = ctx->arena;
  Composition *c = comps->len == 1 ? composition_for(arena, comps->items[0], opt->dialect,
                                                     dialect_get(opt->dialect))
                                   : NULL;
  if (!c) {
    diag_error(ctx->diag, (Loc){path, 0, 0}, "--embed needs a file with exactly one spectrum");
    return;
  }
  if (c->rows || c->cols) { /* the variants are checked on the CPU first, as for -o DIR */
    Composition *by[DIALECT_COUNT];
    if (dialects_checked(ctx, opt, path, comps->items[0], !opt->no_check, by) != 0)
      return;
    const char *slash = strrchr(opt->outdir, '/');
    Buf *out = outputs_add(outs, slash ? slash + 1 : opt->outdir);
    PtrVec cells = {0};
    if (opt->embed_db && embed_choose_cells(ctx, by[opt->dialect], opt->embed_db,
                                            source_hash(arena, prog->file->text), opt->device,
                                            opt->mode, &cells) != 0)
      return;
    char err[512];
    if (gen_embed_rows(out, arena, by[opt->dialect], path, &cells,
                       opt->embed_db ? arena_printf(arena, "by tgm-tune (%s)", opt->embed_db) : "",
                       err, sizeof err) != 0)
      diag_error(ctx->diag, (Loc){path, 0, 0}, "%s", err);
    return;
  }
  PtrVec choices = {0};
  const char *how;
  if (opt->variant) {
    EmbedChoice *ch = arena_alloc(arena, sizeof *ch);
    if (embed_choose_variant(ctx, c, opt->variant, ch) != 0)
      return;
    if (!opt->no_check && variant_checked(ctx, opt, path, comps->items[0]) != 0)
      return;
    vec_push(arena, &choices, ch);
    how = arena_printf(arena, "by hand (--variant=%s, untuned knobs)", opt->variant);
  } else {
    if (embed_choose_db(ctx, c, opt->embed_db, source_hash(arena, prog->file->text), opt->device,
                        opt->mode, &choices) != 0)
      return;
    how = arena_printf(arena, "by tgm-tune (%s)", opt->embed_db);
  }
  const char *slash = strrchr(opt->outdir, '/');
  Buf *out = outputs_add(outs, slash ? slash + 1 : opt->outdir);
  char err[512];
  if (gen_embed(out, arena, c, path, &choices, how, err, sizeof err) != 0)
    diag_error(ctx->diag, (Loc){path, 0, 0}, "internal error in a template: %s", err);
}

/* Each spectrum of prog through the passes, once for every dialect. With
 * --dump of a pass, its result goes to out and the passes stop there. */
static void run_passes(Ctx *ctx, Program *prog, bool rows, bool cols, DumpKind dump,
                       Buf *(*dump_out)(void *, const Composition *), void *dump_ctx,
                       PtrVec *comps) {
  composition_new(ctx, prog, rows, cols, comps);
  for (int i = 0; i < comps->len; i++) {
    Composition *c = comps->items[i];
    for (size_t k = 0; k < COUNT_OF(passes); k++) {
      passes[k].run(ctx, c);
      if (dump == passes[k].dump) {
        dump_pass(dump_out(dump_ctx, c), ctx->arena, dump_names[dump], c);
        break;
      }
    }
  }
}

typedef struct {
  Arena *arena;
  const Options *opt;
  Outputs *outs;
  Buf *stdout_buf;
} DumpTo;

/* --dump=PASS of a spectrum: stdout, or NAME_TYPE.PASS in -o DIR */
static Buf *dump_out(void *p, const Composition *c) {
  DumpTo *to = p;
  if (!to->opt->outdir)
    return to->stdout_buf;
  return outputs_add(to->outs, arena_printf(to->arena, "%s.%s", gen_base_name(to->arena, c),
                                            dump_names[to->opt->dump]));
}

/* One file for one type: parse, check, then dump, list, embed or generate. */
static void run_one(Ctx *ctx, const Options *opt, const char *path, ElemType elem, Outputs *outs,
                    Buf *stdout_buf) {
  Arena *arena = ctx->arena;
  Program *prog = front_parse(ctx, path, elem, opt->types_explicit);
  if (!prog || ctx->diag->nerrors)
    return;
  sema_check(ctx, prog);
  if (ctx->diag->nerrors)
    return;

  if (opt->dump == DUMP_AST || opt->dump == DUMP_SEMA) {
    const char *ext = opt->dump == DUMP_AST ? "ast" : "sema";
    Buf *out = opt->outdir ? outputs_add(outs, dump_name(arena, path, prog->elem, ext))
                           : stdout_buf;
    (opt->dump == DUMP_AST ? dump_ast : dump_sema)(out, arena, prog);
    return;
  }
  if (!opt->list && !opt->outdir && opt->dump == DUMP_NONE) {
    dump_summary(stdout_buf, prog);
    return;
  }

  PtrVec comps = {0};
  DumpTo to = {arena, opt, outs, stdout_buf};
  run_passes(ctx, prog, opt->rows, opt->cols, opt->dump, dump_out, &to, &comps);
  if (opt->dump != DUMP_NONE && opt->dump != DUMP_CODE)
    return;
  if (opt->embed) {
    run_embed(ctx, opt, path, prog, &comps, outs);
    return;
  }

  for (int i = 0; i < comps.len; i++) {
    Composition *by[DIALECT_COUNT];
    if (dialects_checked(ctx, opt, path, comps.items[i],
                         opt->outdir && !opt->list && opt->dump == DUMP_NONE && !opt->no_check,
                         by) != 0)
      return;
    const char *base = gen_base_name(arena, by[DIALECT_CUDA]);
    if (opt->list) {
      if (comps.len > 1 || opt->ntypes > 1) /* which spectrum and type the lines are */
        buf_printf(stdout_buf, "# %s\n", base);
      gen_list(stdout_buf, arena, by);
      continue;
    }
    if (opt->dump == DUMP_CODE) {
      Buf *out = opt->outdir ? outputs_add(outs, arena_printf(arena, "%s.code", base)) : stdout_buf;
      dump_code(out, arena, by);
      continue;
    }
    const Buf *texts[DIALECT_COUNT + 1] = {0}; /* each dialect's source, then the CUB baseline */
    for (int d = 0; d < DIALECT_COUNT; d++) {
      char err[512];
      Buf *out = outputs_add(outs, arena_printf(arena, "%s.%s", base, by[d]->target->ext));
      if (gen_source(out, arena, by[d], path, NULL, false, err, sizeof err) != 0)
        diag_error(ctx->diag, (Loc){path, 0, 0}, "internal error in a template: %s", err);
      texts[d] = out;
    }
    char err[512];
    if (!by[DIALECT_CUDA]->rows && !by[DIALECT_CUDA]->cols) {
      Buf *cub = outputs_add(outs, arena_printf(arena, "%s.cub.cu", base));
      if (gen_cub(cub, arena, by[DIALECT_CUDA], path, err, sizeof err) != 0)
        diag_error(ctx->diag, (Loc){path, 0, 0}, "internal error in a template: %s", err);
      texts[DIALECT_COUNT] = cub;
    }
    gen_manifest(outputs_add(outs, arena_printf(arena, "%s.json", base)), arena, by, path,
                 prog->file->text, texts);
  }
}

/* --reduce-api: every spectrum of every file, for each of its types
 * ("i32,u32:codelets/bit_and.tgm" names them, else --type), into -o FILE. */
static void run_reduce_api(Ctx *ctx, const Options *opt, int nfiles, char **files, Outputs *outs) {
  Arena *arena = ctx->arena;
  ReduceApi api;
  reduce_api_start(&api, arena);
  Buf names = {0};
  for (int i = 0; i < nfiles; i++) {
    const char *path = files[i];
    ElemType types[ET_COUNT];
    int ntypes = 0;
    const char *colon = strchr(path, ':');
    if (colon) { /* TYPES:FILE */
      const char *p = path;
      while (p < colon) {
        const char *end = memchr(p, ',', (size_t)(colon - p));
        if (!end)
          end = colon;
        ElemType e;
        bool again = false;
        if (!elem_parse(arena_strndup(arena, p, (size_t)(end - p)), &e)) {
          ntypes = -1;
          break;
        }
        for (int k = 0; k < ntypes; k++)
          again |= types[k] == e;
        if (!again) /* a type named twice makes its calls once */
          types[ntypes++] = e;
        p = end < colon ? end + 1 : colon;
      }
      if (ntypes <= 0) {
        diag_error(ctx->diag, (Loc){path, 0, 0},
                   "'%.*s' is not a list of types (i32, u32, i64, f32, f64) "
                   "before the file",
                   (int)(colon - path), path);
        continue;
      }
      path = colon + 1;
    } else {
      memcpy(types, opt->types, sizeof types);
      ntypes = opt->ntypes;
    }
    const char *base = strrchr(path, '/');
    buf_printf(&names, "%s%s", i ? ", " : "", base ? base + 1 : path);
    for (int t = 0; t < ntypes; t++) {
      Program *prog = front_parse(ctx, path, types[t], true);
      if (!prog || ctx->diag->nerrors)
        break;
      sema_check(ctx, prog);
      if (ctx->diag->nerrors)
        break;
      PtrVec comps = {0};
      run_passes(ctx, prog, false, false, DUMP_NONE, NULL, NULL, &comps);
      for (int k = 0; k < comps.len; k++) {
        const Composition *c = composition_for(arena, comps.items[k], DIALECT_CUDA,
                                               dialect_get(DIALECT_CUDA));
        const char *first = reduce_api_add(&api, c, path);
        if (first)
          diag_error(ctx->diag, c->spec->scalar ? c->spec->scalar->loc : (Loc){path, 0, 0},
                     "tgm_reduce_%s_%s is made twice, from %s and %s: a file given twice, or "
                     "two files with one spectrum",
                     c->spec->name, elem_info(c->elem)->name, first, path);
      }
    }
  }
  const char *slash = strrchr(opt->outdir, '/');
  const char *file = slash ? slash + 1 : opt->outdir;
  Buf *out = outputs_add(outs, file);
  /* the include guard from the header's name (reduce_spectra.h:
     TGM_API_REDUCE_SPECTRA_H): two such headers in one program, both seen,
     and none named as the library's own (-o reduce.h: TGM_REDUCE_H was
     <tgm/reduce.h>'s guard) */
  char *guard = arena_printf(arena, "TGM_API_%s", file);
  for (char *g = guard; *g; g++)
    *g = isalnum((unsigned char)*g) ? (char)toupper((unsigned char)*g) : '_';
  char err[512];
  if (!ctx->diag->nerrors &&
      reduce_api_write(&api, out, names.data ? names.data : "", guard, err, sizeof err) != 0)
    diag_error(ctx->diag, (Loc){opt->outdir, 0, 0}, "internal error in a template: %s", err);
  buf_free(&names);
}

int main(int argc, char **argv) {
  Options opt = {.types = {ET_I32}, .ntypes = 1};
  int rc = parse_options(argc, argv, &opt);
  if (rc >= 0)
    return rc;
  const char *cxx = getenv("CXX"), *jobs = getenv("TGM_CHECK_JOBS");
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  opt.check = (CheckOptions){
      .strict = opt.strict,
      .keep = getenv("TGM_CHECK_KEEP") && *getenv("TGM_CHECK_KEEP"),
      .cxx = cxx && *cxx ? cxx : "c++",
      .jobs = jobs && atoi(jobs) > 0 ? atoi(jobs)
              : ncpu > 0             ? (int)ncpu
                                     : 2,
  };

  Arena *arena = arena_new();
  Diag diag;
  diag_init(&diag, arena, stderr);
  Ctx ctx = {arena, &diag};
  Outputs outs = {.arena = arena, .diag = &diag};
  Buf stdout_buf = {0};

  /* where the outputs go: -o DIR, or -o FILE's directory (--embed, --reduce-api) */
  const char *out_dir = NULL;
  if (opt.outdir && (opt.embed || opt.reduce_api)) {
    const char *slash = strrchr(opt.outdir, '/');
    out_dir = slash ? arena_strndup(arena, opt.outdir, (size_t)(slash - opt.outdir)) : ".";
    out_dir = out_dir[0] ? out_dir : "/";
  } else if (opt.outdir) {
    out_dir = opt.outdir;
  }
  /* before the work: an -o tgm cannot write fails now, not after the check;
     no output may replace an input */
  for (int i = optind; i < argc; i++) {
    outputs_input(&outs, argv[i]);
    const char *colon = opt.reduce_api ? strchr(argv[i], ':') : NULL; /* TYPES:FILE */
    if (colon)
      outputs_input(&outs, colon + 1);
  }
  if (opt.embed_db)
    outputs_input(&outs, opt.embed_db);
  if (out_dir &&
      outputs_usable(&outs, out_dir, opt.embed || opt.reduce_api ? opt.outdir : NULL) != 0) {
    arena_free(arena);
    return EXIT_INPUT;
  }
  if (opt.reduce_api)
    run_reduce_api(&ctx, &opt, argc - optind, argv + optind, &outs);
  else
    for (int i = optind; i < argc; i++)
      for (int t = 0; t < opt.ntypes; t++)
        run_one(&ctx, &opt, argv[i], opt.types[t], &outs, &stdout_buf);

  rc = 0;
  if (diag.nerrors) {
    fprintf(stderr, "tgm-gen: %d error%s; nothing written\n", diag.nerrors,
            diag.nerrors == 1 ? "" : "s");
    rc = EXIT_INPUT;
  } else if (out_dir) {
    rc = outputs_commit(&outs, out_dir) == 0 ? 0 : EXIT_INPUT;
  } else if (stdout_buf.len) {
    fwrite(stdout_buf.data, 1, stdout_buf.len, stdout);
  }
  for (int i = 0; i < outs.bufs.len; i++)
    buf_free(outs.bufs.items[i]);
  buf_free(&stdout_buf);
  arena_free(arena);
  return rc;
}

/* main.c -- tgm-gen: the whole pipeline, one straight line of calls.
 *
 *   file --front--> AST --sema--> kinds, operator, tunables --dump/emit--> outputs
 *
 * Exit status: 0 success, 1 errors in the input, 2 bad usage. Outputs are
 * written only when there was no error at all (output.c). */
#include "tgm.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

typedef enum { DUMP_NONE, DUMP_AST, DUMP_SEMA } DumpKind;

typedef struct {
  ElemType elem;
  DumpKind dump;
  const char *outdir;
} Options;

static void usage(FILE *fp) {
  fputs("usage: tgm-gen [options] FILE...\n"
        "\n"
        "Parses Tangram codelet files and reports what it found.\n"
        "\n"
        "options:\n"
        "  --type=T        element type: i32 (default), u32, i64, f32, f64\n"
        "  --dump=WHAT     print a pass's result: ast, sema\n"
        "  -o DIR          write outputs into DIR instead of standard output\n"
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
  enum { OPT_TYPE = 256, OPT_DUMP, OPT_VERSION };
  static const struct option longopts[] = {
      {"type", required_argument, NULL, OPT_TYPE},
      {"dump", required_argument, NULL, OPT_DUMP},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0},
  };
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case OPT_TYPE:
      if (!elem_parse(optarg, &opt->elem))
        return bad_usage("unknown --type '%s' (expected i32, u32, i64, f32 or f64)", optarg);
      break;
    case OPT_DUMP:
      if (strcmp(optarg, "ast") == 0)
        opt->dump = DUMP_AST;
      else if (strcmp(optarg, "sema") == 0)
        opt->dump = DUMP_SEMA;
      else
        return bad_usage("unknown --dump '%s' (expected ast or sema)", optarg);
      break;
    case 'o':
      opt->outdir = optarg;
      break;
    case 'h':
      usage(stdout);
      return 0;
    case OPT_VERSION:
      printf("tgm-gen %s\n", TGM_VERSION);
      return 0;
    case ':':
      return bad_usage("option '%s' needs a value", argv[optind - 1]);
    default:
      return bad_usage("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc)
    return bad_usage("no input file%s", "");
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

int main(int argc, char **argv) {
  Options opt = {.elem = ET_I32};
  int rc = parse_options(argc, argv, &opt);
  if (rc >= 0)
    return rc;

  Arena *arena = arena_new();
  Diag diag;
  diag_init(&diag, arena, stderr);
  Ctx ctx = {arena, &diag};
  Outputs outs = {.arena = arena};
  Buf stdout_buf = {0};

  for (int i = optind; i < argc; i++) {
    const char *path = argv[i];
    Program *prog = front_parse(&ctx, path, opt.elem);
    if (!prog || diag.nerrors)
      continue;
    sema_check(&ctx, prog);
    if (diag.nerrors)
      continue;

    const char *ext = opt.dump == DUMP_AST ? "ast" : opt.dump == DUMP_SEMA ? "sema" : "summary";
    Buf *out = opt.outdir ? outputs_add(&outs, dump_name(arena, path, opt.elem, ext)) : &stdout_buf;
    if (opt.dump == DUMP_AST)
      dump_ast(out, arena, prog);
    else if (opt.dump == DUMP_SEMA)
      dump_sema(out, arena, prog);
    else
      dump_summary(out, prog);
  }

  rc = 0;
  if (diag.nerrors) {
    fprintf(stderr, "tgm-gen: %d error%s; nothing written\n", diag.nerrors,
            diag.nerrors == 1 ? "" : "s");
    rc = EXIT_INPUT;
  } else if (opt.outdir) {
    rc = outputs_commit(&outs, opt.outdir) == 0 ? 0 : EXIT_INPUT;
  } else if (stdout_buf.len) {
    fwrite(stdout_buf.data, 1, stdout_buf.len, stdout);
  }
  for (int i = 0; i < outs.bufs.len; i++)
    buf_free(outs.bufs.items[i]);
  buf_free(&stdout_buf);
  arena_free(arena);
  return rc;
}

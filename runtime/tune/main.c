// main.c — tgm-tune: compile every variant of a manifest with NVRTC, verify
// every knob setting against a host reference, time the correct ones beside
// CUB, and store the winner per power-of-two size in the tuning database.
//
// The pipeline, straight through run(), one step per file (tuner.h):
//   read manifest (manifest.c) -> open database (db.c) -> open device ->
//   start the CUB baseline's build (cub.c) -> compile (compile.c, parallel,
//   cached) -> verify against the reference (verify.c) -> for each size:
//   screen, refine knobs, finals, choose with the runner-up's margin
//   (select.c, timing.c, launch.c), time CUB, write the database -> report
//   (report.c).
//
// Exit status: 0 success; 1 a failure while tuning (or, with --verify-only,
// a variant that computed a wrong result); 2 bad usage or manifest; 3 no CUDA
// driver, device or NVRTC (one line on stderr); 4 the database is corrupt,
// foreign or cannot be written.
#include "tuner.h"
#include "../cub/tgm_cub.h"
#include <dlfcn.h>
#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// ------------------------------------------------------------------ options
static int cub_fallback_path(char *path, size_t len);

static void usage(FILE *f) {
  fprintf(f,
          "usage: tgm-tune MANIFEST [options]\n"
          "  --type T          element type (must match the manifest; default: the manifest's)\n"
          "  --op OP           the spectrum's operator: sum, max, min, *, &, ... (must match)\n"
          "  --param NAME=V    the value of a scalar parameter of the spectrum (each one)\n"
          "  --sizes A..B      power-of-two range, e.g. 2^10..2^30 (default); rows and columns:\n"
          "                    of m n, the cells 2^a x 2^b (a, b odd) inside (default 2^10..2^26)\n"
          "  --shapes L        rows and columns: tune the cells of these shapes, MxN,MxN,...\n"
          "  --budget SECONDS  wall-time target of the whole tune (default 60)\n"
          "  --deterministic   only variants deterministic for floating point\n"
          "  --mode MODE       both (default): each finalist timed in stream and in graph mode,\n"
          "                    the best worst-case ratio against CUB across the two chosen |\n"
          "                    stream: back-to-back launches | graph: launches in a CUDA graph |\n"
          "                    one: one call after the L2 flush, whose run hides its launch "
          "latency\n"
          "                    (rows and columns: one, stream or graph; both means one)\n"
          "  --db PATH         tuning database (default tgm-tune.db.json)\n"
          "  --report DIR      write report-*.md, plot-*.svg and timings-*.csv (every timing) into "
          "DIR\n"
          "  --hot             keep the L2 warm (default: flushed before every sample)\n"
          "  --noise F         run-to-run noise as a fraction, at every size (default, as\n"
          "                    measured on an H100: graph 0.035, the other modes 0.06, and\n"
          "                    0.02 from 2^25 elements): a winner is better only by more;\n"
          "                    within it the rule chooses (deterministic, fewer\n"
          "                    launches, no memset, the neighbour's choice, the faster\n"
          "                    median)\n"
          "  --cache DIR       compile cache (default $TGM_CACHE_DIR or ~/.cache/tgm; '' none)\n"
          "  --verify-only     verify, print the excluded settings, time nothing\n"
          "  --prepare         compile the variants and build the CUB baseline into the\n"
          "                    cache, nothing else (several at once: a later tune compiles "
          "nothing)\n"
          "  --verify-sizes L  comma-separated sizes for verification\n"
          "  --default-knobs   verify only each variant's default knobs\n"
          "  --backend B       cuda (default: NVRTC + driver API) | hip (hiprtc + HIP, no CUB "
          "column)\n"
          "  --quiet           no progress\n"
          "  --help, --version; every option also as --option=VALUE\n"
          "exit status: 0 ok, 1 tuning failed, 2 usage, 3 no GPU driver/device/run-time compiler,\n"
          "4 database\n");
}

// A power of two from s up to stop exactly ("2^10", "1024"): its log2 into
// *out. Text before stop that is no part of it is an error (2^10.x..2^20,
// 2^10..2^20..2^30 were taken as far as they read).
static int parse_pow(const char *s, const char *stop, int *out) {
  char *end;
  if (!strncmp(s, "2^", 2)) {
    long v = isdigit((unsigned char)s[2]) ? strtol(s + 2, &end, 10) : -1;
    if (v < 0 || end != stop || v > 40)
      return -1;
    *out = (int)v;
    return 0;
  }
  unsigned long long v = isdigit((unsigned char)*s) ? strtoull(s, &end, 10) : 0;
  if (v == 0 || end != stop || (v & (v - 1)))
    return -1;
  int l = 0;
  while ((1ull << l) < v)
    l++;
  *out = l;
  return 0;
}

static int parse_args(int argc, char **argv, options *o) {
  // clang-format off
  static const struct option longs[] = {
      {"type", required_argument, 0, 't'},      {"op", required_argument, 0, 'o'},
      {"sizes", required_argument, 0, 's'},     {"budget", required_argument, 0, 'b'},
      {"deterministic", no_argument, 0, 'd'},   {"mode", required_argument, 0, 'm'},
      {"db", required_argument, 0, 'D'},        {"report", required_argument, 0, 'r'},
      {"hot", no_argument, 0, 'H'},             {"cache", required_argument, 0, 'c'},
      {"verify-only", no_argument, 0, 'V'},     {"verify-sizes", required_argument, 0, 'S'},
      {"default-knobs", no_argument, 0, 'K'},   {"quiet", no_argument, 0, 'q'},
      {"backend", required_argument, 0, 'B'},   {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, 'v'},
      {"param", required_argument, 0, 'P'},     {"prepare", no_argument, 0, 'p'},
      {"noise", required_argument, 0, 'N'},     {"shapes", required_argument, 0, 'X'},
      {0, 0, 0, 0}};
  // clang-format on
  o->lo = 10, o->hi = 30, o->budget = 60, o->mode = "both", o->db = "tgm-tune.db.json";
  o->noise = -1; // the mode's measured noise, below
  int ch;
  while ((ch = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    switch (ch) {
    case 't': o->type = optarg; break;
    case 'o': o->op = optarg; break;
    case 's': {
      o->sizes_given = 1;
      const char *dots = strstr(optarg, "..");
      if (!dots || parse_pow(optarg, dots, &o->lo) ||
          parse_pow(dots + 2, dots + 2 + strlen(dots + 2), &o->hi) || o->lo > o->hi) {
        fprintf(stderr, "tgm-tune: --sizes wants A..B with powers of two, e.g. 2^10..2^30\n");
        return EXIT_USAGE;
      }
      break;
    }
    case 'b': {
      char *end; // atof took "nan", "inf" and "5s"
      errno = 0;
      o->budget = strtod(optarg, &end);
      if (end == optarg || *end || errno || !(o->budget > 0 && o->budget <= 1e6)) {
        fprintf(stderr, "tgm-tune: --budget %s: a positive number of seconds, at most 1e6\n",
                optarg);
        return EXIT_USAGE;
      }
      break;
    }
    case 'd': o->deterministic = 1; break;
    case 'm':
      if (strcmp(optarg, "stream") && strcmp(optarg, "graph") && strcmp(optarg, "both") &&
          strcmp(optarg, "one")) {
        fprintf(stderr, "tgm-tune: --mode is both, stream, graph or one\n");
        return EXIT_USAGE;
      }
      o->mode = optarg;
      break;
    case 'D': o->db = optarg; break;
    case 'r': o->report = optarg; break;
    case 'H': o->hot = 1; break;
    case 'c': {
      o->cache = optarg;
      struct stat st; // a cache that cannot be one is said, not silently none
      if (*optarg && stat(optarg, &st) == 0 && !S_ISDIR(st.st_mode))
        fprintf(stderr,
                "tgm-tune: warning: --cache %s is not a folder: compiling without a cache\n",
                optarg);
      break;
    }
    case 'V': o->verify_only = 1; break;
    case 'p': o->prepare = o->verify_only = 1; break;
    case 'N': {
      char *end;
      errno = 0;
      o->noise = strtod(optarg, &end);
      o->noise_given = 1;
      if (end == optarg || *end || errno || !(o->noise >= 0 && o->noise < 1)) {
        fprintf(stderr, "tgm-tune: --noise %s: a fraction in [0, 1), e.g. 0.03\n", optarg);
        return EXIT_USAGE;
      }
      break;
    }
    case 'S': {
      char *p = optarg;
      o->n_verify_sizes = 0;
      while (*p) {
        char *end;
        if (o->n_verify_sizes == MAX_VERIFY_SIZES) {
          fprintf(stderr, "tgm-tune: --verify-sizes takes at most %d sizes\n", MAX_VERIFY_SIZES);
          return EXIT_USAGE;
        }
        errno = 0; // strtoull takes "-1" for 2^64 - 1, and leading blanks
        unsigned long long v = isdigit((unsigned char)*p) ? strtoull(p, &end, 0) : 0;
        if (!isdigit((unsigned char)*p) || (*end && *end != ',') || errno || v > (1ull << 40)) {
          fprintf(stderr,
                  "tgm-tune: --verify-sizes wants numbers from 0 to 2^40 separated by "
                  "commas, not '%s'\n",
                  p);
          return EXIT_USAGE;
        }
        o->verify_sizes[o->n_verify_sizes++] = v;
        p = *end ? end + 1 : end;
      }
      break;
    }
    case 'K': o->all_knobs_default = 1; break;
    case 'X': {
      const char *p = optarg;
      o->n_shapes = 0;
      while (*p) {
        char *end;
        unsigned long long m, n;
        errno = 0;
        m = strtoull(p, &end, 10);
        int ok = end != p && *end == 'x' && isdigit((unsigned char)end[1]);
        if (ok) {
          p = end + 1;
          n = strtoull(p, &end, 10);
          ok = end != p && (!*end || *end == ',') && !errno && m >= 1 && n >= 1 &&
               m <= (1ull << 32) && n <= (1ull << 32) / m; // m n <= 2^32, no overflow
        }
        if (!ok || o->n_shapes == (int)(sizeof o->shapes / sizeof o->shapes[0])) {
          fprintf(stderr,
                  "tgm-tune: --shapes wants MxN,MxN,... (m, n >= 1, m n <= 2^32, at "
                  "most %zu shapes)\n",
                  sizeof o->shapes / sizeof o->shapes[0]);
          return EXIT_USAGE;
        }
        o->shapes[o->n_shapes][0] = m, o->shapes[o->n_shapes++][1] = n;
        p = *end ? end + 1 : end;
      }
      break;
    }
    case 'P':
      if (o->n_params == TUNE_MAX_PARAMS || !strchr(optarg, '=')) {
        fprintf(stderr, "tgm-tune: --param wants NAME=VALUE (at most %d)\n", TUNE_MAX_PARAMS);
        return EXIT_USAGE;
      }
      o->params[o->n_params++] = optarg;
      break;
    case 'q': o->quiet = 1; break;
    case 'B':
      if (strcmp(optarg, "cuda") && strcmp(optarg, "hip")) {
        fprintf(stderr, "tgm-tune: --backend is cuda or hip\n");
        return EXIT_USAGE;
      }
      o->hip = !strcmp(optarg, "hip");
      break;
    case 'h': usage(stdout); exit(0);
    case 'v': {
      char cub[4200];
      printf("tgm-tune %s\n", TGM_VERSION);
      if (cub_fallback_path(cub, sizeof cub))
        printf("CUB fallback (plain sum, max, min without nvcc): %s\n", cub);
      else
        printf(
            "CUB fallback: none (no libtgm_cub.so beside tgm-tune or in ../lib; $TGM_CUB_LIB)\n");
      exit(0);
    }
    default: usage(stderr); return EXIT_USAGE;
    }
  }
  if (optind != argc - 1) {
    usage(stderr);
    return EXIT_USAGE;
  }
  o->manifest = argv[optind];
  // run-to-run noise on the H100 (bench/results/2026-11-24-stability): in
  // stream mode the 95th percentile of one setting's time between two tunes
  // (6.1%); in graph mode the largest margin that still flipped between two
  // tunes with a 2% floor (3.4%); in both modes the larger, since a worst
  // case across the two carries the noise of either
  if (o->noise < 0)
    o->noise = !strcmp(o->mode, "graph") ? 0.035 : 0.06;
  size_t len = 1;
  for (int i = 0; i < argc; i++)
    len += strlen(argv[i]) + 1;
  o->command = malloc(len);
  if (!o->command)
    return EXIT_TUNE;
  o->command[0] = 0;
  for (int i = 0, at = 0; i < argc; i++)
    at += sprintf(o->command + at, "%s%s", i ? " " : "", argv[i]);
  return 0;
}

// The CUB fallback for a plain sum, max or min (when nvcc cannot build the
// spectrum's own baseline): $TGM_CUB_LIB, else libtgm_cub.so beside
// tgm-tune (the build tree), else where the install puts it
// (TGM_CUB_INSTALLED, relative to tgm-tune's folder: ../lib/libtgm_cub.so).
// Fills path with the first that exists; 0 when none does.
#ifndef TGM_CUB_INSTALLED
#define TGM_CUB_INSTALLED "../lib/libtgm_cub.so"
#endif
static int cub_fallback_path(char *path, size_t len) {
  const char *env = getenv("TGM_CUB_LIB");
  if (env) {
    snprintf(path, len, "%s", env);
    return access(path, R_OK) == 0;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return 0;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return 0;
  slash[1] = 0;
  const char *where[] = {"libtgm_cub.so", TGM_CUB_INSTALLED};
  for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
    if ((size_t)snprintf(path, len, "%s%s", exe, where[i]) < len && access(path, R_OK) == 0)
      return 1;
  }
  return 0;
}

static void *load_cub(void) {
  char path[4200];
  return cub_fallback_path(path, sizeof path) ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
}

// ------------------------------------------------------------------- main
// Everything the run allocated, on every way out (so a leak checker finds
// nothing lost: valgrind --error-exitcode is usable on tgm-tune).
static void ctx_free(ctx *c) {
  tune_cub_free(c->cub_build);
  free(c->cub_note_buf);
  free(c->timings);
  if (c->b) {
    for (int i = 0; i < c->n_mods; i++)
      tgm_module_unload(c->mods[i]);
    tgm_module_unload(c->flush_mod);
    tgm_module_unload(c->ref_mod);
    tgm_devptr bufs[] = {c->pool, c->out, c->temp, c->flush, c->cub_temp, c->ref_out};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
      tgm_free(c->b, bufs[i]);
    for (int i = 0; i < 2 * MAXSAMPLES; i++)
      if (c->ev[i])
        tgm_event_destroy(c->b, c->ev[i]);
    if (c->s)
      tgm_stream_destroy(c->b, c->s);
    tgm_backend_close(c->b);
  }
  tune_db_close(c->db);
  tune_manifest_free(&c->m);
  for (int i = 0; i < c->n_excluded; i++)
    free(c->excluded[i]);
  free(c->excluded);
  free(c->mods);
  free(c->usable);
  free(c->refs);
  free(c->order);
  free(c->sets);
  free(c->src);
  free(c->src_path);
  free(c->vs);
  free(c->rows);
  free(c);
}

// DIR/timings-SPECTRUM-TYPE-MODE.csv: every timing of this run, in order.
static int write_timings(ctx *c, const char *dir, const tune_key *key) {
  char path[4096];
  snprintf(path, sizeof path, "%s/timings-%s-%s-%s.csv", dir, c->m.spectrum, key->type, key->mode);
  FILE *f = fopen(path, "w");
  if (!f) {
    tgm__fail(TGM_ERR_IO, "%s: %s", path, strerror(errno));
    return -1;
  }
  fprintf(f, "n,stage,variant,block,items,grid_cap_per_sm,samples,median_us,p25_us,p75_us,min_us,"
             "max_us\n");
  for (int i = 0; i < c->n_timings; i++) {
    const tune_timing *t = &c->timings[i];
    fprintf(f, "%llu,%s,%s,%u,%u,%u,%d,%.4f,%.4f,%.4f,%.4f,%.4f\n", t->n, t->stage,
            t->k.v < 0 ? "CUB" : c->m.v[t->k.v].id, t->k.block, t->k.items, t->k.cap, t->st.n,
            t->st.median, t->st.p25, t->st.p75, t->st.min, t->st.max);
  }
  if (fclose(f) != 0) {
    tgm__fail(TGM_ERR_IO, "%s: cannot write", path);
    return -1;
  }
  return 0;
}

static int run(ctx *c, options *o);

// --param NAME=VALUE for each of the spectrum's scalar parameters, typed as
// the manifest says; their text goes into the database key.
static int read_params(ctx *c, options *o) {
  const char *given[TUNE_MAX_PARAMS] = {0}; // each parameter's NAME=VALUE
  char canon[TUNE_MAX_PARAMS][160];         // ... its value as the key writes it
  for (int i = 0; i < o->n_params; i++) {
    const char *eq = strchr(o->params[i], '=');
    int k = -1;
    for (int q = 0; eq && q < c->m.n_params; q++)
      if (strlen(c->m.param_names[q]) == (size_t)(eq - o->params[i]) &&
          !strncmp(o->params[i], c->m.param_names[q], (size_t)(eq - o->params[i])))
        k = q;
    if (k < 0) {
      fprintf(stderr, "tgm-tune: --param %s: %s has no parameter of that name%s\n", o->params[i],
              c->m.spectrum, c->m.n_params ? "" : " (it takes none)");
      return EXIT_USAGE;
    }
    char *end;
    errno = 0;
    tune_type t = c->m.param_types[k];
    uint64_t bits = 0;
    if (t == TUNE_BOOL) { // true, false, 1 or 0: one byte
      const char *b = eq + 1;
      int on = !strcmp(b, "true") || !strcmp(b, "1");
      end = on || !strcmp(b, "false") || !strcmp(b, "0") ? (char *)b + strlen(b) : (char *)b;
      bits = (uint64_t)on;
    } else if (t == TUNE_F32 || t == TUNE_F64) {
      double d = strtod(eq + 1, &end);
      float f = (float)d;
      // an f32 that does not fit (1e40 was inf, 1e-50 was 0, silently)
      if (t == TUNE_F32 && isfinite(d) && (!isfinite(f) || (d != 0 && f == 0)))
        errno = ERANGE;
      if (t == TUNE_F32)
        memcpy(&bits, &f, 4);
      else
        memcpy(&bits, &d, 8);
    } else if (t == TUNE_I32 || t == TUNE_I64) {
      long long v = strtoll(eq + 1, &end, 0);
      if (t == TUNE_I32 && (v < INT32_MIN || v > INT32_MAX))
        errno = ERANGE;
      int32_t v32 = (int32_t)v;
      if (t == TUNE_I32)
        memcpy(&bits, &v32, 4);
      else
        memcpy(&bits, &v, 8);
    } else {
      unsigned long long v = strtoull(eq + 1, &end, 0);
      if ((t == TUNE_U32 && v > UINT32_MAX) || eq[1] == '-')
        errno = ERANGE;
      uint32_t v32 = (uint32_t)v;
      if (t == TUNE_U32)
        memcpy(&bits, &v32, 4);
      else
        memcpy(&bits, &v, 8);
    }
    // leading blanks, which strto* skip, are no value either
    if (end == eq + 1 || *end || errno || isspace((unsigned char)eq[1])) {
      fprintf(stderr, "tgm-tune: --param %s: not a %s value%s\n", o->params[i], tune_type_name(t),
              errno == ERANGE ? " (out of its range)" : "");
      return EXIT_USAGE;
    }
    if (given[k]) {
      fprintf(stderr, "tgm-tune: --param %s given twice\n", c->m.param_names[k]);
      return EXIT_USAGE;
    }
    // the key holds the value, not its spelling: 0x10 and 16 are one tuning
    char v[64];
    switch (t) {
    case TUNE_I32: snprintf(v, sizeof v, "%d", (int32_t)bits); break;
    case TUNE_I64: snprintf(v, sizeof v, "%lld", (long long)bits); break;
    case TUNE_U32: snprintf(v, sizeof v, "%u", (uint32_t)bits); break;
    case TUNE_U64: snprintf(v, sizeof v, "%llu", (unsigned long long)bits); break;
    case TUNE_F32: { // the shortest text that reads back as the value
      float f;
      memcpy(&f, &bits, 4);
      for (int digits = 6; digits <= 9; digits++)
        if (snprintf(v, sizeof v, "%.*g", digits, f) > 0 && strtof(v, NULL) == f)
          break;
    } break;
    case TUNE_F64: {
      double d;
      memcpy(&d, &bits, 8);
      for (int digits = 15; digits <= 17; digits++)
        if (snprintf(v, sizeof v, "%.*g", digits, d) > 0 && strtod(v, NULL) == d)
          break;
    } break;
    default: snprintf(v, sizeof v, "%s", bits ? "true" : "false"); break;
    }
    snprintf(canon[k], sizeof canon[k], "%s=%s", c->m.param_names[k], v);
    given[k] = canon[k];
    c->param_vals[k] = bits;
  }
  size_t at = 0;
  for (int q = 0; q < c->m.n_params; q++) {
    if (!given[q]) {
      fprintf(stderr,
              "tgm-tune: %s takes the parameter '%s' (%s): give its value with --param %s=VALUE\n",
              c->m.spectrum, c->m.param_names[q], tune_type_name(c->m.param_types[q]),
              c->m.param_names[q]);
      return EXIT_USAGE;
    }
    int w = snprintf(c->param_text + at, sizeof c->param_text - at, "%s%s", q ? "," : "", given[q]);
    if (w < 0 || (size_t)w >= sizeof c->param_text - at) {
      fprintf(stderr, "tgm-tune: the --param values are longer than %zu characters\n",
              sizeof c->param_text - 1);
      return EXIT_USAGE;
    }
    at += (size_t)w;
  }
  return 0;
}

int main(int argc, char **argv) {
  options o = {0};
  int rc = parse_args(argc, argv, &o);
  if (!rc) {
    ctx *c = calloc(1, sizeof *c);
    c->o = &o;
    rc = c ? run(c, &o) : EXIT_TUNE;
    if (c)
      ctx_free(c);
  }
  free(o.command);
  return rc;
}

// The pipeline; every file input (manifest, --report folder, database, the
// CUDA or HIP source) is checked before the GPU is opened.
static int run(ctx *c, options *o) {
  int rc;
  c->graph = !strcmp(o->mode, "graph");
  c->both = !strcmp(o->mode, "both");
  c->one = !strcmp(o->mode, "one");
  if (tune_manifest_read(o->manifest, &c->m) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_USAGE;
  }
  if (c->m.shape != TUNE_SHAPE_1D) {
    // rows and columns: no CUB baseline to take a worst case against, so
    // --mode both is one; the cells of m n in 2^10..2^26 unless told
    if (c->both)
      o->mode = "one", c->both = 0, c->one = 1;
    if (!o->sizes_given)
      o->lo = 10, o->hi = 26;
    if (o->hip) {
      fprintf(stderr, "tgm-tune: %s: rows and columns are tuned with --backend cuda only, so far\n",
              o->manifest);
      return EXIT_USAGE;
    }
  } else if (o->n_shapes) {
    fprintf(stderr, "tgm-tune: --shapes: %s is a 1-D manifest (give --sizes)\n", o->manifest);
    return EXIT_USAGE;
  }
  if (!o->type)
    o->type = c->m.type;
  const char *op_name = c->m.op; /* the manifest's name is the database's */
  if (!o->op)
    o->op = op_name;
  if (strcmp(o->type, c->m.type) || strcmp(o->op, op_name)) {
    fprintf(stderr, "tgm-tune: %s is %s %s, not --type %s --op %s\n", o->manifest, op_name,
            c->m.type, o->type, o->op);
    return EXIT_USAGE;
  }
  // any spectrum: checked against its own scalar codelet (the reference kernel)
  if (!c->m.has_reference) {
    fprintf(stderr,
            "tgm-tune: %s has no reference kernel (an older tgm-gen made it); generate it "
            "again\n",
            o->manifest);
    return EXIT_USAGE;
  }
  c->elem = tune_type_size(c->m.elem);
  c->acc_size = tune_type_size(c->m.acc);
  c->res_size = tune_type_size(c->m.res);
  c->n_in = c->m.n_inputs;
  if ((rc = read_params(c, o)))
    return rc;
  // the source the variants are compiled from (and the CUB baseline's hash),
  // before anything is made: a bad source leaves no report folder, no database
  if ((rc = compile_read_source(c)))
    return rc;

  // the report folder, made now: a path that cannot be one stops us before any work
  if (o->report && mkdir(o->report, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "tgm-tune: --report %s: %s\n", o->report, strerror(errno));
    return EXIT_USAGE;
  }
  struct stat rst;
  if (o->report && (stat(o->report, &rst) != 0 || !S_ISDIR(rst.st_mode))) {
    fprintf(stderr, "tgm-tune: --report %s: not a folder\n", o->report);
    return EXIT_USAGE;
  }

  // the database (before any work: a bad file stops us here)
  tgm_status s;
  if (!o->verify_only) {
    s = tune_db_open(o->db, &c->db);
    if (s != TGM_OK) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_DB;
    }
  }
  // the device, once every file input is known to be good
  s = tgm_backend_open(o->hip ? TGM_BACKEND_HIP : TGM_BACKEND_CUDA, 0, NULL, &c->b);
  if (s == TGM_ERR_NO_DRIVER || s == TGM_ERR_NO_DEVICE || s == TGM_ERR_NO_COMPILER) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_NO_GPU;
  }
  if (s != TGM_OK)
    return gpu_fail("opening the GPU", s);
  c->info = tgm_backend_info(c->b);
  tune_key key = {0};
  if (!o->verify_only && tune_key_make(&key, c->info, o->type, o->op, o->mode, c->m.source_hash,
                                       o->deterministic, o->hot) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_USAGE;
  }
  snprintf(key.params, sizeof key.params, "%s", c->param_text); // both 256: never cut
  if (c->m.shape != TUNE_SHAPE_1D)
    snprintf(key.shape, sizeof key.shape, "%s", c->m.shape == TUNE_SHAPE_ROWS ? "rows" : "cols");
  tune_db *db = c->db;
  if (!o->quiet)
    fprintf(stderr, "tgm-tune: %s (%s, %d SMs, L2 %zu MB), driver %d, %s; %s %s, %s mode\n",
            c->info->name, c->info->arch, c->info->sm_count, c->info->l2_bytes >> 20,
            c->info->driver_version, c->info->compiler, o->op, o->type, o->mode);
  if (!o->quiet && !c->m.plain)
    fprintf(stderr, "tgm-tune: %s%s%s\n", c->m.text ? c->m.text : c->m.spectrum,
            c->param_text[0] ? ", with " : "", c->param_text);
  double t_start = now();
  // the CUB baseline builds (nvcc) while the variants compile and verify
  if ((!o->verify_only || o->prepare) && !o->hip && c->m.cub_source &&
      c->m.shape == TUNE_SHAPE_1D &&
      tune_cub_start(c->m.dir, c->m.cub_source, c->m.cuda_source, c->info->cc_major,
                     c->info->cc_minor, o->cache, &c->cub_build) != TGM_OK)
    c->cub_note_buf = strdup(tgm_last_error());
  if ((rc = compile_all(c)))
    return rc;
  if (o->prepare) {
    tune_cub_fn fn = NULL;
    if (c->cub_build && tune_cub_finish(c->cub_build, &fn) != TGM_OK)
      fprintf(stderr, "tgm-tune: the CUB baseline: %s\n", tgm_last_error());
    if (!o->quiet)
      printf("tgm-tune: %s prepared in %.1f s: the variants%s\n", o->manifest, now() - t_start,
             fn ? " and the CUB baseline" : "");
    return 0;
  }
  if (c->m.shape != TUNE_SHAPE_1D)
    return shapes_run(c, &key);

  // buffers
  unsigned long long vmax = 1ull << 21;
  for (int i = 0; i < o->n_verify_sizes; i++)
    vmax = o->verify_sizes[i] + 8 > vmax ? o->verify_sizes[i] + 8 : vmax;
  unsigned long long nmax = o->verify_only ? vmax : (1ull << o->hi) > vmax ? 1ull << o->hi : vmax;
  c->temp_bytes = (size_t)(nmax / 128 + 2) * c->acc_size + 64;
  c->pool_bytes = o->verify_only ? 0 : (size_t)(1ull << o->hi) * c->elem;
  if (c->pool_bytes < (256u << 20) && !o->verify_only)
    c->pool_bytes = 256u << 20;
  TRY("creating a stream", tgm_stream_create(c->b, &c->s));
  TRY("allocating temp", tgm_malloc(c->b, c->temp_bytes, &c->temp));
  TRY("allocating out", tgm_malloc(c->b, (size_t)2 * SLOTS * c->res_size, &c->out));
  TRY("allocating the reference's out", tgm_malloc(c->b, 3 * c->res_size, &c->ref_out));
  TRY("zeroing temp", tgm_memset(c->b, c->temp, 0, c->temp_bytes, c->s));

  // every setting of every usable variant (room for all: at most
  // TUNE_MAX_KNOBS^3 per variant)
  size_t max_sets = 0;
  for (int v = 0; v < c->m.n_v; v++)
    max_sets += (size_t)c->m.v[v].n_blocks * (size_t)c->m.v[v].n_items *
                (size_t)(c->m.v[v].n_caps ? c->m.v[v].n_caps : 1);
  c->sets = malloc((max_sets ? max_sets : 1) * sizeof *c->sets);
  if (!c->sets) {
    fprintf(stderr, "tgm-tune: out of host memory for %zu settings\n", max_sets);
    return EXIT_TUNE;
  }
  for (int v = 0; v < c->m.n_v; v++) {
    if (!c->usable[v])
      continue;
    if (o->all_knobs_default)
      c->sets[c->n_sets++] = tune_default(&c->m.v[v], v);
    else
      c->n_sets += tune_settings(&c->m.v[v], v, c->sets + c->n_sets,
                                 (int)(max_sets - (size_t)c->n_sets));
  }
  int n_settings = c->n_sets;
  double tv = now();
  unsigned long long vsizes[2 * MAX_VERIFY_SIZES];
  int voffs[2 * MAX_VERIFY_SIZES], nvs = 0;
  if (o->n_verify_sizes) {
    for (int i = 0; i < o->n_verify_sizes; i++)
      vsizes[nvs] = o->verify_sizes[i], voffs[nvs++] = 0;
    for (int i = 0; i < o->n_verify_sizes; i++) // again, misaligned input
      if (o->verify_sizes[i] >= 2 && o->verify_sizes[i] <= (1u << 24))
        vsizes[nvs] = o->verify_sizes[i], voffs[nvs++] = 1 + i % 3;
  } else {
    static const unsigned long long def[] = {0, 1, 33, 1000, 4097, 65537, (1u << 20) + 3};
    static const int off[] = {0, 0, 0, 1, 3, 0, 1};
    for (int i = 0; i < 7; i++)
      vsizes[nvs] = def[i], voffs[nvs++] = off[i];
  }
  if ((rc = verify_all(c, c->sets, &c->n_sets, vsizes, voffs, nvs)))
    return rc;
  if (!o->quiet)
    fprintf(stderr, "tgm-tune: verified %d settings in %.1f s: %d correct, %d excluded\n",
            n_settings, now() - tv, c->n_sets, c->n_excluded);
  if (o->verify_only) {
    for (int i = 0; i < c->n_excluded; i++)
      printf("excluded: %s\n", c->excluded[i]);
    printf("verified %d settings of %s: %d wrong\n", n_settings, o->manifest, c->n_excluded);
    return c->n_excluded ? EXIT_TUNE : 0;
  }
  if (c->n_sets == 0) {
    fprintf(stderr, "tgm-tune: no variant computed the right result\n");
    return EXIT_TUNE;
  }

  // timing buffers and CUB
  if ((rc = timing_buffers(c)))
    return rc;
  // CUB: the spectrum's baseline, else (plain sum, max, min) libtgm_cub.so
  if (c->cub_build) {
    if (tune_cub_finish(c->cub_build, &c->cub_run) != TGM_OK) {
      free(c->cub_note_buf);
      c->cub_note_buf = strdup(tgm_last_error());
    }
  }
  int plain_cub = c->m.plain &&
                  (!strcmp(o->op, "sum") || !strcmp(o->op, "max") || !strcmp(o->op, "min"));
  void *cublib = o->hip || c->cub_run || !plain_cub ? NULL : load_cub(); // hipCUB: not yet
  if (cublib)
    c->cub = (int (*)(const char *, const char *, const void *, unsigned long long, void *, void *,
                      size_t *, void *))dlsym(cublib, "tgm_cub_reduce");
  if (c->cub_run || c->cub) {
    size_t need = 0;
    if (timing_cub_call(c, 0, 1ull << o->hi, 0, 0, &need) == 0) {
      c->cub_temp_bytes = need;
      TRY("allocating CUB temp", tgm_malloc(c->b, need ? need : 16, &c->cub_temp));
    } else {
      c->cub_run = NULL, c->cub = NULL;
      c->cub_note = "CUB's temp-size query failed";
    }
  }
  if (c->cub || c->cub_run) {
    // CUB is checked like a variant: the first 65537 elements of the input
    // pool (random, each input at c->in_gap), poisoned output
    unsigned long long n = 65537;
    char want[3 * 16], got[16];
    tgm_devptr din = c->pool;
    TRY("running the reference", verify_reference(c, din, n, want));
    TRY("poisoning", tgm_memset(c->b, c->out, 0xA5, c->res_size, c->s));
    size_t bytes = c->cub_temp_bytes;
    int e = timing_cub_call(c, din, n, c->out, c->cub_temp, &bytes);
    TRY("running CUB", tgm_stream_sync(c->b, c->s));
    TRY("reading CUB's result", tgm_copy_to_host(c->b, got, c->out, c->res_size));
    if (e != 0 || !tune_same(&c->m, got, want)) {
      char g[64], w[64];
      tune_value_text(&c->m, got, g, sizeof g);
      tune_value_text(&c->m, want, w, sizeof w);
      fprintf(stderr, "tgm-tune: CUB gave %s for %s, want %s (error %d): no CUB column\n", g,
              "65537 elements", w, e);
      c->cub = NULL, c->cub_run = NULL;
    }
  } else if (c->cub_note)
    ; // said above
  else if (o->hip)
    c->cub_note = "no hipCUB baseline, so far";
  else if (c->cub_note_buf)
    c->cub_note = c->cub_note_buf;
  else if (!c->m.cub_source && !plain_cub)
    c->cub_note = "the manifest names no CUB baseline (an older tgm-gen made it)";
  else
    c->cub_note = "no nvcc for the spectrum's CUB baseline and no libtgm_cub.so (beside tgm-tune, "
                  "in " TGM_CUB_INSTALLED " from it, or $TGM_CUB_LIB)";
  if (!c->cub && !c->cub_run && !c->cub_note)
    c->cub_note = "CUB gave a wrong result (above)";
  if (!o->quiet && c->cub_note)
    fprintf(stderr, "tgm-tune: no CUB column: %s\n", c->cub_note);

  // per-variant search state
  vstate *vs = c->vs = calloc((size_t)c->m.n_v, sizeof *vs);
  c->order = calloc((size_t)c->m.n_v, sizeof *c->order);
  if (!vs || !c->order) {
    fprintf(stderr, "tgm-tune: out of host memory\n");
    return EXIT_TUNE;
  }
  for (int i = 0; i < c->n_sets; i++) {
    int v = c->sets[i].v;
    if (!vs[v].has_set)
      vs[v].best = c->sets[i];
    vs[v].has_set = 1, vs[v].alive = 1;
  }
  for (int v = 0; v < c->m.n_v; v++)
    if (vs[v].has_set && select_verified(c, tune_default(&c->m.v[v], v)))
      vs[v].best = tune_default(&c->m.v[v], v);

  int total = o->hi - o->lo + 1;
  tune_result *rows = c->rows = calloc((size_t)total, sizeof *rows);
  double t0 = now();
  int resumed = 0;
  for (int l = o->lo; l <= o->hi; l++) {
    tune_result *r = &rows[l - o->lo];
    if (tune_db_get(db, &key, l, r)) {
      for (int v = 0; v < c->m.n_v; v++) // the neighbour of the next size
        if (!strcmp(c->m.v[v].id, r->variant)) {
          c->prev = (tune_knobs){.v = v, .block = r->block, .items = r->items, .cap = r->cap};
          c->has_prev = 1;
        }
      resumed++;
      select_progress(c, l - o->lo + 1, total, l, t0, "resumed from the database");
      continue;
    }
    double el = now() - t_start, left = o->budget - el;
    int refine = left > (o->hi - l + 1) * 0.5;
    // every variant again every 4th size, while a run costs little; in
    // between (and above 256 MB) only those within 8x of the leader
    int full = (l - o->lo) % 4 == 0 && ((size_t)1 << l) * c->elem <= (256u << 20);
    if ((rc = select_size(c, vs, l, full, refine, r)))
      return rc;
    s = tune_db_put(db, &key, r);
    if (s == TGM_ERR_INVALID) { // a NaN or infinite time: said, never written
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      continue;
    }
    if (s != TGM_OK) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_DB;
    }
    char msg[128];
    snprintf(msg, sizeof msg, "%s %.2f us (CUB %.2f)", r->variant, r->us, r->cub_us);
    select_progress(c, l - o->lo + 1, total, l, t0, msg);
  }
  if (tune_db_finish(db, &key) != TGM_OK) {
    fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
    return EXIT_DB;
  }
  double elapsed = now() - t_start;
  tune_report rep = {&key,
                     rows,
                     total,
                     o->command,
                     (const char *const *)c->excluded,
                     c->n_excluded,
                     elapsed,
                     c->compile_seconds,
                     0,
                     n_settings,
                     (int)c->measured,
                     c->m.spectrum,
                     c->m.plain ? NULL : c->m.text,
                     c->cub_note,
                     c->cub_run ? c->m.cub_source
                     : c->cub   ? "libtgm_cub.so (cub::DeviceReduce::Sum, Max, Min)"
                                : NULL,
                     o->noise,
                     tune_noise_at(o->noise, o->noise_given, TUNE_NOISE_LARGE_LOG2),
                     c->info->peak_gbps};
  for (int v = 0; v < c->m.n_v; v++)
    rep.n_variants += c->usable[v];
  printf("tgm-tune: %s %s (%s), %s mode, on %s: %.1f s (compile %.1f s)%s\n", c->m.spectrum,
         o->type, o->op, o->mode, c->info->name, elapsed, c->compile_seconds,
         resumed ? ", some sizes resumed" : "");
  tune_report_table(stdout, &rep);
  if (c->n_excluded)
    printf("%d settings failed verification (see the report)\n", c->n_excluded);
  if (o->report) {
    if (tune_report_write(o->report, &rep) != TGM_OK || write_timings(c, o->report, &key) != 0) {
      fprintf(stderr, "tgm-tune: %s\n", tgm_last_error());
      return EXIT_TUNE;
    }
  }
  return 0;
}

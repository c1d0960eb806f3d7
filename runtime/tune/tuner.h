// tuner.h — tgm-tune's internal header: the run's state (ctx), its options,
// and a section per file of runtime/tune/ (main.c runs the pipeline).
#ifndef TGM_TUNER_H
#define TGM_TUNER_H
#include "tgm/tgm.h"
#include "tune.h"
#include <stdio.h>
#include <time.h>

#include "../src/internal.h" // tgm__fail, tgm__read_file

enum { EXIT_TUNE = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3, EXIT_DB = 4 };
// Fixed sizes, none indexed by a count read from a file or the command line:
// MAXSAMPLES caps the samples asked for, SLOTS batches the verification,
// MAX_VERIFY_SIZES is checked where --verify-sizes is read.
enum { MAXSAMPLES = 64, SLOTS = 1024, CHUNK = 4, MAX_VERIFY_SIZES = 32 };

// One timed setting (or CUB: k.v == -1), for timings-*.csv.
typedef struct tune_timing {
  unsigned long long n;
  tune_knobs k;
  const char *stage;
  tune_stats st;
} tune_timing;

typedef struct {
  const char *manifest, *type, *op, *db, *report, *mode, *cache;
  int lo, hi, sizes_given;
  double budget;
  int deterministic, hot, verify_only, all_knobs_default, quiet, hip, prepare;
  double noise;    // run-to-run noise: a margin must exceed it (--noise)
  int noise_given; // --noise holds at every size; else tune_noise_at's figure by size
  unsigned long long verify_sizes[MAX_VERIFY_SIZES];
  int n_verify_sizes;
  // rows and columns: --shapes MxN,... (else the cells of the --sizes range)
  unsigned long long shapes[64][2];
  int n_shapes;
  const char *params[TUNE_MAX_PARAMS]; // --param NAME=VALUE, as given
  int n_params;
  char *command; // the command line, for the report
} options;

typedef struct {
  // job, and name index per items path (tune_items_index: a kernel compiled
  // for its loads in flight has one a path, the others the same name in
  // each) and positive launch
  int job, name[TUNE_ITEMS_PATHS][4];
  int zname[2]; // per n == 0 launch
  // a row variant of GROUP threads a row: its launch's name per per_row
  // index and items path (name[..][0] is -1)
  int gname[TUNE_MAX_KNOBS][TUNE_ITEMS_PATHS];
} fn_ref;

typedef struct {
  options *o;
  tgm_backend *b;
  const tgm_device_info *info;
  tune_manifest m;
  size_t elem;               // an input element (T)
  size_t acc_size, res_size; // A (the partials), R (the result)
  int n_in;                  // inputs: input k lies in_gap bytes after input k - 1
  size_t in_gap;
  uint64_t param_vals[TUNE_MAX_PARAMS]; // each parameter's bytes, as the kernels take it
  char param_text[256];                 // "threshold=0.25": in the database key and the report
  tgm_module *ref_mod;                  // the reference kernel (tgm_reference_kernel)
  tgm_function ref_fn;
  unsigned ref_block;          // the reference's block: the manifest's, or less (verify.c)
  tgm_devptr ref_out;          // R[3]
  const char *cub_note;        // why there is no CUB column
  const char *stage;           // what is being timed: screen, refine, final, a/b, cub
  struct tune_timing *timings; // every timing, for the CSV
  int n_timings, cap_timings;
  tune_knobs prev; // the previous size's choice (has_prev), for tune_prefer
  int has_prev;
  char *cub_note_buf; // the same, when made for this run
  int *usable;        // [variant]: compiled, arch and dialect fine
  tgm_module **mods;
  int n_mods;
  fn_ref (*refs)[TUNE_MAX_KNOBS]; // [variant][block index]
  char *src, *src_path;           // the CUDA or HIP source, read before the GPU is opened
  tgm_stream s;
  tgm_devptr pool, out, temp, flush, cub_temp;
  size_t pool_bytes, temp_bytes, flush_bytes, cub_temp_bytes;
  tgm_event ev[2 * MAXSAMPLES];
  tgm_module *flush_mod;
  tgm_function flush_fn; // reads the flush buffer: evicts L2, leaves it clean
  // CUB: the spectrum's own baseline (tgm-gen's NAME_TYPE.cub.cu, built by
  // cub.c), else libtgm_cub.so's for a plain sum, max or min
  tune_cub *cub_build;
  tune_cub_fn cub_run;
  int (*cub)(const char *, const char *, const void *, unsigned long long, void *, void *, size_t *,
             void *);
  int graph; // the mode of the next timing (1: in a CUDA graph)
  int both;  // --mode both: finalists timed in each mode (select.c)
  int one;   // --mode one: one call per sample after the L2 flush (timing.c)
  long measured;
  double compile_seconds;
  char **excluded;
  int n_excluded;
  tune_knobs *sets; // verified settings
  int n_sets;
  int *order;        // [variant]: the screen's order (tune_size)
  struct vstate *vs; // [variant]: the search's state
  tune_result *rows; // [size]: the winners
  tune_db *db;
} ctx;

typedef struct vstate {
  tune_knobs best; // the variant's best knobs so far (carried to the next size)
  int alive;       // still screened
  int has_set;     // at least one verified setting
  tune_stats st;   // this size's screen
} vstate;

typedef tgm_status (*enq_fn)(ctx *c, const void *arg, tgm_devptr in, unsigned long long n);

static inline double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int gpu_fail(const char *what, tgm_status s) {
  fprintf(stderr, "tgm-tune: %s: %s\n", what,
          tgm_last_error()[0] ? tgm_last_error() : tgm_strerror(s));
  return EXIT_TUNE;
}

#define TRY(what, call)          \
  do {                           \
    tgm_status s_ = (call);      \
    if (s_ != TGM_OK)            \
      return gpu_fail(what, s_); \
  } while (0)

// -------------------------------------------------------------- launch.c
// The values of launch l's arguments into vals, args[a] = &vals[a]: the
// inputs at in (c->in_gap apart), n, out and the parameters; the temp
// storage's parts, items and grid from t, NULL for a launch that takes none
// (the reference kernel), which is TGM_ERR_MANIFEST if it asks for one.
typedef struct {
  tgm_devptr partials, counter;
  unsigned items, grid;
} launch_temp;
tgm_status launch_args(ctx *c, const tune_launch *l, tgm_devptr in, unsigned long long n,
                       tgm_devptr out, const launch_temp *t, uint64_t vals[], void *args[]);
tgm_status launch_prepare(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n);
size_t launch_temp_need(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n);
tgm_status launch_enqueue(ctx *c, tune_knobs k, tgm_devptr in, unsigned long long n,
                          tgm_devptr out);

// ------------------------------------------------------------- compile.c
int compile_read_source(ctx *c);
int compile_all(ctx *c);
int compile_flush(ctx *c);
tgm_status flush_l2(ctx *c);

// -------------------------------------------------------------- verify.c
void verify_fill_host(ctx *c, void *host, unsigned long long n);
// The timing data: random, not zeros (a 16 MiB host pattern, replicated over
// c->pool, each of the c->n_in inputs its own).
tgm_status verify_fill_pool(ctx *c);
tgm_status verify_reference(ctx *c, tgm_devptr in, unsigned long long n, void *want);
int verify_all(ctx *c, tune_knobs *sets, int *n_sets, const unsigned long long *sizes,
               const int *offsets, int n_sizes);

// -------------------------------------------------------------- timing.c
// The timing buffers, one home for the 1-D tune and the shapes' (c->s
// made): the events, the input pool (c->pool_bytes an input, c->in_gap
// apart, random data: verify_fill_pool), and the L2 flush buffer (twice the
// L2, at least 32 MiB), zeroed, with its kernel. An exit status: 0 ready.
int timing_buffers(ctx *c);
int timing_cub_call(ctx *c, tgm_devptr in, unsigned long long n, tgm_devptr out, tgm_devptr temp,
                    size_t *bytes);
tgm_status timing_enq_cub(ctx *c, const void *arg, tgm_devptr in, unsigned long long n);
tgm_status timing_measure(ctx *c, enq_fn f, const void *arg, unsigned long long n, int samples,
                          double give_up, tune_stats *st);
void timing_keep(ctx *c, const tune_knobs *k, unsigned long long n, const tune_stats *st);
tgm_status timing_measure_knobs(ctx *c, tune_knobs k, unsigned long long n, int samples,
                                double give_up, tune_stats *st);

// -------------------------------------------------------------- select.c
int select_verified(ctx *c, tune_knobs k);
void select_progress(ctx *c, int done, int total, int log2n, double t0, const char *extra);
int select_size(ctx *c, vstate *vs, int log2n, int full_screen, int refine, tune_result *r);

// -------------------------------------------------------------- shapes.c
// Tunes (or with --verify-only checks) a row or column manifest over its
// cells into the database under key (key->shape set), and writes the
// report; the variants are compiled, the GPU open. Returns an exit status.
int shapes_run(ctx *c, tune_key *key);

#endif

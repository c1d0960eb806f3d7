// tune.h — the tuner's one internal header (manifest reader, knob search,
// timing statistics, database, report), a section per file. tune_ names.
#ifndef TGM_TUNE_H
#define TGM_TUNE_H

#include "tgm/tgm.h"
#include <stddef.h>
#include <stdint.h>

// -------------------------------------------------------------- manifest.c
// What one variant may have; the reader refuses more, naming the limit.
enum {
  TUNE_MAX_KNOBS = 8,
  TUNE_MAX_LAUNCHES = 4,
  TUNE_MAX_ZERO = 2,
  TUNE_MAX_ARGS = 16,
  TUNE_MAX_INPUTS = 8,
  TUNE_MAX_PARAMS = 8
};

// A launch's grid: the 1-D rules (launch_rule.tpl's tgm_rule, in its
// order), then those of row and column manifests (tgm-gen --rows, --cols):
// rows (m blocks), rows_group (tgm_rows_grid_of), rows_parts (per_row x m),
// rows_atomic (the same blocks, no temp: RA, whose blocks combine into
// out[row] atomically), rows_init (RA's first launch, tgm_init_out:
// tgm_init_out_grid(m) blocks),
// cols (tgm_cols_grid_of x parts: CT, counters and partials in temp),
// cols_atomic (the same blocks, no temp: CA, whose parts combine into out
// atomically) and cols_init (CA's first launch, tgm_init_out:
// tgm_init_out_grid(n) blocks).
typedef enum {
  RULE_ONE,
  RULE_TILES,
  RULE_TILES_VEC,
  RULE_STRIDED,
  RULE_STRIDED_VEC,
  RULE_ROWS,
  RULE_ROWS_GROUP,
  RULE_ROWS_PARTS,
  RULE_ROWS_ATOMIC,
  RULE_ROWS_INIT,
  RULE_COLS,
  RULE_COLS_ATOMIC,
  RULE_COLS_INIT
} tune_rule;
// A column kernel's rule (CT's or CA's): width, parts and their grid.
static inline int tune_rule_cols(tune_rule r) { return r == RULE_COLS || r == RULE_COLS_ATOMIC; }
// A rule of blocks a row (RL's or RA's): per_row x m blocks.
static inline int tune_rule_row_parts(tune_rule r) {
  return r == RULE_ROWS_PARTS || r == RULE_ROWS_ATOMIC;
}
// The first launch of an atomic kernel's variant (CA's, RA's tgm_init_out).
static inline int tune_rule_init(tune_rule r) { return r == RULE_ROWS_INIT || r == RULE_COLS_INIT; }
typedef enum {
  ARG_IN,
  ARG_N,
  ARG_OUT,
  ARG_PARTIALS,
  ARG_COUNTER,
  ARG_ITEMS,
  ARG_GRID,
  ARG_M,     // rows and columns: the rows
  ARG_LD,    // the leading dimension, elements
  ARG_WIDTH, // columns: the tiles' width
  ARG_PARAM
} tune_arg;
// The kinds tgm_rows_pick_of names (RW scalar, RW vector, RB, RL, RA) and
// tgm_cols_pick_of's CT and CA: "rw_narrow", "rw_wide", "rb", "rl", "ct",
// "ca", "ra".
enum {
  TUNE_PICK_RW_NARROW,
  TUNE_PICK_RW_WIDE,
  TUNE_PICK_RB,
  TUNE_PICK_RL,
  TUNE_PICK_CT,
  TUNE_PICK_CA,
  TUNE_PICK_RA,
  TUNE_PICK_ROLES
};
extern const char *const tune_pick_roles[TUNE_PICK_ROLES];
// A manifest's problem: one array (out[0]), or the rows or columns of a
// row-major m x n matrix (out[r], out[j]).
typedef enum { TUNE_SHAPE_1D, TUNE_SHAPE_ROWS, TUNE_SHAPE_COLS } tune_shape;

// The value types a spectrum's inputs, accumulator, result and parameters
// have (the manifest spells them as C: "T", "int", "unsigned", ...).
// TUNE_PAIR is tgm_arg, struct {uint64 key; T value;} (argmax, argmin): 16
// bytes, the value at byte 8, for every T the tuner knows. TUNE_BOOL is a
// C++ bool (one byte, 0 or 1): an accumulator, result or parameter, never an
// element type.
typedef enum {
  TUNE_I32,
  TUNE_U32,
  TUNE_I64,
  TUNE_U64,
  TUNE_F32,
  TUNE_F64,
  TUNE_PAIR,
  TUNE_BOOL
} tune_type;
size_t tune_type_size(tune_type t);
const char *tune_type_name(tune_type t); // i32, ..., f64, pair, bool

typedef struct {
  char *kernel;
  char *name_expr; // with "BLOCK" where the block size goes
  tune_rule rule;
  unsigned block_fixed; // a fixed block ("1": tgm_init, "1024": the reference); 0: BLOCK
  int n_args;
  tune_arg args[TUNE_MAX_ARGS];
  int arg_index[TUNE_MAX_ARGS]; // ARG_IN: which input ("in:y"); ARG_PARAM: which parameter
} tune_launch;

typedef struct {
  char *id; // "DSA.VA2S.SS"
  char *kernel;
  int index; // position in the manifest: the tie-break order
  int deterministic;
  int min_sm;    // 75 for "sm_75"
  int cuda, hip; // dialects
  int partials, counter;
  unsigned blocks[TUNE_MAX_KNOBS], items[TUNE_MAX_KNOBS], caps[TUNE_MAX_KNOBS];
  int n_blocks, n_items, n_caps; // n_caps 0: no grid cap
  // rows: per_row (RW: threads a row, GROUP; RL: blocks a row); columns:
  // widths (columns, or CT.SV's groups, a block) and parts (blocks down the
  // rows); counts 0 where the variant has no such knob
  unsigned per_row[TUNE_MAX_KNOBS], widths[TUNE_MAX_KNOBS], parts[TUNE_MAX_KNOBS];
  int n_per_row, n_widths, n_parts;
  int vec; // thread level SV: 16-byte vectors (columns: groups of 16 / sizeof(T))
  // RW: a thread a row reads rows packed into vectors as such (the manifest's
  // packed_rows; tune_shape_grid's vw)
  int packed_rows;
  tune_launch pos[TUNE_MAX_LAUNCHES], zero[TUNE_MAX_ZERO];
  int n_pos, n_zero;
} tune_variant;

typedef struct {
  char *path, *dir;  // the manifest file and its folder
  char *cuda_source; // file names, relative to dir
  char *hip_source;
  char *cub_source; // the CUB baseline (NAME_TYPE.cub.cu); NULL: none
  // "sources_hash": each named file's hash as tgm-gen wrote it (32 hex
  // digits, tgm__text_hash); tune_manifest_source compares it
  char cuda_hash[33], hip_hash[33], cub_hash[33];
  char *source_hash, *spectrum, *type, *ctype, *op, *ns;
  tune_shape shape; // rows and columns: variants launch for m > 0 (launches_m_positive)
  tune_variant *v;
  int n_v;
  // what the spectrum computes ("meaning"; a manifest without it is a plain
  // fold of one input): out[0] = epilogue(fold(op, map(transform, inputs)))
  int plain; // no transform, parameters or epilogue; A = R = T
  // the operator's identity, for sparse test data: TUNE_ID_NONE (an older
  // manifest), zero, one, ones (~0), lowest, highest
  enum {
    TUNE_ID_NONE,
    TUNE_ID_ZERO,
    TUNE_ID_ONE,
    TUNE_ID_ONES,
    TUNE_ID_LOWEST,
    TUNE_ID_HIGHEST
  } identity;
  char *text; // the meaning in a line
  int n_inputs;
  char *inputs[TUNE_MAX_INPUTS];
  int n_params;
  char *param_names[TUNE_MAX_PARAMS];
  tune_type param_types[TUNE_MAX_PARAMS];
  tune_type elem, acc, res; // T, A, R
  // the reference kernel (one thread runs the scalar codelet: R[3] = result,
  // lowest, highest); has_reference 0 for older manifests
  int has_reference;
  tune_launch reference;
  // rows and columns: the variant the rule's pick (launch_rule.tpl) runs for
  // each of its kinds, as the embedded header does (the manifest's
  // "pick_variants"), -1 where none: tune_pick_roles[r] names role r
  int pick_v[TUNE_PICK_ROLES];
} tune_manifest;

// Reads a manifest; on failure returns TGM_ERR_MANIFEST with the reason in
// tgm_last_error().
tgm_status tune_manifest_read(const char *path, tune_manifest *m);
void tune_manifest_free(tune_manifest *m);
// The text of a source the manifest names (TUNE_SRC_CUDA, _HIP, _CUB), read
// from beside it (*path: where, malloc'd, also on failure; NULL if none is
// named): TGM_ERR_IO when it cannot be read, TGM_ERR_MANIFEST when it is not
// the file tgm-gen wrote with this manifest (its hash differs: edited, or
// one of another run's set).
typedef enum { TUNE_SRC_CUDA, TUNE_SRC_HIP, TUNE_SRC_CUB } tune_src;
tgm_status tune_manifest_source(const tune_manifest *m, tune_src which, char **text, char **path);
// "tgm_sum_i32::sum_DT_V_ST<BLOCK>" with BLOCK = 256 -> malloc'd string;
// "GROUP" (row variants of per_row threads a row) becomes group, "ITEMS"
// (the kernels compiled for their loads in flight) the path of items
// (tune_items_path); 0 leaves either.
char *tune_name_expr(const char *pattern, unsigned block, unsigned group, unsigned items);
// The kernel a launch of `items` runs where its name holds ITEMS
// (launch_rule.tpl's tgm_items_path): 1, 4 or 16; tune_items_index its
// place among TUNE_ITEMS_PATHS (0, 1, 2), where a tuner keeps its names.
enum { TUNE_ITEMS_PATHS = 3 };
unsigned tune_items_path(unsigned items);
// The items a variant's kernels are compiled for where it runs `items`:
// their path where a launch's name holds ITEMS, else 0 (one kernel serves
// every items); a compiled kernel's key beside its block and group.
unsigned tune_variant_items(const tune_variant *v, unsigned items);
int tune_items_index(unsigned items);
extern const unsigned tune_items_paths[TUNE_ITEMS_PATHS];
// Adds expr (malloc'd) to a compile job's names unless it is there already
// (then frees it); returns its index.
int tune_intern_name(char **names, int *n, char *expr);

// ---------------------------------------------------------------- search.c
typedef struct {
  int v;                      // variant index
  unsigned block, items, cap; // cap: grid_cap_per_sm, 0 when none
} tune_knobs;

// Every knob setting of variant v (at most cap_out entries); returns count.
int tune_settings(const tune_variant *v, int vi, tune_knobs *out, int cap_out);
// The default setting of a variant: block 256, items 4, cap 4 (nearest).
tune_knobs tune_default(const tune_variant *v, int vi);
// The value of a[0..n) nearest to want.
unsigned tune_nearest(const unsigned *a, int n, unsigned want);
// The settings one step away from k in one knob (at most 6).
int tune_neighbours(const tune_variant *v, tune_knobs k, tune_knobs out[6]);
// Total order for ties: fewer launches, deterministic, manifest order, then
// smaller knobs. <0 when a ranks first.
int tune_tie_order(const tune_manifest *m, tune_knobs a, tune_knobs b);
// The rule between two settings whose times are within noise of each other
// (the margin's interval holds 0): deterministic first, then fewer launches,
// then no counter to clear (no memset), then the previous size's choice
// (prev, when not NULL), then the smaller measured score (sa, sb: a time or
// a worst-case ratio; the best estimate though no claim), then
// tune_tie_order. Returns <0 when a is chosen, >0 for b, with *why the
// deciding rule ("deterministic", "fewer launches", "no memset", "the
// neighbour's choice", "faster median", "fixed order").
int tune_prefer(const tune_manifest *m, tune_knobs a, tune_knobs b, double sa, double sb,
                const tune_knobs *prev, const char **why);
int tune_knobs_equal(tune_knobs a, tune_knobs b);
void tune_knobs_str(const tune_knobs *k, char *buf, size_t len); // "b256 i4 c4"

// ------------------------------------------------------------------ rule.c
// How a variant is launched, one home (templates/launch_rule.tpl, which every
// generated source and embedded header holds), read by tgm-tune and
// tgm_reduce: the blocks of a launch shape over the input at in_addr, and
// the temp storage of one launch (align16(grid * acc) + 16 for a counter).
unsigned tune_grid(tune_rule rule, uint64_t in_addr, unsigned long long n, unsigned block,
                   unsigned items, unsigned grid_cap, size_t elem);
size_t tune_temp_need(unsigned long long grid, size_t acc, int partials, int counter);
// Does the output overlap an input (launch_rule.tpl's tgm_overlaps)? Refused.
int tune_overlaps(uint64_t out, uint64_t out_bytes, uint64_t in, uint64_t in_bytes);
// The grid of the variant's main (BLOCK-sized) launch; cap: grid_cap_per_sm
// x SMs, or 0x7fffffff for none.
// The grid cap of a launch: grid_cap_per_sm blocks per SM (0: none, 0x7fffffff).
unsigned tune_grid_cap(unsigned cap_per_sm, int sm_count);
unsigned tune_main_grid(const tune_variant *v, uint64_t in_addr, unsigned long long n,
                        unsigned block, unsigned items, unsigned cap, size_t elem);
// The blocks of a row or column launch (RULE_ROWS .. RULE_COLS) for an
// m x n matrix at in_addr: *x, *y; *x = 0 when it cannot be launched.
// group: RW's threads a row, RL's blocks a row, CT's width; parts: CT's
// blocks down the rows; vw: CT.SV's columns a group (1 for CT.SS); for RW,
// the elements a vector where the variant reads packed rows (the manifest's
// packed_rows), else 1: its thread a row over rows packed into vectors
// (tgm_rows_packed_of of in_addr, n, ld) takes a thread a vector of rows.
void tune_shape_grid(tune_rule rule, uint64_t in_addr, unsigned long long m, unsigned long long n,
                     unsigned long long ld, unsigned block, unsigned group, unsigned parts,
                     unsigned vw, size_t elem, unsigned *x, unsigned *y);
// Their temp storage (RL: counters and m x per_row partials; CT with parts
// > 1: counters and parts x n partials; else 0).
size_t tune_shape_temp(tune_rule rule, unsigned long long m, unsigned long long n, unsigned group,
                       unsigned parts, size_t acc);
// The rule's choice for an m x n matrix (launch_rule.tpl's tgm_rows_pick_of,
// tgm_cols_pick_of: what the embedded call runs): the kind (TUNE_PICK_*,
// the manifest's pick_v gives its variant) and the knobs, per_row, width
// (CT's groups: the embedded call's width for a vector variant; a scalar
// one takes min(groups * vw, block)) and parts 0 where the kind has none.
typedef struct {
  int role;
  unsigned block, items, per_row, width, parts;
} tune_pick;
// atomics: the manifest has RA (the pick may name it: tgm_rows_pick's atomic).
// sm_gbps: a SM's share of the memory bandwidth in GB/s (tune_sm_gbps; 0
// unknown).
tune_pick tune_rows_pick(unsigned long long m, unsigned long long n, unsigned sms,
                         unsigned max_threads, unsigned sm_gbps, int atomics);
// A SM's share of a device's memory bandwidth in whole GB/s: launch_rule.tpl's
// tgm_sm_gbps of tgm_device_info's peak_gbps (whole GB/s) over its SMs, as an
// embedded header reads it; 0 where either is unknown.
unsigned tune_sm_gbps(double peak_gbps, int sms);
// atomics: the manifest has CA (the pick may name it: tgm_cols_pick's atomic).
// The blocks a row the rule gives RA on m x n (launch_rule.tpl's
// tgm_rows_atomic_parts), for a seed where the rule's own pick is not RA.
unsigned tune_rows_atomic_per_row(unsigned long long m, unsigned long long n, unsigned sms);
tune_pick tune_cols_pick(unsigned long long m, unsigned long long n, unsigned sms, unsigned vw,
                         int vector, int atomics);
// The cell of the tuned buckets m (or n) falls in (launch_rule.tpl's
// tgm_shape_cell: the odd a with 2^(a-1) <= x < 2^(a+1)).
int tune_shape_cell(unsigned long long x);
// The temp storage the embedded call has for rows (any shape) or columns
// (n columns), and whether a setting of a launch of that rule fits it
// (launch_rule.tpl's tgm_rows_parts_fit, tgm_cols_parts_fit): what the
// tuner may choose.
size_t tune_shape_embed_temp(int cols, unsigned long long n, size_t acc);
int tune_shape_fits(tune_rule rule, unsigned long long m, unsigned long long n, unsigned group,
                    unsigned vw, unsigned parts);
// A setting of a row or column variant (the manifest's variant v): its
// block and items, per_row (RW's threads a row, RL's blocks a row), width
// (CT's columns or groups a block) and parts (CT's blocks down the rows),
// 0 where the variant has no such knob.
typedef struct {
  int v;
  unsigned block, items, per_row, width, parts;
} tune_shape_set;
// The grid of k over the rows x n matrix at in_addr, as the embedded call
// and tgm_reduce launch it: x, *y; x = 0 when it cannot run there (a knob
// not among the variant's, a launch the rule refuses, or partials beyond
// the embedded call's temp storage: tune_shape_fits).
unsigned tune_shape_set_grid(const tune_manifest *man, const tune_shape_set *k, uint64_t in_addr,
                             unsigned long long rows, unsigned long long n, unsigned long long ld,
                             unsigned *y);
// The rule's choice (tune_rows_pick, tune_cols_pick) as a setting of the
// variant the manifest's pick_variants name for its kind (v = -1: none).
// deterministic: the atomic variants (CA, RA) only where they are
// deterministic (integers), as a header compiled with TGM_DETERMINISTIC.
tune_shape_set tune_shape_rule(const tune_manifest *man, unsigned long long rows,
                               unsigned long long n, unsigned sms, unsigned max_threads,
                               unsigned sm_gbps, int deterministic);
// A row or column variant's own launch (its BLOCK-sized kernel: CA's comes
// after tgm_init_out, of a fixed block), NULL where it has none.
const tune_launch *tune_shape_main(const tune_variant *v);
// The group a setting's kernel is compiled for (RW's threads a row: the
// GROUP of its name), 0 for the others.
unsigned tune_shape_group(const tune_manifest *man, const tune_shape_set *k);
// The bytes of temp storage a row or column launch clears first (the
// counters; 0 where it has none).
size_t tune_shape_counters(tune_rule rule, unsigned parts);
// What one reduction passes to its launches.
typedef struct {
  uint64_t in[TUNE_MAX_INPUTS]; // each input's device address
  const uint64_t *params;       // each parameter's bytes, as the kernels take it
  unsigned long long m, ld;     // rows and columns: n is the row length
  unsigned width;               // columns
  unsigned long long n;
  uint64_t out;
  int has_temp; // 0: the launch takes no temp storage (the reference kernel)
  uint64_t partials, counter;
  unsigned items, grid; // grid: the main launch's (pass 2 reads that many partials)
} tune_call;
// Fills vals and args (args[a] = &vals[a]) for launch l as its manifest
// "args" say; TGM_ERR_MANIFEST for temp storage, items or grid without has_temp.
tgm_status tune_launch_args(const tune_launch *l, const tune_call *call, uint64_t vals[],
                            void *args[]);
// Enqueues one reduction by a row or column variant, as the embedded call
// does but for the counters (the caller's): CA's tgm_init_out first
// (its grid from the rule), then the kernel in x by y blocks of `block`.
// fs[i] is launch i's function; call: inputs, m, n, ld, out, temp, knobs.
tgm_status tune_shape_launch(tgm_backend *b, const tune_variant *v, const tgm_function fs[],
                             const tune_call *call, unsigned x, unsigned y, unsigned block,
                             tgm_stream s);

// The reference kernel (the scalar codelet, tgm_reference_kernel) is
// compiled without optimization, so that an optimizer bug in the variants is
// a mismatch instead of being repeated by the reference
// (bench/results/2026-11-24-ptxas-absmax): its compile options for the
// backend (NVRTC -G: NVVM and ptxas at -O0; hiprtc -O0), *n of them.
const char *const *tune_reference_options(int hip, int *n);
// Launches it on one block of *block threads, halved (to 32 at least) to
// what the function's registers allow (tgm_function_max_threads), and
// again while the launch fails: the kernel splits its input over the
// threads it gets. *block keeps what launched.
tgm_status tune_launch_reference(tgm_backend *b, tgm_function f, void **args, unsigned *block,
                                 tgm_stream s);

// ----------------------------------------------------------------- check.c
// What a check of a variant runs and accepts (tgm-tune's verification and
// tgm_reduce's first-use check). tune_fill: host[0..n) of the element type,
// by operator, so that a fold in any order is exact where it can be (see
// check.c); *rng a xorshift state, advanced. tune_same: got (R) against the
// reference's want[3] (R each: the value, and the lowest and highest a fold
// in another order may give): integers and pairs exactly, floating point
// within the range.
void tune_fill(const tune_manifest *m, void *host, unsigned long long n, uint64_t *rng);
// Sparse data for a plain fold whose identity the manifest names: host[0..n)
// the identity but for one element at a random place, a random value other
// than the identity (on random data |, &, || and float products saturate,
// and a kernel that drops elements would agree). 0 when it does not apply
// (not plain, no identity kind, n = 0): host is untouched.
int tune_fill_sparse(const tune_manifest *m, void *host, unsigned long long n, uint64_t *rng);
// NaN elements for a floating-point element type: tune_fill's data with a
// NaN at 2 and at every `every`-th from every / 2 (a max and a min pass one
// over whichever side it comes in, a sum takes it: what the CPU check's NaN
// setting runs; 1-D: every 1009th, rows and columns: every 13th). 0 when it
// does not apply (an integer type, n = 0): host is untouched.
int tune_fill_nan(const tune_manifest *m, void *host, unsigned long long n, unsigned every,
                  uint64_t *rng);
int tune_same(const tune_manifest *m, const void *got, const void *want);
// A result (R) as text for a message: "518", "0.25", a pair "(7, 2.5)".
void tune_value_text(const tune_manifest *m, const void *p, char *buf, size_t len);

// ----------------------------------------------------------------- stats.c
typedef struct {
  double median, p25, p75, min, max; // microseconds
  int n;
} tune_stats;

tune_stats tune_stats_of(const double *x, int n); // sorts a copy
// The half-width inside which two results are a tie: the larger
// interquartile range of the two, and at least 1% of the smaller median.
double tune_spread(const tune_stats *a, const tune_stats *b);
// -1: a faster, 1: b faster, 0: tie.
int tune_compare(const tune_stats *a, const tune_stats *b);
// The margin of b over a from n interleaved rounds (a[k] then b[k], each a
// round's median time): *m = median(b[k] / a[k]) - 1, and [*lo, *hi] its 95%
// bootstrap interval (2000 resamples from a fixed seed: the same samples give
// the same interval). b is slower beyond noise when *lo > 0.
void tune_margin(const double *a, const double *b, int n, double *m, double *lo, double *hi);
// --mode both: a setting's time as its worst ratio against the reference
// across the two timings, max(stream / ref_stream, graph / ref_graph), the
// reference being CUB in each mode (or, without CUB, the fastest finalist).
// The setting with the smallest value has the best worst-case ratio against
// CUB; tune_margin over these values is the margin in that ratio. A
// reference that is not positive leaves its mode out.
double tune_worst_time(double stream_us, double graph_us, double ref_stream, double ref_graph);
// The run-to-run noise a margin must exceed at 2^log2n elements (or m n for
// a row or column cell). given: --noise was passed, which holds at every
// size. Otherwise the mode's figure (noise) holds below 2^25 and at most
// TUNE_NOISE_LARGE from 2^25 on: between two H100 tunes the same kernel's
// time differed by at most 1.8% there (95th percentile 1.5%, CUB and tgm,
// both modes; bench/results/2026-11-24-stability, 2^25..2^28), against up
// to 6% (stream) below. One figure for every size made ties of settings
// 2-7% apart at 2^26..2^30 (bench/results/2026-11-26-noise-by-size).
enum { TUNE_NOISE_LARGE_LOG2 = 25 };
#define TUNE_NOISE_LARGE 0.02
double tune_noise_at(double noise, int given, int log2n);

// -------------------------------------------------------------------- db.c
// The longest variant id, source hash or other key string (the manifest
// reader and the database reader refuse longer ones: never cut).
enum { TUNE_ID_MAX = 63 };

typedef struct {
  char device[256];
  char cc[16]; // "9.0"
  int sm_count;
  int driver;
  char compiler[64]; // "nvrtc 13.0"
  char type[16], op[16], mode[16];
  char source_hash[TUNE_ID_MAX + 1];
  int deterministic, hot;
  char params[256]; // the scalar parameters' values, "threshold=0.25" ("": none; not in the key)
  // "" for the 1-D reduction; "rows" or "cols" for a manifest of rows or
  // columns (in the key only when set, so 1-D keys are as before)
  char shape[8];
} tune_key;

typedef struct {
  int log2n;
  char variant[TUNE_ID_MAX + 1];
  unsigned block, items, cap;
  double us, gbps, cub_us; // stream mode's (graph mode's when tuned --mode graph)
  double us_p25, us_p75;
  // The runner-up (runner_up[0] == 0: none) and the margin: its time over
  // the chosen setting's, minus 1, with its 95% interval, from interleaved
  // A/B rounds (negative: the rule chose the slower of two within noise);
  // chosen_by: "faster", or "within noise: " and the rule that decided
  char runner_up[TUNE_ID_MAX + 1];
  unsigned ru_block, ru_items, ru_cap;
  double margin, margin_lo, margin_hi;
  char chosen_by[48];
  // --mode both: the graph mode's times (0 otherwise); the choice is the
  // best worst-case ratio against CUB across the two (tune_worst_time)
  double us_graph, cub_us_graph;
  // Rows and columns (the key's shape set): the bucket is the cell of
  // 2^log2m x 2^log2n (shapes.c: m in [2^(log2m-1), 2^(log2m+1)), the same
  // for n), and a setting has three more knobs, 0 where the variant has
  // none: per_row (RW's threads a row, RL's blocks a row), width (CT's
  // groups a block) and parts (CT's blocks down the rows); the same for the
  // runner-up. formula: what the default plan (launch_rule.tpl's
  // tgm_rows_pick_of / tgm_cols_pick_of) runs there, f_us its time
  // (f_variant[0] == 0: none).
  int log2m;
  unsigned per_row, width, parts;
  unsigned ru_per_row, ru_width, ru_parts;
  char f_variant[TUNE_ID_MAX + 1];
  unsigned f_block, f_items, f_per_row, f_width, f_parts;
  double f_us;
} tune_result;

// Fills a key; a string longer than its field is TGM_ERR_INVALID (naming
// the field and the limit), never cut.
tgm_status tune_key_make(tune_key *k, const tgm_device_info *info, const char *type, const char *op,
                         const char *mode, const char *source_hash, int deterministic, int hot);

// A database shared by processes and threads (see db.c): every change
// locks PATH.lock, re-reads the file, merges and replaces it atomically and
// durably. A tune_db is used by one thread at a time (open one per thread).
typedef struct tune_db tune_db;
struct json_t;
// Opens PATH: a missing file is an empty database, written now (so an
// unwritable path fails before any work); a file that is not JSON, or
// whose entries are malformed, is TGM_ERR_DB_CORRUPT, JSON that is not a
// tgm database (or a newer version) TGM_ERR_DB_FOREIGN; the file is left
// alone in both cases. Temp files of killed writers are removed.
tgm_status tune_db_open(const char *path, tune_db **out);
void tune_db_close(tune_db *db);
// The result measured for key at size 2^log2n, if any.
int tune_db_get(tune_db *db, const tune_key *key, int log2n, tune_result *out);
// Rows and columns (key->shape set): the result of the cell 2^log2m x
// 2^log2n, if any.
int tune_db_get_shape(tune_db *db, const tune_key *key, int log2m, int log2n, tune_result *out);
// Records a result: one locked transaction (re-read, merge, rewrite). A
// NaN, infinite or non-positive time is TGM_ERR_INVALID and nothing is
// written.
tgm_status tune_db_put(tune_db *db, const tune_key *key, const tune_result *r);
// Recomputes the merged buckets of key (neighbours with the same winner;
// for rows and columns one bucket a cell: log2m, log2n and the setting)
// and writes the file (one transaction).
tgm_status tune_db_finish(tune_db *db, const tune_key *key);
// Entries in the file when it was last read or written.
int tune_db_entries(tune_db *db);
// For readers that need only the winners (tgm_reduce, tgm-gen --embed): a
// json_t {"tgm_db": 1, "entries": [{"key", "buckets"}]} of the entries of
// `shape` ("" or NULL: the 1-D reduction's; "rows"; "cols") that have
// buckets, checked as tune_db_open checks them; results are left out, so
// memory follows the buckets, not the file. A missing file is
// TGM_ERR_NOT_FOUND. (A json_t *: include jansson.h to use it.)
tgm_status tune_db_load_buckets(const char *path, const char *shape, struct json_t **out);
// The entries of `shape` with results but no buckets: tunings that did not
// finish (tgm-tune resumes them), for a reader's message; 0 when the file
// cannot be read.
int tune_db_unfinished(const char *path, const char *shape);

// ------------------------------------------------------------------- cub.c
// The CUB baseline of a spectrum (tgm-gen's NAME_TYPE.cub.cu): out[0] = the
// spectrum over ins[0..inputs) of n elements, params[k] parameter k's bytes;
// temp NULL: *temp_bytes = what it needs. Returns a cudaError_t.
typedef int (*tune_cub_fn)(const void *const *ins, unsigned long long n, void *out, void *temp,
                           size_t *temp_bytes, const unsigned long long *params, void *stream);
typedef struct tune_cub tune_cub;
// Starts nvcc on DIR/cub_source (which includes DIR/cuda_source) for sm_XY
// in the background, unless the compile cache (tgm_compile's cache_dir
// argument) holds the library already. Errors: TGM_ERR_NOT_FOUND (no nvcc),
// TGM_ERR_IO.
tgm_status tune_cub_start(const char *dir, const char *cub_source, const char *cuda_source,
                          int cc_major, int cc_minor, const char *cache, tune_cub **out);
// Waits for nvcc and loads the library. TGM_ERR_COMPILE with nvcc's first
// error, TGM_ERR_IO.
tgm_status tune_cub_finish(tune_cub *b, tune_cub_fn *fn);
const char *tune_cub_command(const tune_cub *b); // the nvcc command line
int tune_cub_cached(const tune_cub *b);          // 1: found in the cache, no nvcc ran
void tune_cub_free(tune_cub *b);                 // stops nvcc if it still runs

// ---------------------------------------------------------------- report.c
typedef struct {
  const tune_key *key;
  const tune_result *rows;
  int n_rows;
  const char *command;
  const char *const *excluded; // "ID knobs: why"
  int n_excluded;
  double tune_seconds, compile_seconds;
  int n_variants, n_settings, n_measured;
  const char *spectrum; // the manifest's name: sum, dot, count_if, ...
  const char *meaning;  // what it computes, in a line (NULL: a plain fold)
  const char *cub_note; // why there is no CUB column (NULL: there is one, or none was asked)
  const char *cub_what; // the CUB program timed: NAME_TYPE.cub.cu, libtgm_cub.so
  double noise;         // the run-to-run noise a margin must exceed (--noise)
  double noise_large;   // tune_noise_at's figure from 2^TUNE_NOISE_LARGE_LOG2 on (< noise: said)
  double peak_gbps;     // the device's memory bandwidth (tgm_device_info); 0: unknown
} tune_report;

// Writes DIR/report-SPECTRUM-TYPE-MODE.md and DIR/plot-SPECTRUM-TYPE-MODE.svg
// (several spectra of one operator and type share a folder).
tgm_status tune_report_write(const char *dir, const tune_report *r);
// Prints the table to f.
void tune_report_table(void *file, const tune_report *r);

#endif

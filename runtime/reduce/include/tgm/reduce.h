// reduce.h — tgm_reduce: one call that reduces a device array with the
// kernel the tuner chose for this GPU, compiled at run time by libtgm.
//
//   tgm_ctx *ctx;
//   if (tgm_ctx_create(&ctx, NULL) != TGM_OK) { puts(tgm_last_error()); ... }
//   tgm_reduce(ctx, TGM_OP_SUM, TGM_TYPE_I32, d_in, n, d_out, stream); // d_out[0] = sum
//   ...
//   tgm_ctx_destroy(ctx);
//
// On the first call for an (op, type) the context reads the manifest
// DATA_DIR/OP_TYPE.json (tgm-gen's output: OP_TYPE.cu beside it), looks the
// GPU up in the tuning database (tgm-tune's file: device name, type, op,
// mode "stream", the manifest's source hash) and, for the size bucket of n,
// compiles the winning variant with NVRTC (and its pass-2 / tgm_init
// kernels; libtgm's disk cache makes later runs fast). With no database, or
// no entry for this GPU and these codelets, it uses the default: DSL.VS.SV,
// block 256, 1 item per thread, at most 4 blocks per SM (see reduce.c).
//
// Semantics: d_out[0] = op over d_in[0..n); n = 0 writes the operator's
// identity (0, the lowest or the highest value); n beyond 2^32 works. d_in
// and d_out must be device pointers aligned to the element size (else
// TGM_ERR_INVALID); vector loads cover only the 16-byte aligned body. The
// call enqueues on `stream` (a CUstream / cudaStream_t; NULL: the default
// stream) and does not wait for the GPU, except when the context's temp
// storage must grow (it then waits for `stream` before freeing the old
// buffer).
//
// A context is NOT thread-safe and is for one stream at a time: its temp
// storage (the partials and the last-block counter, which starts at zero and
// which every kernel leaves at zero) is shared by all its calls. Use one
// context per stream (or per thread). Use it on a thread where the device's
// primary context is current (the thread that created it, or any thread
// that uses the CUDA runtime on that device).
//
// Every function returns a tgm_status; tgm_last_error() holds the detail.
// Nothing here prints or exits.
#ifndef TGM_REDUCE_H
#define TGM_REDUCE_H

#include "tgm/tgm.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tgm_ctx tgm_ctx;

typedef enum { TGM_OP_SUM, TGM_OP_MAX, TGM_OP_MIN } tgm_op;

// The manifests shipped in generated/ cover i32 and f32; the other types
// work when DATA_DIR holds their manifest and source
// (tgm-gen --type=u32,i64,f64 -o DATA_DIR codelets/sum.tgm).
typedef enum { TGM_TYPE_I32, TGM_TYPE_F32, TGM_TYPE_U32, TGM_TYPE_I64, TGM_TYPE_F64 } tgm_type;

// Zero-initialise, then set what you need; NULL options = all defaults.
typedef struct {
  // Folder with OP_TYPE.json + OP_TYPE.cu. NULL: $TGM_DATA_DIR, else the
  // first that exists of: EXE_DIR/../share/tgm/generated, the configured
  // install prefix's share/tgm/generated, the source tree's generated/.
  const char *data_dir;
  // tgm-tune's database. NULL: $TGM_DB, else
  // $XDG_CACHE_HOME/tgm/tgm-tune.db.json, else ~/.cache/tgm/tgm-tune.db.json.
  // A missing file means "no database" (defaults); "" means no database.
  // A corrupt or foreign file is an error (TGM_ERR_DB_CORRUPT / _FOREIGN).
  const char *db_path;
  // Compiled-kernel cache. NULL: libtgm's default ($TGM_CACHE_DIR, else
  // $XDG_CACHE_HOME/tgm, else ~/.cache/tgm); "": no cache.
  const char *cache_dir;
  int device;        // CUDA device index (default 0)
  int deterministic; // nonzero: only variants that give the same bits on
                     // every run (database entries tuned --deterministic,
                     // else the default, which is deterministic)
} tgm_ctx_options;

// Opens the database (if any) and the CUDA device. Errors: TGM_ERR_INVALID
// (out NULL, data_dir not a folder), TGM_ERR_DB_CORRUPT, TGM_ERR_DB_FOREIGN,
// TGM_ERR_IO, TGM_ERR_NO_DRIVER (no libcuda.so.1), TGM_ERR_NO_DEVICE,
// TGM_ERR_NO_COMPILER (no NVRTC). *out is NULL on failure.
tgm_status tgm_ctx_create(tgm_ctx **out, const tgm_ctx_options *opt);
// Frees the temp storage and unloads the kernels (no wait for the GPU: the
// caller must know that no call of this context is still running).
void tgm_ctx_destroy(tgm_ctx *ctx);

// d_out[0] = op over d_in[0..n) of `type`, enqueued on `stream`. Errors:
// TGM_ERR_INVALID (NULL or misaligned pointer, d_out inside the input, unknown op or type),
// TGM_ERR_NOT_FOUND (no manifest for op/type in the data dir),
// TGM_ERR_MANIFEST, TGM_ERR_IO, TGM_ERR_COMPILE, TGM_ERR_DEVICE,
// TGM_ERR_MEMORY. A failure to load an (op, type) is not remembered: the
// next call tries again.
tgm_status tgm_reduce(tgm_ctx *ctx, tgm_op op, tgm_type type, const void *d_in, size_t n,
                      void *d_out, void *stream);

// Compiles now, in parallel, every kernel (op, type) may use (each size
// bucket's winner and the default), so that no later tgm_reduce compiles.
tgm_status tgm_reduce_prepare(tgm_ctx *ctx, tgm_op op, tgm_type type);

// What tgm_reduce would run for n (compiles nothing; reads the manifest).
typedef struct {
  char variant[64]; // "DSL.VS.SV"
  unsigned block, items;
  unsigned grid_cap_per_sm; // 0: the variant's grid is not capped
  int tuned;                // 1: the database's winner for n, 0: the default
  char why[768];            // where the choice comes from, or why the default
} tgm_reduce_choice;
tgm_status tgm_reduce_explain(tgm_ctx *ctx, tgm_op op, tgm_type type, size_t n,
                              tgm_reduce_choice *out);

// ------------------------------------------------------- rows and columns
// A row-major m x n matrix, row r at d_in + r * ld elements (ld >= n):
//   tgm_reduce_rows: d_out[r] = op over row r, for r < m;
//   tgm_reduce_cols: d_out[j] = op over column j, for j < n.
// The manifests are DATA_DIR/rows/OP_TYPE_rows.json and
// DATA_DIR/cols/OP_TYPE_cols.json (tgm-gen --rows / --cols, shipped for
// sum, max, min x i32, f32). What runs for m x n: the setting tgm-tune
// chose for the cell of (m, n) on this GPU (the database's entry of shape
// "rows" or "cols", matched as for tgm_reduce), where it can run on this
// shape within the embedded call's temp storage; else the rule the
// embedded call runs (templates/launch_rule.tpl's tgm_rows_pick_of,
// tgm_cols_pick_of, from the GPU's SM count and threads a block): the same
// kernel as `tgm-gen --rows|--cols --embed[=DB]`'s header. Each kernel is
// checked at its first use as tgm_reduce's are (on small matrices: one
// element, ld > n, misaligned starts, 4097-long rows or 4097 rows, run twice).
// m = 0 (rows) or n = 0 (columns) writes nothing; n = 0 (rows) or m = 0
// (columns) writes the operator's identity to every output. d_in and d_out
// need the element size's alignment; ld < n is TGM_ERR_INVALID. The temp
// storage is the context's (rows and columns share its counters, which every
// kernel leaves zero: no memset), so the call is one launch on `stream`, or
// two where the parts of a column or the blocks of a row combine with
// atomics (CA.SV, RA: tgm_init_out sets d_out to the identity first); a
// deterministic context keeps CT.SV and RL where those atomics would round
// floats differently from run to run.
tgm_status tgm_reduce_rows(tgm_ctx *ctx, tgm_op op, tgm_type type, const void *d_in, size_t m,
                           size_t n, size_t ld, void *d_out, void *stream);
tgm_status tgm_reduce_cols(tgm_ctx *ctx, tgm_op op, tgm_type type, const void *d_in, size_t m,
                           size_t n, size_t ld, void *d_out, void *stream);
// Compiles and checks now, in parallel, the kernels of every tuned cell and
// the rule's choices over m and n at the powers of two to 2^40, their
// neighbours and multiples of the SM count (call it before capturing a
// graph: a first use cannot compile inside a capture).
tgm_status tgm_reduce_rows_prepare(tgm_ctx *ctx, tgm_op op, tgm_type type);
tgm_status tgm_reduce_cols_prepare(tgm_ctx *ctx, tgm_op op, tgm_type type);
// What would run for m x n (compiles nothing; reads the manifest).
typedef struct {
  char variant[64]; // "RL.VS.SV", "CT.SV"
  unsigned block, items;
  unsigned per_row;      // RW: threads a row; RL, RA: blocks a row; else 0
  unsigned width, parts; // CT, CA: columns (or groups of columns) a block, blocks down the rows
  int tuned;             // 1: the database's cell, 0: the rule
  char why[1024];
} tgm_reduce_shape_choice;
tgm_status tgm_reduce_rows_explain(tgm_ctx *ctx, tgm_op op, tgm_type type, size_t m, size_t n,
                                   tgm_reduce_shape_choice *out);
tgm_status tgm_reduce_cols_explain(tgm_ctx *ctx, tgm_op op, tgm_type type, size_t m, size_t n,
                                   tgm_reduce_shape_choice *out);

// ------------------------------------------------------------ any spectrum
// Any spectrum tgm-gen made: DATA_DIR/SPECTRUM_TYPE.json and its .cu (for
// the shipped codelets beyond sum, max and min:
//   tgm-gen --type=f32 -o DATA_DIR codelets/sumsq.tgm).
// d_out[0] = the spectrum over d_ins[0..n_inputs), n elements of `type`
// each, with its scalar parameters: params[k] points to parameter k's
// value, of the type its codelet declares (NULL and 0 when it takes none).
// The result has the spectrum's own type (tgm_reduce_spectrum_info: its
// bytes; a pair {uint64_t index; T value} for argmax and argmin). The
// tuning database's entry for this GPU and the manifest's source hash is
// used (the parameters' values do not change the choice); n = 0 writes the
// empty reduction's result. Errors as tgm_reduce, and TGM_ERR_INVALID for a
// spectrum name that is not letters, digits and '_', or counts of inputs or
// parameters other than the manifest's.
tgm_status tgm_reduce_spectrum(tgm_ctx *ctx, const char *spectrum, tgm_type type,
                               const void *const *d_ins, int n_inputs, size_t n,
                               const void *const *params, int n_params, void *d_out, void *stream);
tgm_status tgm_reduce_spectrum_prepare(tgm_ctx *ctx, const char *spectrum, tgm_type type);
tgm_status tgm_reduce_spectrum_explain(tgm_ctx *ctx, const char *spectrum, tgm_type type, size_t n,
                                       tgm_reduce_choice *out);

enum { TGM_SPECTRUM_MAX_PARAMS = 8 };
typedef struct {
  int n_inputs, n_params;
  size_t result_bytes; // what d_out[0] holds
  char param_names[TGM_SPECTRUM_MAX_PARAMS][64];
  size_t param_bytes[TGM_SPECTRUM_MAX_PARAMS];
  char meaning[512]; // "sum of f(x) = x * x" ...
} tgm_spectrum_info;
// What a spectrum takes and gives (reads its manifest; compiles nothing).
tgm_status tgm_reduce_spectrum_info(tgm_ctx *ctx, const char *spectrum, tgm_type type,
                                    tgm_spectrum_info *out);

// Rows and columns of any spectrum tgm-gen made with --rows / --cols:
// DATA_DIR/rows/SPECTRUM_TYPE_rows.json (and cols/...), its inputs (each an
// m x n matrix with the same ld), parameters and result type as for
// tgm_reduce_spectrum; d_out[r] (rows) or d_out[j] (columns) is the
// spectrum's result over that row or column (argmax: the index within it).
// Errors, the choice and the first-use check as for tgm_reduce_rows.
tgm_status tgm_reduce_spectrum_rows(tgm_ctx *ctx, const char *spectrum, tgm_type type,
                                    const void *const *d_ins, int n_inputs, size_t m, size_t n,
                                    size_t ld, const void *const *params, int n_params, void *d_out,
                                    void *stream);
tgm_status tgm_reduce_spectrum_cols(tgm_ctx *ctx, const char *spectrum, tgm_type type,
                                    const void *const *d_ins, int n_inputs, size_t m, size_t n,
                                    size_t ld, const void *const *params, int n_params, void *d_out,
                                    void *stream);
tgm_status tgm_reduce_spectrum_rows_prepare(tgm_ctx *ctx, const char *spectrum, tgm_type type);
tgm_status tgm_reduce_spectrum_cols_prepare(tgm_ctx *ctx, const char *spectrum, tgm_type type);

#ifdef __cplusplus
}
#endif
#endif

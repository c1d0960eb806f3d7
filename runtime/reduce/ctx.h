// ctx.h — tgm_reduce's context and its (spectrum, type) state, shared by
// reduce.c (the context, loading, compiling and checking kernels on first
// use, the temp storage, the 1-D calls) and shapes.c (the row and column
// calls). Internal to libtgm_reduce: not installed.
#ifndef TGM_REDUCE_CTX_H
#define TGM_REDUCE_CTX_H
#include "plan.h"

enum { COUNTER_BYTES = 16 }; // the 1-D last-block counter

_Static_assert((int)TGM_SPECTRUM_MAX_PARAMS == (int)TUNE_MAX_PARAMS,
               "tgm_spectrum_info holds every parameter");

// What a compiled kernel is compiled for: variant v at block, a row
// variant's threads a row (GROUP, else 0) and the loads in flight of a
// kernel compiled for them (tune_variant_items, else 0).
typedef struct {
  int v;
  unsigned block, group, items;
} rd_key;

typedef struct {
  rd_key key;
  tgm_module *mod;
  tgm_function pos[4], zero[2];
  int checked;   // the first-use check (check_kernel): 0 not yet, 1 passed, -1 failed
  char why[640]; // why it failed
} rd_kernel;

typedef struct {
  char name[RD_MAX_NAME + 1]; // the spectrum: sum, dot, count_if, ...
  int type;
  tune_shape shape; // 1-D, rows or columns
  tune_manifest m;
  rd_plan plan;   // 1-D: the size buckets
  rd_cells cells; // rows and columns: the tuned cells
  rd_kernel *k;
  int nk, capk;
  tgm_module *ref_mod; // the reference kernel, compiled unoptimized (check_kernel)
  tgm_function ref_fn;
  unsigned ref_block;
} rd_opstate;

struct tgm_ctx {
  tgm_backend *b;
  const tgm_device_info *info;
  rd_device dev;
  char *data_dir; // NULL: none found
  char data_why[1024];
  char *cache_dir; // NULL: libtgm's default
  json_t *db;
  char db_why[1024];
  // rows and columns: the database's entries of that shape, read at the
  // first use of the shape
  char *db_path;
  json_t *db_shape[2];
  char db_shape_why[2][1024];
  int db_shape_read[2];
  rd_opstate **spectra; // each (spectrum, type) loaded so far
  int n_spectra;
  tgm_devptr temp;
  size_t temp_bytes;
  // the first-use check's own stream and buffer (never the caller's)
  tgm_stream check_s;
  tgm_devptr check_buf;
  size_t check_bytes;
  uint64_t check_rng;
};

// The counters at the start of the temp storage: the 1-D counter (its first
// 16 bytes) and the row and column counters (a word each, up to
// TGM_ROWS_PARTS_MAX: the embedded row call's layout, launch_rule.tpl),
// zeroed when the buffer is allocated and left zero by every kernel; the
// partials follow them.
size_t rd_counters_bytes(void);

// Loads (name, type) for a shape once: its manifest, its plan (1-D) or
// cells (rows, columns); plain_op: the operator a plain fold must have
// (tgm_reduce's op), NULL any. Errors name who asked.
tgm_status rd_load_spectrum(tgm_ctx *c, const char *who, const char *name, int type,
                            const char *plain_op, tune_shape shape, rd_opstate **out);
// rd_load_spectrum for tgm_reduce's own ops (sum, max, min).
tgm_status rd_load_op(tgm_ctx *c, const char *who, int op, int type, tune_shape shape,
                      rd_opstate **out);
// The kernel of that key compiled so far, or NULL.
rd_kernel *rd_find_kernel(rd_opstate *st, rd_key key);
// Compiles n kernels in parallel, an NVRTC job each.
tgm_status rd_compile(tgm_ctx *c, rd_opstate *st, const rd_key *keys, int n);
// The reference kernel of st, compiled without optimization (the checks').
tgm_status rd_reference_for(tgm_ctx *c, rd_opstate *st);
// The first-use check's stream and at least need bytes of its buffer.
tgm_status rd_check_space(tgm_ctx *c, size_t need);
// The end of a first-use check (1-D, rows or columns) and what a later use
// of k returns.
tgm_status rd_checked_status(rd_kernel *k, tgm_status s);
// Makes the temp buffer at least need bytes; a new buffer's counters are
// zeroed on the stream, before the launches that use them.
tgm_status rd_grow_temp(tgm_ctx *c, size_t need, tgm_stream stream);
#endif

// plan.h — tgm_reduce's internal header: the choice of kernel per size
// bucket from the manifest and the tuning database (plan.c, no device
// needed, so the unit tests call it directly) and the argument checks.
#ifndef TGM_REDUCE_PLAN_H
#define TGM_REDUCE_PLAN_H

#include "tgm/reduce.h"
#include "tune.h"
#include <jansson.h>

typedef struct {
  int from, to;               // floor(log2 n) range
  int v;                      // variant index in the manifest
  unsigned block, items, cap; // cap: grid_cap_per_sm, 0 when the variant has none
  int tuned;                  // 1: the database's winner; 0: the default
  char why[768];
} rd_bucket;

typedef struct {
  rd_bucket *b; // sorted, disjoint; n == 0: the default for every n
  int n;
  rd_bucket def; // the default (DSL.VS.SV b256 i1 c4, see plan.c)
  char why[512]; // which entry was used, or why none
} rd_plan;

// What the database is matched against (tgm_device_info's fields).
typedef struct {
  const char *name; // "NVIDIA H100 80GB HBM3"
  int cc_major, cc_minor, sm_count, driver;
  const char *compiler; // "nvrtc 13.0"
  int deterministic;    // only entries tuned --deterministic
  int max_threads;      // threads a block (the row rule reads it)
  unsigned sm_gbps;     // a SM's share of the memory bandwidth, GB/s (tune_sm_gbps; 0 unknown)
} rd_device;

// "sum", "max", "min"; "i32", "f32", ...; NULL when out of range.
const char *rd_op_name(int op);
const char *rd_type_name(int type);
size_t rd_type_size(int type); // 0 when out of range

// Loads a tuning database's entries of `shape` (NULL: the 1-D reduction's;
// "rows"; "cols"). NULL path or "": *out = NULL, why says so. A
// missing file: *out = NULL (not an error). A file that is not JSON:
// TGM_ERR_DB_CORRUPT; not a tgm database: TGM_ERR_DB_FOREIGN (tgm_tune's
// checks, tune_db_open).
tgm_status rd_db_load(const char *path, const char *shape, json_t **out, char *why, size_t why_len);

// Builds the plan of a manifest for a device. db may be NULL (db_why says
// why). Fails (TGM_ERR_MANIFEST) only when the manifest has no variant the
// device can run.
tgm_status rd_plan_make(const tune_manifest *m, const char *op, json_t *db, const char *db_why,
                        const rd_device *d, rd_plan *out);
void rd_plan_free(rd_plan *p);
// The bucket for n (n = 0 counts as 1).
const rd_bucket *rd_plan_pick(const rd_plan *p, unsigned long long n);
int rd_log2(unsigned long long n); // floor(log2 n), 0 for n <= 1

// ------------------------------------------------------ rows and columns
// The tuned cells of a row or column manifest on a device: the database's
// entry (as for the 1-D buckets: type, op, device, source hash; mode "one",
// what tgm-tune writes for shapes, or "both" / "stream"), each cell
// 2^log2m x 2^log2n with its setting, checked against the manifest (the
// variant runs here, its knobs are among the variant's); a cell that is not
// usable is dropped (why says how many).
typedef struct {
  int log2m, log2n;
  tune_shape_set k;
} rd_cell;
typedef struct {
  rd_cell *c;
  int n;
  char why[768]; // the entry used, or why none; cells dropped
} rd_cells;
tgm_status rd_cells_make(const tune_manifest *m, const char *op, json_t *db, const char *db_why,
                         const rd_device *d, rd_cells *out);
void rd_cells_free(rd_cells *p);
// What runs for rows x n (the matrix at in_addr): the setting of the
// tuned cell of (tune_shape_cell(rows), tune_shape_cell(n)) where it can
// run on that shape within the embedded call's temp storage
// (tune_shape_set_grid), as the embedded header with --embed=DB runs it;
// else the rule's (tune_shape_rule). *tuned: 1 for a tuned cell. why: the
// choice in words (NULL: none, for the calls). TGM_ERR_MANIFEST when the manifest names no variant the
// device can run for the rule's kind.
tgm_status rd_cells_pick(const rd_cells *p, const tune_manifest *m, const rd_device *d,
                         unsigned long long rows, unsigned long long n, uint64_t in_addr,
                         unsigned long long ld, tune_shape_set *k, int *tuned, char *why,
                         size_t why_len);
// A setting in words: "RL.V.SV b1024 i4 r2" (rows), "CT.SV b512 w32 p4".
void rd_set_text(const tune_manifest *m, const tune_shape_set *k, char *buf, size_t len);

// tgm_reduce's argument checks (TGM_OK or TGM_ERR_INVALID with the detail).
tgm_status rd_check_args(int op, int type, const void *d_in, size_t n, const void *d_out);

// A spectrum's name is a file name in the data folder: letters, digits and
// '_' only (no path), 1..RD_MAX_NAME characters.
enum { RD_MAX_NAME = 48 };
int rd_good_name(const char *s);
// tgm_reduce_spectrum's argument checks against the manifest: the counts of
// inputs and parameters, NULL and misaligned pointers (inputs: the element
// size; d_out: the result's, at most 8). TGM_OK or TGM_ERR_INVALID naming
// `who` and the argument.
tgm_status rd_check_spectrum_args(const tune_manifest *m, const char *who, const void *const *d_ins,
                                  int n_inputs, size_t n, const void *const *params, int n_params,
                                  const void *d_out);
// d_out's out_bytes inside one of the inputs' in_bytes: TGM_ERR_INVALID
// naming `who` (launch_rule.tpl's tgm_overlaps, as the embedded calls).
tgm_status rd_check_overlap(const char *who, const void *const *d_ins, int n_inputs,
                            unsigned long long in_bytes, const void *d_out,
                            unsigned long long out_bytes);

#include "../src/internal.h" // tgm__fail, tgm__read_file

#endif

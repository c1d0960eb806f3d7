// fuzz_db.c — libFuzzer target: the tuning database's readers. tgm-tune's
// (tune_db_open, then a lookup, a put and a finish, which lock, re-read,
// merge and rewrite the file) and tgm_reduce's (rd_db_load and
// rd_plan_make against the shipped sum/i32 manifest; for rows, rd_cells_make
// and rd_cells_pick against the shipped sum/f32 row manifest).
#include "fuzz_input.h"
#include "plan.h"
#include "tune.h"
#include <stdlib.h>
#include <string.h>

static tune_manifest manifest, rows_manifest;
static int have_manifest, have_rows;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  fuzz_path_init("db");
  have_manifest = tune_manifest_read(TGM_FUZZ_MANIFEST, &manifest) == TGM_OK;
  have_rows = tune_manifest_read(TGM_FUZZ_ROWS_MANIFEST, &rows_manifest) == TGM_OK;
  return 0;
}

static tune_key key(void) {
  tune_key k = {0};
  snprintf(k.device, sizeof k.device, "NVIDIA H100 80GB HBM3");
  snprintf(k.cc, sizeof k.cc, "9.0");
  k.sm_count = 132;
  k.driver = 13000;
  snprintf(k.compiler, sizeof k.compiler, "nvrtc 13.0");
  snprintf(k.type, sizeof k.type, "i32");
  snprintf(k.op, sizeof k.op, "sum");
  snprintf(k.mode, sizeof k.mode, "stream");
  snprintf(k.source_hash, sizeof k.source_hash, "%s", have_manifest ? manifest.source_hash : "x");
  return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_write(data, size) != 0)
    return 0;
  // tgm_reduce's reader and plan
  json_t *root = NULL;
  char why[512];
  rd_device d = {"NVIDIA H100 80GB HBM3", 9, 0, 132, 13000, "nvrtc 13.0", (int)(size & 1), 1024, 0};
  if (rd_db_load(fuzz_path, NULL, &root, why, sizeof why) == TGM_OK && root && have_manifest) {
    rd_plan p;
    if (rd_plan_make(&manifest, "sum", root, why, &d, &p) == TGM_OK) {
      for (int l = 0; l < 64; l += 7)
        (void)rd_plan_pick(&p, 1ull << l);
      rd_plan_free(&p);
    }
  }
  json_decref(root);
  // and its row cells
  root = NULL;
  if (rd_db_load(fuzz_path, "rows", &root, why, sizeof why) == TGM_OK && root && have_rows) {
    rd_cells cells;
    if (rd_cells_make(&rows_manifest, "sum", root, why, &d, &cells) == TGM_OK) {
      for (int lm = 0; lm < 40; lm += 5)
        for (int ln = 0; ln < 40; ln += 3) {
          tune_shape_set k;
          int tuned;
          char text[1024];
          (void)rd_cells_pick(&cells, &rows_manifest, &d, 1ull << lm, 1ull << ln, 16, 1ull << ln,
                              &k, &tuned, text, sizeof text);
        }
      rd_cells_free(&cells);
    }
  }
  json_decref(root);
  // tgm-tune's: read, look up, write one result back, merge the buckets
  tune_db *db;
  if (tune_db_open(fuzz_path, &db) != TGM_OK)
    return 0;
  tune_key k = key();
  tune_result r;
  for (int l = 0; l < 40; l += 3)
    (void)tune_db_get(db, &k, l, &r);
  (void)tune_db_entries(db);
  tune_result x = {0};
  x.log2n = (int)(size % 41);
  snprintf(x.variant, sizeof x.variant, "DSL.VS.SV");
  x.block = 256, x.items = 4, x.cap = 4;
  x.us = 10, x.us_p25 = 9, x.us_p75 = 11, x.gbps = 100, x.cub_us = 12;
  if (tune_db_put(db, &k, &x) == TGM_OK)
    (void)tune_db_finish(db, &k);
  tune_db_close(db);
  return 0;
}

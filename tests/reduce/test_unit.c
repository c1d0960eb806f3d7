// test_unit.c — tgm_reduce without a GPU: context creation (the documented
// status where there is no driver; bad options and bad databases first),
// argument checks, and the choice of kernel per size from the H100 tuning
// database (bench/results/2026-11-22-h100/tgm-tune.db.json) and the
// fallback to the default; for rows and columns the tuned cells of the H100
// shapes database (bench/results/2026-11-26-tune-shapes/h100) and of the
// embed tests' fixture (tests/embed/fixture-shapes.db.json), and the rule.
//   test_reduce_unit GENERATED_DIR H100_DB H100_SHAPES_DB FIXTURE_SHAPES_DB
#include "../check.h"
#include "plan.h"
#include "tgm/reduce_spectra.h" // the generated typed calls compile as C17 with -Werror
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static const char *gen, *h100db, *shapesdb, *fixturedb;
static char tmpdir[] = "/tmp/tgm-reduce-unit-XXXXXX";

static const rd_device H100 = {"NVIDIA H100 80GB HBM3", 9, 0, 132, 13000, "nvrtc 13.0", 0, 1024, 0};

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  fputs(text, f);
  fclose(f);
}

// As libtgm decides: can libcuda.so.1 be loaded?
static int have_driver(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h)
    dlclose(h);
  return h != NULL;
}

static void test_ctx_create(void) {
  CHECK_EQ_INT(tgm_ctx_create(NULL, NULL), TGM_ERR_INVALID);
  tgm_ctx *ctx = (tgm_ctx *)1;
  tgm_ctx_options o = {0};
  o.data_dir = "/nonexistent/tgm";
  CHECK_EQ_INT(tgm_ctx_create(&ctx, &o), TGM_ERR_INVALID);
  CHECK(ctx == NULL);
  CHECK_HAS(tgm_last_error(), "/nonexistent/tgm");

  // bad databases are reported before the device is opened
  char path[256];
  o = (tgm_ctx_options){0};
  o.data_dir = gen;
  snprintf(path, sizeof path, "%s/corrupt.json", tmpdir);
  write_text(path, "{\"tgm_db\": 1, \"entries\": [");
  o.db_path = path;
  CHECK_EQ_INT(tgm_ctx_create(&ctx, &o), TGM_ERR_DB_CORRUPT);
  CHECK_HAS(tgm_last_error(), "corrupt");
  snprintf(path, sizeof path, "%s/foreign.json", tmpdir);
  write_text(path, "{\"something\": \"else\"}\n");
  CHECK_EQ_INT(tgm_ctx_create(&ctx, &o), TGM_ERR_DB_FOREIGN);
  snprintf(path, sizeof path, "%s/newer.json", tmpdir);
  write_text(path, "{\"tgm_db\": 2, \"entries\": []}\n");
  CHECK_EQ_INT(tgm_ctx_create(&ctx, &o), TGM_ERR_DB_FOREIGN);
  CHECK(ctx == NULL);

  // a missing database is no error; without a driver: TGM_ERR_NO_DRIVER
  snprintf(path, sizeof path, "%s/missing.json", tmpdir);
  tgm_status s = tgm_ctx_create(&ctx, &o);
  if (!have_driver()) {
    CHECK_EQ_INT(s, TGM_ERR_NO_DRIVER);
    CHECK(ctx == NULL);
    CHECK_HAS(tgm_last_error(), "no CUDA driver");
    printf("no driver: tgm_ctx_create -> %s (%s)\n", tgm_strerror(s), tgm_last_error());
  } else {
    CHECK(s == TGM_OK || s == TGM_ERR_NO_DEVICE || s == TGM_ERR_NO_COMPILER);
    printf("driver present: tgm_ctx_create -> %s\n", tgm_strerror(s));
    tgm_ctx_destroy(ctx);
  }
  // the same through the environment (TGM_DB, TGM_DATA_DIR)
  setenv("TGM_DB", tmpdir, 1); // a folder: not JSON
  setenv("TGM_DATA_DIR", gen, 1);
  s = tgm_ctx_create(&ctx, NULL);
  CHECK(s == TGM_ERR_IO || s == TGM_ERR_DB_CORRUPT);
  unsetenv("TGM_DB");
  unsetenv("TGM_DATA_DIR");
  tgm_ctx_destroy(NULL); // harmless
}

static void read_manifest(int op, int type, tune_manifest *m);

static void test_args(void) {
  int dummy = 0;
  CHECK_EQ_INT(tgm_reduce(NULL, TGM_OP_SUM, TGM_TYPE_I32, &dummy, 1, &dummy, NULL),
               TGM_ERR_INVALID);
  CHECK_EQ_INT(tgm_reduce_prepare(NULL, TGM_OP_SUM, TGM_TYPE_I32), TGM_ERR_INVALID);
  tgm_reduce_choice ch;
  CHECK_EQ_INT(tgm_reduce_explain(NULL, TGM_OP_SUM, TGM_TYPE_I32, 1, &ch), TGM_ERR_INVALID);
  const void *in = (const void *)0x10000, *out = (void *)0x20000;
  CHECK_EQ_INT(rd_check_args(TGM_OP_SUM, TGM_TYPE_I32, in, 5, out), TGM_OK);
  CHECK_EQ_INT(rd_check_args(3, TGM_TYPE_I32, in, 5, out), TGM_ERR_INVALID);
  CHECK_HAS(tgm_last_error(), "unknown op");
  CHECK_EQ_INT(rd_check_args(-1, TGM_TYPE_I32, in, 5, out), TGM_ERR_INVALID);
  CHECK_EQ_INT(rd_check_args(TGM_OP_MAX, 5, in, 5, out), TGM_ERR_INVALID);
  CHECK_HAS(tgm_last_error(), "unknown type");
  CHECK_EQ_INT(rd_check_args(TGM_OP_SUM, TGM_TYPE_F32, in, 5, NULL), TGM_ERR_INVALID);
  CHECK_EQ_INT(rd_check_args(TGM_OP_SUM, TGM_TYPE_F32, NULL, 5, out), TGM_ERR_INVALID);
  CHECK_EQ_INT(rd_check_args(TGM_OP_SUM, TGM_TYPE_F32, NULL, 0, out), TGM_OK); // n = 0: no input
  for (int off = 1; off < 4; off++) {
    CHECK_EQ_INT(rd_check_args(TGM_OP_MIN, TGM_TYPE_F32, (const char *)in + off, 5, out),
                 TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "not aligned to 4 bytes");
    CHECK_EQ_INT(rd_check_args(TGM_OP_MIN, TGM_TYPE_I32, in, 5, (char *)out + off),
                 TGM_ERR_INVALID);
  }
  CHECK_EQ_INT(rd_check_args(TGM_OP_SUM, TGM_TYPE_I64, (const char *)in + 4, 5, out),
               TGM_ERR_INVALID);
  CHECK_HAS(tgm_last_error(), "8 bytes");
  CHECK_EQ_INT(rd_check_args(TGM_OP_SUM, TGM_TYPE_I64, (const char *)in + 8, 5, out), TGM_OK);
  // d_out inside an input (in place): refused; just past it, or n = 0, not
  const void *ins[2] = {(const char *)in + 4096, in};
  CHECK_EQ_INT(rd_check_overlap("t", ins, 2, 5 * 4, (const char *)in + 16, 4), TGM_ERR_INVALID);
  CHECK_HAS(tgm_last_error(), "overlaps input 1");
  CHECK_EQ_INT(rd_check_overlap("t", ins, 2, 5 * 4, (const char *)in + 17, 4), TGM_ERR_INVALID);
  CHECK_EQ_INT(rd_check_overlap("t", ins, 2, 5 * 4, (const char *)in - 3, 4), TGM_ERR_INVALID);
  CHECK_EQ_INT(rd_check_overlap("t", ins, 2, 5 * 4, (const char *)in + 20, 4), TGM_OK);
  CHECK_EQ_INT(rd_check_overlap("t", ins, 2, 5 * 4, (const char *)in - 4, 4), TGM_OK);
  CHECK_EQ_INT(rd_check_overlap("t", ins, 2, 0, in, 4), TGM_OK);
  // a row call's m outputs reaching into the matrix
  CHECK_EQ_INT(rd_check_overlap("t", ins, 1, 64 * 4, (const char *)in + 4096 - 8, 3 * 4),
               TGM_ERR_INVALID);
  // any spectrum: the name is a file name, nothing else
  CHECK(rd_good_name("count_if") && rd_good_name("Sum2"));
  CHECK(!rd_good_name("") && !rd_good_name(NULL) && !rd_good_name("../sum") &&
        !rd_good_name("sum.json") && !rd_good_name("a b") &&
        !rd_good_name("a234567890123456789012345678901234567890123456789")); // 49: too long
  CHECK(rd_good_name("a23456789012345678901234567890123456789012345678"));   // 48
  CHECK_EQ_INT(tgm_reduce_spectrum(NULL, "sum", TGM_TYPE_I32, NULL, 0, 0, NULL, 0, &dummy, NULL),
               TGM_ERR_INVALID);
  CHECK_HAS(tgm_last_error(), "ctx is NULL");
  CHECK_EQ_INT(tgm_reduce_dot_f32(NULL, NULL, NULL, 0, NULL, NULL), TGM_ERR_INVALID);
  CHECK_EQ_INT(tgm_reduce_spectrum_prepare(NULL, "dot", TGM_TYPE_F32), TGM_ERR_INVALID);
  CHECK_EQ_INT(tgm_reduce_spectrum_explain(NULL, "dot", TGM_TYPE_F32, 1, &ch), TGM_ERR_INVALID);
  tgm_spectrum_info info;
  CHECK_EQ_INT(tgm_reduce_spectrum_info(NULL, "dot", TGM_TYPE_F32, &info), TGM_ERR_INVALID);
  {
    // the checks against the manifest (sum i32: one input, no parameter)
    tune_manifest m;
    read_manifest(TGM_OP_SUM, TGM_TYPE_I32, &m);
    const void *ins[2] = {in, in};
    int p = 3;
    const void *ps[1] = {&p};
    const char *w = "tgm_reduce_spectrum";
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, ins, 1, 5, NULL, 0, out), TGM_OK);
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, ins, 2, 5, NULL, 0, out), TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "sum takes 1 input(s) and 0 parameter(s), not 2 and 0");
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, ins, 1, 5, ps, 1, out), TGM_ERR_INVALID);
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, ins, 1, 5, NULL, 0, NULL), TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "d_out is NULL");
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, ins, 1, 5, NULL, 0, (char *)out + 2),
                 TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "not aligned to 4 bytes (sum's result)");
    const void *bad[1] = {(const char *)in + 1}, *none[1] = {NULL};
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, bad, 1, 5, NULL, 0, out), TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "input 0 at");
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, none, 1, 5, NULL, 0, out), TGM_ERR_INVALID);
    CHECK_HAS(tgm_last_error(), "input 0 is NULL and n = 5");
    CHECK_EQ_INT(rd_check_spectrum_args(&m, w, NULL, 1, 0, NULL, 0, out),
                 TGM_OK); // n = 0: no input
    tune_manifest_free(&m);
  }
  CHECK_EQ_INT(rd_log2(0), 0);
  CHECK_EQ_INT(rd_log2(1), 0);
  CHECK_EQ_INT(rd_log2(2), 1);
  CHECK_EQ_INT(rd_log2(4097), 12);
  CHECK_EQ_INT(rd_log2((1ull << 20) + 3), 20);
  CHECK_EQ_INT(rd_log2(~0ull), 63);
}

static void read_manifest(int op, int type, tune_manifest *m) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%s.json", gen, rd_op_name(op), rd_type_name(type));
  if (tune_manifest_read(path, m) != TGM_OK) {
    fprintf(stderr, "%s\n", tgm_last_error());
    exit(1);
  }
}

// What tgm_reduce would run: "ID bBLOCK iITEMS cCAP tTUNED".
static const char *pick(const tune_manifest *m, const rd_plan *p, unsigned long long n) {
  static char buf[128];
  const rd_bucket *b = rd_plan_pick(p, n);
  snprintf(buf, sizeof buf, "%s b%u i%u c%u t%d", m->v[b->v].id, b->block, b->items, b->cap,
           b->tuned);
  return buf;
}

static void test_h100_db(void) {
  json_t *db;
  char why[1024];
  CHECK_EQ_INT(rd_db_load(h100db, NULL, &db, why, sizeof why), TGM_OK);
  CHECK(db != NULL);
  if (!db)
    return;
  // every stream bucket of every op and type, at its ends
  int checked = 0;
  for (int op = 0; op < 3; op++)
    for (int type = 0; type < 2; type++) {
      tune_manifest m;
      read_manifest(op, type, &m);
      rd_plan p;
      CHECK_EQ_INT(rd_plan_make(&m, rd_op_name(op), db, why, &H100, &p), TGM_OK);
      CHECK(p.n > 0);
      CHECK_HAS(p.why, "NVIDIA H100 80GB HBM3");
      size_t i;
      json_t *e;
      json_array_foreach(json_object_get(db, "entries"), i, e) {
        json_t *k = json_object_get(e, "key");
        if (strcmp(json_string_value(json_object_get(k, "op")), rd_op_name(op)) ||
            strcmp(json_string_value(json_object_get(k, "type")), rd_type_name(type)) ||
            strcmp(json_string_value(json_object_get(k, "mode")), "stream"))
          continue;
        size_t j;
        json_t *b;
        json_array_foreach(json_object_get(e, "buckets"), j, b) {
          char want[128];
          snprintf(want, sizeof want, "%s b%lld i%lld c%lld t1",
                   json_string_value(json_object_get(b, "variant")),
                   json_integer_value(json_object_get(b, "block")),
                   json_integer_value(json_object_get(b, "items")),
                   json_integer_value(json_object_get(b, "grid_cap_per_sm")));
          int from = (int)json_integer_value(json_object_get(b, "from_log2n"));
          int to = (int)json_integer_value(json_object_get(b, "to_log2n"));
          CHECK_STR(pick(&m, &p, 1ull << from), want);
          CHECK_STR(pick(&m, &p, (1ull << to) + (1ull << to) - 1), want);
          checked++;
        }
      }
      rd_plan_free(&p);
      tune_manifest_free(&m);
    }
  printf("H100 database: %d buckets checked\n", checked);
  CHECK(checked >= 60);

  // sum i32 at the sizes the GPU test runs
  tune_manifest m;
  read_manifest(TGM_OP_SUM, TGM_TYPE_I32, &m);
  rd_plan p;
  CHECK_EQ_INT(rd_plan_make(&m, "sum", db, why, &H100, &p), TGM_OK);
  CHECK_STR(pick(&m, &p, 0), "B1.V.SV b256 i1 c0 t1");
  CHECK_STR(pick(&m, &p, 1), "B1.V.SV b256 i1 c0 t1");
  CHECK_STR(pick(&m, &p, 33), "B1.V.SV b256 i1 c0 t1");
  CHECK_STR(pick(&m, &p, 4097), "B1.VR.SV b1024 i1 c0 t1");
  CHECK_STR(pick(&m, &p, (1ull << 20) + 3), "DTL.VA1.ST b256 i4 c0 t1");
  CHECK_STR(pick(&m, &p, 1ull << 22), "DSL.VR.SV b512 i4 c4 t1");
  CHECK_STR(pick(&m, &p, 1ull << 26), "DTA.V.SV b256 i4 c0 t1");
  CHECK_STR(pick(&m, &p, 1ull << 40), "DTA.V.SV b256 i4 c0 t1"); // above the last bucket
  rd_plan_free(&p);

  // another GPU: the default, and why
  rd_device a100 = {"NVIDIA A100-SXM4-80GB", 8, 0, 108, 13000, "nvrtc 13.0", 0, 1024, 0};
  CHECK_EQ_INT(rd_plan_make(&m, "sum", db, why, &a100, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 0);
  CHECK_STR(pick(&m, &p, 1ull << 26), "DSL.VS.SV b256 i1 c4 t0");
  CHECK_STR(pick(&m, &p, 0), "DSL.VS.SV b256 i1 c4 t0");
  CHECK_HAS(rd_plan_pick(&p, 1)->why, "no entry");
  CHECK_HAS(rd_plan_pick(&p, 1)->why, "A100");
  rd_plan_free(&p);

  // deterministic asked: the database has no --deterministic entry
  rd_device det = H100;
  det.deterministic = 1;
  CHECK_EQ_INT(rd_plan_make(&m, "sum", db, why, &det, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 0);
  CHECK_STR(pick(&m, &p, 1000), "DSL.VS.SV b256 i1 c4 t0");
  CHECK_HAS(p.why, "deterministic");
  rd_plan_free(&p);

  // other codelets (another source hash): the default, "run tgm-tune again"
  free(m.source_hash);
  m.source_hash = strdup("0123456789abcdef");
  CHECK_EQ_INT(rd_plan_make(&m, "sum", db, why, &H100, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 0);
  CHECK_HAS(p.why, "another source");
  CHECK_STR(pick(&m, &p, 1ull << 26), "DSL.VS.SV b256 i1 c4 t0");
  rd_plan_free(&p);

  // no database
  CHECK_EQ_INT(rd_plan_make(&m, "sum", NULL, "no tuning database (turned off)", &H100, &p), TGM_OK);
  CHECK_STR(pick(&m, &p, 12345), "DSL.VS.SV b256 i1 c4 t0");
  CHECK_HAS(rd_plan_pick(&p, 1)->why, "turned off");
  rd_plan_free(&p);

  // a GPU older than every variant's min_arch (sm_75)
  rd_device old = {"Tesla V100", 7, 0, 80, 13000, "nvrtc 13.0", 0, 1024, 0};
  CHECK_EQ_INT(rd_plan_make(&m, "sum", NULL, "none", &old, &p), TGM_ERR_MANIFEST);
  CHECK_HAS(tgm_last_error(), "sm_70");
  tune_manifest_free(&m);
  json_decref(db);

  // a missing file and "" are no database
  char path[256];
  snprintf(path, sizeof path, "%s/none.json", tmpdir);
  CHECK_EQ_INT(rd_db_load(path, NULL, &db, why, sizeof why), TGM_OK);
  CHECK(db == NULL);
  CHECK_HAS(why, "no tuning database at");
  CHECK_EQ_INT(rd_db_load("", NULL, &db, why, sizeof why), TGM_OK);
  CHECK(db == NULL);
}

static void test_bad_buckets(void) {
  tune_manifest m;
  read_manifest(TGM_OP_SUM, TGM_TYPE_I32, &m);
  char path[256], text[4096], why[512];
  snprintf(path, sizeof path, "%s/buckets.json", tmpdir);
  const char *key = "{\"device\": \"NVIDIA H100 80GB HBM3\", \"cc\": \"9.0\", \"sm_count\": 132, "
                    "\"driver\": 13000, \"compiler\": \"nvrtc 13.0\", \"type\": \"i32\", \"op\": "
                    "\"sum\", \"mode\": \"stream\", \"source_hash\": \"%s\", \"deterministic\": "
                    "false, \"hot_l2\": false}";
  char k[1024];
  snprintf(k, sizeof k, key, m.source_hash);
  snprintf(text, sizeof text,
           "{\"tgm_db\": 1, \"entries\": [{\"key\": %s, \"results\": [], \"buckets\": ["
           "{\"from_log2n\": 10, \"to_log2n\": 12, \"variant\": \"B1.VR.SV\", \"block\": 1024, "
           "\"items\": 1, \"grid_cap_per_sm\": 0},"
           "{\"from_log2n\": 13, \"to_log2n\": 15, \"variant\": \"NOPE.V.SV\", \"block\": 256, "
           "\"items\": 1, \"grid_cap_per_sm\": 0},"
           "{\"from_log2n\": 16, \"to_log2n\": 20, \"variant\": \"DTL.VS.SV\", \"block\": 96, "
           "\"items\": 4, \"grid_cap_per_sm\": 0},"
           "{\"from_log2n\": 21, \"to_log2n\": 30, \"variant\": \"DSL.VS.SV\", \"block\": 512, "
           "\"items\": 4, \"grid_cap_per_sm\": 8}"
           "]}]}\n",
           k);
  write_text(path, text);
  json_t *db;
  CHECK_EQ_INT(rd_db_load(path, NULL, &db, why, sizeof why), TGM_OK);
  rd_plan p;
  CHECK_EQ_INT(rd_plan_make(&m, "sum", db, why, &H100, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 4);
  CHECK_HAS(p.why, "some buckets unusable");
  CHECK_STR(pick(&m, &p, 100), "B1.VR.SV b1024 i1 c0 t1");
  CHECK_STR(pick(&m, &p, 1 << 14), "DSL.VS.SV b256 i1 c4 t0");
  CHECK_HAS(rd_plan_pick(&p, 1 << 14)->why, "NOPE.V.SV is not in the manifest");
  CHECK_STR(pick(&m, &p, 1 << 17), "DSL.VS.SV b256 i1 c4 t0");
  CHECK_HAS(rd_plan_pick(&p, 1 << 17)->why, "not one of its settings");
  CHECK_STR(pick(&m, &p, 1u << 25), "DSL.VS.SV b512 i4 c8 t1");
  rd_plan_free(&p);
  json_decref(db);

  // a tuning of both modes (tgm-tune's default) is preferred to one of the
  // stream mode, whichever comes first; a graph-only tuning is not used
  char kb[1024], kg[1024];
  snprintf(kb, sizeof kb, "%s", k);
  snprintf(kg, sizeof kg, "%s", k);
  memcpy(strstr(kb, "\"stream\""), "\"both\"  ", 8);
  memcpy(strstr(kg, "\"stream\""), "\"graph\" ", 8);
  const char *one = "{\"from_log2n\": 0, \"to_log2n\": 30, \"variant\": \"%s\", \"block\": 256, "
                    "\"items\": 1, \"grid_cap_per_sm\": 0}";
  char bs[256], bb[256], bg[256];
  snprintf(bs, sizeof bs, one, "DTL.VS.SV");
  snprintf(bb, sizeof bb, one, "DTA.VS.SV");
  snprintf(bg, sizeof bg, one, "DT.VS.ST");
  for (int order = 0; order < 2; order++) {
    snprintf(text, sizeof text,
             "{\"tgm_db\": 1, \"entries\": [{\"key\": %s, \"results\": [], \"buckets\": [%s]},"
             "{\"key\": %s, \"results\": [], \"buckets\": [%s]},"
             "{\"key\": %s, \"results\": [], \"buckets\": [%s]}]}\n",
             order ? kb : kg, order ? bb : bg, k, bs, order ? kg : kb, order ? bg : bb);
    write_text(path, text);
    CHECK_EQ_INT(rd_db_load(path, NULL, &db, why, sizeof why), TGM_OK);
    CHECK_EQ_INT(rd_plan_make(&m, "sum", db, why, &H100, &p), TGM_OK);
    CHECK_STR(pick(&m, &p, 1 << 20), "DTA.VS.SV b256 i1 c0 t1");
    CHECK_HAS(p.why, "mode both");
    rd_plan_free(&p);
    json_decref(db);
  }

  // overlapping buckets: the database reader refuses the file as corrupt,
  // naming the entry and the bucket
  snprintf(text, sizeof text,
           "{\"tgm_db\": 1, \"entries\": [{\"key\": %s, \"results\": [], \"buckets\": ["
           "{\"from_log2n\": 10, \"to_log2n\": 20, \"variant\": \"B1.VR.SV\", \"block\": 1024, "
           "\"items\": 1, \"grid_cap_per_sm\": 0},"
           "{\"from_log2n\": 15, \"to_log2n\": 30, \"variant\": \"DTL.VS.SV\", \"block\": 256, "
           "\"items\": 4, \"grid_cap_per_sm\": 0}"
           "]}]}\n",
           k);
  write_text(path, text);
  db = NULL;
  CHECK_EQ_INT(rd_db_load(path, NULL, &db, why, sizeof why), TGM_ERR_DB_CORRUPT);
  CHECK(db == NULL);
  CHECK_HAS(tgm_last_error(), "bucket 1 overlaps");
  CHECK_HAS(tgm_last_error(), "buckets.json:1:");
  tune_manifest_free(&m);
}

// ------------------------------------------------------ rows and columns
static void read_shape_manifest(const char *shape, const char *type, tune_manifest *m) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/sum_%s_%s.json", gen, shape, type, shape);
  if (tune_manifest_read(path, m) != TGM_OK) {
    fprintf(stderr, "%s\n", tgm_last_error());
    exit(1);
  }
}

// What tgm_reduce_rows / _cols would run for rows x n: "SETTING tTUNED".
static const char *cell_pick(const tune_manifest *m, const rd_cells *p, const rd_device *d,
                             unsigned long long rows, unsigned long long n) {
  static char buf[160];
  tune_shape_set k;
  int tuned = -1;
  char why[1024];
  if (rd_cells_pick(p, m, d, rows, n, 0, n, &k, &tuned, why, sizeof why) != TGM_OK)
    return "error";
  char kn[96];
  rd_set_text(m, &k, kn, sizeof kn);
  snprintf(buf, sizeof buf, "%s t%d", kn, tuned);
  CHECK_HAS(why, tuned ? "tuned: " : "the rule");
  return buf;
}

// The rule's setting for rows x n, as cell_pick writes it.
static const char *rule_text(const tune_manifest *m, const rd_device *d, unsigned long long rows,
                             unsigned long long n) {
  static char buf[160];
  tune_shape_set k = tune_shape_rule(m, rows, n, (unsigned)d->sm_count, (unsigned)d->max_threads,
                                     d->sm_gbps, d->deterministic);
  char kn[96];
  rd_set_text(m, &k, kn, sizeof kn);
  snprintf(buf, sizeof buf, "%s t0", kn);
  return buf;
}

// Every cell of the H100 tune (sum i32/f32, rows and columns): at the
// cell's middle shape and its corners the tuned setting where it can run
// (tune_shape_set_grid), else the rule's; outside the cells, on another
// GPU, or asked for determinism: the rule.
static void test_cells_h100(void) {
  int checked = 0, fell_back = 0;
  for (int sh = 0; sh < 2; sh++)
    for (int t = 0; t < 2; t++) {
      const char *shape = sh ? "cols" : "rows", *type = t ? "f32" : "i32";
      json_t *db;
      char why[1024];
      CHECK_EQ_INT(rd_db_load(shapesdb, shape, &db, why, sizeof why), TGM_OK);
      if (!db)
        return;
      tune_manifest m;
      read_shape_manifest(shape, type, &m);
      rd_cells p;
      CHECK_EQ_INT(rd_cells_make(&m, "sum", db, why, &H100, &p), TGM_OK);
      CHECK_EQ_INT(p.n, 81);
      CHECK_HAS(p.why, "NVIDIA H100 80GB HBM3");
      CHECK_HAS(p.why, "mode one");
      size_t i;
      json_t *e, *b;
      json_array_foreach(json_object_get(db, "entries"), i, e) {
        json_t *k = json_object_get(e, "key");
        if (strcmp(json_string_value(json_object_get(k, "type")), type))
          continue;
        size_t j;
        json_array_foreach(json_object_get(e, "buckets"), j, b) {
          int lm = (int)json_integer_value(json_object_get(b, "log2m"));
          int ln = (int)json_integer_value(json_object_get(b, "log2n"));
          int v = -1;
          for (int x = 0; x < m.n_v; x++)
            if (!strcmp(m.v[x].id, json_string_value(json_object_get(b, "variant"))))
              v = x;
          CHECK(v >= 0);
          tune_shape_set set = {v,
                                (unsigned)json_integer_value(json_object_get(b, "block")),
                                (unsigned)json_integer_value(json_object_get(b, "items")),
                                (unsigned)json_integer_value(json_object_get(b, "per_row")),
                                (unsigned)json_integer_value(json_object_get(b, "width")),
                                (unsigned)json_integer_value(json_object_get(b, "parts"))};
          char kn[96], want[128];
          rd_set_text(&m, &set, kn, sizeof kn);
          snprintf(want, sizeof want, "%s t1", kn);
          const unsigned long long ms[3] = {1ull << lm, 1ull << (lm - 1), (2ull << lm) - 1};
          const unsigned long long ns[3] = {1ull << ln, (2ull << ln) - 1, 1ull << (ln - 1)};
          for (int q = 0; q < 3; q++) {
            unsigned y;
            if (tune_shape_set_grid(&m, &set, 0, ms[q], ns[q], ns[q], &y)) {
              CHECK_STR(cell_pick(&m, &p, &H100, ms[q], ns[q]), want);
            } else {
              CHECK_STR(cell_pick(&m, &p, &H100, ms[q], ns[q]), rule_text(&m, &H100, ms[q], ns[q]));
              fell_back++;
            }
            checked++;
          }
          // the tuner measured the middle shape: its setting runs there
          unsigned y;
          CHECK(tune_shape_set_grid(&m, &set, 0, ms[0], ns[0], ns[0], &y) != 0);
        }
      }
      // outside every cell (2^41 rows of 1: the cell 41 x 1): the rule
      CHECK_STR(cell_pick(&m, &p, &H100, 1ull << 41, 1), rule_text(&m, &H100, 1ull << 41, 1));
      // m or n = 0: the rule (the cells are for non-empty matrices)
      CHECK_STR(cell_pick(&m, &p, &H100, 0, 64), rule_text(&m, &H100, 0, 64));
      CHECK_STR(cell_pick(&m, &p, &H100, 64, 0), rule_text(&m, &H100, 64, 0));
      rd_cells_free(&p);

      // another GPU, and determinism asked of a tune without it: the rule
      rd_device a100 = {"NVIDIA A100-SXM4-80GB", 8, 0, 108, 13000, "nvrtc 13.0", 0, 1024, 0};
      rd_device det = H100;
      det.deterministic = 1;
      const rd_device *others[2] = {&a100, &det};
      for (int o = 0; o < 2; o++) {
        CHECK_EQ_INT(rd_cells_make(&m, "sum", db, why, others[o], &p), TGM_OK);
        CHECK_EQ_INT(p.n, 0);
        CHECK_HAS(p.why, "no entry");
        CHECK_STR(cell_pick(&m, &p, others[o], 8, 1ull << 17),
                  rule_text(&m, others[o], 8, 1ull << 17));
        rd_cells_free(&p);
      }
      // another operator: no entry
      CHECK_EQ_INT(rd_cells_make(&m, "max", db, why, &H100, &p), TGM_OK);
      CHECK_EQ_INT(p.n, 0);
      rd_cells_free(&p);
      tune_manifest_free(&m);
      json_decref(db);
    }
  printf("H100 shapes database: %d shapes checked, %d of them the rule's (the cell's setting "
         "does not run there)\n",
         checked, fell_back);
  CHECK(checked == 4 * 81 * 3);
  // the 1-D reader leaves the shapes' entries out, and the shapes' reader the 1-D ones
  json_t *db;
  char why[1024];
  CHECK_EQ_INT(rd_db_load(shapesdb, NULL, &db, why, sizeof why), TGM_OK);
  CHECK_EQ_INT(json_array_size(json_object_get(db, "entries")), 0);
  json_decref(db);
  CHECK_EQ_INT(rd_db_load(h100db, "rows", &db, why, sizeof why), TGM_OK);
  CHECK_EQ_INT(json_array_size(json_object_get(db, "entries")), 0);
  json_decref(db);
}

// The embed tests' fixture with this source's hash: the same cells the
// embedded header's lookup finds (tests/embed/test_sim_rows.cpp), and
// cells the manifest refuses dropped with the reason.
static void test_cells_fixture(void) {
  tune_manifest m;
  read_shape_manifest("rows", "f32", &m);
  size_t len;
  char *text = tgm__read_file(fixturedb, &len);
  CHECK(text != NULL);
  if (!text)
    return;
  char path[300], *out = malloc(len * 2 + 64), *w = out;
  for (const char *p = text; *p;) {
    if (!strncmp(p, "@sum@", 5)) {
      w += sprintf(w, "%s", m.source_hash);
      p += 5;
    } else {
      *w++ = *p++;
    }
  }
  *w = 0;
  snprintf(path, sizeof path, "%s/shapes.json", tmpdir);
  write_text(path, out);
  json_t *db;
  char why[1024];
  CHECK_EQ_INT(rd_db_load(path, "rows", &db, why, sizeof why), TGM_OK);
  rd_cells p;
  CHECK_EQ_INT(rd_cells_make(&m, "sum", db, why, &H100, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 5);
  CHECK_STR(cell_pick(&m, &p, &H100, 2, 1ull << 17), "RL.V.SV b256 i4 r16 t1");
  CHECK_STR(cell_pick(&m, &p, &H100, 20, 20000), "RA.V.SV b512 i1 r3 t1"); // no temp storage
  CHECK_STR(cell_pick(&m, &p, &H100, 3, 200000), "RL.V.SV b256 i4 r16 t1");
  CHECK_STR(cell_pick(&m, &p, &H100, 32, 2048), "RB.V.SV b256 i4 t1");
  // RL of 256 blocks a row fits 128 rows (32768 partials), not 200
  CHECK_STR(cell_pick(&m, &p, &H100, 128, 8192), "RL.VS.SV b128 i1 r256 t1");
  CHECK_STR(cell_pick(&m, &p, &H100, 200, 8192), rule_text(&m, &H100, 200, 8192));
  CHECK_STR(cell_pick(&m, &p, &H100, 2048, 32), "RW.VA2S.SS b128 i4 r4 t1");
  CHECK_STR(cell_pick(&m, &p, &H100, 4096, 32), rule_text(&m, &H100, 4096, 32)); // cell 13 x 5
  rd_cells_free(&p);
  json_decref(db);

  // a cell naming no variant of the manifest, one with a block it does not
  // take: dropped, and said; the others still used
  char *bad = strstr(out, "\"RL.V.SV\"");
  CHECK(bad != NULL);
  if (bad)
    memcpy(bad, "\"RL.X.SV\"", 9);
  char *blk = strstr(out, "\"block\": 256, \"items\": 4, \"per_row\": 0");
  CHECK(blk != NULL);
  if (blk)
    memcpy(blk, "\"block\": 96 ", 12);
  write_text(path, out);
  CHECK_EQ_INT(rd_db_load(path, "rows", &db, why, sizeof why), TGM_OK);
  CHECK_EQ_INT(rd_cells_make(&m, "sum", db, why, &H100, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 3);
  CHECK_HAS(p.why, "2 cell(s) unusable");
  CHECK_HAS(p.why, "RL.X.SV is not in the manifest");
  CHECK_STR(cell_pick(&m, &p, &H100, 2, 1ull << 17), rule_text(&m, &H100, 2, 1ull << 17));
  CHECK_STR(cell_pick(&m, &p, &H100, 32, 2048), rule_text(&m, &H100, 32, 2048));
  CHECK_STR(cell_pick(&m, &p, &H100, 2048, 32), "RW.VA2S.SS b128 i4 r4 t1");
  rd_cells_free(&p);
  json_decref(db);
  // the 1-D manifest's codelets, another source: stale
  free(m.source_hash);
  m.source_hash = strdup("0000000000000000");
  CHECK_EQ_INT(rd_db_load(path, "rows", &db, why, sizeof why), TGM_OK);
  CHECK_EQ_INT(rd_cells_make(&m, "sum", db, why, &H100, &p), TGM_OK);
  CHECK_EQ_INT(p.n, 0);
  CHECK_HAS(p.why, "another source");
  rd_cells_free(&p);
  json_decref(db);
  free(text);
  free(out);
  tune_manifest_free(&m);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: test_reduce_unit GENERATED_DIR H100_DB H100_SHAPES_DB "
                    "FIXTURE_SHAPES_DB\n");
    return 2;
  }
  gen = argv[1];
  h100db = argv[2];
  shapesdb = argv[3];
  fixturedb = argv[4];
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  test_ctx_create();
  test_args();
  test_h100_db();
  test_bad_buckets();
  test_cells_h100();
  test_cells_fixture();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", tmpdir);
  CHECK_DONE();
}

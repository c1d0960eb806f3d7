// test_db.c — the tuning database: resume, atomic writes (a writer killed
// with SIGKILL leaves a valid file holding what it had written, and its
// temp file is removed by the next open), corrupt and foreign files refused
// and left alone, keys kept apart, buckets merged; two handles on one file
// lose nothing; NaN and infinite times never written; long strings refused,
// never cut; malformed buckets refused; memory follows what is used, not
// the file's size; rows and columns entries (a key's shape) apart from the
// 1-D ones, by cell, one bucket a cell, checked as strictly (and 1-D files
// byte for byte as before). (Many writers at once: test_db_concurrent.c.)
#include "../check.h"
#include "tune.h"
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../runtime/src/internal.h" // tgm__read_file

static tune_key key_of(const char *device, const char *mode) {
  tune_key k = {0};
  snprintf(k.device, sizeof k.device, "%s", device);
  snprintf(k.cc, sizeof k.cc, "9.0");
  k.sm_count = 132;
  k.driver = 13000;
  snprintf(k.compiler, sizeof k.compiler, "nvrtc 13.0");
  snprintf(k.type, sizeof k.type, "i32");
  snprintf(k.op, sizeof k.op, "sum");
  snprintf(k.mode, sizeof k.mode, "%s", mode);
  snprintf(k.source_hash, sizeof k.source_hash, "8abef4e96d57d5f6");
  return k;
}

static tune_result result_of(int log2n, const char *variant, unsigned block) {
  tune_result r = {0};
  r.log2n = log2n;
  snprintf(r.variant, sizeof r.variant, "%s", variant);
  r.block = block, r.items = 4, r.cap = 0;
  r.us = log2n ? log2n * 1.5 : 0.5, r.gbps = 100, r.cub_us = log2n * 2.0;
  return r;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static int leftovers(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp", dir);
  FILE *p = popen(cmd, "r");
  int n = 0;
  if (fscanf(p, "%d", &n) != 1)
    n = -1;
  pclose(p);
  return n;
}

// Files named like a writer's temp file (PATH.tmp.*) in dir.
static int temps(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *de;
  int n = 0;
  while (d && (de = readdir(d)))
    n += strstr(de->d_name, ".tmp.") != NULL;
  if (d)
    closedir(d);
  return n;
}

// The whole file parses as a tgm database.
static int valid_db(const char *path) {
  json_t *root = json_load_file(path, 0, NULL);
  int ok = root && json_integer_value(json_object_get(root, "tgm_db")) == 1 &&
           json_is_array(json_object_get(root, "entries"));
  json_decref(root);
  return ok;
}

// Peak memory (KB) of a child that opens a big database, looks up a key,
// writes one result and closes it.
static long child_peak_kb(const char *path) {
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long before = ru.ru_maxrss;
    tune_db *db;
    long grown = -1;
    if (tune_db_open(path, &db) == TGM_OK) {
      tune_key k = key_of("big 17", "stream");
      tune_result r, x = result_of(20, "DT.VS.ST", 256);
      if (tune_db_get(db, &k, 10, &r) && tune_db_put(db, &k, &x) == TGM_OK) {
        getrusage(RUSAGE_SELF, &ru);
        grown = ru.ru_maxrss - before;
      }
      tune_db_close(db);
    }
    if (write(fds[1], &grown, sizeof grown) != sizeof grown)
      _exit(1);
    _exit(0);
  }
  close(fds[1]);
  long grown = -1;
  if (read(fds[0], &grown, sizeof grown) != sizeof grown)
    grown = -1;
  close(fds[0]);
  waitpid(pid, NULL, 0);
  return grown;
}

// ------------------------------------------------------ rows and columns
static tune_key shape_key(const char *shape) {
  tune_key k = key_of("NVIDIA H100 80GB HBM3", "stream");
  snprintf(k.shape, sizeof k.shape, "%s", shape);
  return k;
}

// A result with every field set, none to 0 (memset first: it is compared
// byte for byte).
static tune_result full_result(int log2m, int log2n) {
  tune_result r;
  memset(&r, 0, sizeof r);
  r.log2m = log2m, r.log2n = log2n;
  snprintf(r.variant, sizeof r.variant, "RL.SS");
  r.block = 256, r.items = 2, r.cap = 3;
  r.us = 4.25, r.gbps = 310.5, r.cub_us = 5.75, r.us_p25 = 4.125, r.us_p75 = 4.375;
  snprintf(r.runner_up, sizeof r.runner_up, "RW.SV");
  r.ru_block = 128, r.ru_items = 4, r.ru_cap = 1;
  r.margin = 0.0625, r.margin_lo = 0.03125, r.margin_hi = 0.125;
  snprintf(r.chosen_by, sizeof r.chosen_by, "within noise: fewer launches");
  r.us_graph = 3.5, r.cub_us_graph = 6.5;
  r.per_row = 4, r.width = 8, r.parts = 2;
  r.ru_per_row = 32, r.ru_width = 16, r.ru_parts = 5;
  snprintf(r.f_variant, sizeof r.f_variant, "RW.SS");
  r.f_block = 512, r.f_items = 6, r.f_per_row = 64, r.f_width = 7, r.f_parts = 9, r.f_us = 4.5;
  return r;
}

// The entry of the key with this shape ("": none) in the file, parsed
// (NULL: none); *root to free.
static json_t *entry_in(const char *path, const char *shape, json_t **root) {
  *root = json_load_file(path, 0, NULL);
  json_t *e;
  size_t i;
  json_array_foreach(json_object_get(*root, "entries"), i, e) {
    const char *s = json_string_value(json_object_get(json_object_get(e, "key"), "shape"));
    if (!strcmp(s ? s : "", shape))
      return e;
  }
  return NULL;
}

// The cells (log2m,log2n) of an entry's results or buckets, in file order.
static void cells_of(json_t *list, char *buf, size_t cap) {
  json_t *o;
  size_t i, n = 0;
  buf[0] = 0;
  json_array_foreach(list, i, o) {
    n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%lld,%lld ",
                          (long long)json_integer_value(json_object_get(o, "log2m")),
                          (long long)json_integer_value(json_object_get(o, "log2n")));
  }
}

// put and get_shape: every field of a rows result comes back from the file;
// a cell is (log2m, log2n), measured again in place, kept in order.
static void test_shape_round_trip(const char *dir) {
  char path[300], cells[256];
  snprintf(path, sizeof path, "%s/shape.json", dir);
  tune_key rows = shape_key("rows"), one_d = shape_key("");
  tune_db *db;
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_result x = full_result(12, 8), r;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK(tune_db_get_shape(db, &rows, 12, 8, &r));
  CHECK(r.log2m == 12 && r.per_row == 4 && r.width == 8 && r.parts == 2);
  CHECK(r.ru_per_row == 32 && r.ru_width == 16 && r.ru_parts == 5);
  CHECK(!strcmp(r.f_variant, "RW.SS") && r.f_block == 512 && r.f_items == 6 && r.f_per_row == 64 &&
        r.f_width == 7 && r.f_parts == 9 && r.f_us == 4.5);
  CHECK(!memcmp(&r, &x, sizeof r)); // and every field that was there before
  CHECK(!tune_db_get_shape(db, &rows, 8, 12, &r));
  CHECK(!tune_db_get_shape(db, &rows, 11, 8, &r));
  CHECK(!tune_db_get_shape(db, &one_d, 12, 8, &r));
  // without a formula none comes back
  tune_result y = full_result(3, 20);
  y.f_variant[0] = 0;
  CHECK_EQ_INT(tune_db_put(db, &rows, &y), TGM_OK);
  tune_result z = full_result(12, 4);
  snprintf(z.variant, sizeof z.variant, "CT.SS");
  CHECK_EQ_INT(tune_db_put(db, &rows, &z), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK(tune_db_get_shape(db, &rows, 3, 20, &r) && !r.f_variant[0] && r.f_us == 0);
  CHECK(tune_db_get_shape(db, &rows, 12, 4, &r) && !strcmp(r.variant, "CT.SS"));
  CHECK(tune_db_get_shape(db, &rows, 12, 8, &r) && !strcmp(r.variant, "RL.SS"));
  tune_result again = full_result(3, 20);
  snprintf(again.variant, sizeof again.variant, "RW.SV");
  CHECK_EQ_INT(tune_db_put(db, &rows, &again), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK(tune_db_get_shape(db, &rows, 3, 20, &r) && !strcmp(r.variant, "RW.SV"));
  CHECK(!strcmp(r.f_variant, "RW.SS"));
  CHECK_EQ_INT(tune_db_entries(db), 1);
  tune_db_close(db);
  json_t *root, *e = entry_in(path, "rows", &root);
  CHECK(e != NULL);
  cells_of(json_object_get(e, "results"), cells, sizeof cells);
  CHECK_STR(cells, "3,20 12,4 12,8 ");
  json_decref(root);
}

// What tgm-tune wrote for a 1-D key before rows and columns (put 11 with a
// runner-up, put 10, finish): 1-D files stay byte for byte the same.
static const char one_d_file[] = "{\n"
                                 " \"tgm_db\": 1,\n"
                                 " \"entries\": [\n"
                                 "  {\n"
                                 "   \"key\": {\n"
                                 "    \"device\": \"NVIDIA H100 80GB HBM3\",\n"
                                 "    \"cc\": \"9.0\",\n"
                                 "    \"sm_count\": 132,\n"
                                 "    \"driver\": 13000,\n"
                                 "    \"compiler\": \"nvrtc 13.0\",\n"
                                 "    \"type\": \"i32\",\n"
                                 "    \"op\": \"sum\",\n"
                                 "    \"mode\": \"stream\",\n"
                                 "    \"source_hash\": \"8abef4e96d57d5f6\",\n"
                                 "    \"deterministic\": false,\n"
                                 "    \"hot_l2\": false\n"
                                 "   },\n"
                                 "   \"results\": [\n"
                                 "    {\n"
                                 "     \"log2n\": 10,\n"
                                 "     \"variant\": \"DT.VS.ST\",\n"
                                 "     \"block\": 256,\n"
                                 "     \"items\": 4,\n"
                                 "     \"grid_cap_per_sm\": 0,\n"
                                 "     \"us\": 15.0,\n"
                                 "     \"us_p25\": 0.0,\n"
                                 "     \"us_p75\": 0.0,\n"
                                 "     \"gbps\": 100.0,\n"
                                 "     \"cub_us\": 20.0\n"
                                 "    },\n"
                                 "    {\n"
                                 "     \"log2n\": 11,\n"
                                 "     \"variant\": \"DT.VS.ST\",\n"
                                 "     \"block\": 256,\n"
                                 "     \"items\": 4,\n"
                                 "     \"grid_cap_per_sm\": 0,\n"
                                 "     \"us\": 16.5,\n"
                                 "     \"us_p25\": 0.0,\n"
                                 "     \"us_p75\": 0.0,\n"
                                 "     \"gbps\": 100.0,\n"
                                 "     \"cub_us\": 22.0,\n"
                                 "     \"runner_up\": {\n"
                                 "      \"variant\": \"DSL.VS.SV\",\n"
                                 "      \"block\": 128,\n"
                                 "      \"items\": 8,\n"
                                 "      \"grid_cap_per_sm\": 4\n"
                                 "     },\n"
                                 "     \"margin\": {\n"
                                 "      \"median\": 0.25,\n"
                                 "      \"lo\": 0.125,\n"
                                 "      \"hi\": 0.5\n"
                                 "     },\n"
                                 "     \"chosen_by\": \"faster\",\n"
                                 "     \"us_graph\": 7.5,\n"
                                 "     \"cub_us_graph\": 9.0\n"
                                 "    }\n"
                                 "   ],\n"
                                 "   \"buckets\": [\n"
                                 "    {\n"
                                 "     \"from_log2n\": 10,\n"
                                 "     \"to_log2n\": 11,\n"
                                 "     \"variant\": \"DT.VS.ST\",\n"
                                 "     \"block\": 256,\n"
                                 "     \"items\": 4,\n"
                                 "     \"grid_cap_per_sm\": 0\n"
                                 "    }\n"
                                 "   ]\n"
                                 "  }\n"
                                 " ]\n"
                                 "}\n";

// A 1-D key and a rows key that are otherwise the same are two entries; a
// 1-D row is written as before, whatever its fields of rows and columns hold.
static void test_shape_apart_from_1d(const char *dir) {
  char path[300];
  snprintf(path, sizeof path, "%s/one_d.json", dir);
  tune_key one_d = shape_key(""), rows = shape_key("rows");
  tune_db *db;
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_result a = result_of(11, "DT.VS.ST", 256), b = result_of(10, "DT.VS.ST", 256);
  snprintf(a.runner_up, sizeof a.runner_up, "DSL.VS.SV");
  a.ru_block = 128, a.ru_items = 8, a.ru_cap = 4;
  a.margin = 0.25, a.margin_lo = 0.125, a.margin_hi = 0.5;
  snprintf(a.chosen_by, sizeof a.chosen_by, "faster");
  a.us_graph = 7.5, a.cub_us_graph = 9;
  tune_result shaped = full_result(5, 11); // not written for a 1-D key
  a.log2m = shaped.log2m, a.per_row = shaped.per_row, a.width = shaped.width;
  a.parts = shaped.parts, a.ru_per_row = shaped.ru_per_row, a.ru_width = shaped.ru_width;
  a.ru_parts = shaped.ru_parts, a.f_block = shaped.f_block, a.f_us = shaped.f_us;
  memcpy(a.f_variant, shaped.f_variant, sizeof a.f_variant);
  CHECK_EQ_INT(tune_db_put(db, &one_d, &a), TGM_OK);
  CHECK_EQ_INT(tune_db_put(db, &one_d, &b), TGM_OK);
  CHECK_EQ_INT(tune_db_finish(db, &one_d), TGM_OK);
  tune_db_close(db);
  char *text = tgm__read_file(path, NULL);
  CHECK(text && !strcmp(text, one_d_file));
  CHECK(text && !strstr(text, "shape") && !strstr(text, "log2m") && !strstr(text, "per_row") &&
        !strstr(text, "formula"));
  free(text);
  // the rows key beside it: another entry; each key reads its own
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_result c = result_of(11, "RW.SS", 64), r;
  c.log2m = 0;
  CHECK_EQ_INT(tune_db_put(db, &rows, &c), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 2);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 2);
  CHECK(tune_db_get(db, &one_d, 11, &r) && !strcmp(r.variant, "DT.VS.ST") && r.block == 256);
  CHECK(!r.f_variant[0] && r.log2m == 0 && r.per_row == 0); // none was written
  CHECK(!tune_db_get_shape(db, &one_d, 0, 11, &r));
  CHECK(tune_db_get_shape(db, &rows, 0, 11, &r) && !strcmp(r.variant, "RW.SS") && r.block == 64);
  tune_db_close(db);
  json_t *root, *e = entry_in(path, "rows", &root);
  CHECK(e &&
        !strcmp(json_string_value(json_object_get(json_object_get(e, "key"), "shape")), "rows"));
  json_decref(root);
}

// finish: one bucket a cell, in cell order, with the setting's knobs (the
// same winner in neighbouring cells is not merged).
static void test_shape_buckets(const char *dir) {
  char path[300], cells[256];
  snprintf(path, sizeof path, "%s/buckets.json", dir);
  tune_key cols = shape_key("cols");
  tune_db *db;
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  int cell[4][2] = {{10, 12}, {4, 3}, {4, 2}, {10, 11}};
  for (int c = 0; c < 4; c++) {
    tune_result x = full_result(cell[c][0], cell[c][1]);
    x.per_row = 0, x.width = (unsigned)(c + 1), x.parts = (unsigned)(10 + c);
    CHECK_EQ_INT(tune_db_put(db, &cols, &x), TGM_OK);
  }
  CHECK_EQ_INT(tune_db_finish(db, &cols), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK); // what finish wrote reads back
  tune_db_close(db);
  json_t *root, *e = entry_in(path, "cols", &root);
  json_t *bs = json_object_get(e, "buckets"), *b;
  CHECK_EQ_INT(json_array_size(bs), 4);
  cells_of(bs, cells, sizeof cells);
  CHECK_STR(cells, "4,2 4,3 10,11 10,12 ");
  int width[4] = {3, 2, 4, 1}; // c + 1 of the cell put c-th
  size_t i;
  json_array_foreach(bs, i, b) {
    CHECK_STR(json_string_value(json_object_get(b, "variant")), "RL.SS");
    CHECK_EQ_INT(json_integer_value(json_object_get(b, "block")), 256);
    CHECK_EQ_INT(json_integer_value(json_object_get(b, "items")), 2);
    CHECK(json_is_integer(json_object_get(b, "per_row")));
    CHECK_EQ_INT(json_integer_value(json_object_get(b, "per_row")), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(b, "width")), width[i < 4 ? i : 0]);
    CHECK_EQ_INT(json_integer_value(json_object_get(b, "parts")), 9 + width[i < 4 ? i : 0]);
    CHECK(!json_object_get(b, "from_log2n") && !json_object_get(b, "to_log2n"));
    CHECK_EQ_INT(json_object_size(b), 8);
  }
  json_decref(root);
}

// The number of entries tune_db_load_buckets gives for shape, each with its
// buckets and a key of that shape (-1 on failure or a key of another).
static int loaded(const char *path, const char *shape) {
  json_t *root = NULL, *e;
  if (tune_db_load_buckets(path, shape, &root) != TGM_OK)
    return -1;
  size_t i;
  int n = (int)json_array_size(json_object_get(root, "entries"));
  json_array_foreach(json_object_get(root, "entries"), i, e) {
    const char *s = json_string_value(json_object_get(json_object_get(e, "key"), "shape"));
    if (strcmp(s ? s : "", shape ? shape : "") || !json_array_size(json_object_get(e, "buckets")) ||
        json_object_get(e, "results"))
      n = -1;
  }
  json_decref(root);
  return n;
}

// tgm_reduce and tgm-gen --embed read the buckets of one shape.
static void test_load_buckets_by_shape(const char *dir) {
  char path[300];
  snprintf(path, sizeof path, "%s/load.json", dir);
  tune_key one_d = shape_key(""), rows = shape_key("rows"), cols = shape_key("cols");
  tune_key rows_graph = rows;
  snprintf(rows_graph.mode, sizeof rows_graph.mode, "graph");
  tune_db *db;
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_result x = full_result(6, 9);
  const tune_key *keys[] = {&one_d, &rows, &rows_graph, &cols};
  for (int k = 0; k < 4; k++) {
    CHECK_EQ_INT(tune_db_put(db, keys[k], &x), TGM_OK);
    CHECK_EQ_INT(tune_db_finish(db, keys[k]), TGM_OK);
  }
  tune_key unfinished = cols;
  snprintf(unfinished.mode, sizeof unfinished.mode, "graph");
  CHECK_EQ_INT(tune_db_put(db, &unfinished, &x), TGM_OK); // no buckets: left out
  tune_db_close(db);
  CHECK_EQ_INT(loaded(path, NULL), 1);
  CHECK_EQ_INT(loaded(path, ""), 1);
  CHECK_EQ_INT(loaded(path, "rows"), 2);
  CHECK_EQ_INT(loaded(path, "cols"), 1);
  CHECK_EQ_INT(loaded(path, "diag"), 0);
}

// A rows entry as tgm-tune writes it, a part at a time; a case replaces one.
#define SHAPE_R0                                                                            \
  "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"block\": 256, \"items\": 1, "     \
  "\"per_row\": 32, \"width\": 0, \"parts\": 0, \"us\": 2.5, \"runner_up\": {\"variant\": " \
  "\"RL.SS\", \"block\": 128, \"items\": 1, \"per_row\": 2, \"width\": 0, \"parts\": 0}, "  \
  "\"formula\": {\"variant\": \"RW.SS\", \"block\": 256, \"items\": 1, \"per_row\": 32, "   \
  "\"width\": 0, \"parts\": 0, \"us\": 3.0}}"
#define SHAPE_R1 "{\"log2n\": 2, \"log2m\": 4, \"variant\": \"RL.SS\", \"block\": 64, \"us\": 9.5}"
#define SHAPE_B0                                                                        \
  "{\"log2m\": 3, \"log2n\": 5, \"variant\": \"RW.SS\", \"block\": 256, \"items\": 1, " \
  "\"per_row\": 32, \"width\": 0, \"parts\": 0}"
#define SHAPE_B1                                                                       \
  "{\"log2m\": 4, \"log2n\": 2, \"variant\": \"RL.SS\", \"block\": 64, \"items\": 1, " \
  "\"per_row\": 2, \"width\": 0, \"parts\": 0}"

// Malformed rows and columns entries are refused as corrupt, naming the
// entry's part; tgm-tune refuses to write them.
static void test_shape_corrupt(const char *dir) {
  char path[300], text[2048];
  snprintf(path, sizeof path, "%s/shape_bad.json", dir);
  const struct {
    const char *shape, *r0, *r1, *b0, *b1, *why; // NULL: as written; why NULL: accepted
  } cases[] = {
      {NULL, NULL, NULL, NULL, NULL, NULL},
      {"\"diag\"", NULL, NULL, NULL, NULL, "shape is not"},
      {"7", NULL, NULL, NULL, NULL, "shape is not"},
      {NULL, "{\"log2n\": 5, \"log2m\": 99, \"variant\": \"RW.SS\"}", NULL, NULL, NULL,
       "result 0 has no rows"},
      {NULL, "{\"log2n\": 5, \"variant\": \"RW.SS\"}", NULL, NULL, NULL, "result 0 has no rows"},
      {NULL, "{\"log2n\": 5, \"log2m\": -1, \"variant\": \"RW.SS\"}", NULL, NULL, NULL,
       "result 0 has no rows"},
      {NULL, NULL, "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RL.SS\"}", NULL, NULL,
       "result 1 repeats a cell"},
      {NULL, NULL, "{\"log2n\": 4, \"log2m\": 3, \"variant\": \"RL.SS\"}", NULL, NULL,
       "result 1 repeats a cell or is out of"},
      {NULL, "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"per_row\": 65537}", NULL, NULL,
       NULL, "result 0: per_row"},
      {NULL, "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"width\": 1.5}", NULL, NULL,
       NULL, "result 0: width"},
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"runner_up\": {\"variant\": \"X\", "
       "\"parts\": -1}}",
       NULL, NULL, NULL, "result 0: runner_up.parts"},
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": {\"variant\": \"X\", "
       "\"block\": 1, \"items\": 1, \"per_row\": 0, \"width\": 0, \"parts\": 0, \"us\": -2.5}}",
       NULL, NULL, NULL, "result 0: formula"},
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": {\"variant\": \"X\", "
       "\"block\": 1, \"items\": 1, \"per_row\": 0, \"width\": 0, \"parts\": 0, \"us\": 0}}",
       NULL, NULL, NULL, "result 0: formula"},
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": {\"variant\": \"X\", "
       "\"block\": 1, \"items\": 1, \"per_row\": 0, \"width\": 0, \"parts\": 0, \"us\": \"NaN\"}}",
       NULL, NULL, NULL, "result 0: formula"},
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": {\"variant\": \"X\", "
       "\"block\": 1, \"items\": 1, \"per_row\": 0, \"width\": 0, \"parts\": 0, \"us\": NaN}}",
       NULL, NULL, NULL, "corrupt tuning database"}, // not JSON
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": {\"block\": 1, "
       "\"items\": 1, \"per_row\": 0, \"width\": 0, \"parts\": 0, \"us\": 1}}",
       NULL, NULL, NULL, "result 0: formula"},
      {NULL,
       "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": {\"variant\": \"X\", "
       "\"block\": 1, \"items\": 1, \"per_row\": 70000, \"width\": 0, \"parts\": 0, \"us\": 1}}",
       NULL, NULL, NULL, "result 0: formula"},
      {NULL, "{\"log2n\": 5, \"log2m\": 3, \"variant\": \"RW.SS\", \"formula\": \"RW.SS\"}", NULL,
       NULL, NULL, "result 0: formula"},
      {NULL, NULL, NULL, SHAPE_B1, SHAPE_B0, "bucket 1 repeats a cell or is out of"},
      {NULL, NULL, NULL, NULL, SHAPE_B0, "bucket 1 repeats a cell"},
      {NULL, NULL, NULL,
       "{\"log2n\": 5, \"variant\": \"RW.SS\", \"block\": 256, \"items\": 1, \"per_row\": 32, "
       "\"width\": 0, \"parts\": 0}",
       NULL, "bucket 0 has no cell"},
      {NULL, NULL, NULL,
       "{\"log2m\": 64, \"log2n\": 5, \"variant\": \"RW.SS\", \"block\": 256, \"items\": 1, "
       "\"per_row\": 32, \"width\": 0, \"parts\": 0}",
       NULL, "bucket 0 has no cell"},
      {NULL, NULL, NULL,
       "{\"log2m\": 3, \"log2n\": 5, \"variant\": \"RW.SS\", \"block\": 256, \"items\": 1, "
       "\"width\": 0, \"parts\": 0}",
       NULL, "bucket 0 has no per_row"},
      {NULL, NULL, NULL,
       "{\"log2m\": 3, \"log2n\": 5, \"variant\": \"RW.SS\", \"block\": 0, \"items\": 1, "
       "\"per_row\": 32, \"width\": 0, \"parts\": 0}",
       NULL, "bucket 0 has no variant, block or items"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    snprintf(text, sizeof text,
             "{\"tgm_db\": 1, \"entries\": [{\"key\": {\"type\": \"i32\", \"shape\": %s}, "
             "\"results\": [%s, %s], \"buckets\": [%s, %s]}]}",
             cases[c].shape ? cases[c].shape : "\"rows\"", cases[c].r0 ? cases[c].r0 : SHAPE_R0,
             cases[c].r1 ? cases[c].r1 : SHAPE_R1, cases[c].b0 ? cases[c].b0 : SHAPE_B0,
             cases[c].b1 ? cases[c].b1 : SHAPE_B1);
    write_text(path, text);
    tune_db *db = NULL;
    json_t *root = NULL;
    tgm_status s = tune_db_open(path, &db), l = tune_db_load_buckets(path, "rows", &root);
    tune_db_close(db);
    json_decref(root);
    if (!cases[c].why && (s != TGM_OK || l != TGM_OK))
      CHECK_FAIL("case %zu: refused (%s), want accepted", c, tgm_last_error());
    if (cases[c].why && (s != TGM_ERR_DB_CORRUPT || l != TGM_ERR_DB_CORRUPT ||
                         !strstr(tgm_last_error(), cases[c].why)))
      CHECK_FAIL("case %zu: got %d, %d (%s), want corrupt, '%s'", c, s, l, tgm_last_error(),
                 cases[c].why);
  }
  // a 1-D entry is checked as before: members of rows and columns mean nothing there
  write_text(path, "{\"tgm_db\": 1, \"entries\": [{\"key\": {}, \"results\": [{\"log2n\": 5, "
                   "\"log2m\": 99, \"variant\": \"A\", \"formula\": 1}]}]}");
  tune_db *db;
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_db_close(db);
  write_text(path, "{\"tgm_db\": 1, \"entries\": [{\"key\": {}, \"results\": [], \"buckets\": "
                   "[" SHAPE_B0 "]}]}");
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_ERR_DB_CORRUPT);
  CHECK(strstr(tgm_last_error(), "bucket 0 has no size range") != NULL);

  // and tgm-tune never writes what the reader would refuse
  unlink(path);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_key rows = shape_key("rows"), diag = shape_key("diag");
  tune_result x = full_result(3, 5), r;
  CHECK_EQ_INT(tune_db_put(db, &diag, &x), TGM_ERR_INVALID);
  CHECK(strstr(tgm_last_error(), "diag") != NULL);
  CHECK_EQ_INT(tune_db_finish(db, &diag), TGM_ERR_INVALID);
  x.log2m = 64;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x.log2m = -1;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x = full_result(3, 5), x.f_us = NAN;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x = full_result(3, 5), x.f_us = -1;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x.f_variant[0] = 0, x.f_us = INFINITY; // no formula: still a finite time
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x = full_result(3, 5), x.width = 65537;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  CHECK(strstr(tgm_last_error(), "width") != NULL);
  x = full_result(3, 5), x.ru_parts = 70000;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x = full_result(3, 5), x.f_per_row = 70000;
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  x = full_result(3, 5), x.items = 0; // its bucket would have none
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_ERR_INVALID);
  CHECK(!tune_db_get_shape(db, &rows, 3, 5, &r));
  x = full_result(3, 5), x.f_us = 0, x.f_variant[0] = 0; // no formula, no time: fine
  CHECK_EQ_INT(tune_db_put(db, &rows, &x), TGM_OK);
  tune_result one_d = result_of(5, "A", 256); // 1-D keys: as before
  one_d.log2m = 99, one_d.f_us = NAN, one_d.width = 70000;
  tune_key plain = shape_key("");
  CHECK_EQ_INT(tune_db_put(db, &plain, &one_d), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK(tune_db_get_shape(db, &rows, 3, 5, &r) && !r.f_variant[0]);
  CHECK_EQ_INT(tune_db_entries(db), 2);
  tune_db_close(db);
}

int main(void) {
  char dir[] = "/tmp/tgm-test-db-XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  char path[256];
  snprintf(path, sizeof path, "%s/db.json", dir);
  tune_key h100 = key_of("NVIDIA H100 80GB HBM3", "stream");
  tune_key graph = key_of("NVIDIA H100 80GB HBM3", "graph");
  tune_key other = key_of("AMD Instinct MI250X", "stream");

  // a missing file is an empty database
  tune_db *db;
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 0);
  tune_result r;
  CHECK(!tune_db_get(db, &h100, 10, &r));
  for (int l = 10; l <= 14; l++) {
    tune_result x = result_of(l, l < 13 ? "B1.VS.SV" : "DTL.VR.ST", 256);
    CHECK_EQ_INT(tune_db_put(db, &h100, &x), TGM_OK);
  }
  // the runner-up and the margin go in and come back
  tune_result withm = result_of(15, "DTA.V.SV", 512);
  snprintf(withm.runner_up, sizeof withm.runner_up, "DSL.VS.SV");
  withm.ru_block = 256, withm.ru_items = 8, withm.ru_cap = 4;
  withm.margin = 0.031, withm.margin_lo = 0.012, withm.margin_hi = 0.05;
  snprintf(withm.chosen_by, sizeof withm.chosen_by, "faster");
  withm.us_graph = 7.5, withm.cub_us_graph = 9.0; // --mode both's graph times
  CHECK_EQ_INT(tune_db_put(db, &graph, &withm), TGM_OK);
  tune_result g = result_of(10, "DT.VS.ST", 128);
  CHECK_EQ_INT(tune_db_put(db, &graph, &g), TGM_OK);
  CHECK_EQ_INT(tune_db_finish(db, &h100), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(leftovers(dir), 0);

  // resume: everything written is read back, per key
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 2);
  CHECK(tune_db_get(db, &h100, 12, &r) && !strcmp(r.variant, "B1.VS.SV") && r.block == 256);
  CHECK(r.us == 18.0 && r.cub_us == 24.0);
  CHECK(tune_db_get(db, &h100, 14, &r) && !strcmp(r.variant, "DTL.VR.ST"));
  CHECK(!r.runner_up[0] && !r.chosen_by[0]); // none was measured
  CHECK(tune_db_get(db, &graph, 15, &r) && !strcmp(r.runner_up, "DSL.VS.SV") && r.ru_block == 256 &&
        r.ru_items == 8 && r.ru_cap == 4 && !strcmp(r.chosen_by, "faster"));
  CHECK(r.margin == 0.031 && r.margin_lo == 0.012 && r.margin_hi == 0.05);
  CHECK(r.us_graph == 7.5 && r.cub_us_graph == 9.0);
  CHECK(tune_db_get(db, &graph, 10, &r) && !strcmp(r.variant, "DT.VS.ST"));
  CHECK(!tune_db_get(db, &graph, 11, &r));
  CHECK(!tune_db_get(db, &other, 10, &r));
  // a re-measured size replaces the old row; another key adds an entry
  tune_result again = result_of(12, "DSA.VA1.SV", 512);
  CHECK_EQ_INT(tune_db_put(db, &h100, &again), TGM_OK);
  CHECK_EQ_INT(tune_db_put(db, &other, &again), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 3);
  CHECK_EQ_INT(tune_db_finish(db, &h100), TGM_OK);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  CHECK(tune_db_get(db, &h100, 12, &r) && !strcmp(r.variant, "DSA.VA1.SV") && r.block == 512);
  tune_db_close(db);
  // merged buckets: 10-11 B1, 12 DSA, 13-14 DTL
  json_t *root = json_load_file(path, 0, NULL);
  json_t *entries = json_object_get(root, "entries"), *e;
  size_t i;
  int found = 0;
  json_array_foreach(entries, i, e) {
    json_t *b = json_object_get(e, "buckets");
    if (!strcmp(json_string_value(json_object_get(json_object_get(e, "key"), "mode")), "stream") &&
        !strcmp(json_string_value(json_object_get(json_object_get(e, "key"), "device")),
                h100.device)) {
      found = 1;
      CHECK_EQ_INT(json_array_size(b), 3);
      int from[3] = {10, 12, 13}, to[3] = {11, 12, 14};
      for (size_t j = 0; j < json_array_size(b) && j < 3; j++) {
        CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(b, j), "from_log2n")),
                     from[j]);
        CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(b, j), "to_log2n")), to[j]);
      }
    }
  }
  CHECK(found);
  json_decref(root);
  char *text;

  // kill -9 in the middle of writing: the file stays valid and holds a prefix
  pid_t pid = fork();
  if (pid == 0) {
    tune_db *w;
    if (tune_db_open(path, &w) != TGM_OK)
      _exit(3);
    tune_key k = key_of("killed", "stream");
    for (int i = 0;; i++) {
      tune_result x = result_of(i % 40, "DT.VS.ST", 128);
      tune_db_put(w, &k, &x);
    }
  }
  struct timespec ts = {0, 200 * 1000 * 1000};
  nanosleep(&ts, NULL);
  kill(pid, SIGKILL);
  int status;
  waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK_EQ_INT(tune_db_open(path, &db), TGM_OK);
  tune_key killed = key_of("killed", "stream");
  CHECK(tune_db_get(db, &killed, 0, &r)); // the first write made it
  CHECK(tune_db_get(db, &h100, 10, &r));  // and nothing older was lost
  tune_db_close(db);

  // corrupt: refused, the file untouched
  char bad[256];
  snprintf(bad, sizeof bad, "%s/corrupt.json", dir);
  write_text(bad, "{\"tgm_db\": 1, \"entries\": [ {\"key\": ");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
  CHECK(strstr(tgm_last_error(), "corrupt") != NULL);
  text = tgm__read_file(bad, NULL);
  CHECK(text && !strcmp(text, "{\"tgm_db\": 1, \"entries\": [ {\"key\": "));
  free(text);
  write_text(bad, "{\"tgm_db\": 1, \"entries\": [ {\"nokey\": 1} ]}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
  write_text(bad, "");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
  // a malformed runner-up, margin or rule name
  const char *bad_margin[] = {
      "{\"log2n\": 3, \"variant\": \"A\", \"runner_up\": {\"block\": 1}}",
      "{\"log2n\": 3, \"variant\": \"A\", \"runner_up\": \"B\"}",
      "{\"log2n\": 3, \"variant\": \"A\", \"runner_up\": {\"variant\": \"B\", \"block\": -1}}",
      "{\"log2n\": 3, \"variant\": \"A\", \"margin\": {\"median\": 0.1, \"lo\": 0.2, \"hi\": 0.1}}",
      "{\"log2n\": 3, \"variant\": \"A\", \"margin\": {\"median\": 0.1, \"lo\": 0}}",
      "{\"log2n\": 3, \"variant\": \"A\", \"margin\": [0.1, 0, 0.2]}",
      "{\"log2n\": 3, \"variant\": \"A\", \"chosen_by\": 7}",
      "{\"log2n\": 3, \"variant\": \"A\", \"us_graph\": \"fast\"}",
      "{\"log2n\": 3, \"variant\": \"A\", \"cub_us_graph\": [1]}",
  };
  for (size_t i = 0; i < sizeof bad_margin / sizeof *bad_margin; i++) {
    char t[512];
    snprintf(t, sizeof t, "{\"tgm_db\": 1, \"entries\": [{\"key\": {}, \"results\": [%s]}]}",
             bad_margin[i]);
    write_text(bad, t);
    CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
    CHECK(strstr(tgm_last_error(), "result 0") != NULL);
  }
  // foreign: valid JSON, not ours (or a newer version)
  write_text(bad, "{\"name\": \"package.json\", \"version\": \"1.0\"}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_FOREIGN);
  text = tgm__read_file(bad, NULL);
  CHECK(text && strstr(text, "package.json"));
  free(text);
  write_text(bad, "[1, 2, 3]");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_FOREIGN);
  write_text(bad, "{\"tgm_db\": 2, \"entries\": []}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_FOREIGN);
  // a folder where the file should be; a folder that does not exist
  CHECK(tune_db_open(dir, &db) != TGM_OK);
  CHECK_EQ_INT(tune_db_open("/nonexistent/dir/db.json", &db), TGM_ERR_IO);

  // two writers on one file (two GPUs, two processes): each change is
  // merged into the file as it is now, so neither loses the other's
  char shared[256];
  snprintf(shared, sizeof shared, "%s/shared.json", dir);
  tune_db *a, *b;
  CHECK_EQ_INT(tune_db_open(shared, &a), TGM_OK);
  CHECK_EQ_INT(tune_db_open(shared, &b), TGM_OK);
  tune_key ka = key_of("gpu a", "stream"), kb = key_of("gpu b", "stream");
  for (int l = 10; l < 14; l++) {
    tune_result x = result_of(l, "DT.VS.ST", 256);
    CHECK_EQ_INT(tune_db_put(a, &ka, &x), TGM_OK);
    CHECK_EQ_INT(tune_db_put(b, &kb, &x), TGM_OK);
  }
  CHECK_EQ_INT(tune_db_finish(a, &ka), TGM_OK);
  CHECK_EQ_INT(tune_db_finish(b, &kb), TGM_OK);
  tune_db_close(a);
  tune_db_close(b);
  CHECK_EQ_INT(tune_db_open(shared, &db), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 2);
  for (int l = 10; l < 14; l++) {
    CHECK(tune_db_get(db, &ka, l, &r));
    CHECK(tune_db_get(db, &kb, l, &r));
  }
  tune_db_close(db);

  // NaN and infinite times: refused with a message, never written
  CHECK_EQ_INT(tune_db_open(shared, &db), TGM_OK);
  tune_result nan_r = result_of(20, "DT.VS.ST", 256);
  nan_r.us = NAN;
  CHECK_EQ_INT(tune_db_put(db, &ka, &nan_r), TGM_ERR_INVALID);
  CHECK(strstr(tgm_last_error(), "NaN") && strstr(tgm_last_error(), "not written"));
  tune_result inf_r = result_of(21, "DT.VS.ST", 256);
  inf_r.gbps = INFINITY;
  CHECK_EQ_INT(tune_db_put(db, &ka, &inf_r), TGM_ERR_INVALID);
  CHECK(strstr(tgm_last_error(), "infinite") != NULL);
  tune_db_close(db);
  CHECK_EQ_INT(tune_db_open(shared, &db), TGM_OK);
  CHECK(!tune_db_get(db, &ka, 20, &r) && !tune_db_get(db, &ka, 21, &r));
  tune_db_close(db);

  // long strings: an error naming the limit, never cut
  char longhash[100];
  memset(longhash, 'a', 80);
  longhash[80] = 0;
  tgm_device_info info = {.name = "NVIDIA H100 80GB HBM3",
                          .cc_major = 9,
                          .sm_count = 132,
                          .compiler = "nvrtc 13.0"};
  tune_key lk;
  CHECK_EQ_INT(tune_key_make(&lk, &info, "i32", "sum", "stream", longhash, 0, 0), TGM_ERR_INVALID);
  CHECK(strstr(tgm_last_error(), "source hash") && strstr(tgm_last_error(), "limit is 63"));
  CHECK_EQ_INT(tune_key_make(&lk, &info, "i32", "sum", "stream", "8abef4e96d57d5f6", 0, 0), TGM_OK);
  CHECK(!strcmp(lk.cc, "9.0") && !strcmp(lk.device, info.name) && lk.sm_count == 132);
  {
    char text[600];
    snprintf(text, sizeof text,
             "{\"tgm_db\": 1, \"entries\": [{\"key\": {}, \"results\": [{\"log2n\": 10, "
             "\"variant\": \"%s\"}]}]}",
             longhash);
    write_text(bad, text);
    CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
    CHECK(strstr(tgm_last_error(), "63 characters") != NULL);
  }
  // buckets as strictly as tgm-tune writes them: inverted, overlapping
  write_text(bad, "{\"tgm_db\": 1, \"entries\": [{\"key\": {}, \"results\": [], \"buckets\": "
                  "[{\"from_log2n\": 12, \"to_log2n\": 10, \"variant\": \"DT.VS.ST\", "
                  "\"block\": 256, \"items\": 4}]}]}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
  CHECK(strstr(tgm_last_error(), "bucket 0") != NULL);
  write_text(bad, "{\"tgm_db\": 1, \"entries\": [{\"key\": {}, \"results\": [], \"buckets\": "
                  "[{\"from_log2n\": 10, \"to_log2n\": 12, \"variant\": \"DT.VS.ST\", "
                  "\"block\": 256, \"items\": 4}, {\"from_log2n\": 12, \"to_log2n\": 13, "
                  "\"variant\": \"DT.VS.ST\", \"block\": 256, \"items\": 4}]}]}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
  CHECK(strstr(tgm_last_error(), "overlaps") != NULL);
  write_text(bad, "{\"tgm_db\": 999, \"entries\": [{\"what\": \"the future\"}]}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_FOREIGN);
  CHECK(strstr(tgm_last_error(), "version 999") != NULL);
  // a syntax error deep in a big file is located there
  write_text(bad, "{\"tgm_db\": 1, \"entries\": [\n {\"key\": {}, \"results\": []},\n "
                  "{\"key\": {}, \"results\": [}\n]}");
  CHECK_EQ_INT(tune_db_open(bad, &db), TGM_ERR_DB_CORRUPT);
  CHECK(strstr(tgm_last_error(), "corrupt.json:3:") != NULL);

  // kill -9 at any point: the file is the old one or the new one, and the
  // killed writer's temp file goes at the next open
  srand(7);
  int kills = 0, valid = 0, cleaned = 0;
  for (int round = 0; round < 20; round++) {
    pid_t w = fork();
    if (w == 0) {
      tune_db *x;
      if (tune_db_open(shared, &x) != TGM_OK)
        _exit(3);
      tune_key k = key_of("killed again", "stream");
      for (int i = 0;; i++) {
        tune_result y = result_of(i % 40, "DT.VS.ST", 128);
        tune_db_put(x, &k, &y);
      }
    }
    struct timespec d = {0, (long)(rand() % 20000) * 1000};
    nanosleep(&d, NULL);
    kill(w, SIGKILL);
    waitpid(w, NULL, 0);
    kills++;
    valid += valid_db(shared);
    CHECK_EQ_INT(tune_db_open(shared, &db), TGM_OK);
    cleaned += temps(dir) == 0;
    CHECK(tune_db_get(db, &ka, 13, &r)); // nothing older lost
    tune_db_close(db);
  }
  CHECK_EQ_INT(valid, kills);
  CHECK_EQ_INT(cleaned, kills);
  // a temp file a killed writer left (any name under PATH.tmp.) goes too
  char stale[300];
  snprintf(stale, sizeof stale, "%s.tmp.999999", shared);
  write_text(stale, "{\"tgm_db\": 1, \"entr");
  CHECK_EQ_INT(temps(dir), 1);
  CHECK_EQ_INT(tune_db_open(shared, &db), TGM_OK);
  CHECK_EQ_INT(temps(dir), 0);
  tune_db_close(db);

  // memory follows what is used: a 20 MB database (2000 entries) costs
  // far less than its JSON tree would (jansson: about 7x the text)
  char big[256];
  snprintf(big, sizeof big, "%s/big.json", dir);
  FILE *bf = fopen(big, "w");
  fputs("{\"tgm_db\": 1, \"entries\": [\n", bf);
  for (int e = 0; e < 2000; e++) {
    tune_key k = key_of("big", "stream");
    snprintf(k.device, sizeof k.device, "big %d", e);
    fprintf(bf,
            "%s{\"key\": {\"device\": \"%s\", \"cc\": \"9.0\", \"sm_count\": 132, "
            "\"driver\": 13000, \"compiler\": \"nvrtc 13.0\", \"type\": \"i32\", \"op\": \"sum\", "
            "\"mode\": \"stream\", \"source_hash\": \"8abef4e96d57d5f6\", \"deterministic\": "
            "false, "
            "\"hot_l2\": false}, \"results\": [",
            e ? ",\n" : "", k.device);
    for (int l = 0; l < 64; l++)
      fprintf(bf,
              "%s{\"log2n\": %d, \"variant\": \"DSL.VS.SV\", \"block\": 256, \"items\": 4, "
              "\"grid_cap_per_sm\": 4, \"us\": %d.25, \"us_p25\": 1.5, \"us_p75\": 2.5, "
              "\"gbps\": 100.5, \"cub_us\": 3.5}",
              l ? ", " : "", l, l + 1);
    fputs("], \"buckets\": []}", bf);
  }
  fputs("\n]}\n", bf);
  long big_bytes = ftell(bf);
  fclose(bf);
  long grown = child_peak_kb(big);
  printf("a %ld MB database: %ld MB more peak memory\n", big_bytes >> 20, grown >> 10);
  CHECK(grown >= 0 && grown * 1024 < big_bytes * 2);
  CHECK_EQ_INT(tune_db_open(big, &db), TGM_OK);
  CHECK_EQ_INT(tune_db_entries(db), 2000);
  tune_key k17 = key_of("big 17", "stream");
  CHECK(tune_db_get(db, &k17, 20, &r) && !strcmp(r.variant, "DT.VS.ST"));
  tune_db_close(db);

  test_shape_round_trip(dir);
  test_shape_apart_from_1d(dir);
  test_shape_buckets(dir);
  test_load_buckets_by_shape(dir);
  test_shape_corrupt(dir);

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    return 1;
  CHECK_DONE();
}

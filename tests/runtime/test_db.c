// test_db.c — the tuning database: resume, atomic writes (a writer killed
// with SIGKILL leaves a valid file holding what it had written, and its
// temp file is removed by the next open), corrupt and foreign files refused
// and left alone, keys kept apart, buckets merged; two handles on one file
// lose nothing; NaN and infinite times never written; long strings refused,
// never cut; malformed buckets refused; memory follows what is used, not
// the file's size. (Many writers at once: test_db_concurrent.c.)
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

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    return 1;
  CHECK_DONE();
}

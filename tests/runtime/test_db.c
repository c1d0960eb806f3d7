// test_db.c — the tuning database: resume, atomic writes (a writer killed
// with SIGKILL leaves a valid file holding what it had written), corrupt
// and foreign files refused and left alone, keys kept apart, buckets merged.
#include "check.h"
#include "tune.h"
#include <jansson.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

char *tgm__read_file(const char *path, size_t *len);

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
  r.us = log2n * 1.5, r.gbps = 100, r.cub_us = log2n * 2.0;
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
        !strcmp(json_string_value(json_object_get(json_object_get(e, "key"), "device")), h100.device)) {
      found = 1;
      CHECK_EQ_INT(json_array_size(b), 3);
      int from[3] = {10, 12, 13}, to[3] = {11, 12, 14};
      for (size_t j = 0; j < json_array_size(b) && j < 3; j++) {
        CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(b, j), "from_log2n")), from[j]);
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

  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    return 1;
  CHECK_DONE();
}

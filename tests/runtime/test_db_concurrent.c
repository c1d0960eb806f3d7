// test_db_concurrent.c — many writers on one tuning database at once, in
// processes and in threads, lose nothing. Each round starts P processes of
// T threads on a fresh file; every writer opens its own handle and records
// sizes 10..13 and its buckets under its own key (as tgm-tune does per GPU
// and type). Then every writer's every size must be in the file, the file
// must be valid, and no temp file may be left. Rounds x P x T writer runs
// (default 50 x 4 x 5 = 1000). Uses only the tuner's long-standing calls
// (open, put, finish, get), so it runs against any version of db.c.
#include "../check.h"
#include "tune.h"
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { P = 4, T = 5, SIZES = 4 };

static const char *db_path;
static int round_no;

static tune_key key_of(int proc, int thread) {
  tune_key k = {0};
  snprintf(k.device, sizeof k.device, "writer %d.%d.%d", round_no, proc, thread);
  snprintf(k.cc, sizeof k.cc, "9.0");
  k.sm_count = 132;
  k.driver = 13000;
  snprintf(k.compiler, sizeof k.compiler, "nvrtc 13.0");
  snprintf(k.type, sizeof k.type, "i32");
  snprintf(k.op, sizeof k.op, "sum");
  snprintf(k.mode, sizeof k.mode, "stream");
  snprintf(k.source_hash, sizeof k.source_hash, "8abef4e96d57d5f6");
  return k;
}

typedef struct {
  int proc, thread, failed;
} writer;

static void *write_one(void *arg) {
  writer *w = arg;
  tune_db *db;
  if (tune_db_open(db_path, &db) != TGM_OK) {
    fprintf(stderr, "writer %d.%d: open: %s\n", w->proc, w->thread, tgm_last_error());
    w->failed = 1;
    return NULL;
  }
  tune_key k = key_of(w->proc, w->thread);
  for (int l = 10; l < 10 + SIZES; l++) {
    tune_result r = {0};
    r.log2n = l;
    snprintf(r.variant, sizeof r.variant, "DSL.VS.SV");
    r.block = 256, r.items = 4, r.cap = 4;
    r.us = l + 0.5, r.us_p25 = l, r.us_p75 = l + 1, r.gbps = 100, r.cub_us = l + 2;
    if (tune_db_put(db, &k, &r) != TGM_OK) {
      fprintf(stderr, "writer %d.%d: put: %s\n", w->proc, w->thread, tgm_last_error());
      w->failed = 1;
    }
  }
  if (tune_db_finish(db, &k) != TGM_OK) {
    fprintf(stderr, "writer %d.%d: finish: %s\n", w->proc, w->thread, tgm_last_error());
    w->failed = 1;
  }
  tune_db_close(db);
  return NULL;
}

static int process(int proc) {
  pthread_t tid[T];
  writer w[T];
  for (int t = 0; t < T; t++) {
    w[t] = (writer){proc, t, 0};
    pthread_create(&tid[t], NULL, write_one, &w[t]);
  }
  int failed = 0;
  for (int t = 0; t < T; t++) {
    pthread_join(tid[t], NULL);
    failed += w[t].failed;
  }
  return failed;
}

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

int main(int argc, char **argv) {
  int rounds = argc > 2 ? atoi(argv[2]) : 50;
  char dir[] = "/tmp/tgm-test-dbc-XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  char path[256];
  long runs = 0, lost = 0, failed = 0, broken = 0;
  for (round_no = 0; round_no < rounds; round_no++) {
    snprintf(path, sizeof path, "%s/db-%d.json", dir, round_no);
    db_path = path;
    pid_t pids[P];
    for (int p = 0; p < P; p++) {
      pids[p] = fork();
      if (pids[p] == 0)
        _exit(process(p) ? 1 : 0);
    }
    for (int p = 0; p < P; p++) {
      int st;
      waitpid(pids[p], &st, 0);
      failed += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    runs += P * T;
    tune_db *db;
    if (tune_db_open(path, &db) != TGM_OK) {
      fprintf(stderr, "round %d: %s\n", round_no, tgm_last_error());
      broken++;
      continue;
    }
    for (int p = 0; p < P; p++)
      for (int t = 0; t < T; t++) {
        tune_key k = key_of(p, t);
        tune_result r;
        for (int l = 10; l < 10 + SIZES; l++)
          lost += !tune_db_get(db, &k, l, &r);
      }
    if (tune_db_entries(db) != P * T)
      fprintf(stderr, "round %d: %d entries, want %d\n", round_no, tune_db_entries(db), P * T);
    tune_db_close(db);
    if (temps(dir)) {
      fprintf(stderr, "round %d: %d temp files left\n", round_no, temps(dir));
      broken++;
    }
  }
  printf("%ld writer runs (%d rounds x %d processes x %d threads): %ld of %ld results lost, "
         "%ld writers failed, %ld rounds with a bad file or a temp file left\n",
         runs, rounds, P, T, lost, runs * SIZES, failed, broken);
  CHECK_EQ_INT(lost, 0);
  CHECK_EQ_INT(failed, 0);
  CHECK_EQ_INT(broken, 0);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    return 1;
  CHECK_DONE();
}

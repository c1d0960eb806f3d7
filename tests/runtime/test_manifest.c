// test_manifest.c — the manifest reader: a real (trimmed) manifest, and bad
// ones that must fail with a message, never crash.
#include "check.h"
#include "tune.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char tmp[64];

static tgm_status read_text(const char *text, tune_manifest *m) {
  FILE *f = fopen(tmp, "w");
  fputs(text, f);
  fclose(f);
  return tune_manifest_read(tmp, m);
}

int main(int argc, char **argv) {
  char path[4096];
  snprintf(path, sizeof path, "%s/data/tiny.json", argc > 1 ? argv[1] : ".");
  tune_manifest m;
  tgm_status s = tune_manifest_read(path, &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s != TGM_OK) {
    fprintf(stderr, "%s\n", tgm_last_error());
    return 1;
  }
  CHECK(!strcmp(m.type, "i32") && !strcmp(m.op, "+") && !strcmp(m.ns, "tgm_sum_i32"));
  CHECK(!strcmp(m.cuda_source, "sum_i32.cu") && !strcmp(m.hip_source, "sum_i32.hip"));
  CHECK(strlen(m.source_hash) > 0);
  CHECK_EQ_INT(m.n_v, 3);
  tune_variant *dt = &m.v[0], *dsa = &m.v[1], *b1 = &m.v[2];
  CHECK(!strcmp(dt->id, "DT.VS.ST") && dt->deterministic && dt->cuda && dt->hip);
  CHECK_EQ_INT(dt->min_sm, 75);
  CHECK_EQ_INT(dt->n_pos, 2);
  CHECK_EQ_INT(dt->pos[0].rule, RULE_TILES);
  CHECK_EQ_INT(dt->pos[1].rule, RULE_ONE);
  CHECK_EQ_INT(dt->pos[1].args[0], ARG_PARTIALS);
  CHECK_EQ_INT(dt->pos[1].args[1], ARG_GRID);
  CHECK(dt->partials && !dt->counter);
  CHECK_EQ_INT(dsa->n_caps, 6);
  CHECK_EQ_INT(dsa->pos[0].block_one, 1); // tgm_init<<<1, 1>>>
  CHECK_EQ_INT(dsa->pos[1].rule, RULE_STRIDED_VEC);
  CHECK_EQ_INT(b1->min_sm, 80);
  CHECK(b1->cuda && !b1->hip);
  CHECK_EQ_INT(b1->n_zero, 1);
  CHECK_EQ_INT(m.v[2].index, 2);

  char *e = tune_name_expr("tgm_sum_i32::sum_DT_VS_ST<BLOCK>", 256);
  CHECK(!strcmp(e, "tgm_sum_i32::sum_DT_VS_ST<256>"));
  free(e);
  e = tune_name_expr("tgm_sum_i32::tgm_init", 256);
  CHECK(!strcmp(e, "tgm_sum_i32::tgm_init"));
  free(e);
  tune_manifest_free(&m);

  // bad manifests: an error with the reason, no crash
  snprintf(tmp, sizeof tmp, "/tmp/tgm-test-manifest-%d.json", (int)getpid());
  const char *bad[] = {
      "",
      "{not json",
      "[1, 2]",
      "{\"tgm_manifest\": 2}",
      "{\"tgm_manifest\": 1, \"type\": \"i32\"}",
      "{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"sum\", \"type\": \"i32\", "
      "\"ctype\": \"int\", \"op\": \"+\", \"namespace\": \"n\", \"variants\": []}",
      "{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"sum\", \"type\": \"i32\", "
      "\"ctype\": \"int\", \"op\": \"+\", \"namespace\": \"n\", \"variants\": [{\"id\": \"A\", "
      "\"kernel\": \"k\", \"tunables\": {\"block\": [0]}}]}",
      "{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"sum\", \"type\": \"i32\", "
      "\"ctype\": \"int\", \"op\": \"+\", \"namespace\": \"n\", \"variants\": [{\"id\": \"A\", "
      "\"kernel\": \"k\", \"tunables\": {\"block\": [256]}, \"launches_n_positive\": [{\"kernel\": "
      "\"k\", \"name_expr\": \"k\", \"grid\": \"diagonal\", \"block\": \"BLOCK\", \"args\": []}]}]}",
      "{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"sum\", \"type\": \"i32\", "
      "\"ctype\": \"int\", \"op\": \"+\", \"namespace\": \"n\", \"variants\": [{\"id\": \"A\", "
      "\"kernel\": \"k\", \"tunables\": {\"block\": [256]}, \"launches_n_positive\": [{\"kernel\": "
      "\"k\", \"name_expr\": \"k\", \"grid\": \"one\", \"block\": \"BLOCK\", \"args\": [\"what\"]}]}]}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    s = read_text(bad[i], &m);
    CHECK_EQ_INT(s, TGM_ERR_MANIFEST);
    CHECK(strlen(tgm_last_error()) > 0);
    CHECK_EQ_INT(m.n_v, 0);
  }
  CHECK_EQ_INT(tune_manifest_read("/nonexistent/m.json", &m), TGM_ERR_MANIFEST);
  unlink(tmp);
  CHECK_DONE();
}

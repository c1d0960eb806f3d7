// test_manifest.c — the manifest reader: a real (trimmed) manifest, and bad
// ones that must fail with a message, never crash.
#include "../check.h"
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
  CHECK(!strcmp(m.type, "i32") && !strcmp(m.op, "sum") && !strcmp(m.ns, "tgm_sum_i32"));
  CHECK_EQ_INT(m.identity, TUNE_ID_NONE); // tiny.json names none (an older manifest)
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
  CHECK_EQ_INT(dsa->pos[0].block_fixed, 1); // tgm_init<<<1, 1>>>
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

  CHECK_EQ_INT(m.has_reference, 0); // freed above; read again below
  s = tune_manifest_read(path, &m);
  CHECK_EQ_INT(s, TGM_OK);
  CHECK(m.plain && m.n_inputs == 1 && m.n_params == 0 && m.elem == TUNE_I32 && m.res == TUNE_I32);
  CHECK(m.has_reference && !strcmp(m.reference.kernel, "tgm_reference_kernel"));
  CHECK_EQ_INT(m.reference.block_fixed, 1024);
  CHECK_EQ_INT(m.reference.n_args, 3);
  CHECK_EQ_INT(m.reference.args[2], ARG_OUT);
  tune_manifest_free(&m);

  snprintf(tmp, sizeof tmp, "/tmp/tgm-test-manifest-%d.json", (int)getpid());
  // a spectrum of two inputs, a parameter and a pair result: the roles of
  // "in:NAME" and "param:NAME", the types of A and R
#define HEAD                                                                               \
  "{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"s\", \"type\": \"f32\", " \
  "\"ctype\": \"float\", \"op\": \"max\", \"namespace\": \"n\", "
#define VARIANT(args)                                                                    \
  "\"variants\": [{\"id\": \"A\", \"kernel\": \"k\", \"tunables\": {\"block\": [256]}, " \
  "\"launches_n_positive\": [{\"kernel\": \"k\", \"name_expr\": \"k\", \"grid\": "       \
  "\"one\", \"block\": \"BLOCK\", \"args\": [" args "]}], \"launches_n_zero\": [{"       \
  "\"kernel\": \"i\", \"name_expr\": \"i\", \"grid\": \"one\", \"block\": \"1\", "       \
  "\"args\": [\"out\"]}]}]"
#define MEANING(ins, params, acc, res)                              \
  "\"meaning\": {\"inputs\": [" ins "], \"params\": [" params "], " \
  "\"accumulator\": \"" acc "\", \"result\": \"" res "\", \"plain\": false}, "
#define REF(block)                                                                    \
  ", \"reference\": {\"kernel\": \"r\", \"name_expr\": \"n::r\", \"grid\": \"one\", " \
  "\"block\": \"" block "\", \"args\": [\"in:x\", \"in:y\", \"n\", \"out\", \"param:t\"]}}"
  s = read_text(HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"T\"}", "tgm_arg",
                             "tgm_arg") VARIANT("\"in:y\", \"in:x\", \"n\", \"param:t\", \"out\"")
                    REF("1024"),
                &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s == TGM_OK) {
    CHECK(!m.plain && m.n_inputs == 2 && !strcmp(m.inputs[1], "y"));
    CHECK(m.n_params == 1 && !strcmp(m.param_names[0], "t") && m.param_types[0] == TUNE_F32);
    CHECK(m.elem == TUNE_F32 && m.acc == TUNE_PAIR && m.res == TUNE_PAIR);
    CHECK_EQ_INT(tune_type_size(TUNE_PAIR), 16);
    const tune_launch *l = &m.v[0].pos[0];
    CHECK(l->args[0] == ARG_IN && l->arg_index[0] == 1 && l->args[1] == ARG_IN &&
          l->arg_index[1] == 0);
    CHECK(l->args[3] == ARG_PARAM && l->arg_index[3] == 0 && l->args[4] == ARG_OUT);
    CHECK(m.has_reference && m.reference.args[4] == ARG_PARAM && m.reference.args[1] == ARG_IN &&
          m.reference.arg_index[1] == 1);
    tune_manifest_free(&m);
  } else
    fprintf(stderr, "%s\n", tgm_last_error());
  // and what the reader refuses in them
  const struct {
    const char *text, *why;
  } bad_meaning[] = {
      {HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"T\"}", "T", "T")
           VARIANT("\"in:z\"") REF("1024"),
       "unknown argument 'in:z'"},
      {HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"T\"}", "T", "T")
           VARIANT("\"param:u\"") REF("1024"),
       "unknown argument 'param:u'"},
      {HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"tgm_arg\"}", "T", "T")
           VARIANT("\"n\"") REF("1024"),
       "meaning.params[0]"},
      {HEAD MEANING("\"x\", \"y\"", "", "struct foo", "T") VARIANT("\"n\"") REF("1024"),
       "accumulator 'struct foo'"},
      {HEAD MEANING("", "", "T", "T") VARIANT("\"n\"") REF("1024"), "meaning.inputs"},
      {HEAD "\"meaning\": {\"inputs\": [\"x\", \"y\"], \"params\": [{\"name\": \"t\", "
            "\"ctype\": \"T\"}], \"accumulator\": \"T\", \"result\": \"T\", \"plain\": false, "
            "\"identity_kind\": \"nothing\"}, " VARIANT("\"n\"") REF("1024"),
       "meaning.identity_kind"},
      {HEAD MEANING("\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\"", "", "T", "T")
           VARIANT("\"n\"") REF("1024"),
       "meaning.inputs"},
      {HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"T\"}", "T", "T")
           VARIANT("\"n\"") REF("2048"),
       "variant reference: bad launch"},
      {HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"T\"}", "T", "T")
           VARIANT("\"n\"") REF("0x10"),
       "variant reference: bad launch"},
  };
  for (size_t i = 0; i < sizeof bad_meaning / sizeof *bad_meaning; i++) {
    s = read_text(bad_meaning[i].text, &m);
    CHECK_EQ_INT(s, TGM_ERR_MANIFEST);
    if (s == TGM_OK)
      tune_manifest_free(&m);
    else if (!strstr(tgm_last_error(), bad_meaning[i].why)) {
      fprintf(stderr, "case %zu: '%s' does not say '%s'\n", i, tgm_last_error(),
              bad_meaning[i].why);
      check_failures++;
    }
  }

  // bad manifests: an error with the reason, no crash
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
      "\"k\", \"name_expr\": \"k\", \"grid\": \"diagonal\", \"block\": \"BLOCK\", \"args\": "
      "[]}]}]}",
      "{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"sum\", \"type\": \"i32\", "
      "\"ctype\": \"int\", \"op\": \"+\", \"namespace\": \"n\", \"variants\": [{\"id\": \"A\", "
      "\"kernel\": \"k\", \"tunables\": {\"block\": [256]}, \"launches_n_positive\": [{\"kernel\": "
      "\"k\", \"name_expr\": \"k\", \"grid\": \"one\", \"block\": \"BLOCK\", \"args\": "
      "[\"what\"]}]}]}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    s = read_text(bad[i], &m);
    CHECK_EQ_INT(s, TGM_ERR_MANIFEST);
    CHECK(strlen(tgm_last_error()) > 0);
    CHECK_EQ_INT(m.n_v, 0);
  }
  CHECK_EQ_INT(tune_manifest_read("/nonexistent/m.json", &m), TGM_ERR_MANIFEST);

  // a row or column manifest (tgm-gen --rows, --cols) is refused by name
  const char *shapes[] = {"rows", "cols"};
  for (size_t i = 0; i < 2; i++) {
    char text[256];
    snprintf(text, sizeof text,
             "{\"tgm_manifest\": 1, \"shape\": \"%s\", \"spectrum\": \"sum\", "
             "\"type\": \"i32\", \"variants\": []}",
             shapes[i]);
    s = read_text(text, &m);
    CHECK_EQ_INT(s, TGM_ERR_MANIFEST);
    CHECK(strstr(tgm_last_error(), shapes[i]) && strstr(tgm_last_error(), "--rows or --cols"));
    CHECK_EQ_INT(m.n_v, 0);
  }
  unlink(tmp);
  CHECK_DONE();
}

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

  char *e = tune_name_expr("tgm_sum_i32::sum_DT_VS_ST<BLOCK>", 256, 0, 0);
  CHECK(!strcmp(e, "tgm_sum_i32::sum_DT_VS_ST<256>"));
  free(e);
  e = tune_name_expr("tgm_sum_i32::tgm_init", 256, 0, 0);
  CHECK(!strcmp(e, "tgm_sum_i32::tgm_init"));
  free(e);
  e = tune_name_expr("ns::sum_RW_VS_SS<BLOCK, GROUP>", 128, 8, 0); // a row variant's group
  CHECK(!strcmp(e, "ns::sum_RW_VS_SS<128, 8>"));
  free(e);
  e = tune_name_expr("ns::sum_RW_VS_SS<BLOCK, GROUP>", 128, 0, 0); // 0: GROUP left
  CHECK(!strcmp(e, "ns::sum_RW_VS_SS<128, GROUP>"));
  free(e);
  // a kernel a path of loads in flight: ITEMS is tgm_items_path of items
  e = tune_name_expr("ns::sum_DS_V_SV<BLOCK, ITEMS>", 256, 0, 8);
  CHECK(!strcmp(e, "ns::sum_DS_V_SV<256, 4>"));
  free(e);
  e = tune_name_expr("ns::sum_RW_VS_SV<BLOCK, GROUP, ITEMS>", 128, 8, 16);
  CHECK(!strcmp(e, "ns::sum_RW_VS_SV<128, 8, 16>"));
  free(e);
  e = tune_name_expr("ns::sum_DS_V_SV<BLOCK, ITEMS>", 256, 0, 0); // 0: ITEMS left
  CHECK(!strcmp(e, "ns::sum_DS_V_SV<256, ITEMS>"));
  free(e);
  // the words in a spectrum's name are not the template's
  e = tune_name_expr("tgm_kernels_BLOCK_ITEMS_f32::BLOCK_ITEMS_B1_V_SV<BLOCK, ITEMS>", 128, 0, 1);
  CHECK(!strcmp(e, "tgm_kernels_BLOCK_ITEMS_f32::BLOCK_ITEMS_B1_V_SV<128, 1>"));
  free(e);
  CHECK_EQ_INT((int)tune_items_path(0), 1);
  CHECK_EQ_INT((int)tune_items_path(3), 1);
  CHECK_EQ_INT((int)tune_items_path(4), 4);
  CHECK_EQ_INT((int)tune_items_path(15), 4);
  CHECK_EQ_INT((int)tune_items_path(64), 16);
  CHECK_EQ_INT(tune_items_index(16), 2);
  CHECK_EQ_INT((int)tune_variant_items(dt, 4), 0); // a tiled kernel serves every items
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
  // a bool accumulator and result (anybool: `bool accum = false;`), a bool parameter
  s = read_text(HEAD MEANING("\"x\", \"y\"", "{\"name\": \"t\", \"ctype\": \"bool\"}", "bool",
                             "bool") VARIANT("\"in:y\", \"in:x\", \"n\", \"param:t\", \"out\"")
                    REF("1024"),
                &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s == TGM_OK) {
    CHECK(m.acc == TUNE_BOOL && m.res == TUNE_BOOL && m.param_types[0] == TUNE_BOOL);
    CHECK_EQ_INT(tune_type_size(TUNE_BOOL), 1);
    CHECK(!strcmp(tune_type_name(TUNE_BOOL), "bool"));
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
      {"{\"tgm_manifest\": 1, \"source_hash\": \"x\", \"spectrum\": \"s\", \"type\": \"f32\", "
       "\"ctype\": \"bool\", \"op\": \"max\", \"namespace\": \"n\", " MEANING("\"x\", \"y\"", "",
                                                                              "T", "T")
           VARIANT("\"n\"") REF("1024"),
       "element type 'bool'"},
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
  // every source named has its hash, 32 lowercase hex digits
  const char *bad_hash[] = {
      "",                                                                     // none at all
      "\"sources_hash\": {\"cuda\": \"0123456789abcdef0123456789abcdef\"}, ", // no hip
      "\"sources_hash\": {\"cuda\": \"0123456789abcdef0123456789abcdeg\", \"hip\": "
      "\"0123456789abcdef0123456789abcdef\"}, ",
      "\"sources_hash\": {\"cuda\": \"0123456789ABCDEF0123456789abcdef\", \"hip\": "
      "\"0123456789abcdef0123456789abcdef\"}, ",
      "\"sources_hash\": {\"cuda\": \"0123456789abcdef0123456789abcdef0\", \"hip\": "
      "\"0123456789abcdef0123456789abcdef\"}, ",
      "\"sources_hash\": {\"cuda\": 5, \"hip\": \"0123456789abcdef0123456789abcdef\"}, ",
  };
  for (size_t i = 0; i < sizeof bad_hash / sizeof *bad_hash; i++) {
    char text[2048];
    snprintf(text, sizeof text, "%s\"sources\": {\"cuda\": \"s.cu\", \"hip\": \"s.hip\"}, %s%s}",
             HEAD, bad_hash[i], VARIANT("\"out\""));
    s = read_text(text, &m);
    CHECK_EQ_INT(s, TGM_ERR_MANIFEST);
    CHECK_HAS(tgm_last_error(), "sources_hash has no hash (32 hex digits) of");
  }

  // row and column manifests (tgm-gen --rows, --cols): their grids, knobs
  // and arguments, as generated
  const char *dir = argc > 1 ? argv[1] : ".";
  snprintf(path, sizeof path, "%s/../../generated/rows/sum_f32_rows.json", dir);
  s = tune_manifest_read(path, &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s == TGM_OK) {
    CHECK_EQ_INT(m.shape, TUNE_SHAPE_ROWS);
    CHECK_EQ_INT(m.n_v, 57);
    const tune_variant *rw = &m.v[0], *rl = &m.v[47], *ra = &m.v[52];
    CHECK(!strcmp(rw->id, "RW.V.ST") && rw->n_pos == 1 && rw->n_zero == 0 && !rw->vec);
    CHECK_EQ_INT(rw->pos[0].rule, RULE_ROWS_GROUP);
    CHECK(strstr(rw->pos[0].name_expr, "<BLOCK, GROUP>") != NULL);
    CHECK(rw->n_per_row == 6 && rw->per_row[0] == 1 && rw->per_row[5] == 32 && rw->n_items == 3);
    CHECK(rw->pos[0].n_args == 6 && rw->pos[0].args[1] == ARG_M && rw->pos[0].args[2] == ARG_N &&
          rw->pos[0].args[3] == ARG_LD && rw->pos[0].args[5] == ARG_ITEMS);
    CHECK(!strcmp(rl->id, "RL.VA2S.SV") && rl->vec && rl->partials && rl->counter);
    CHECK_EQ_INT(rl->pos[0].rule, RULE_ROWS_PARTS);
    CHECK(rl->n_per_row == 6 && rl->per_row[0] == 2);
    CHECK_EQ_INT(m.v[15].pos[0].rule, RULE_ROWS); // RB.V.ST
    // RA.VS.SV: tgm_init_out(out, m) in blocks of 256, then the kernel (no temp)
    CHECK(!strcmp(ra->id, "RA.VS.SV") && ra->vec && ra->n_pos == 2 && !ra->partials &&
          !ra->counter && !ra->deterministic);
    CHECK(ra->pos[0].rule == RULE_ROWS_INIT && ra->pos[0].block_fixed == 256 &&
          ra->pos[0].n_args == 2 && ra->pos[0].args[0] == ARG_OUT && ra->pos[0].args[1] == ARG_M);
    CHECK(tune_shape_main(ra) == &ra->pos[1] && ra->pos[1].rule == RULE_ROWS_ATOMIC &&
          ra->pos[1].n_args == 6 && ra->pos[1].args[5] == ARG_ITEMS);
    CHECK(ra->n_per_row == 7 && ra->per_row[0] == 1);
    CHECK_EQ_INT(m.pick_v[TUNE_PICK_RA], 56); // RA.VW.SV
    // the rule's setting: RA, or RL where only deterministic variants may run (float sums)
    tune_shape_set rs = tune_shape_rule(&m, 2, 1 << 20, 132, 1024, 0, 0);
    CHECK(rs.v == 56 && rs.block == 256 && rs.per_row == 132);
    rs = tune_shape_rule(&m, 2, 1 << 20, 132, 1024, 0, 1);
    CHECK(rs.v == m.pick_v[TUNE_PICK_RL] && rs.per_row == 66 && rs.block == 1024);
    // RW.SS (the rule's thread a row for n < 4) reads packed rows, RW.SV does not: the rule's
    // setting at 10^5 x 2 takes a thread a vector of two rows where they are packed
    const int narrow = m.pick_v[TUNE_PICK_RW_NARROW], wide = m.pick_v[TUNE_PICK_RW_WIDE];
    CHECK(narrow >= 0 && m.v[narrow].packed_rows && !m.v[narrow].vec);
    CHECK(wide >= 0 && !m.v[wide].packed_rows && m.v[wide].vec && !rl->packed_rows);
    rs = tune_shape_rule(&m, 100000, 2, 132, 1024, 0, 0);
    CHECK(rs.v == narrow && rs.per_row == 1 && rs.block == 256);
    unsigned ry = 0;
    CHECK_EQ_INT(tune_shape_set_grid(&m, &rs, 0, 100000, 2, 2, &ry), 196); // (50000 + 4) / 256
    CHECK_EQ_INT(tune_shape_set_grid(&m, &rs, 0, 100000, 2, 3, &ry), 391); // ld > n: a thread a row
    CHECK_EQ_INT(tune_shape_set_grid(&m, &rs, 4, 100000, 2, 2, &ry), 391); // a boundary in a row
    CHECK(m.has_reference && m.reference.rule == RULE_ONE && m.reference.block_fixed == 1024);
    // the variants the rule's pick runs (as the embedded call: VS first, VW where a
    // block is a row or a part of one)
    CHECK(m.pick_v[TUNE_PICK_RW_NARROW] >= 0 && m.pick_v[TUNE_PICK_RB] >= 0);
    if (m.pick_v[TUNE_PICK_RW_NARROW] >= 0 && m.pick_v[TUNE_PICK_RL] >= 0) {
      CHECK(!strcmp(m.v[m.pick_v[TUNE_PICK_RW_NARROW]].id, "RW.VS.SS"));
      CHECK(!strcmp(m.v[m.pick_v[TUNE_PICK_RW_WIDE]].id, "RW.VS.SV"));
      CHECK(!strcmp(m.v[m.pick_v[TUNE_PICK_RB]].id, "RB.VW.SV"));
      CHECK(!strcmp(m.v[m.pick_v[TUNE_PICK_RL]].id, "RL.VW.SV"));
      CHECK(!strcmp(m.v[m.pick_v[TUNE_PICK_RA]].id, "RA.VW.SV"));
    }
    CHECK_EQ_INT(m.pick_v[TUNE_PICK_CT], -1);
    tune_manifest_free(&m);
  } else
    fprintf(stderr, "%s\n", tgm_last_error());
  snprintf(path, sizeof path, "%s/../../generated/cols/sum_f32_cols.json", dir);
  s = tune_manifest_read(path, &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s == TGM_OK) {
    CHECK_EQ_INT(m.shape, TUNE_SHAPE_COLS);
    CHECK_EQ_INT(m.n_v, 3);
    const tune_variant *ss = &m.v[0], *sv = &m.v[1], *ca = &m.v[2];
    CHECK(!strcmp(ss->id, "CT.SS") && !ss->vec && !strcmp(sv->id, "CT.SV") && sv->vec);
    CHECK(sv->pos[0].rule == RULE_COLS && sv->pos[0].n_args == 8 &&
          sv->pos[0].args[7] == ARG_WIDTH && sv->pos[0].args[5] == ARG_PARTIALS);
    CHECK(sv->n_parts == 7 && sv->n_widths == 7 && sv->n_per_row == 0 && sv->n_items == 1);
    CHECK(m.pick_v[TUNE_PICK_CT] == 1 && m.pick_v[TUNE_PICK_RB] == -1);
    // CA.SV: tgm_init_out(out, n) in blocks of 256, then the kernel (no temp)
    CHECK(!strcmp(ca->id, "CA.SV") && ca->vec && ca->n_pos == 2 && !ca->partials && !ca->counter &&
          !ca->deterministic);
    CHECK(ca->pos[0].rule == RULE_COLS_INIT && ca->pos[0].block_fixed == 256 &&
          ca->pos[0].n_args == 2 && ca->pos[0].args[0] == ARG_OUT && ca->pos[0].args[1] == ARG_N);
    CHECK(tune_shape_main(ca) == &ca->pos[1] && ca->pos[1].rule == RULE_COLS_ATOMIC);
    CHECK(tune_shape_main(sv) == &sv->pos[0]);
    CHECK(m.pick_v[TUNE_PICK_CA] == 2);
    // in parts: CA.SV, or CT.SV where only deterministic variants may run (float sums)
    tune_shape_set cs = tune_shape_rule(&m, 32768, 32, 132, 1024, 0, 0);
    CHECK(cs.v == 2 && cs.parts > 1);
    cs = tune_shape_rule(&m, 32768, 32, 132, 1024, 0, 1);
    CHECK(cs.v == 1 && cs.parts > 1);
    tune_manifest_free(&m);
  } else
    fprintf(stderr, "%s\n", tgm_last_error());

  // their grids and temp storage (launch_rule.tpl's, through rule.c)
  unsigned x = 9, y = 9;
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 40, 40, 128, 4, 1, 1, 4, &x, &y);
  CHECK(x == 32 && y == 1); // 32 rows a block of 128
  // RW.SS a thread a row over packed rows of 2, 4-byte elements (vw 4, the variant's
  // packed_rows; launch_rule.tpl's tgm_rows_packed_of): a thread a vector of two rows, plus
  // the edges' rows: ceil((500 + 4) / 128)
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 2, 2, 128, 1, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 4);
  tune_shape_grid(RULE_ROWS_GROUP, 8, 1000, 2, 2, 128, 1, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 4); // two elements (a row) before the first boundary
  tune_shape_grid(RULE_ROWS_GROUP, 4, 1000, 2, 2, 128, 1, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 8); // three: the boundaries cut rows, a thread a row
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 2, 3, 128, 1, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 8); // ld > n
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 2, 2, 128, 1, 1, 1, 4, &x, &y);
  CHECK_EQ_INT(x, 8); // a variant without packed_rows (vw 1)
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 2, 2, 128, 2, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 16); // two threads a row
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 1, 1, 128, 1, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 3); // four rows a vector: ceil((250 + 8) / 128)
  tune_shape_grid(RULE_ROWS_GROUP, 0, 1000, 3, 3, 128, 1, 1, 4, 4, &x, &y);
  CHECK_EQ_INT(x, 8); // 3 does not divide a vector
  tune_shape_grid(RULE_ROWS, 0, 1000, 40, 40, 128, 0, 1, 1, 4, &x, &y);
  CHECK(x == 1000 && y == 1);
  tune_shape_grid(RULE_ROWS_PARTS, 0, 100, 1 << 20, 1 << 20, 1024, 3, 1, 1, 4, &x, &y);
  CHECK(x == 3 && y == 100);
  tune_shape_grid(RULE_ROWS_PARTS, 0, 5000, 1 << 20, 1 << 20, 1024, 3, 1, 1, 4, &x, &y);
  CHECK_EQ_INT(x, 0); // a counter a row: at most 4096 rows
  tune_shape_grid(RULE_COLS, 4, 7, 10, 10, 128, 2, 1, 4, 4, &x, &y);
  CHECK(x == 2 && y == 1); // 10 columns one element past a boundary: 11 in groups of 8
  tune_shape_grid(RULE_COLS, 0, 7, 10, 10, 128, 2, 3, 1, 4, &x, &y);
  CHECK(x == 5 && y == 3);
  tune_shape_grid(RULE_COLS, 0, 7, 1 << 20, 1 << 20, 128, 1, 2, 1, 4, &x, &y);
  CHECK_EQ_INT(x, 0); // parts > 1 over more tiles than counters
  tune_shape_grid(RULE_COLS, 0, 7, 4096, 4096, 128, 256, 1, 1, 4, &x, &y);
  CHECK_EQ_INT(x, 0); // more columns a block than threads: no lane (wrong results on the GPU)
  tune_shape_grid(RULE_COLS, 0, 7, 4096, 4096, 128, 24, 1, 1, 4, &x, &y);
  CHECK_EQ_INT(x, 0); // not a power of two
  tune_shape_grid(RULE_COLS, 0, 7, 4096, 4096, 256, 256, 1, 1, 4, &x, &y);
  CHECK(x == 16 && y == 1);
  // the cells of the tuned buckets: odd exponents, 2^(a-1) <= x < 2^(a+1)
  CHECK(tune_shape_cell(0) == 1 && tune_shape_cell(1) == 1 && tune_shape_cell(3) == 1);
  CHECK(tune_shape_cell(4) == 3 && tune_shape_cell(15) == 3 && tune_shape_cell(16) == 5);
  CHECK(tune_shape_cell(1ull << 40) == 41 && tune_shape_cell((1ull << 41) - 1) == 41);
  // the rule's picks as settings (launch_rule.tpl's tgm_rows_pick_of, tgm_cols_pick_of)
  tune_pick p = tune_rows_pick(100000, 2, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 1 && p.block == 256 && !p.width && !p.parts);
  p = tune_rows_pick(8192, 512, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RW_WIDE && p.per_row == 32 && p.block == 128);
  // a SM's share of the bandwidth: an H200's 4.9 TB/s over 132 SMs, an H100's 3.35
  CHECK(tune_sm_gbps(4915.2, 132) == 37 && tune_sm_gbps(3352.3, 132) == 25);
  CHECK(tune_sm_gbps(0, 132) == 0 && tune_sm_gbps(4915.2, 0) == 0);
  // rows of 8, 16 and 32 from 2^22 where it is 32 GB/s or more: a thread a row of 8,
  // else n / 16 threads, vectors, items 4; the H100's n / 4 threads, scalar, elsewhere
  p = tune_rows_pick(524288, 8, 132, 1024, 37, 0);
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 1 && p.block == 128 && p.items == 1);
  p = tune_rows_pick(524288, 8, 132, 1024, 25, 0);
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 2 && p.block == 128 && p.items == 1);
  p = tune_rows_pick(131072, 8, 132, 1024, 37, 0); // 2^20
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 2);
  p = tune_rows_pick(262144, 16, 132, 1024, 37, 0);
  CHECK(p.role == TUNE_PICK_RW_WIDE && p.per_row == 1 && p.block == 128 && p.items == 4);
  p = tune_rows_pick(131072, 32, 132, 1024, 37, 1);
  CHECK(p.role == TUNE_PICK_RW_WIDE && p.per_row == 2 && p.block == 128 && p.items == 4);
  p = tune_rows_pick(131072, 32, 132, 1024, 0, 1);
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 8 && p.items == 1);
  p = tune_rows_pick(200000, 24, 132, 1024, 37, 0); // not a power of two
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 4 && p.items == 1);
  p = tune_rows_pick(65536, 64, 132, 1024, 37, 0);
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 8);
  p = tune_rows_pick(1048576, 4, 132, 1024, 37, 0);
  CHECK(p.role == TUNE_PICK_RW_NARROW && p.per_row == 1 && p.items == 1);
  p = tune_rows_pick(4096, 4096, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RB && p.per_row == 0 && p.block == 128 && p.items == 1);
  // n < 1536 on m >= 4 sms rows: a warp a row, items 4; fewer rows, or n < 4096: a block of
  // 128 a row, items 4
  p = tune_rows_pick(528, 1024, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RW_WIDE && p.per_row == 32 && p.block == 128 && p.items == 4);
  p = tune_rows_pick(527, 1024, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RB && p.block == 128 && p.items == 4);
  p = tune_rows_pick(8192, 1536, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RB && p.block == 128 && p.items == 4);
  p = tune_rows_pick(1000, 4095, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RB && p.block == 128 && p.items == 4);
  p = tune_rows_pick(2, 1 << 22, 132, 1024, 0, 0); // 2^23 elements: blocks of 256, two a SM
  CHECK(p.role == TUNE_PICK_RL && p.per_row == 132 && p.block == 256 && p.items == 4);
  p = tune_rows_pick(2, 1 << 26, 132, 1024, 0, 0); // 2^27: the seed's blocks of 1024, br = sms / m
  CHECK(p.role == TUNE_PICK_RL && p.per_row == 66 && p.block == 1024 && p.items == 4);
  p = tune_rows_pick(3, 1 << 22, 132, 1024, 0, 0); // ceil(264 / 3)
  CHECK(p.role == TUNE_PICK_RL && p.per_row == 88 && p.block == 256);
  // few long rows of 2^15: a block of 512 a row, not seed 003's blocks a row
  p = tune_rows_pick(8, 32768, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RB && p.per_row == 0 && p.block == 512 && p.items == 1);
  p = tune_rows_pick(32, 8192, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RB && p.block == 512);
  p = tune_rows_pick(8, 1 << 17, 132, 1024, 0, 0);
  CHECK(p.role == TUNE_PICK_RL && p.per_row == 16 && p.block == 1024);
  // with RA in the manifest, RL's shapes under sms rows: RA in blocks of 256, 2 sms of them
  // in all below 2^22 elements, 8 sms from 2^22
  p = tune_rows_pick(8, 1 << 17, 132, 1024, 0, 1);
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 33 && p.block == 256 && p.items == 4);
  p = tune_rows_pick(2, 1 << 21, 132, 1024, 0, 1);
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 528 && p.block == 256);
  p = tune_rows_pick(3, 1 << 26, 132, 1024, 0, 1);
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 352 && p.block == 256);
  p = tune_rows_pick(50, 1 << 20, 132, 1024, 0, 1); // floor(1056 / 50)
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 21);
  p = tune_rows_pick(100, 1 << 20, 132, 1024, 0, 1); // a block a row, as without RA
  CHECK(p.role == TUNE_PICK_RB);
  p = tune_rows_pick(8, 32768, 132, 1024, 0, 1); // a block of 512 a row stays
  CHECK(p.role == TUNE_PICK_RB && p.block == 512);
  // fewer than 0.3 sms rows of 2^23 elements or more at 32 GB/s a SM or more, with RA: RA's
  // 8 sms blocks, not m blocks of 512 on m SMs
  p = tune_rows_pick(32, 1 << 19, 132, 1024, 37, 1);
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 33 && p.block == 256 && p.items == 4);
  p = tune_rows_pick(39, 1 << 18, 132, 1024, 37, 1); // 390 < 396
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 27);
  p = tune_rows_pick(40, 1 << 19, 132, 1024, 37, 1); // 400 >= 396
  CHECK(p.role == TUNE_PICK_RB && p.block == 512);
  p = tune_rows_pick(32, 1 << 17, 132, 1024, 37, 1); // 2^22 elements
  CHECK(p.role == TUNE_PICK_RB && p.block == 512);
  p = tune_rows_pick(32, 1 << 19, 132, 1024, 25, 1); // the H100's 25 GB/s
  CHECK(p.role == TUNE_PICK_RB && p.block == 512);
  p = tune_rows_pick(32, 1 << 19, 132, 1024, 37, 0); // no RA
  CHECK(p.role == TUNE_PICK_RB && p.block == 512);
  p = tune_rows_pick(200, 65536, 132, 1024, 0, 0); // sms <= m < 2 sms: 2 blocks of 1024 a row
  CHECK(p.role == TUNE_PICK_RL && p.per_row == 2 && p.block == 1024);
  p = tune_rows_pick(200, 65536, 132, 1024, 0, 1); // or RA: floor(1056 / 200)
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 5 && p.block == 256);
  p = tune_rows_pick(250, 8192, 132, 1024, 0, 1); // below 2^22: floor(264 / 250) = 1
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 1 && p.block == 256);
  p = tune_rows_pick(4096, 4096, 132, 1024, 0, 1);
  CHECK(p.role == TUNE_PICK_RB);
  // sms <= m < 2 sms, 8192 <= n <= 262144 at 32 GB/s a SM or more: a block of 256 a row, items 1
  p = tune_rows_pick(256, 16384, 132, 1024, 37, 1);
  CHECK(p.role == TUNE_PICK_RB && p.block == 256 && p.items == 1);
  p = tune_rows_pick(132, 65536, 132, 1024, 37, 0);
  CHECK(p.role == TUNE_PICK_RB && p.block == 256 && p.items == 1);
  p = tune_rows_pick(263, 8192, 132, 1024, 37, 1);
  CHECK(p.role == TUNE_PICK_RB && p.block == 256 && p.items == 1);
  p = tune_rows_pick(200, 65537, 132, 1024, 37, 1);
  CHECK(p.role == TUNE_PICK_RB && p.block == 256 && p.items == 1);
  p = tune_rows_pick(140, 262144, 132, 1024, 37, 1);
  CHECK(p.role == TUNE_PICK_RB && p.block == 256 && p.items == 1);
  p = tune_rows_pick(200, 262145, 132, 1024, 37, 1); // longer rows: RA as before
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 5 && p.block == 256);
  p = tune_rows_pick(264, 16384, 132, 1024, 37, 1); // 2 sms rows: a block of 128 a row
  CHECK(p.role == TUNE_PICK_RB && p.block == 128);
  p = tune_rows_pick(256, 16384, 132, 1024, 25, 1); // the H100's 25 GB/s: RA as before
  CHECK(p.role == TUNE_PICK_RA && p.per_row == 4 && p.block == 256);
  CHECK_EQ_INT(tune_rows_atomic_per_row(2, 1 << 20, 132), 132); // the rule's RA, below 2^22
  CHECK_EQ_INT(tune_rows_atomic_per_row(8, 1 << 22, 132), 132);
  CHECK_EQ_INT(tune_rows_atomic_per_row(70000, 1 << 10, 132), 2); // RL's, where RA cannot run
  unsigned rx = 0, ry = 0;
  tune_shape_grid(RULE_ROWS_ATOMIC, 0, 5, 1000, 1000, 256, 3, 0, 0, 0, &rx, &ry);
  CHECK(rx == 3 && ry == 5);
  tune_shape_grid(RULE_ROWS_ATOMIC, 0, 70000, 1000, 1000, 256, 3, 0, 0, 0, &rx, &ry);
  CHECK(rx == 0); // m beyond the grid's y
  tune_shape_grid(RULE_ROWS_ATOMIC, 0, 5000, 1000, 1000, 256, 1, 0, 0, 0, &rx, &ry);
  CHECK(rx == 1 && ry == 5000); // no counters: more rows than RL's 4096
  tune_shape_grid(RULE_ROWS_INIT, 0, 1000, 5, 5, 256, 0, 0, 0, 0, &rx, &ry);
  CHECK(rx == 4 && ry == 1);
  CHECK_EQ_INT(tune_shape_counters(RULE_ROWS_ATOMIC, 0), 0);
  CHECK_EQ_INT(tune_shape_temp(RULE_ROWS_ATOMIC, 1000, 1 << 20, 64, 0, 4), 0);
  // few tiles of a small matrix: 8 rows a lane from 512 rows, 128 lanes of
  // 4 groups of 4 columns in a block of 512
  p = tune_cols_pick(1024, 32, 132, 4, 1, 0);
  CHECK(p.role == TUNE_PICK_CT && p.width == 4 && p.parts == 1 && p.block == 512);
  p = tune_cols_pick(1024, 32, 132, 4, 0, 0); // scalar: 16 columns a block
  CHECK(p.width == 16 && p.block == 512);
  p = tune_cols_pick(2, 512, 132, 4, 1, 0); // two rows: 2 lanes of 128 groups
  CHECK(p.width == 128 && p.parts == 1 && p.block == 256);
  // 16-512 rows: a quarter of those groups, lanes for 4 rows, blocks of 128-512
  p = tune_cols_pick(128, 128, 132, 4, 1, 0); // was 16 groups in 512
  CHECK(p.role == TUNE_PICK_CT && p.width == 4 && p.parts == 1 && p.block == 128);
  p = tune_cols_pick(512, 512, 132, 4, 1, 1); // 8 rows a lane of 8 groups -> 4 rows, 2 groups
  CHECK(p.role == TUNE_PICK_CT && p.width == 2 && p.parts == 1 && p.block == 256);
  p = tune_cols_pick(100, 640, 132, 4, 1, 1); // 25 lanes of 4 groups: a block of 128
  CHECK(p.role == TUNE_PICK_CT && p.width == 4 && p.parts == 1 && p.block == 128);
  p = tune_cols_pick(8, 2048, 132, 4, 1, 0); // 8 rows stay: 2 lanes of 128 groups
  CHECK(p.width == 128 && p.parts == 1 && p.block == 256);
  p = tune_cols_pick(512, 8192, 132, 4, 1, 0); // a quarter would make 1025 tiles (> 4 sms): stays
  CHECK(p.width == 8 && p.parts == 1 && p.block == 512);
  p = tune_cols_pick(512, 32, 132, 4, 1, 1); // CA in parts stays CA
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.block == 128);
  // 2^22 < m n <= 2^24: 8 groups a block where they make one part
  p = tune_cols_pick(4096, 4096, 132, 4, 1, 0);
  CHECK(p.width == 8 && p.parts == 1 && p.block == 1024);
  p = tune_cols_pick(2048, 8192, 132, 4, 1, 0);
  CHECK(p.width == 8 && p.parts == 1 && p.block == 512);
  p = tune_cols_pick(128, 131072, 132, 4, 1, 0); // few rows: 32 groups, as before
  CHECK(p.width == 32 && p.parts == 1 && p.block == 128);
  // 2^24, 256 rows a lane of 8 groups: 16 tiles of 8 groups, 33 parts
  p = tune_cols_pick(32768, 512, 132, 4, 1, 0);
  CHECK(p.width == 8 && p.parts == 33 && p.block == 256);
  p = tune_cols_pick(8192, 8192, 132, 4, 1,
                     0); // 2^26: 16 tiles of 128 groups, 8 parts (128 blocks)
  CHECK(p.width == 128 && p.parts == 8 && p.block == 1024);
  p = tune_cols_pick(65536, 1024, 132, 4, 1, 0); // 2 tiles (aligned), 66 parts: a block a SM
  CHECK(p.width == 128 && p.parts == 66 && p.block == 1024);
  p = tune_cols_pick(1u << 25, 2, 132, 4, 1, 0); // one tile, 132 parts
  CHECK(p.width == 1 && p.parts == 132 && p.block == 1024);
  p = tune_cols_pick(100000, 2, 132, 4, 1, 0); // parts down the rows, narrow: blocks of 256
  CHECK(p.width == 1 && p.parts > 1 && p.block == 256);
  // wider: 8 groups, blocks of 256, 4 sms blocks over 4 tiles
  p = tune_cols_pick(32768, 128, 132, 4, 1, 0);
  CHECK(p.width == 8 && p.parts == 132 && p.block == 256);
  p = tune_cols_pick(131072, 32, 132, 4, 1, 0); // one aligned tile (two for any skew): 4 sms parts
  CHECK(p.width == 8 && p.parts == 528 && p.block == 256);
  // more tiles rather than parts: one part of 2 groups where a lane of 512
  // has at most 8 rows, or the tiles are at least twice its rows
  p = tune_cols_pick(2048, 512, 132, 4, 1, 0);
  CHECK(p.width == 2 && p.parts == 1 && p.block == 512);
  p = tune_cols_pick(4096, 32, 132, 4, 1, 0);
  CHECK(p.width == 2 && p.parts == 1 && p.block == 1024);
  p = tune_cols_pick(8192, 256, 132, 4, 1, 0); // 16 rows a lane, 33 tiles
  CHECK(p.width == 2 && p.parts == 1 && p.block == 1024);
  p = tune_cols_pick(8192, 128, 132, 4, 1, 0); // 16 rows a lane, 17 tiles: parts
  CHECK(p.width == 8 && p.parts == 64 && p.block == 256);
  p = tune_cols_pick(16384, 1024, 132, 4, 1, 0); // 32 rows a lane, 129 tiles
  CHECK(p.width == 2 && p.parts == 1 && p.block == 1024);
  p = tune_cols_pick(8192, 16, 132, 4, 1, 0); // fewer than 8 groups: parts
  CHECK(p.width == 4 && p.parts == 32 && p.block == 256);
  p = tune_cols_pick(1 << 20, 64, 132, 4, 1, 0); // above 2^24: blocks of 1024
  CHECK(p.parts > 1 && p.block == 1024);
  CHECK(p.role == TUNE_PICK_CT);
  // with CA in the manifest the same settings, in parts CA's (atomics, no counters)
  // below 2^24 (n >= vw) one block a SM in all: blocks of 256 below 2^22
  p = tune_cols_pick(32768, 32, 132, 4, 1, 1); // 2^20
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.parts == 132 && p.block == 256);
  p = tune_cols_pick(8192, 32, 132, 4, 1, 1); // 2^18: 4 rows a lane at most 64 parts
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.parts == 64 && p.block == 256);
  // 2^22: blocks of 512, a quarter of the parts CT takes
  p = tune_cols_pick(131072, 32, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.parts == 132 && p.block == 512);
  // 2^24 and n = 2 (n < vw): 2 sms blocks of 256, half the parts CT takes
  p = tune_cols_pick(524288, 32, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.parts == 264 && p.block == 256);
  p = tune_cols_pick(524288, 2, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 1 && p.parts == 264 && p.block == 256);
  // and 4 tiles (n = 128), rows off the vectors' boundaries (n = 10)
  p = tune_cols_pick(32768, 128, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.parts == 66 && p.block == 256);
  p = tune_cols_pick(100000, 10, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 2 && p.parts == 132 && p.block == 256);
  p = tune_cols_pick(100000, 12, 132, 4, 1, 1); // 3 vectors in 2 tiles: one block a SM
  CHECK(p.role == TUNE_PICK_CA && p.width == 2 && p.parts == 66 && p.block == 256);
  p = tune_cols_pick(131072, 32, 132, 4, 1, 0);
  CHECK(p.role == TUNE_PICK_CT && p.width == 8 && p.parts == 528 && p.block == 256);
  // 2^22-2^24, 64 tiles of 8 groups (fewer than half the SMs): CA in 8 parts
  // of 128 (4 sms blocks); 128 tiles keep one part; without CA one part
  p = tune_cols_pick(8192, 2048, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 8 && p.parts == 8 && p.block == 128);
  p = tune_cols_pick(8192, 2048, 132, 4, 1, 0);
  CHECK(p.role == TUNE_PICK_CT && p.width == 8 && p.parts == 1 && p.block == 1024);
  p = tune_cols_pick(4096, 4096, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CT && p.width == 8 && p.parts == 1 && p.block == 1024);
  p = tune_cols_pick(1024, 2048, 132, 4, 1, 1); // 2^21, n > 128: one part
  CHECK(p.role == TUNE_PICK_CT && p.parts == 1);
  p = tune_cols_pick(1u << 25, 2, 132, 4, 1, 1); // n = 2 (rows packed): CA at every size
  CHECK(p.role == TUNE_PICK_CA && p.parts == 132);
  // one part, a lane of 16 rows: CA in blocks of 128, 4 rows a lane
  p = tune_cols_pick(2048, 128, 132, 4, 1, 1);
  CHECK(p.role == TUNE_PICK_CA && p.width == 2 && p.parts == 8 && p.block == 128);
  p = tune_cols_pick(2048, 512, 132, 4, 1, 1); // n > 128: one part
  CHECK(p.role == TUNE_PICK_CT && p.width == 2 && p.parts == 1);
  p = tune_cols_pick(2048, 2, 132, 4, 1, 1); // two parts would be all: one part
  CHECK(p.role == TUNE_PICK_CT && p.parts == 1);
  p = tune_cols_pick(8192, 2, 132, 4, 1, 1); // packed rows: 4096 vectors, 4 a thread
  CHECK(p.role == TUNE_PICK_CA && p.width == 1 && p.parts == 8 && p.block == 128);
  p = tune_cols_pick(64, 8, 132, 4, 1, 1); // a lane's rows few: one part
  CHECK(p.role == TUNE_PICK_CT && p.parts == 1);
  p = tune_cols_pick(256, 512, 132, 4, 1, 1); // fewer than 512 rows: one part
  CHECK(p.role == TUNE_PICK_CT && p.parts == 1);
  p = tune_cols_pick(4096, 4096, 132, 4, 1, 1); // above 2^22: one part of 8 groups, as without
  CHECK(p.role == TUNE_PICK_CT && p.parts == 1);
  p = tune_cols_pick(100000, 2, 132, 4, 0, 1); // CA is vector loads: groups, not columns
  CHECK(p.role == TUNE_PICK_CA && p.width == 1 && p.parts > 1);
  CHECK_EQ_INT(tune_shape_counters(RULE_COLS_ATOMIC, 64), 0);
  CHECK_EQ_INT(tune_shape_temp(RULE_COLS_ATOMIC, 1000, 8, 2, 64, 4), 0);
  CHECK(tune_shape_fits(RULE_COLS_ATOMIC, 1000, 1 << 20, 1, 4, 4096));
  unsigned gx = 0, gy = 0;
  tune_shape_grid(RULE_COLS_INIT, 0, 5, 1000, 1000, 256, 0, 0, 0, 0, &gx, &gy);
  CHECK(gx == 4 && gy == 1);
  tune_shape_grid(RULE_COLS_INIT, 0, 5, 1ull << 30, 1ull << 30, 256, 0, 0, 0, 0, &gx, &gy);
  CHECK(gx == 1024 && gy == 1);
  tune_shape_grid(RULE_COLS_ATOMIC, 0, 1 << 20, 1 << 20, 1 << 20, 256, 1, 8, 4, 4, &gx, &gy);
  CHECK(gx == (1u << 18) && gy == 8); // no counters: more tiles than CT's 4096 in parts
  CHECK_EQ_INT(tune_shape_counters(RULE_ROWS_PARTS, 0), 4096 * 4);
  CHECK_EQ_INT(tune_shape_counters(RULE_COLS, 2), 4096 * 4);
  CHECK_EQ_INT(tune_shape_counters(RULE_COLS, 1), 0);
  CHECK_EQ_INT(tune_shape_counters(RULE_ROWS, 0), 0);
  CHECK_EQ_INT(tune_shape_embed_temp(0, 99, 4), 4096 * 4 + 32768 * 4);
  CHECK_EQ_INT(tune_shape_embed_temp(1, 99, 4), 4096 * 4 + 99 * 4096 * 4);
  // what the embedded call's temp holds: RL's m x per_row, CT's parts x n
  CHECK(tune_shape_fits(RULE_ROWS_PARTS, 1024, 99, 32, 1, 0));
  CHECK(!tune_shape_fits(RULE_ROWS_PARTS, 1025, 99, 32, 1, 0));
  CHECK(!tune_shape_fits(RULE_ROWS_PARTS, 4097, 99, 2, 1, 0));
  CHECK(tune_shape_fits(RULE_COLS, 1 << 20, 256, 64, 4, 4096));
  CHECK(!tune_shape_fits(RULE_COLS, 1 << 20, 257, 64, 4, 4096));
  CHECK(!tune_shape_fits(RULE_COLS, 1 << 20, 256, 64, 4, 4097));
  CHECK(tune_shape_fits(RULE_COLS, 1 << 20, 1 << 25, 1, 4, 1));  // one part: no partials
  CHECK(!tune_shape_fits(RULE_COLS, 1 << 20, 1 << 16, 1, 4, 2)); // 2^14 tiles: a counter each
  CHECK(tune_shape_fits(RULE_ROWS, 1ull << 40, 2, 0, 1, 0));
  CHECK_EQ_INT(tune_shape_temp(RULE_ROWS_PARTS, 10, 99, 4, 1, 4), 4096 * 4 + 10 * 4 * 4);
  CHECK_EQ_INT(tune_shape_temp(RULE_COLS, 10, 99, 4, 3, 8), 4096 * 4 + 99 * 3 * 8);
  CHECK_EQ_INT(tune_shape_temp(RULE_COLS, 10, 99, 4, 1, 8), 0);
  CHECK_EQ_INT(tune_shape_temp(RULE_ROWS_GROUP, 10, 99, 4, 1, 8), 0);

  // and what the reader refuses in them
#define SHAPED(shape, grid, args, tun, launches)                                            \
  "{\"tgm_manifest\": 1, \"shape\": \"" shape "\", \"source_hash\": \"x\", \"spectrum\": "  \
  "\"s\", \"type\": \"f32\", \"ctype\": \"float\", \"op\": \"sum\", \"namespace\": \"n\", " \
  "\"variants\": [{\"id\": \"A\", \"kernel\": \"k\", \"tunables\": {\"block\": [256]" tun   \
  "}, \"" launches "\": [{\"kernel\": \"k\", \"name_expr\": \"k\", \"grid\": \"" grid       \
  "\", \"block\": \"BLOCK\", \"args\": [" args "]}]}]}"
  s = read_text(SHAPED("rows", "rows_group", "\"in\", \"m\", \"n\", \"ld\", \"out\"",
                       ", \"per_row\": [1, 32]", "launches_m_positive"),
                &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s == TGM_OK)
    tune_manifest_free(&m);
  else
    fprintf(stderr, "%s\n", tgm_last_error());
#define PICKED(shape, picks)                                                                 \
  "{\"tgm_manifest\": 1, \"shape\": \"" shape "\", \"source_hash\": \"x\", \"spectrum\": "   \
  "\"s\", \"type\": \"f32\", \"ctype\": \"float\", \"op\": \"sum\", \"namespace\": \"n\", "  \
  "\"variants\": [{\"id\": \"A\", \"kernel\": \"k\", \"tunables\": {\"block\": [256]}, "     \
  "\"launches_m_positive\": [{\"kernel\": \"k\", \"name_expr\": \"k\", \"grid\": \"rows\", " \
  "\"block\": \"BLOCK\", \"args\": [\"in\"]}]}], \"pick_variants\": " picks "}"
  s = read_text(PICKED("rows", "{\"rb\": \"A\", \"rl\": null}"), &m);
  CHECK_EQ_INT(s, TGM_OK);
  if (s == TGM_OK) {
    CHECK(m.pick_v[TUNE_PICK_RB] == 0 && m.pick_v[TUNE_PICK_RL] == -1);
    tune_manifest_free(&m);
  }
  const struct {
    const char *text, *why;
  } bad_shape[] = {
      {PICKED("rows", "{\"rb\": \"B\"}"), "pick_variants.rb names no variant"},
      {PICKED("rows", "[\"A\"]"), "pick_variants: an object"},
      {SHAPED("planes", "rows", "\"in\"", "", "launches_m_positive"), "shape 'planes'"},
      {SHAPED("rows", "tiles", "\"in\"", "", "launches_m_positive"), "bad launch 0"},
      {SHAPED("rows", "cols", "\"in\"", "", "launches_m_positive"), "bad launch 0"},
      {SHAPED("cols", "rows_parts", "\"in\"", "", "launches_m_positive"), "bad launch 0"},
      // CA's kernel without its tgm_init_out; a cols_init launch as the kernel
      {SHAPED("cols", "cols_atomic", "\"in\"", "", "launches_m_positive"),
       "one kernel of the block knob"},
      {SHAPED("cols", "cols_init", "\"out\", \"n\"", "", "launches_m_positive"),
       "one kernel of the block knob"},
      // RA's kernel without its tgm_init_out; a rows_init launch as the kernel
      {SHAPED("rows", "rows_atomic", "\"in\"", "", "launches_m_positive"),
       "one kernel of the block knob"},
      {SHAPED("rows", "rows_init", "\"out\", \"m\"", "", "launches_m_positive"),
       "one kernel of the block knob"},
      {SHAPED("cols", "rows_atomic", "\"in\"", "", "launches_m_positive"), "bad launch 0"},
      {SHAPED("rows", "rows", "\"in\"", "", "launches_n_positive"), "launches_m_positive only"},
      {SHAPED("cols", "cols", "\"in\"", ", \"per_row\": [2]", "launches_m_positive"),
       "tunables.per_row: not a knob"},
      {SHAPED("rows", "rows", "\"in\"", ", \"grid_cap_per_sm\": [2]", "launches_m_positive"),
       "tunables.grid_cap_per_sm: not a knob"},
      {SHAPED("rows", "rows", "\"in\"", ", \"per_row\": [0]", "launches_m_positive"),
       "bad tunables.per_row"},
      {HEAD "\"variants\": [{\"id\": \"A\", \"kernel\": \"k\", \"tunables\": {\"block\": "
            "[256]}, \"launches_n_positive\": [{\"kernel\": \"k\", \"name_expr\": \"k\", "
            "\"grid\": \"rows\", \"block\": \"BLOCK\", \"args\": [\"in\"]}]}]}",
       "bad launch 0"},
      {HEAD "\"variants\": [{\"id\": \"A\", \"kernel\": \"k\", \"tunables\": {\"block\": "
            "[256]}, \"launches_n_positive\": [{\"kernel\": \"k\", \"name_expr\": \"k\", "
            "\"grid\": \"one\", \"block\": \"BLOCK\", \"args\": [\"ld\"]}]}]}",
       "unknown argument 'ld'"},
  };
  for (size_t i = 0; i < sizeof bad_shape / sizeof *bad_shape; i++) {
    s = read_text(bad_shape[i].text, &m);
    CHECK_EQ_INT(s, TGM_ERR_MANIFEST);
    if (s == TGM_OK)
      tune_manifest_free(&m);
    else if (!strstr(tgm_last_error(), bad_shape[i].why)) {
      fprintf(stderr, "shape case %zu: '%s' does not say '%s'\n", i, tgm_last_error(),
              bad_shape[i].why);
      check_failures++;
    }
    CHECK_EQ_INT(m.n_v, 0);
  }
  unlink(tmp);
  CHECK_DONE();
}

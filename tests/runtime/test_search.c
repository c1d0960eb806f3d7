// test_search.c — the knob space, defaults, neighbours and the tie order.
#include "../check.h"
#include "tune.h"
#include <string.h>

int main(int argc, char **argv) {
  char path[4096];
  snprintf(path, sizeof path, "%s/data/tiny.json", argc > 1 ? argv[1] : ".");
  tune_manifest m;
  if (tune_manifest_read(path, &m) != TGM_OK) {
    fprintf(stderr, "%s\n", tgm_last_error());
    return 1;
  }
  // DT.VS.ST: 4 blocks x 5 items; DSA.VS.SV: 4 x 3 x 6 caps; B1.VR.ST: 4 x 1
  tune_knobs k[512];
  CHECK_EQ_INT(tune_settings(&m.v[0], 0, k, 512), 20);
  CHECK_EQ_INT(tune_settings(&m.v[1], 1, k, 512), 72);
  CHECK_EQ_INT(tune_settings(&m.v[2], 2, k, 512), 4);
  CHECK_EQ_INT(tune_settings(&m.v[1], 1, k, 10), 10); // capped
  for (int i = 0; i < 72; i++)
    CHECK(k[i].v == 1 || i >= 10);

  tune_knobs d = tune_default(&m.v[0], 0);
  CHECK(d.block == 256 && d.items == 4 && d.cap == 0);
  d = tune_default(&m.v[1], 1);
  CHECK(d.block == 256 && d.items == 4 && d.cap == 4);
  d = tune_default(&m.v[2], 2);
  CHECK(d.block == 256 && d.items == 1);

  // neighbours: one step in one knob
  tune_knobs nb[6];
  int n = tune_neighbours(&m.v[1], tune_default(&m.v[1], 1), nb);
  CHECK_EQ_INT(n, 6);
  for (int i = 0; i < n; i++) {
    int diff = (nb[i].block != 256) + (nb[i].items != 4) + (nb[i].cap != 4);
    CHECK_EQ_INT(diff, 1);
  }
  tune_knobs corner = {0, 128, 1, 0};
  CHECK_EQ_INT(tune_neighbours(&m.v[0], corner, nb), 2); // block 256, items 2
  CHECK_EQ_INT(tune_neighbours(&m.v[2], (tune_knobs){2, 1024, 1, 0}, nb), 1);

  // tie order: one launch before two, then manifest order, then smaller knobs
  tune_knobs dt = {0, 256, 4, 0}, dsa = {1, 256, 4, 4}, b1 = {2, 256, 1, 0};
  // DSA.VS.SV has 2 launches (init + kernel) like DT.VS.ST; B1 has 1
  CHECK(tune_tie_order(&m, b1, dt) < 0);
  CHECK(tune_tie_order(&m, dt, dsa) < 0);
  CHECK(tune_tie_order(&m, dsa, dt) > 0);
  tune_knobs dt2 = {0, 128, 4, 0};
  CHECK(tune_tie_order(&m, dt2, dt) < 0);
  CHECK_EQ_INT(tune_tie_order(&m, dt, dt), 0);

  // the rule within noise: deterministic, fewer launches, no memset, the
  // neighbour's choice, then the fixed order; it says which decided
  const char *why = NULL;
  tune_manifest m2 = m; // variants whose properties differ in one rule at a time
  tune_variant vv[3];
  memcpy(vv, m.v, sizeof vv);
  m2.v = vv;
  vv[0].deterministic = 1, vv[1].deterministic = 0;
  CHECK(tune_prefer(&m2, dsa, dt, 1, 1, NULL, &why) > 0 && !strcmp(why, "deterministic"));
  vv[1].deterministic = 1, vv[0].n_pos = 2, vv[1].n_pos = 1;
  CHECK(tune_prefer(&m2, dt, dsa, 1, 1, NULL, &why) > 0 && !strcmp(why, "fewer launches"));
  vv[1].n_pos = 2, vv[0].counter = 1, vv[1].counter = 0;
  CHECK(tune_prefer(&m2, dt, dsa, 1, 1, NULL, &why) > 0 && !strcmp(why, "no memset"));
  vv[0].counter = 0;
  CHECK(tune_prefer(&m2, dt, dsa, 1, 1, &dsa, &why) > 0 && !strcmp(why, "the neighbour's choice"));
  CHECK(tune_prefer(&m2, dsa, dt, 1, 1, &dsa, &why) < 0 && !strcmp(why, "the neighbour's choice"));
  CHECK(tune_prefer(&m2, dsa, dt, 1, 1, NULL, &why) > 0 && !strcmp(why, "fixed order"));
  CHECK(tune_prefer(&m2, dt, dt, 1, 1, NULL, &why) < 0); // never 0: a choice
  CHECK(tune_knobs_equal(dt, dt) && !tune_knobs_equal(dt, dt2));
  char buf[64];
  tune_knobs_str(&dsa, buf, sizeof buf);
  CHECK(!strcmp(buf, "block=256 items=4 cap=4/SM"));
  tune_manifest_free(&m);
  CHECK_DONE();
}

// fuzz_manifest.c — libFuzzer target: tgm-tune's manifest reader
// (tune_manifest_read), then what the tuner does with a manifest before it
// needs a GPU: every knob setting, the defaults, the neighbours, the name
// expressions, the tie order; for row and column manifests, each launch's
// grid and temp storage.
#include "fuzz_input.h"
#include "tune.h"
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  fuzz_path_init("manifest");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_write(data, size) != 0)
    return 0;
  tune_manifest m;
  if (tune_manifest_read(fuzz_path, &m) != TGM_OK)
    return 0;
  tune_knobs *sets = malloc(4096 * sizeof *sets);
  for (int v = 0; v < m.n_v; v++) {
    const tune_variant *x = &m.v[v];
    int n = tune_settings(x, v, sets, 4096);
    tune_knobs d = tune_default(x, v), nb[6];
    int nn = tune_neighbours(x, d, nb);
    for (int i = 0; i < nn; i++)
      (void)tune_tie_order(&m, d, nb[i]);
    if (n > 1)
      (void)tune_tie_order(&m, sets[0], sets[n - 1]);
    char k[64];
    tune_knobs_str(&d, k, sizeof k);
    for (int b = 0; b < x->n_blocks; b++)
      for (int l = 0; l < x->n_pos; l++) {
        free(tune_name_expr(x->pos[l].name_expr, x->blocks[b], 0, x->items[0]));
        if (x->pos[l].rule < RULE_ROWS)
          continue;
        // a row or column launch: its grid and temp storage for every group
        // and part the variant lists, over a few shapes
        const unsigned groups = x->n_per_row ? (unsigned)x->n_per_row : (unsigned)x->n_widths;
        for (unsigned g = 0; g < (groups ? groups : 1); g++)
          for (int p = 0; p < (x->n_parts ? x->n_parts : 1); p++) {
            unsigned grp = x->n_per_row ? x->per_row[g] : x->n_widths ? x->widths[g] : 0;
            unsigned parts = x->n_parts ? x->parts[p] : 1, gx, gy;
            const unsigned long long shapes[3][2] = {{1, 1}, {1000, 33}, {3, 1ull << 40}};
            for (int q = 0; q < 3; q++) {
              tune_shape_grid(x->pos[l].rule, 4, shapes[q][0], shapes[q][1], shapes[q][1],
                              x->blocks[b], grp, parts,
                              (x->pos[l].rule == RULE_ROWS_GROUP ? x->packed_rows : x->vec) ? 4 : 1,
                              4, &gx, &gy);
              (void)tune_shape_temp(x->pos[l].rule, shapes[q][0], shapes[q][1], grp, parts, 4);
            }
          }
      }
  }
  free(sets);
  tune_manifest_free(&m);
  return 0;
}

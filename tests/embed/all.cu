// Every embedded header in one translation unit: they must not clash.
#include "sum_i32.h"
#include "max_i32.h"
#include "min_i32.h"
#include "sum_f32.h"
#include "max_f32.h"
#include "min_f32.h"

int tgm_embedded_all(void *temp, size_t *bytes, const int32_t *i, int32_t *o, const float *f,
                     float *g, size_t n, TGM_STREAM s);
int tgm_embedded_all(void *temp, size_t *bytes, const int32_t *i, int32_t *o, const float *f,
                     float *g, size_t n, TGM_STREAM s) {
  return (int)tgm_sum_i32(temp, bytes, i, o, n, s) + (int)tgm_max_i32(temp, bytes, i, o, n, s) +
         (int)tgm_min_i32(temp, bytes, i, o, n, s) + (int)tgm_sum_f32(temp, bytes, f, g, n, s) +
         (int)tgm_max_f32(temp, bytes, f, g, n, s) + (int)tgm_min_f32(temp, bytes, f, g, n, s);
}

// The table each runs on the current GPU.
const char *tgm_embedded_tables(int k);
const char *tgm_embedded_tables(int k) {
  switch (k) {
  case 0: return tgm_sum_i32_table();
  case 1: return tgm_max_i32_table();
  case 2: return tgm_min_i32_table();
  case 3: return tgm_sum_f32_table();
  case 4: return tgm_max_f32_table();
  default: return tgm_min_f32_table();
  }
}

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

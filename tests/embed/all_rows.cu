// Every embedded row and column header (tgm-gen --rows/--cols --embed) in
// one translation unit, with the 1-D ones of all.cu: they must not clash.
#include "sum_i32.h"
#include "sum_rows_i32.h"
#include "max_rows_i32.h"
#include "min_rows_i32.h"
#include "sum_rows_f32.h"
#include "max_rows_f32.h"
#include "min_rows_f32.h"
#include "sum_cols_i32.h"
#include "max_cols_i32.h"
#include "min_cols_i32.h"
#include "sum_cols_f32.h"
#include "max_cols_f32.h"
#include "min_cols_f32.h"

int tgm_embedded_rows(void *temp, size_t *bytes, const int32_t *i, int32_t *o, const float *f,
                      float *g, size_t m, size_t n, size_t ld, TGM_STREAM s);
int tgm_embedded_rows(void *temp, size_t *bytes, const int32_t *i, int32_t *o, const float *f,
                      float *g, size_t m, size_t n, size_t ld, TGM_STREAM s) {
  return (int)tgm_sum_i32(temp, bytes, i, o, n, s) +
         (int)tgm_sum_rows_i32(temp, bytes, i, o, m, n, ld, s) +
         (int)tgm_max_rows_i32(temp, bytes, i, o, m, n, ld, s) +
         (int)tgm_min_rows_i32(temp, bytes, i, o, m, n, ld, s) +
         (int)tgm_sum_rows_f32(temp, bytes, f, g, m, n, ld, s) +
         (int)tgm_max_rows_f32(temp, bytes, f, g, m, n, ld, s) +
         (int)tgm_min_rows_f32(temp, bytes, f, g, m, n, ld, s) +
         (int)tgm_sum_cols_i32(temp, bytes, i, o, m, n, ld, s) +
         (int)tgm_max_cols_i32(temp, bytes, i, o, m, n, ld, s) +
         (int)tgm_min_cols_i32(temp, bytes, i, o, m, n, ld, s) +
         (int)tgm_sum_cols_f32(temp, bytes, f, g, m, n, ld, s) +
         (int)tgm_max_cols_f32(temp, bytes, f, g, m, n, ld, s) +
         (int)tgm_min_cols_f32(temp, bytes, f, g, m, n, ld, s);
}

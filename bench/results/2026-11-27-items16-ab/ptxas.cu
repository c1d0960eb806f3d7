#include "sum_rows_f32.h"
#include "sum_cols_f32.h"
#include "max_rows_i32.h"
#include "sum_f32.h"
void f(void *t, size_t *b, const float *in, float *out, const int *ii, int *io) {
  tgm_sum_rows_f32(t, b, in, out, 10, 10, 10, 0);
  tgm_sum_cols_f32(t, b, in, out, 10, 10, 10, 0);
  tgm_max_rows_i32(t, b, ii, io, 10, 10, 10, 0);
  tgm_sum_f32(t, b, in, out, 10, 0);
}

// stats.c — medians, quartiles and the tie rule of the timing protocol.
#include "tune.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double quantile(const double *s, int n, double q) {
  double pos = q * (n - 1);
  int lo = (int)floor(pos);
  int hi = lo + 1 < n ? lo + 1 : lo;
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

tune_stats tune_stats_of(const double *x, int n) {
  tune_stats st = {0};
  if (n <= 0)
    return st;
  double *s = malloc((size_t)n * sizeof *s);
  memcpy(s, x, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  st.n = n;
  st.min = s[0];
  st.max = s[n - 1];
  st.median = quantile(s, n, 0.5);
  st.p25 = quantile(s, n, 0.25);
  st.p75 = quantile(s, n, 0.75);
  free(s);
  return st;
}

double tune_spread(const tune_stats *a, const tune_stats *b) {
  double ia = a->p75 - a->p25, ib = b->p75 - b->p25;
  double s = ia > ib ? ia : ib;
  double floor_ = 0.01 * (a->median < b->median ? a->median : b->median);
  return s > floor_ ? s : floor_;
}

int tune_compare(const tune_stats *a, const tune_stats *b) {
  double d = a->median - b->median;
  if (fabs(d) <= tune_spread(a, b))
    return 0;
  return d < 0 ? -1 : 1;
}

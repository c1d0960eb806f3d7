// stats.c — medians, quartiles and the tie rule of the timing protocol.
#include "tune.h"
#include <math.h>
#include <stdint.h>
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

void tune_margin(const double *a, const double *b, int n, double *m, double *lo, double *hi) {
  *m = *lo = *hi = 0;
  if (n <= 0)
    return;
  enum { RESAMPLES = 2000, MAXN = 64 };
  if (n > MAXN)
    n = MAXN;
  double r[MAXN], pick[MAXN];
  for (int k = 0; k < n; k++)
    r[k] = a[k] > 0 ? b[k] / a[k] : 1;
  *m = tune_stats_of(r, n).median - 1;
  double *med = malloc(RESAMPLES * sizeof *med);
  if (!med) {
    *lo = *hi = *m;
    return;
  }
  uint64_t x = 0x2545f4914f6cdd1dull; // xorshift64: a fixed seed
  for (int i = 0; i < RESAMPLES; i++) {
    for (int k = 0; k < n; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      pick[k] = r[x % (uint64_t)n];
    }
    med[i] = tune_stats_of(pick, n).median - 1;
  }
  qsort(med, RESAMPLES, sizeof *med, cmp_double);
  *lo = med[(int)(0.025 * (RESAMPLES - 1))];
  *hi = med[(int)(0.975 * (RESAMPLES - 1) + 0.5)];
  free(med);
}

double tune_worst_time(double stream_us, double graph_us, double ref_stream, double ref_graph) {
  double s = ref_stream > 0 ? stream_us / ref_stream : 0,
         g = ref_graph > 0 ? graph_us / ref_graph : 0;
  return s > g ? s : g;
}

double tune_noise_at(double noise, int given, int log2n) {
  if (given || log2n < TUNE_NOISE_LARGE_LOG2 || noise < TUNE_NOISE_LARGE)
    return noise;
  return TUNE_NOISE_LARGE;
}

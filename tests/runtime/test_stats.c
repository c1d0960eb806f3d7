// test_stats.c — medians, quartiles, the spread and the tie rule.
#include "../check.h"
#include "tune.h"
#include <math.h>

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

int main(void) {
  double odd[] = {5, 1, 4, 2, 3};
  tune_stats s = tune_stats_of(odd, 5);
  CHECK(near(s.median, 3) && near(s.min, 1) && near(s.max, 5));
  CHECK(near(s.p25, 2) && near(s.p75, 4));
  CHECK_EQ_INT(s.n, 5);
  CHECK(near(odd[0], 5)); // the input is not reordered

  double even[] = {10, 20, 30, 40};
  s = tune_stats_of(even, 4);
  CHECK(near(s.median, 25) && near(s.p25, 17.5) && near(s.p75, 32.5));

  double one[] = {7};
  s = tune_stats_of(one, 1);
  CHECK(near(s.median, 7) && near(s.p25, 7) && near(s.p75, 7));
  CHECK_EQ_INT(tune_stats_of(one, 0).n, 0);

  // two tight distributions 10% apart: a clear order
  double a[] = {10.0, 10.1, 9.9, 10.0, 10.05}, b[] = {11.0, 11.1, 10.9, 11.0, 11.05};
  tune_stats sa = tune_stats_of(a, 5), sb = tune_stats_of(b, 5);
  CHECK_EQ_INT(tune_compare(&sa, &sb), -1);
  CHECK_EQ_INT(tune_compare(&sb, &sa), 1);
  // the same medians, wide spread: a tie
  double w1[] = {8, 10, 12, 9, 11}, w2[] = {8.5, 10.5, 12.5, 9.5, 11.5};
  tune_stats s1 = tune_stats_of(w1, 5), s2 = tune_stats_of(w2, 5);
  CHECK_EQ_INT(tune_compare(&s1, &s2), 0);
  // noise-free but within 1%: still a tie (the floor of the spread)
  double c1[] = {100, 100, 100}, c2[] = {100.5, 100.5, 100.5};
  tune_stats t1 = tune_stats_of(c1, 3), t2 = tune_stats_of(c2, 3);
  CHECK_EQ_INT(tune_compare(&t1, &t2), 0);
  CHECK(near(tune_spread(&t1, &t2), 1.0));

  // margins from interleaved A/B rounds (recorded H100 round medians, us)
  double ma, lo, hi, m2, lo2, hi2;
  // B is 3-4% slower in every round: a margin beyond noise
  double fa[] = {10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.0};
  double fb[] = {10.4, 10.6, 10.25, 10.45, 10.35, 10.7, 10.15, 10.4};
  tune_margin(fa, fb, 8, &ma, &lo, &hi);
  CHECK(ma > 0.03 && ma < 0.04 && lo > 0 && lo <= ma && hi >= ma);
  tune_margin(fa, fb, 8, &m2, &lo2, &hi2); // the same samples, the same interval
  CHECK(m2 == ma && lo2 == lo && hi2 == hi);
  tune_margin(fb, fa, 8, &m2, &lo2, &hi2); // the other way round: negative
  CHECK(m2 < 0 && hi2 < 0);
  // rounds that go either way: the interval holds 0, a tie
  double ta[] = {10.0, 10.4, 9.8, 10.1, 10.3, 9.9, 10.2, 10.0};
  double tb[] = {10.3, 10.0, 10.1, 9.9, 10.5, 9.7, 10.0, 10.2};
  tune_margin(ta, tb, 8, &ma, &lo, &hi);
  CHECK(lo <= 0 && hi >= 0 && lo <= ma && ma <= hi);
  // one outlier round does not make a margin
  double oa[] = {10, 10, 10, 10, 10, 10, 10, 10}, ob[] = {10, 10.01, 9.99, 10, 14, 10, 9.99, 10.01};
  tune_margin(oa, ob, 8, &ma, &lo, &hi);
  CHECK(fabs(ma) < 0.002 && lo <= 0);
  // --mode both: the worst ratio against CUB across the modes. A (stream
  // 4 us, graph 3 us) against CUB (6, 2.4): worst in graph, 1.25 (0.8x CUB);
  // B (5, 1.8): worst in stream, 0.83 (1.2x CUB): B is chosen though A is
  // faster back to back
  double wa = tune_worst_time(4, 3, 6, 2.4), wb = tune_worst_time(5, 1.8, 6, 2.4);
  CHECK(fabs(wa - 1.25) < 1e-12 && fabs(wb - 5.0 / 6) < 1e-12 && wb < wa);
  CHECK(tune_worst_time(4, 3, 0, 2.4) == 1.25); // no stream reference: graph alone
  CHECK(tune_worst_time(4, 3, 8, -1) == 0.5);   // no graph reference: stream alone
  // the noise by size: the mode's figure below 2^25 elements, at most 2%
  // from 2^25 on (2^30: a 2.7% slower setting is no longer a tie), and a
  // --noise that was given holds at every size
  CHECK(tune_noise_at(0.06, 0, 24) == 0.06 && tune_noise_at(0.035, 0, 10) == 0.035);
  CHECK(tune_noise_at(0.06, 0, 25) == TUNE_NOISE_LARGE && tune_noise_at(0.06, 0, 30) == 0.02);
  CHECK(tune_noise_at(0.01, 0, 30) == 0.01); // a smaller figure stays
  CHECK(tune_noise_at(0.06, 1, 30) == 0.06); // --noise 0.06
  CHECK_DONE();
}

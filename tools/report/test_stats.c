/* Unit tests of stats.c. */
#include "stats.h"
#include "tap.h"

#include <math.h>

static void test_mann_whitney(void)
{
	/* Mann-Whitney, exact: 5 vs 5 fully apart is 2 of C(10,5) = 252
	 * splits; 2 vs 2 apart is 2 of 6; identical samples are no evidence. */
	double lo5[] = { 1, 2, 3, 4, 5 }, hi5[] = { 6, 7, 8, 9, 10 };
	CHECK_NEAR(st_mann_whitney(lo5, 5, hi5, 5), 2.0 / 252, 1e-12, "MW 5 vs 5 apart");
	CHECK_NEAR(st_mann_whitney(hi5, 5, lo5, 5), 2.0 / 252, 1e-12, "MW is symmetric");
	CHECK_NEAR(st_mann_whitney(lo5, 2, hi5, 2), 2.0 / 6, 1e-12, "MW 2 vs 2 apart");
	double same[] = { 4, 4, 4 };
	CHECK_NEAR(st_mann_whitney(same, 3, same, 3), 1, 1e-12, "MW all tied: p = 1");
	CHECK_NEAR(st_mann_whitney(lo5, 5, lo5, 5), 1, 1e-12, "MW same samples: p = 1");
	/* one swap across the boundary: a = {1,2,3,4,6}, b = {5,7,8,9,10}:
	 * rank sum 16 (minimum 15); splits with sum <= 16 are 2 of 252, so
	 * two-sided 4/252 */
	double a1[] = { 1, 2, 3, 4, 6 }, b1[] = { 5, 7, 8, 9, 10 };
	CHECK_NEAR(st_mann_whitney(a1, 5, b1, 5), 4.0 / 252, 1e-12, "MW one swap");
	/* ties across the groups: {1,2,2} vs {2,3,3}: mid-ranks 1,3,3 | 3,5.5,5.5;
	 * 20 splits of 6 into 3; the first's sum 7 is 3.5 below the mean 10.5;
	 * splits as far: {1,2,2}-like (3 ways: 1 + two of the three 2s), and
	 * by symmetry the 3 as high: 6 of 20 */
	double ta[] = { 1, 2, 2 }, tb[] = { 2, 3, 3 };
	CHECK_NEAR(st_mann_whitney(ta, 3, tb, 3), 6.0 / 20, 1e-12, "MW with ties");
	double withnan2[] = { NAN, 1, 2 };
	CHECK_NEAR(st_mann_whitney(withnan2, 3, hi5, 2), 2.0 / 6, 1e-12, "MW skips NaN");
	CHECK(isnan(st_mann_whitney(lo5, 0, hi5, 5)), "MW of an empty side is NaN");
}

static void test_ratio_ci(void)
{
	/* the issue-29 case: 2,049 fallbacks against 1 with five runs a side
	 * that never overlap: every resample's ratio lies between the extremes */
	double base[] = { 1581, 2049, 2669, 1900, 2300 }, one[] = { 1, 1, 1, 1, 1 };
	double lo, hi;
	CHECK(st_ratio_ci(one, 5, base, 5, 2000, 1, &lo, &hi) == 0, "ratio CI computed");
	CHECK(lo >= 1.0 / 2669 - 1e-12 && hi <= 1.0 / 1581 + 1e-12, "CI within the runs' ratios");
	CHECK(hi < 1, "2,049 -> 1: the CI excludes 1");
	/* identical samples: the CI holds 1 */
	CHECK(st_ratio_ci(base, 5, base, 5, 2000, 1, &lo, &hi) == 0 && lo <= 1 && hi >= 1,
	      "same samples: the CI holds 1");
	/* the same seed gives the same interval */
	double lo2, hi2;
	st_ratio_ci(base, 5, one, 5, 500, 7, &lo, &hi);
	st_ratio_ci(base, 5, one, 5, 500, 7, &lo2, &hi2);
	CHECK(lo == lo2 && hi == hi2, "fixed seed: reproducible");
	/* a baseline of zeros: +inf against a positive median, 1 against 0 */
	double z[] = { 0, 0, 0 };
	st_ratio_ci(one, 5, z, 3, 100, 1, &lo, &hi);
	CHECK(isinf(lo) && isinf(hi), "x / 0 is +inf");
	st_ratio_ci(z, 3, z, 3, 100, 1, &lo, &hi);
	CHECK(lo == 1 && hi == 1, "0 / 0 is no change");
	CHECK(st_ratio_ci(one, 0, base, 5, 100, 1, &lo, &hi) == 0 && isnan(lo), "empty side: NaN");
}

static void test_holm(void)
{
	/* Holm: sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, 0.06, 0.06, 0.5 */
	double p[] = { 0.03, 0.5, 0.01, NAN, 0.02 };
	int rc = st_holm(p, 5); /* CHECK may evaluate its argument twice */
	CHECK(rc == 0, "holm runs");
	CHECK_NEAR(p[2], 0.04, 1e-12, "holm: smallest x4");
	CHECK_NEAR(p[4], 0.06, 1e-12, "holm: second x3");
	CHECK_NEAR(p[0], 0.06, 1e-12, "holm: third x2, never below the one before");
	CHECK_NEAR(p[1], 0.5, 1e-12, "holm: last x1");
	CHECK(isnan(p[3]), "holm: NaN stays out of the family");
	double big[] = { 0.4, 0.45 };
	st_holm(big, 2);
	CHECK_NEAR(big[0], 0.8, 1e-12, "holm: x2");
	CHECK_NEAR(big[1], 0.8, 1e-12, "holm: monotone");
}

static void test_norm_quantile(void)
{
	CHECK_NEAR(st_norm_quantile(0.975), 1.959964, 1e-5, "z 0.975");
	CHECK_NEAR(st_norm_quantile(0.8), 0.841621, 1e-5, "z 0.8");
	CHECK_NEAR(st_norm_quantile(0.5), 0, 1e-9, "z 0.5");
}

int main(void)
{
	double odd[] = { 5, 1, 3 };
	double even[] = { 4, 1, 3, 10 };
	double one[] = { 7 };
	CHECK_NEAR(st_median(odd, 3), 3, 0, "median odd");
	CHECK_NEAR(st_median(even, 4), 3.5, 0, "median even");
	CHECK_NEAR(st_median(one, 1), 7, 0, "median single");
	CHECK(isnan(st_median(odd, 0)), "median of nothing is NaN");
	CHECK(odd[0] == 5 && odd[1] == 1, "median does not reorder its input");

	double withnan[] = { NAN, 8, 2, NAN, 4 };
	struct st_summary s = st_summarize(withnan, 5);
	CHECK(s.n == 3, "summary skips NaN (n=%zu)", s.n);
	CHECK_NEAR(s.median, 4, 0, "summary median");
	CHECK_NEAR(s.min, 2, 0, "summary min");
	CHECK_NEAR(s.max, 8, 0, "summary max");
	s = st_summarize(withnan, 1);
	CHECK(s.n == 0 && isnan(s.median), "summary of only NaN is empty");

	/* Two buckets of 10: p50 is the end of the first, p75 the middle of
	 * the second. */
	struct st_hist h, g;
	st_hist_init(&h);
	st_hist_add(&h, 10, 20, 10);
	st_hist_add(&h, 0, 10, 10);
	CHECK(h.n == 2 && h.b[0].lo == 0, "buckets sorted by lower bound");
	CHECK(st_hist_total(&h) == 20, "total");
	CHECK_NEAR(st_hist_quantile(&h, 0.5), 10, 1e-9, "p50 from buckets");
	CHECK_NEAR(st_hist_quantile(&h, 0.75), 15, 1e-9, "p75 interpolated");
	CHECK_NEAR(st_hist_quantile(&h, 0.0), 0, 1e-9, "p0 is lowest bound");
	CHECK_NEAR(st_hist_quantile(&h, 1.0), 20, 1e-9, "p100 is top bound");

	/* merge: same bounds add up, new bounds are inserted in order */
	st_hist_init(&g);
	st_hist_add(&g, 0, 10, 5);
	st_hist_add(&g, 20, 40, 5);
	st_hist_add(&g, 1000, 0, 0); /* open-ended, empty */
	st_hist_merge(&h, &g);
	CHECK(h.n == 4, "merge keeps distinct buckets (n=%zu)", h.n);
	CHECK(h.b[0].count == 15, "merge adds identical buckets");
	CHECK(st_hist_total(&h) == 30, "merged total");
	/* rank 0.9*30 = 27: cum 25 after [10,20), [20,40) holds 5 -> 20+2/5*20 */
	CHECK_NEAR(st_hist_quantile(&h, 0.9), 28, 1e-9, "p90 of merged");
	/* p99.9 in a one-bucket skewed histogram */
	struct st_hist k;
	st_hist_init(&k);
	st_hist_add(&k, 0, 1000, 999);
	st_hist_add(&k, 1000000, 0, 1); /* open-ended */
	CHECK_NEAR(st_hist_quantile(&k, 0.999), 1000, 1e-6, "p99.9 at edge");
	CHECK_NEAR(st_hist_quantile(&k, 1.0), 1000000, 0, "open bucket yields lo");
	struct st_hist e;
	st_hist_init(&e);
	CHECK(isnan(st_hist_quantile(&e, 0.5)), "empty histogram quantile is NaN");

	st_hist_free(&h);
	st_hist_free(&g);
	st_hist_free(&k);
	test_mann_whitney();
	test_ratio_ci();
	test_holm();
	test_norm_quantile();
	return tap_done();
}

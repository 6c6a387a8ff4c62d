/* stats: the statistics used by rs-report.
 *
 *   median / min / max over the runs of one kernel and scenario (NaN values,
 *   i.e. "n/a", are skipped by the caller or by st_summary);
 *   latency histograms: buckets [lo, hi) with counts, merged by identical
 *   bounds, quantiles by linear interpolation inside the bucket that holds
 *   the rank q * total;
 *   the tests a claim needs: the exact Mann-Whitney test, a percentile
 *   bootstrap CI of a ratio of medians, Holm's correction, and the normal
 *   quantile for a power estimate.
 */
#ifndef RS_STATS_H
#define RS_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Median of n values (average of the two middle ones when n is even);
 * NaN when n == 0.  v is not modified. */
double st_median(const double *v, size_t n);

struct st_summary {
	size_t n;   /* values that were not NaN */
	double median, min, max;
};

/* Median, min and max over the non-NaN values of v. */
struct st_summary st_summarize(const double *v, size_t n);

struct st_bucket {
	double lo, hi; /* [lo, hi); hi <= lo means open-ended [lo, +inf) */
	uint64_t count;
};

struct st_hist {
	struct st_bucket *b; /* sorted by lo, then hi */
	size_t n, cap;
};

void st_hist_init(struct st_hist *h);
void st_hist_free(struct st_hist *h);
/* Add count to the bucket [lo, hi) (created if absent). 0 or -1 (OOM). */
int st_hist_add(struct st_hist *h, double lo, double hi, uint64_t count);
/* dst += src, bucket by bucket. */
int st_hist_merge(struct st_hist *dst, const struct st_hist *src);
uint64_t st_hist_total(const struct st_hist *h);
/* Value at quantile q (0..1); NaN for an empty histogram.  Inside a bucket
 * the value is interpolated linearly; an open-ended bucket yields its lo. */
double st_hist_quantile(const struct st_hist *h, double q);

/* Two-sided p-value of the Mann-Whitney (Wilcoxon rank-sum) test that a
 * and b come from one distribution: the share of the ways to split the
 * pooled values into groups of na and nb whose rank sum of the first lies
 * at least as far from its mean as a's does.  Exact (every split counted,
 * ties given their mid-rank), so it holds for 5 runs a side; NaN values
 * are skipped; NaN when a side is empty or on allocation failure. */
double st_mann_whitney(const double *a, size_t na, const double *b, size_t nb);

/* Percentile bootstrap 95% CI of median(k) / median(b): nboot resamples of
 * each side with replacement (a fixed-seed generator: the same inputs give
 * the same interval).  A resample whose b median is 0 gives +inf (or 1
 * when k's is 0 too).  NaN values are skipped; 0 and *lo = *hi = NaN when
 * a side is empty, -1 on allocation failure. */
int st_ratio_ci(const double *k, size_t nk, const double *b, size_t nb, unsigned int nboot,
		unsigned long long seed, double *lo, double *hi);

/* Holm's step-down adjustment of n p-values in place (NaN ones are left
 * NaN and not counted in the family).  0, or -1 on allocation failure. */
int st_holm(double *p, size_t n);

/* The standard normal quantile: x with P(Z <= x) = q, 0 < q < 1. */
double st_norm_quantile(double q);

#endif

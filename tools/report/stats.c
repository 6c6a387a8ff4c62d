/* stats.c: median, min and max over runs, and quantiles of latency
 * histograms; see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double st_median(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double *c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2.0;
	free(c);
	return m;
}

struct st_summary st_summarize(const double *v, size_t n)
{
	struct st_summary s = { 0, NAN, NAN, NAN };
	double *c = malloc((n ? n : 1) * sizeof(*c));
	if (!c)
		return s;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (s.n == 0 || v[i] < s.min)
			s.min = v[i];
		if (s.n == 0 || v[i] > s.max)
			s.max = v[i];
		c[s.n++] = v[i];
	}
	s.median = st_median(c, s.n);
	free(c);
	return s;
}

void st_hist_init(struct st_hist *h)
{
	h->b = NULL;
	h->n = h->cap = 0;
}

void st_hist_free(struct st_hist *h)
{
	free(h->b);
	st_hist_init(h);
}

static int bucket_cmp(double lo1, double hi1, double lo2, double hi2)
{
	if (lo1 != lo2)
		return lo1 < lo2 ? -1 : 1;
	if (hi1 != hi2)
		return hi1 < hi2 ? -1 : 1;
	return 0;
}

int st_hist_add(struct st_hist *h, double lo, double hi, uint64_t count)
{
	size_t i = 0;
	while (i < h->n && bucket_cmp(h->b[i].lo, h->b[i].hi, lo, hi) < 0)
		i++;
	if (i < h->n && bucket_cmp(h->b[i].lo, h->b[i].hi, lo, hi) == 0) {
		h->b[i].count += count;
		return 0;
	}
	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 32;
		struct st_bucket *nb = realloc(h->b, nc * sizeof(*nb));
		if (!nb)
			return -1;
		h->b = nb;
		h->cap = nc;
	}
	memmove(&h->b[i + 1], &h->b[i], (h->n - i) * sizeof(*h->b));
	h->b[i].lo = lo;
	h->b[i].hi = hi;
	h->b[i].count = count;
	h->n++;
	return 0;
}

int st_hist_merge(struct st_hist *dst, const struct st_hist *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (st_hist_add(dst, src->b[i].lo, src->b[i].hi, src->b[i].count))
			return -1;
	return 0;
}

uint64_t st_hist_total(const struct st_hist *h)
{
	uint64_t t = 0;
	for (size_t i = 0; i < h->n; i++)
		t += h->b[i].count;
	return t;
}

double st_hist_quantile(const struct st_hist *h, double q)
{
	uint64_t total = st_hist_total(h);
	if (total == 0)
		return NAN;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	double rank = q * (double)total, cum = 0;
	for (size_t i = 0; i < h->n; i++) {
		const struct st_bucket *b = &h->b[i];
		if (b->count == 0)
			continue;
		if (cum + (double)b->count >= rank) {
			if (b->hi <= b->lo)
				return b->lo;
			double frac = (rank - cum) / (double)b->count;
			return b->lo + frac * (b->hi - b->lo);
		}
		cum += (double)b->count;
	}
	/* rounding: the last non-empty bucket */
	for (size_t i = h->n; i-- > 0;)
		if (h->b[i].count)
			return h->b[i].hi > h->b[i].lo ? h->b[i].hi : h->b[i].lo;
	return NAN;
}

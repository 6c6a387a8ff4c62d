/* stats.c: median, min and max over runs, quantiles of latency
 * histograms and the Mann-Whitney test; see stats.h. */
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

struct mw_val {
	double v;
	int from_a;
};

static int cmp_mw(const void *x, const void *y)
{
	return cmp_double(&((const struct mw_val *)x)->v, &((const struct mw_val *)y)->v);
}

double st_mann_whitney(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = 0, k = 0;
	struct mw_val *v = malloc((na + nb) * sizeof(*v) + 1);
	if (!v)
		return NAN;
	for (size_t i = 0; i < na; i++)
		if (!isnan(a[i]))
			v[n++] = (struct mw_val){ a[i], 1 }, k++;
	for (size_t i = 0; i < nb; i++)
		if (!isnan(b[i]))
			v[n++] = (struct mw_val){ b[i], 0 };
	if (k == 0 || k == n) {
		free(v);
		return NAN;
	}
	qsort(v, n, sizeof(*v), cmp_mw);
	/* Twice the mid-ranks (whole numbers): r2[i] for the i-th value. */
	long *r2 = malloc(n * sizeof(*r2));
	/* ways[j][s]: splits of the values seen so far with j in the first
	 * group and doubled rank sum s; rolled over j downwards. */
	long smax = (long)n * (long)(n + 1);
	double *ways = calloc((k + 1) * (size_t)(smax + 1), sizeof(*ways));
	if (!r2 || !ways) {
		free(v);
		free(r2);
		free(ways);
		return NAN;
	}
	long obs = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].v == v[i].v; j++)
			;
		for (size_t t = i; t < j; t++) {
			r2[t] = (long)(i + 1 + j); /* 2 * (i + 1 + j) / 2 */
			if (v[t].from_a)
				obs += r2[t];
		}
	}
	ways[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (long s = smax; s >= r2[i]; s--)
				ways[j * (size_t)(smax + 1) + (size_t)s] +=
					ways[(j - 1) * (size_t)(smax + 1) + (size_t)(s - r2[i])];
	/* the mean of the doubled rank sum is k * (n + 1) */
	double mean = (double)k * (double)(n + 1), dev = fabs((double)obs - mean);
	double all = 0, far = 0;
	for (long s = 0; s <= smax; s++) {
		double w = ways[k * (size_t)(smax + 1) + (size_t)s];
		all += w;
		if (fabs((double)s - mean) >= dev - 1e-9)
			far += w;
	}
	free(v);
	free(r2);
	free(ways);
	return far / all;
}

/* splitmix64: a small generator that is the same on every machine. */
static unsigned long long st_next(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Median of n values drawn with replacement from v[0..nv). */
static double resample_median(const double *v, size_t nv, double *scratch, size_t n,
			      unsigned long long *s)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = v[st_next(s) % nv];
	qsort(scratch, n, sizeof(*scratch), cmp_double);
	return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2.0;
}

/* The non-NaN values of v, in a new array. */
static double *finite_copy(const double *v, size_t n, size_t *out)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));

	*out = 0;
	if (!c)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			c[(*out)++] = v[i];
	return c;
}

int st_ratio_ci(const double *k, size_t nk, const double *b, size_t nb, unsigned int nboot,
		unsigned long long seed, double *lo, double *hi)
{
	size_t ck, cb;
	double *vk = finite_copy(k, nk, &ck), *vb = finite_copy(b, nb, &cb);
	double *sk = malloc((ck ? ck : 1) * sizeof(*sk)), *sb = malloc((cb ? cb : 1) * sizeof(*sb));
	double *r = malloc((nboot ? nboot : 1) * sizeof(*r));
	int ret = -1;

	*lo = *hi = NAN;
	if (!vk || !vb || !sk || !sb || !r)
		goto out;
	ret = 0;
	if (!ck || !cb || !nboot)
		goto out;
	for (unsigned int i = 0; i < nboot; i++) {
		double mk = resample_median(vk, ck, sk, ck, &seed);
		double mb = resample_median(vb, cb, sb, cb, &seed);

		r[i] = mb != 0 ? mk / mb : mk == 0 ? 1 : INFINITY;
	}
	qsort(r, nboot, sizeof(*r), cmp_double);
	*lo = r[(size_t)floor(0.025 * nboot)];
	*hi = r[(size_t)ceil(0.975 * nboot) - 1];
out:
	free(vk);
	free(vb);
	free(sk);
	free(sb);
	free(r);
	return ret;
}

struct holm_p {
	double p;
	size_t i;
};

static int cmp_holm(const void *a, const void *b)
{
	double x = ((const struct holm_p *)a)->p, y = ((const struct holm_p *)b)->p;

	return (x > y) - (x < y);
}

int st_holm(double *p, size_t n)
{
	struct holm_p *h = malloc((n ? n : 1) * sizeof(*h));
	size_t m = 0;
	double run = 0;

	if (!h)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			h[m++] = (struct holm_p){ p[i], i };
	qsort(h, m, sizeof(*h), cmp_holm);
	for (size_t j = 0; j < m; j++) {
		double a = (double)(m - j) * h[j].p;

		run = a > run ? a : run; /* adjusted p-values never decrease */
		p[h[j].i] = run < 1 ? run : 1;
	}
	free(h);
	return 0;
}

double st_norm_quantile(double q)
{
	double lo = -40, hi = 40;

	/* bisection on P(Z <= x) = erfc(-x / sqrt 2) / 2: 100 halvings of 80 */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / sqrt(2.0)) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - log-linear latency histogram, see hist.h.
 */
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned int hist_bucket(uint64_t v)
{
	unsigned int k, sub, i;

	if (v < HIST_SUB)
		return (unsigned int)v;
	k = 63 - (unsigned int)__builtin_clzll(v);	/* 2^k <= v */
	if (k > HIST_MAX_POW)
		return HIST_NBUCKETS - 1;
	sub = (unsigned int)(v >> (k - HIST_SUB_BITS)) & (HIST_SUB - 1);
	i = HIST_SUB + (k - HIST_SUB_BITS) * HIST_SUB + sub;
	return i;
}

void hist_bucket_bounds(unsigned int i, uint64_t *lo, uint64_t *hi)
{
	unsigned int k, sub;
	uint64_t width;

	if (i < HIST_SUB) {
		*lo = *hi = i;
		return;
	}
	if (i >= HIST_NBUCKETS)
		i = HIST_NBUCKETS - 1;
	k = (i - HIST_SUB) / HIST_SUB + HIST_SUB_BITS;
	sub = (i - HIST_SUB) % HIST_SUB;
	width = 1ull << (k - HIST_SUB_BITS);
	*lo = (1ull << k) + sub * width;
	*hi = *lo + width - 1;
	if (i == HIST_NBUCKETS - 1)
		*hi = UINT64_MAX;	/* overflow bucket */
}

void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_bucket(v)]++;
	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->sum = (h->sum > UINT64_MAX - v) ? UINT64_MAX : h->sum + v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum = (dst->sum > UINT64_MAX - src->sum) ? UINT64_MAX :
		   dst->sum + src->sum;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t target, cum = 0, lo, hi;
	double t;
	unsigned int i;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q > 1)
		q = 1;
	t = q * (double)h->count;
	target = (uint64_t)t;
	if ((double)target < t)
		target++;			/* ceil */
	if (target < 1)
		target = 1;
	if (target > h->count)
		target = h->count;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		cum += h->bucket[i];
		if (cum >= target)
			break;
	}
	hist_bucket_bounds(i < HIST_NBUCKETS ? i : HIST_NBUCKETS - 1, &lo, &hi);
	return hi < h->max ? hi : h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

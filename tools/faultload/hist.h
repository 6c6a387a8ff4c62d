/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - log-linear latency histogram (nanoseconds).
 *
 * Values 0..15 get one bucket each.  Above that every power of two
 * [2^k, 2^(k+1)) is split into HIST_SUB linear sub-buckets, so a bucket is
 * at most 1/16 (6.25%) wide relative to its lower bound.  Powers up to
 * 2^36 are covered (2^37 ns is about 137 s, beyond the 100 s we need);
 * anything larger lands in the last bucket, whose upper bound is then
 * UINT64_MAX.  count, min, max and sum are kept exactly (sum saturates at
 * UINT64_MAX).
 *
 * Bucket bounds are inclusive: bucket i holds lo <= v <= hi.
 */
#ifndef FL_HIST_H
#define FL_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	4
#define HIST_SUB	(1u << HIST_SUB_BITS)	/* linear sub-buckets per power */
#define HIST_MAX_POW	36			/* last covered power of two */
#define HIST_NBUCKETS	(HIST_SUB + (HIST_MAX_POW - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t sum;		/* saturating */
	uint64_t bucket[HIST_NBUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * The value at quantile q (0 < q <= 1): the upper bound of the bucket in
 * which the cumulative count reaches ceil(q * count), clamped to max.
 * Returns 0 for an empty histogram; q <= 0 gives min.
 */
uint64_t hist_quantile(const struct hist *h, double q);

/* sum / count, 0 if empty. */
double hist_mean(const struct hist *h);

/* Bucket index for value v, and the inclusive bounds of bucket i. */
unsigned int hist_bucket(uint64_t v);
void hist_bucket_bounds(unsigned int i, uint64_t *lo, uint64_t *hi);

#endif /* FL_HIST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - unit test of hist.c (make test).  Prints TAP lines and
 * exits non-zero if any check fails.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

static int failures, checks;

#define CHECK(cond, ...)						\
	do {								\
		checks++;						\
		if (cond) {						\
			printf("ok - ");				\
		} else {						\
			failures++;					\
			printf("not ok - ");				\
		}							\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} while (0)

#define CHECK_EQ(got, want, what)					\
	CHECK((uint64_t)(got) == (uint64_t)(want),			\
	      "%s: got %" PRIu64 ", want %" PRIu64, what,		\
	      (uint64_t)(got), (uint64_t)(want))

static int hist_equal(const struct hist *a, const struct hist *b)
{
	return a->count == b->count && a->min == b->min && a->max == b->max &&
	       a->sum == b->sum && !memcmp(a->bucket, b->bucket, sizeof(a->bucket));
}

static void test_empty(void)
{
	struct hist h;

	hist_init(&h);
	CHECK_EQ(h.count, 0, "empty: count");
	CHECK_EQ(hist_quantile(&h, 0.5), 0, "empty: p50");
	CHECK_EQ(hist_quantile(&h, 1.0), 0, "empty: p100");
	CHECK(hist_mean(&h) == 0.0, "empty: mean is 0");
}

static void test_one(void)
{
	struct hist h;

	hist_init(&h);
	hist_add(&h, 12345);
	CHECK_EQ(h.min, 12345, "one value: min");
	CHECK_EQ(h.max, 12345, "one value: max");
	/* the bucket's upper bound is above 12345: clamped to max */
	CHECK_EQ(hist_quantile(&h, 0.5), 12345, "one value: p50 clamps to max");
	CHECK_EQ(hist_quantile(&h, 0.999), 12345, "one value: p999");
	CHECK(hist_mean(&h) == 12345.0, "one value: mean");
}

static void test_zero(void)
{
	struct hist h;

	hist_init(&h);
	hist_add(&h, 5);
	hist_add(&h, 0);
	CHECK_EQ(h.min, 0, "zero: min 0");
	CHECK_EQ(h.bucket[0], 1, "zero: in bucket 0");
	CHECK_EQ(hist_quantile(&h, 0.5), 0, "zero: p50");
	CHECK_EQ(hist_quantile(&h, 1.0), 5, "zero: p100");
}

static void test_buckets(void)
{
	uint64_t lo, hi, prev_hi = 0, v;
	unsigned int i, bad = 0;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		hist_bucket_bounds(i, &lo, &hi);
		if (i && lo != prev_hi + 1)
			bad++;			/* contiguous, no gaps */
		if (hist_bucket(lo) != i || (i < HIST_NBUCKETS - 1 && hist_bucket(hi) != i))
			bad++;			/* bounds map back */
		if (i >= 16 && i < HIST_NBUCKETS - 1 && (hi - lo + 1) * 16 > lo)
			bad++;			/* width <= lo/16 */
		prev_hi = hi;
	}
	CHECK(bad == 0, "bucket bounds are contiguous, map back, <= 6.25%% wide (%u bad)", bad);
	for (v = 0; v < 16; v++)
		if (hist_bucket(v) != v)
			bad++;
	CHECK(bad == 0, "values 0..15 have a bucket each");
	hist_bucket_bounds(hist_bucket(100000000000ull), &lo, &hi);
	CHECK(lo <= 100000000000ull && hi >= 100000000000ull &&
	      hist_bucket(100000000000ull) < HIST_NBUCKETS - 1,
	      "100 s has its own bucket [%" PRIu64 ", %" PRIu64 "]", lo, hi);
}

static void test_quantiles(void)
{
	struct hist h;
	uint64_t v;

	/* 1..1000 ns, one each */
	hist_init(&h);
	for (v = 1; v <= 1000; v++)
		hist_add(&h, v);
	CHECK_EQ(h.count, 1000, "1..1000: count");
	CHECK_EQ(h.sum, 500500, "1..1000: sum");
	CHECK(hist_mean(&h) == 500.5, "1..1000: mean 500.5");
	/* 500 is in [496, 511] (2^8 + 15*16 = 496, width 16) */
	CHECK_EQ(hist_quantile(&h, 0.5), 511, "1..1000: p50 is the top of 500's bucket");
	/* 900 is in [896, 927] (2^9 + 12*32) */
	CHECK_EQ(hist_quantile(&h, 0.9), 927, "1..1000: p90");
	/* 990 is in [960, 991] */
	CHECK_EQ(hist_quantile(&h, 0.99), 991, "1..1000: p99");
	/* 999 is in [992, 1023], clamped to max 1000 */
	CHECK_EQ(hist_quantile(&h, 0.999), 1000, "1..1000: p999 clamps to max");
	CHECK_EQ(hist_quantile(&h, 1.0), 1000, "1..1000: p100 is max");
	CHECK_EQ(hist_quantile(&h, 0.0), 1, "1..1000: p0 is min");

	/* exact below 16: 90 x 3 ns, 10 x 7 ns */
	hist_init(&h);
	for (v = 0; v < 90; v++)
		hist_add(&h, 3);
	for (v = 0; v < 10; v++)
		hist_add(&h, 7);
	CHECK_EQ(hist_quantile(&h, 0.5), 3, "small: p50 exact");
	CHECK_EQ(hist_quantile(&h, 0.9), 3, "small: p90 is the 90th value");
	CHECK_EQ(hist_quantile(&h, 0.91), 7, "small: p91 is the next bucket");

	/* a long tail: 999 fast, one 2 s outlier */
	hist_init(&h);
	for (v = 0; v < 999; v++)
		hist_add(&h, 1000);
	hist_add(&h, 2000000000ull);
	CHECK_EQ(hist_quantile(&h, 0.99), 1023, "tail: p99 in the fast bucket");
	CHECK_EQ(hist_quantile(&h, 0.999), 1023, "tail: p999 = the 999th value");
	CHECK_EQ(hist_quantile(&h, 1.0), 2000000000ull, "tail: p100 is the outlier");
}

static void test_huge(void)
{
	struct hist h;
	uint64_t lo, hi;

	hist_init(&h);
	hist_add(&h, UINT64_MAX);
	hist_add(&h, 1ull << 40);
	hist_add(&h, 200000000000ull);	/* 200 s */
	CHECK_EQ(h.bucket[HIST_NBUCKETS - 1], 3, "huge: values >= 2^37 clamp to the last bucket");
	hist_bucket_bounds(HIST_NBUCKETS - 1, &lo, &hi);
	CHECK_EQ(hi, UINT64_MAX, "huge: the last bucket is open-ended");
	CHECK_EQ(h.max, UINT64_MAX, "huge: max exact");
	CHECK_EQ(h.sum, UINT64_MAX, "huge: sum saturates");
	CHECK_EQ(hist_quantile(&h, 0.5), UINT64_MAX, "huge: p50 clamps to max");
	CHECK_EQ(hist_bucket(UINT64_MAX), HIST_NBUCKETS - 1, "huge: UINT64_MAX bucket");
}

static void test_merge(void)
{
	struct hist a, b, all, empty;
	uint64_t state = 42, v;
	int i;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	hist_init(&empty);
	for (i = 0; i < 20000; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		v = (state >> 20) % (i & 1 ? 5000000ull : 3000ull);
		hist_add(i % 3 ? &a : &b, v);
		hist_add(&all, v);
	}
	hist_merge(&a, &b);
	CHECK(hist_equal(&a, &all), "merge equals adding the union");
	CHECK_EQ(hist_quantile(&a, 0.99), hist_quantile(&all, 0.99), "merge: same p99");
	hist_merge(&a, &empty);
	CHECK(hist_equal(&a, &all), "merging an empty histogram changes nothing");
	hist_merge(&empty, &all);
	CHECK(hist_equal(&empty, &all), "merging into an empty histogram copies");
}

int main(void)
{
	test_empty();
	test_one();
	test_zero();
	test_buckets();
	test_quantiles();
	test_huge();
	test_merge();
	printf("# test_hist: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}

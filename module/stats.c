// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 1 (counters): the per-CPU counters, their names and the tables
 * that pick a counter by cause, lock mode, thread class and caller.
 */
#include <linux/bitmap.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include "stats.h"

DEFINE_PER_CPU(struct rs_stats, rs_stats);

/* in the order of enum rs_counter, which the same list makes */
#define RS_COUNTER(name) __stringify(name),
const char * const rs_counter_names[RS_NR_COUNTERS] = {
	RS_COUNTER_LIST
};

#undef RS_COUNTER

const struct rs_site_counters rs_site_counters[RS_NR_SITES] = {
	[RS_SITE_none] = { RS_NO_COUNTER, RS_NO_COUNTER },
	[RS_SITE_filemap_readahead] = {
		RS_filemap_retry_readahead, RS_fallback_site_filemap_readahead
	},
	[RS_SITE_filemap_locked_folio] = {
		RS_filemap_retry_locked_folio, RS_fallback_site_filemap_locked_folio
	},
	[RS_SITE_filemap_uptodate] = {
		RS_filemap_retry_uptodate, RS_fallback_site_filemap_uptodate
	},
	[RS_SITE_filemap_sync_read] = {
		RS_filemap_retry_sync_read, RS_fallback_site_filemap_sync_read
	},
	[RS_SITE_swap_io] = { RS_swap_retry_io, RS_fallback_site_swap_io },
	[RS_SITE_swap_locked_folio] = {
		RS_swap_retry_locked_folio, RS_fallback_site_swap_locked_folio
	},
	[RS_SITE_other] = { RS_NO_COUNTER, RS_fallback_site_other },
};

const struct rs_cause_counters rs_cause_counters[RS_NR_CAUSES] = {
	[RS_CAUSE_none] = {
		RS_NO_COUNTER, RS_NO_COUNTER, RS_NO_COUNTER
	},
	[RS_CAUSE_vma_abort] = {
		RS_NO_COUNTER, RS_NO_COUNTER, RS_fallback_vma_abort
	},
	[RS_CAUSE_file_io] = {
		RS_fault_retry_file_io, RS_retry_kept_after_file_io,
		RS_fallback_after_file_io
	},
	[RS_CAUSE_swap_io] = {
		RS_fault_retry_swap_io, RS_retry_kept_after_swap_io,
		RS_fallback_after_swap_io
	},
	[RS_CAUSE_other_retry] = {
		RS_fault_retry_other, RS_retry_kept_after_other_retry,
		RS_fallback_after_other_retry
	},
	[RS_CAUSE_no_vma_lock] = {
		RS_NO_COUNTER, RS_NO_COUNTER, RS_fallback_no_vma_lock
	},
	[RS_CAUSE_not_io] = {
		RS_NO_COUNTER, RS_NO_COUNTER, RS_fallback_not_io
	},
};

/* The decade buckets @prefix_wait_<bucket> of a lock's waits. */
#define RS_WAIT_BUCKETS(prefix) {					\
	[RS_BUCKET_lt1us] = RS_##prefix##_wait_lt1us,			\
	[RS_BUCKET_1_10us] = RS_##prefix##_wait_1_10us,			\
	[RS_BUCKET_10_100us] = RS_##prefix##_wait_10_100us,		\
	[RS_BUCKET_100us_1ms] = RS_##prefix##_wait_100us_1ms,		\
	[RS_BUCKET_1_10ms] = RS_##prefix##_wait_1_10ms,			\
	[RS_BUCKET_10_100ms] = RS_##prefix##_wait_10_100ms,		\
	[RS_BUCKET_100ms_1s] = RS_##prefix##_wait_100ms_1s,		\
	[RS_BUCKET_1s_plus] = RS_##prefix##_wait_1s_plus,		\
}

/* The counters mmap_lock_@mode_* of one lock mode (read or write). */
#define RS_LOCK_COUNTERS(mode) {					\
	.acquire = RS_mmap_lock_##mode##_acquire,			\
	.trylock = RS_mmap_lock_##mode##_trylock,			\
	.failed = RS_mmap_lock_##mode##_failed,				\
	.wait_ns = RS_mmap_lock_##mode##_wait_ns,			\
	.wait = RS_WAIT_BUCKETS(mmap_lock_##mode),			\
}

const struct rs_lock_counters rs_lock_counters_read = RS_LOCK_COUNTERS(read);
const struct rs_lock_counters rs_lock_counters_write = RS_LOCK_COUNTERS(write);

/* vma_write_lock_waited_@by and vma_write_lock_wait_ns_@by */
#define RS_VMW_BY(by) {							\
	RS_vma_write_lock_waited_##by, RS_vma_write_lock_wait_ns_##by	\
}

const struct rs_vmw_counters rs_vmw_counters = {
	.calls = RS_vma_write_lock_calls,
	.waited = RS_vma_write_lock_waited,
	.failed = RS_vma_write_lock_failed,
	.wait_ns = RS_vma_write_lock_wait_ns,
	.wait = RS_WAIT_BUCKETS(vma_write_lock),
	.by_caller = {
		[RS_VMW_fork] = RS_VMW_BY(fork),
		[RS_VMW_mprotect] = RS_VMW_BY(mprotect),
		[RS_VMW_munmap] = RS_VMW_BY(munmap),
		[RS_VMW_other] = RS_VMW_BY(other),
	},
	.by_class = {
		[RS_CLASS_rt] = RS_VMW_BY(rt),
		[RS_CLASS_high] = RS_VMW_BY(high),
		[RS_CLASS_normal] = RS_VMW_BY(normal),
		[RS_CLASS_low] = RS_VMW_BY(low),
	},
};

const struct rs_class_counters rs_class_counters[RS_NR_CLASSES] = {
	[RS_CLASS_rt] = {
		RS_fault_mmap_lock_acquire_rt, RS_fault_mmap_lock_wait_ns_rt
	},
	[RS_CLASS_high] = {
		RS_fault_mmap_lock_acquire_high, RS_fault_mmap_lock_wait_ns_high
	},
	[RS_CLASS_normal] = {
		RS_fault_mmap_lock_acquire_normal,
		RS_fault_mmap_lock_wait_ns_normal
	},
	[RS_CLASS_low] = {
		RS_fault_mmap_lock_acquire_low, RS_fault_mmap_lock_wait_ns_low
	},
};

/*
 * A reset does not write the per-CPU counters, which the handlers update
 * with this_cpu ops that a remote write could undo: it notes each sum as
 * the new zero.  Under rs_reset_lock, with the readers of all sums.
 */
static s64 rs_base[RS_NR_COUNTERS];
static DEFINE_MUTEX(rs_reset_lock);

static s64 rs_stats_raw(enum rs_counter i)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += (s64)per_cpu(rs_stats, cpu).c[i];
	return sum;
}

/*
 * Read while the handlers run, a decrement (see rs_dec()) can be seen
 * before the increment it takes back: a sum below zero is that race, and
 * shows as 0.
 */
void rs_stats_read(u64 *sums)
{
	unsigned int i;

	mutex_lock(&rs_reset_lock);
	for (i = 0; i < RS_NR_COUNTERS; i++)
		sums[i] = max(rs_stats_raw(i) - rs_base[i], 0LL);
	mutex_unlock(&rs_reset_lock);
}

u64 rs_stats_read_one(enum rs_counter i)
{
	s64 v;

	mutex_lock(&rs_reset_lock);
	v = rs_stats_raw(i) - rs_base[i];
	mutex_unlock(&rs_reset_lock);
	return max(v, 0LL);
}

/*
 * What light=1 cannot count (docs/counters.md, "Light mode"): the counters
 * of the handle_mm_fault() entry hook (every attempt's start, and what is
 * inferred from the next one: other retries, retries kept on the VMA lock,
 * aborts told apart from other retries) and every vma_write_lock_* counter
 * (__vma_start_write(), in every fork()).  fallback_not_io is light=1's.
 */
static const enum rs_counter rs_light_unseen[] = {
	RS_user_faults, RS_major_faults, RS_vma_lock_success,
	RS_vma_lock_abort, RS_vma_lock_retry, RS_fault_retry,
	RS_fault_retry_other, RS_retry_kept_vma_lock,
	RS_retry_kept_after_file_io, RS_retry_kept_after_swap_io,
	RS_retry_kept_after_other_retry, RS_fallback_vma_abort,
	RS_fallback_after_other_retry, RS_attempts_1, RS_attempts_2,
	RS_attempts_3, RS_attempts_4plus, RS_faults_abandoned,
};

#define RS_VMW_PREFIX "vma_write_lock_"

static bool rs_light;
static DECLARE_BITMAP(rs_hidden, RS_NR_COUNTERS);

void rs_stats_set_light(bool light)
{
	unsigned int i;

	rs_light = light;
	bitmap_zero(rs_hidden, RS_NR_COUNTERS);
	if (!light)
		return;
	for (i = 0; i < ARRAY_SIZE(rs_light_unseen); i++)
		__set_bit(rs_light_unseen[i], rs_hidden);
	for (i = 0; i < RS_NR_COUNTERS; i++)
		if (!strncmp(rs_counter_names[i], RS_VMW_PREFIX,
			     strlen(RS_VMW_PREFIX)))
			__set_bit(i, rs_hidden);
}

bool rs_counter_shown(enum rs_counter i)
{
	return !test_bit(i, rs_hidden);
}

bool rs_attempts_max_shown(void)
{
	return !rs_light;
}

u64 rs_stats_attempts_max(void)
{
	u64 m = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		m = max(m, per_cpu(rs_stats, cpu).attempts_max);
	return m;
}

void rs_stats_reset(void)
{
	unsigned int i;
	int cpu;

	mutex_lock(&rs_reset_lock);
	for (i = 0; i < RS_NR_COUNTERS; i++)
		rs_base[i] = rs_stats_raw(i);
	/* a maximum has no base: a fault ending at the reset may keep it */
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(&rs_stats, cpu)->attempts_max, 0);
	mutex_unlock(&rs_reset_lock);
}

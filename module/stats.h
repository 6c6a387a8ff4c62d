/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retryscope counters: per-CPU, summed on read.
 *
 * Every name here is the name a user sees in debugfs "stats", in the run
 * JSON and in the report; docs/counters.md says what each one counts.
 */
#ifndef RETRYSCOPE_STATS_H
#define RETRYSCOPE_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/*
 * The order matters where a handler indexes from a base: for each of
 * filemap_fault and swap_fault, calls/vma_locked/tried/nowait and
 * retry/retry_vma/major/error are consecutive; for each lock mode,
 * acquire/trylock/failed/wait_ns and the eight decade buckets of wait time
 * (the v2 cover letter's table, in microseconds) are consecutive.
 */
enum rs_counter {
	RS_user_faults,
	RS_major_faults,
	RS_vma_lock_success,
	RS_vma_lock_abort,
	RS_vma_lock_retry,
	RS_filemap_fault_calls,
	RS_filemap_fault_vma_locked,
	RS_filemap_fault_tried,
	RS_filemap_fault_nowait,
	RS_filemap_fault_retry,
	RS_filemap_fault_retry_vma,
	RS_filemap_fault_major,
	RS_filemap_fault_error,
	RS_filemap_fault_random,
	RS_filemap_fault_retry_random,
	RS_swap_fault_calls,
	RS_swap_fault_vma_locked,
	RS_swap_fault_tried,
	RS_swap_fault_nowait,
	RS_swap_fault_retry,
	RS_swap_fault_retry_vma,
	RS_swap_fault_major,
	RS_swap_fault_error,
	RS_fault_retry,
	RS_fault_retry_file_io,
	RS_fault_retry_swap_io,
	RS_fault_retry_other,
	RS_retry_kept_vma_lock,
	RS_retry_kept_after_file_io,
	RS_retry_kept_after_swap_io,
	RS_retry_kept_after_other_retry,
	RS_mmap_lock_fallback,
	RS_fallback_vma_abort,
	RS_fallback_after_file_io,
	RS_fallback_after_swap_io,
	RS_fallback_after_other_retry,
	RS_fallback_no_vma_lock,
	RS_attempts_1,
	RS_attempts_2,
	RS_attempts_3,
	RS_attempts_4plus,
	RS_faults_abandoned,
	RS_mmap_lock_read_acquire,
	RS_mmap_lock_read_trylock,
	RS_mmap_lock_read_failed,
	RS_mmap_lock_read_wait_ns,
	RS_mmap_lock_read_wait_lt1us,
	RS_mmap_lock_read_wait_1_10us,
	RS_mmap_lock_read_wait_10_100us,
	RS_mmap_lock_read_wait_100us_1ms,
	RS_mmap_lock_read_wait_1_10ms,
	RS_mmap_lock_read_wait_10_100ms,
	RS_mmap_lock_read_wait_100ms_1s,
	RS_mmap_lock_read_wait_1s_plus,
	RS_mmap_lock_write_acquire,
	RS_mmap_lock_write_trylock,
	RS_mmap_lock_write_failed,
	RS_mmap_lock_write_wait_ns,
	RS_mmap_lock_write_wait_lt1us,
	RS_mmap_lock_write_wait_1_10us,
	RS_mmap_lock_write_wait_10_100us,
	RS_mmap_lock_write_wait_100us_1ms,
	RS_mmap_lock_write_wait_1_10ms,
	RS_mmap_lock_write_wait_10_100ms,
	RS_mmap_lock_write_wait_100ms_1s,
	RS_mmap_lock_write_wait_1s_plus,
	RS_fault_mmap_lock_acquire,
	RS_fault_mmap_lock_wait_ns,
	RS_fault_mmap_lock_wait_ns_rt,
	RS_fault_mmap_lock_wait_ns_high,
	RS_fault_mmap_lock_wait_ns_normal,
	RS_fault_mmap_lock_wait_ns_low,
	RS_fault_mmap_lock_acquire_rt,
	RS_fault_mmap_lock_acquire_high,
	RS_fault_mmap_lock_acquire_normal,
	RS_fault_mmap_lock_acquire_low,
	RS_state_collisions,
	RS_NR_COUNTERS
};

extern const char * const rs_counter_names[RS_NR_COUNTERS];

struct rs_stats {
	u64 c[RS_NR_COUNTERS];
	u64 attempts_max;
};

DECLARE_PER_CPU(struct rs_stats, rs_stats);

static __always_inline void rs_inc(enum rs_counter i)
{
	this_cpu_inc(rs_stats.c[i]);
}

/*
 * The entry model (backend=ftrace) counts an attempt as a success when it
 * starts and takes it back when a later hook shows it retried, maybe on
 * another CPU: one CPU's value can go below zero, the sum cannot.
 */
static __always_inline void rs_dec(enum rs_counter i)
{
	this_cpu_dec(rs_stats.c[i]);
}

static __always_inline void rs_add(enum rs_counter i, u64 v)
{
	this_cpu_add(rs_stats.c[i], v);
}

/* Called from probe handlers, which run with preemption disabled. */
/* attempts_1 .. attempts_4plus: the bucket of a fault that took @n attempts */
static __always_inline enum rs_counter rs_attempt_bucket(unsigned int n)
{
	return n <= 1 ? RS_attempts_1 : n == 2 ? RS_attempts_2 :
	       n == 3 ? RS_attempts_3 : RS_attempts_4plus;
}

static __always_inline void rs_note_attempts(unsigned int n)
{
	if (n > __this_cpu_read(rs_stats.attempts_max))
		__this_cpu_write(rs_stats.attempts_max, n);
}

int rs_debugfs_init(void);
void rs_debugfs_exit(void);
void rs_stats_reset(void);

#endif /* RETRYSCOPE_STATS_H */

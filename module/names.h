/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 0 (names): the one list of every name retryscope shows.
 *
 * Plain preprocessor lists, no includes, so that the module (counters,
 * debugfs "stats", trace events) and the userspace tools (tools/report)
 * expand the same list: renaming a counter or a cause is one edit here.
 *
 *   RS_COUNTERS(X)        X(name): one per-CPU counter; debugfs "stats",
 *                         the run JSON and the report use the name as is
 *   RS_CAUSES(EM, EMe)    EM(id, "name"): why a fault retried or fell back
 *                         to mmap_lock (EMe for the last entry, as
 *                         samples/trace_events/trace-events-sample.h does)
 *   RS_THREAD_CLASSES(X)  X(name): a task's scheduling class, the suffix
 *                         of the fault_mmap_lock_*_<class> counters
 *   RS_WAIT_BUCKETS(X)    X(name): decade buckets of an mmap_lock wait,
 *                         the suffix of mmap_lock_{read,write}_wait_<bucket>
 *   RS_COMM_PREFIX        the comm prefix of faultload's threads
 *
 * docs/counters.md says what every counter counts.
 */
#ifndef RETRYSCOPE_NAMES_H
#define RETRYSCOPE_NAMES_H

#define RS_COUNTERS(X)							\
	X(user_faults)							\
	X(major_faults)							\
	X(vma_lock_success)						\
	X(vma_lock_abort)						\
	X(vma_lock_retry)						\
	X(filemap_fault_calls)						\
	X(filemap_fault_vma_locked)					\
	X(filemap_fault_tried)						\
	X(filemap_fault_nowait)						\
	X(filemap_fault_retry)						\
	X(filemap_fault_retry_vma)					\
	X(filemap_fault_major)						\
	X(filemap_fault_error)						\
	X(filemap_fault_random)						\
	X(filemap_fault_retry_random)					\
	X(swap_fault_calls)						\
	X(swap_fault_vma_locked)					\
	X(swap_fault_tried)						\
	X(swap_fault_nowait)						\
	X(swap_fault_retry)						\
	X(swap_fault_retry_vma)						\
	X(swap_fault_major)						\
	X(swap_fault_error)						\
	X(fault_retry)							\
	X(fault_retry_file_io)						\
	X(fault_retry_swap_io)						\
	X(fault_retry_other)						\
	X(retry_kept_vma_lock)						\
	X(retry_kept_after_file_io)					\
	X(retry_kept_after_swap_io)					\
	X(retry_kept_after_other_retry)					\
	X(mmap_lock_fallback)						\
	X(fallback_vma_abort)						\
	X(fallback_after_file_io)					\
	X(fallback_after_swap_io)					\
	X(fallback_after_other_retry)					\
	X(fallback_no_vma_lock)						\
	X(attempts_1)							\
	X(attempts_2)							\
	X(attempts_3)							\
	X(attempts_4plus)						\
	X(faults_abandoned)						\
	X(mmap_lock_read_acquire)					\
	X(mmap_lock_read_trylock)					\
	X(mmap_lock_read_failed)					\
	X(mmap_lock_read_wait_ns)					\
	X(mmap_lock_read_wait_lt1us)					\
	X(mmap_lock_read_wait_1_10us)					\
	X(mmap_lock_read_wait_10_100us)					\
	X(mmap_lock_read_wait_100us_1ms)				\
	X(mmap_lock_read_wait_1_10ms)					\
	X(mmap_lock_read_wait_10_100ms)					\
	X(mmap_lock_read_wait_100ms_1s)					\
	X(mmap_lock_read_wait_1s_plus)					\
	X(mmap_lock_write_acquire)					\
	X(mmap_lock_write_trylock)					\
	X(mmap_lock_write_failed)					\
	X(mmap_lock_write_wait_ns)					\
	X(mmap_lock_write_wait_lt1us)					\
	X(mmap_lock_write_wait_1_10us)					\
	X(mmap_lock_write_wait_10_100us)				\
	X(mmap_lock_write_wait_100us_1ms)				\
	X(mmap_lock_write_wait_1_10ms)					\
	X(mmap_lock_write_wait_10_100ms)				\
	X(mmap_lock_write_wait_100ms_1s)				\
	X(mmap_lock_write_wait_1s_plus)					\
	X(fault_mmap_lock_acquire)					\
	X(fault_mmap_lock_wait_ns)					\
	X(fault_mmap_lock_wait_ns_rt)					\
	X(fault_mmap_lock_wait_ns_high)					\
	X(fault_mmap_lock_wait_ns_normal)				\
	X(fault_mmap_lock_wait_ns_low)					\
	X(fault_mmap_lock_acquire_rt)					\
	X(fault_mmap_lock_acquire_high)					\
	X(fault_mmap_lock_acquire_normal)				\
	X(fault_mmap_lock_acquire_low)					\
	X(state_collisions)

/*
 * Not per-CPU sums: debugfs "stats" prints them after the counters.
 * attempts_max is the most attempts one fault took, probe_nmissed the
 * probes' misses (kretprobe instances exhausted, recursion).
 */
#define RS_STATS_EXTRA(X)						\
	X(attempts_max)							\
	X(probe_nmissed)

#define RS_CAUSES(EM, EMe)						\
	EM(RS_CAUSE_NONE, "none")					\
	EM(RS_CAUSE_VMA_ABORT, "vma_abort")				\
	EM(RS_CAUSE_FILE_IO, "file_io")					\
	EM(RS_CAUSE_SWAP_IO, "swap_io")					\
	EM(RS_CAUSE_OTHER_RETRY, "other_retry")				\
	EMe(RS_CAUSE_NO_VMA_LOCK, "no_vma_lock")

#define RS_THREAD_CLASSES(X)						\
	X(rt)								\
	X(high)								\
	X(normal)							\
	X(low)

#define RS_WAIT_BUCKETS(X)						\
	X(lt1us)							\
	X(1_10us)							\
	X(10_100us)							\
	X(100us_1ms)							\
	X(1_10ms)							\
	X(10_100ms)							\
	X(100ms_1s)							\
	X(1s_plus)

#define RS_COMM_PREFIX "fl-"

#endif /* RETRYSCOPE_NAMES_H */

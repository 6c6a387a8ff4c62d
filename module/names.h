/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 0 (names): the one list of every name retryscope shows.
 *
 * Plain preprocessor lists, no includes, so that the module (counters,
 * debugfs "stats", trace events) and the userspace tools (tools/report)
 * expand the same list: renaming a counter or a cause is one edit here.
 * A user defines the entry macro, expands the list, and undefines it:
 *
 *   #define RS_COUNTER(name) [RS_##name] = #name,
 *   static const char * const names[] = { RS_COUNTER_LIST };
 *   #undef RS_COUNTER
 *
 *   RS_COUNTER_LIST        RS_COUNTER(name): one per-CPU counter; debugfs
 *                          "stats", the run JSON and the report use the
 *                          name as is
 *   RS_STATS_EXTRA_LIST    RS_STATS_EXTRA(name): the lines of "stats" after
 *                          the counters, not per-CPU sums
 *   RS_CAUSE_LIST          RS_CAUSE(name), RS_CAUSE_LAST(name) for the last
 *                          one (the EM/EMe of samples/trace_events): why a
 *                          fault retried or fell back to mmap_lock
 *   RS_THREAD_CLASS_LIST   RS_THREAD_CLASS(name): a task's scheduling class,
 *                          the suffix of the fault_mmap_lock_*_<class>
 *                          counters
 *   RS_WAIT_BUCKET_LIST    RS_WAIT_BUCKET(name): decade buckets of an
 *                          mmap_lock wait, the suffix of
 *                          mmap_lock_{read,write}_wait_<bucket>
 *   RS_VMW_CALLER_LIST     RS_VMW_CALLER(name): the system call in which a
 *                          VMA write lock waited for readers, the suffix of
 *                          vma_write_lock_{waited,wait_ns}_<caller>
 *   RS_LAT_OUTCOME_LIST    RS_LAT_OUTCOME(name): how a timed fault ended,
 *                          the first column of debugfs "latency"
 *   RS_LAT_CAUSE_LIST      RS_LAT_CAUSE(name): which ->fault a timed fault
 *                          went through, its second column (names of
 *                          RS_CAUSE_LIST)
 *   RS_COMM_PREFIX         the comm prefix of faultload's threads
 *
 * docs/counters.md says what every counter counts.
 */
#ifndef RETRYSCOPE_NAMES_H
#define RETRYSCOPE_NAMES_H

/* A list as one macro argument (checkpatch: one value, not a sequence). */
#define RS_LIST(...) __VA_ARGS__

#define RS_COUNTER_LIST RS_LIST(					\
	RS_COUNTER(user_faults)						\
	RS_COUNTER(major_faults)					\
	RS_COUNTER(vma_lock_success)					\
	RS_COUNTER(vma_lock_abort)					\
	RS_COUNTER(vma_lock_retry)					\
	RS_COUNTER(filemap_fault_calls)					\
	RS_COUNTER(filemap_fault_vma_locked)				\
	RS_COUNTER(filemap_fault_tried)					\
	RS_COUNTER(filemap_fault_nowait)				\
	RS_COUNTER(filemap_fault_retry)					\
	RS_COUNTER(filemap_fault_retry_vma)				\
	RS_COUNTER(filemap_fault_major)					\
	RS_COUNTER(filemap_fault_error)					\
	RS_COUNTER(filemap_fault_random)				\
	RS_COUNTER(filemap_fault_retry_random)				\
	RS_COUNTER(filemap_retry_readahead)				\
	RS_COUNTER(filemap_retry_locked_folio)				\
	RS_COUNTER(filemap_retry_uptodate)				\
	RS_COUNTER(filemap_retry_sync_read)				\
	RS_COUNTER(filemap_retry_other)					\
	RS_COUNTER(filemap_retry_miss)					\
	RS_COUNTER(swap_fault_calls)					\
	RS_COUNTER(swap_fault_vma_locked)				\
	RS_COUNTER(swap_fault_tried)					\
	RS_COUNTER(swap_fault_nowait)					\
	RS_COUNTER(swap_fault_retry)					\
	RS_COUNTER(swap_fault_retry_vma)				\
	RS_COUNTER(swap_fault_major)					\
	RS_COUNTER(swap_fault_error)					\
	RS_COUNTER(swap_retry_io)					\
	RS_COUNTER(swap_retry_locked_folio)				\
	RS_COUNTER(swap_retry_other)					\
	RS_COUNTER(io_wait_vma_lock_file)				\
	RS_COUNTER(io_wait_vma_lock_file_ns)				\
	RS_COUNTER(io_wait_vma_lock_swap)				\
	RS_COUNTER(io_wait_vma_lock_swap_ns)				\
	RS_COUNTER(fault_retry)						\
	RS_COUNTER(fault_retry_file_io)					\
	RS_COUNTER(fault_retry_swap_io)					\
	RS_COUNTER(fault_retry_other)					\
	RS_COUNTER(retry_kept_vma_lock)					\
	RS_COUNTER(retry_kept_after_file_io)				\
	RS_COUNTER(retry_kept_after_swap_io)				\
	RS_COUNTER(retry_kept_after_other_retry)			\
	RS_COUNTER(mmap_lock_fallback)					\
	RS_COUNTER(fallback_vma_abort)					\
	RS_COUNTER(fallback_after_file_io)				\
	RS_COUNTER(fallback_after_swap_io)				\
	RS_COUNTER(fallback_after_other_retry)				\
	RS_COUNTER(fallback_no_vma_lock)				\
	RS_COUNTER(fallback_not_io)					\
	RS_COUNTER(fallback_site_filemap_readahead)			\
	RS_COUNTER(fallback_site_filemap_locked_folio)			\
	RS_COUNTER(fallback_site_filemap_uptodate)			\
	RS_COUNTER(fallback_site_filemap_sync_read)			\
	RS_COUNTER(fallback_site_swap_io)				\
	RS_COUNTER(fallback_site_swap_locked_folio)			\
	RS_COUNTER(fallback_site_other)					\
	RS_COUNTER(attempts_1)						\
	RS_COUNTER(attempts_2)						\
	RS_COUNTER(attempts_3)						\
	RS_COUNTER(attempts_4plus)					\
	RS_COUNTER(faults_abandoned)					\
	RS_COUNTER(mmap_lock_read_acquire)				\
	RS_COUNTER(mmap_lock_read_trylock)				\
	RS_COUNTER(mmap_lock_read_failed)				\
	RS_COUNTER(mmap_lock_read_wait_ns)				\
	RS_COUNTER(mmap_lock_read_wait_lt1us)				\
	RS_COUNTER(mmap_lock_read_wait_1_10us)				\
	RS_COUNTER(mmap_lock_read_wait_10_100us)			\
	RS_COUNTER(mmap_lock_read_wait_100us_1ms)			\
	RS_COUNTER(mmap_lock_read_wait_1_10ms)				\
	RS_COUNTER(mmap_lock_read_wait_10_100ms)			\
	RS_COUNTER(mmap_lock_read_wait_100ms_1s)			\
	RS_COUNTER(mmap_lock_read_wait_1s_plus)				\
	RS_COUNTER(mmap_lock_write_acquire)				\
	RS_COUNTER(mmap_lock_write_trylock)				\
	RS_COUNTER(mmap_lock_write_failed)				\
	RS_COUNTER(mmap_lock_write_wait_ns)				\
	RS_COUNTER(mmap_lock_write_wait_lt1us)				\
	RS_COUNTER(mmap_lock_write_wait_1_10us)				\
	RS_COUNTER(mmap_lock_write_wait_10_100us)			\
	RS_COUNTER(mmap_lock_write_wait_100us_1ms)			\
	RS_COUNTER(mmap_lock_write_wait_1_10ms)				\
	RS_COUNTER(mmap_lock_write_wait_10_100ms)			\
	RS_COUNTER(mmap_lock_write_wait_100ms_1s)			\
	RS_COUNTER(mmap_lock_write_wait_1s_plus)			\
	RS_COUNTER(fault_mmap_lock_acquire)				\
	RS_COUNTER(fault_mmap_lock_wait_ns)				\
	RS_COUNTER(fault_mmap_lock_wait_ns_rt)				\
	RS_COUNTER(fault_mmap_lock_wait_ns_high)			\
	RS_COUNTER(fault_mmap_lock_wait_ns_normal)			\
	RS_COUNTER(fault_mmap_lock_wait_ns_low)				\
	RS_COUNTER(fault_mmap_lock_acquire_rt)				\
	RS_COUNTER(fault_mmap_lock_acquire_high)			\
	RS_COUNTER(fault_mmap_lock_acquire_normal)			\
	RS_COUNTER(fault_mmap_lock_acquire_low)				\
	RS_COUNTER(vma_write_lock_calls)				\
	RS_COUNTER(vma_write_lock_waited)				\
	RS_COUNTER(vma_write_lock_failed)				\
	RS_COUNTER(vma_write_lock_wait_ns)				\
	RS_COUNTER(vma_write_lock_wait_lt1us)				\
	RS_COUNTER(vma_write_lock_wait_1_10us)				\
	RS_COUNTER(vma_write_lock_wait_10_100us)			\
	RS_COUNTER(vma_write_lock_wait_100us_1ms)			\
	RS_COUNTER(vma_write_lock_wait_1_10ms)				\
	RS_COUNTER(vma_write_lock_wait_10_100ms)			\
	RS_COUNTER(vma_write_lock_wait_100ms_1s)			\
	RS_COUNTER(vma_write_lock_wait_1s_plus)				\
	RS_COUNTER(vma_write_lock_waited_fork)				\
	RS_COUNTER(vma_write_lock_waited_mprotect)			\
	RS_COUNTER(vma_write_lock_waited_munmap)			\
	RS_COUNTER(vma_write_lock_waited_other)				\
	RS_COUNTER(vma_write_lock_wait_ns_fork)				\
	RS_COUNTER(vma_write_lock_wait_ns_mprotect)			\
	RS_COUNTER(vma_write_lock_wait_ns_munmap)			\
	RS_COUNTER(vma_write_lock_wait_ns_other)			\
	RS_COUNTER(vma_write_lock_waited_rt)				\
	RS_COUNTER(vma_write_lock_waited_high)				\
	RS_COUNTER(vma_write_lock_waited_normal)			\
	RS_COUNTER(vma_write_lock_waited_low)				\
	RS_COUNTER(vma_write_lock_wait_ns_rt)				\
	RS_COUNTER(vma_write_lock_wait_ns_high)				\
	RS_COUNTER(vma_write_lock_wait_ns_normal)			\
	RS_COUNTER(vma_write_lock_wait_ns_low)				\
	RS_COUNTER(state_table_full))

/*
 * Not per-CPU sums: debugfs "stats" prints them after the counters.
 * attempts_max is the most attempts one fault took, probe_nmissed the
 * probes' misses (kretprobe instances exhausted, recursion).
 */
#define RS_STATS_EXTRA_LIST RS_LIST(					\
	RS_STATS_EXTRA(attempts_max)					\
	RS_STATS_EXTRA(probe_nmissed))

/*
 * none         no cause (not shown by any counter)
 * vma_abort    lock_vma_under_rcu() returned NULL
 * file_io      filemap_fault() returned VM_FAULT_RETRY
 * swap_io      do_swap_page() returned VM_FAULT_RETRY
 * other_retry  any other VM_FAULT_RETRY
 * no_vma_lock  no per-VMA lock attempt preceded the fallback
 * not_io       light=1 only: vma_abort or other_retry, which it cannot
 *              tell apart (it has no probe on handle_mm_fault())
 */
#define RS_CAUSE_LIST RS_LIST(						\
	RS_CAUSE(none)							\
	RS_CAUSE(vma_abort)						\
	RS_CAUSE(file_io)						\
	RS_CAUSE(swap_io)						\
	RS_CAUSE(other_retry)						\
	RS_CAUSE(no_vma_lock)						\
	RS_CAUSE_LAST(not_io))

#define RS_THREAD_CLASS_LIST RS_LIST(					\
	RS_THREAD_CLASS(rt)						\
	RS_THREAD_CLASS(high)						\
	RS_THREAD_CLASS(normal)						\
	RS_THREAD_CLASS(low))

#define RS_WAIT_BUCKET_LIST RS_LIST(					\
	RS_WAIT_BUCKET(lt1us)						\
	RS_WAIT_BUCKET(1_10us)						\
	RS_WAIT_BUCKET(10_100us)					\
	RS_WAIT_BUCKET(100us_1ms)					\
	RS_WAIT_BUCKET(1_10ms)						\
	RS_WAIT_BUCKET(10_100ms)					\
	RS_WAIT_BUCKET(100ms_1s)					\
	RS_WAIT_BUCKET(1s_plus))

/*
 * fork      clone(), clone3(), fork(), vfork(): dup_mmap() write-locks
 *           every VMA of the parent
 * mprotect  mprotect(), pkey_mprotect()
 * munmap    munmap()
 * other     any other system call (mmap over a mapping, mremap, madvise,
 *           brk), a compat system call, or a kernel thread
 */
#define RS_VMW_CALLER_LIST RS_LIST(					\
	RS_VMW_CALLER(fork)						\
	RS_VMW_CALLER(mprotect)						\
	RS_VMW_CALLER(munmap)						\
	RS_VMW_CALLER(other))

/*
 * first      the fault's first attempt finished it
 * vma_lock   it retried, and the attempt that finished it held the VMA lock
 * mmap_lock  it retried, and the attempt that finished it held mmap_lock
 */
#define RS_LAT_OUTCOME_LIST RS_LIST(					\
	RS_LAT_OUTCOME(first)						\
	RS_LAT_OUTCOME(vma_lock)					\
	RS_LAT_OUTCOME(mmap_lock))

/* file_io: filemap_fault(); swap_io: do_swap_page() */
#define RS_LAT_CAUSE_LIST RS_LIST(					\
	RS_LAT_CAUSE(file_io)						\
	RS_LAT_CAUSE(swap_io))

#define RS_COMM_PREFIX "fl-"

#endif /* RETRYSCOPE_NAMES_H */

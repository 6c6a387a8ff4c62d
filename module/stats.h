/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 1 (counters): the per-CPU counters, summed on read.
 *
 * The counters, their names and the causes come from names.h.  Handlers
 * pick a counter by its id (RS_<name>), or through the tables below where
 * a group of counters is chosen by a cause, a lock mode, a wait bucket or
 * a thread class: never by arithmetic on the enum's order.
 */
#ifndef RETRYSCOPE_STATS_H
#define RETRYSCOPE_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

#include "names.h"

/* RS_<name>: the counter's id */
#define RS_COUNTER(name) RS_##name,
enum rs_counter {
	RS_COUNTER_LIST
	RS_NR_COUNTERS,
	RS_NO_COUNTER = RS_NR_COUNTERS	/* a table entry with no counter */
};

#undef RS_COUNTER

/* RS_CAUSE_<name>, carried by the trace events as a number */
#define RS_CAUSE(name) RS_CAUSE_##name,
#define RS_CAUSE_LAST(name) RS_CAUSE_##name,
enum rs_cause {
	RS_CAUSE_LIST
	RS_NR_CAUSES
};

#undef RS_CAUSE
#undef RS_CAUSE_LAST

/* A task's scheduling class: rt, high (nice < 0), normal, low (nice > 0). */
#define RS_THREAD_CLASS(name) RS_CLASS_##name,
enum rs_thread_class {
	RS_THREAD_CLASS_LIST
	RS_NR_CLASSES
};

#undef RS_THREAD_CLASS

#define RS_WAIT_BUCKET(name) RS_BUCKET_##name,
enum rs_wait_bucket {
	RS_WAIT_BUCKET_LIST
	RS_NR_BUCKETS
};

#undef RS_WAIT_BUCKET

/* The system call a VMA write lock waited in (lockwait.c). */
#define RS_VMW_CALLER(name) RS_VMW_##name,
enum rs_vmw_caller {
	RS_VMW_CALLER_LIST
	RS_NR_VMW_CALLERS
};

#undef RS_VMW_CALLER

/* How a fault the latency model timed ended, and its ->fault (latency.c) */
#define RS_LAT_OUTCOME(name) RS_LAT_##name,
enum rs_lat_outcome {
	RS_LAT_OUTCOME_LIST
	RS_NR_LAT_OUTCOMES
};

#undef RS_LAT_OUTCOME

#define RS_LAT_CAUSE(name) RS_LAT_CAUSE_##name,
enum rs_lat_cause {
	RS_LAT_CAUSE_LIST
	RS_NR_LAT_CAUSES
};

#undef RS_LAT_CAUSE

extern const char * const rs_counter_names[RS_NR_COUNTERS];

/*
 * The counters of one cause: a handle_mm_fault() retry of that cause, a
 * retry of it that came back to the VMA lock (the series), and an
 * mmap_lock fallback of it.  RS_NO_COUNTER where a cause has none.
 */
struct rs_cause_counters {
	enum rs_counter retry;
	enum rs_counter kept;
	enum rs_counter fallback;
};

extern const struct rs_cause_counters rs_cause_counters[RS_NR_CAUSES];

/*
 * Where filemap_fault() or do_swap_page() dropped the lock (io_fault.c),
 * kept with a pending retry in 3 bits of its state (task_state.h): the
 * counters of its retries and of those that fell back to mmap_lock.
 */
enum rs_drop_site {
	RS_SITE_none,
	RS_SITE_filemap_readahead,
	RS_SITE_filemap_locked_folio,
	RS_SITE_filemap_uptodate,
	RS_SITE_filemap_sync_read,
	RS_SITE_swap_io,
	RS_SITE_swap_locked_folio,
	RS_SITE_other,		/* no drop for I/O: NOWAIT, a fatal signal */
	RS_NR_SITES		/* at most 8: 3 bits of the state */
};

/* RS_SITE_other's retry counter is the ->fault's: <fn>_retry_other */
struct rs_site_counters {
	enum rs_counter retry;
	enum rs_counter fallback;
};

extern const struct rs_site_counters rs_site_counters[RS_NR_SITES];

/* The counters of one mmap_lock mode (read or write). */
struct rs_lock_counters {
	enum rs_counter acquire;	/* blocking acquisitions */
	enum rs_counter trylock;	/* acquired with no start event */
	enum rs_counter failed;		/* failed trylock, killed wait */
	enum rs_counter wait_ns;
	enum rs_counter wait[RS_NR_BUCKETS];
};

extern const struct rs_lock_counters rs_lock_counters_read;
extern const struct rs_lock_counters rs_lock_counters_write;

/* The fault-path mmap_lock counters of one thread class. */
struct rs_class_counters {
	enum rs_counter acquire;
	enum rs_counter wait_ns;
};

extern const struct rs_class_counters rs_class_counters[RS_NR_CLASSES];

/*
 * The VMA write lock's counters (vma_write_lock_*): the calls, those that
 * waited for readers (and failed: a fatal signal), their time, its decade
 * bucket, and the waits by system call and by the waiting task's class.
 */
struct rs_vmw_counters {
	enum rs_counter calls, waited, failed, wait_ns;
	enum rs_counter wait[RS_NR_BUCKETS];
	struct rs_class_counters by_caller[RS_NR_VMW_CALLERS];
	struct rs_class_counters by_class[RS_NR_CLASSES];
};

extern const struct rs_vmw_counters rs_vmw_counters;

struct rs_stats {
	u64 c[RS_NR_COUNTERS + 1];	/* c[RS_NO_COUNTER]: a sink, never shown */
	u64 attempts_max;
};

DECLARE_PER_CPU(struct rs_stats, rs_stats);

/* Called from probe handlers, which run with preemption disabled. */
static __always_inline void rs_inc(enum rs_counter i)
{
	this_cpu_inc(rs_stats.c[i]);
}

/*
 * rs_inc() for the counters of handle_mm_fault()'s first attempt, which
 * every fault makes: its hooks run in task context (no fault is handled
 * in IRQ context) with preemption disabled.  On x86 the two are the same
 * instruction; on arm64 this_cpu_inc() wraps its atomic add in a preempt
 * count disable and enable, and four of them cost about 1% of the
 * anonymous minor-fault rate there (docs/overhead.md).  Not IRQ-safe: a
 * counter that a handler in IRQ or NMI context can count (the mmap_lock
 * tracepoints fire there, from BPF stack maps' mmap_read_trylock()) takes
 * rs_inc().
 */
static __always_inline void rs_inc_task(enum rs_counter i)
{
	__this_cpu_inc(rs_stats.c[i]);
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

/* Every counter's sum over CPUs since the last reset, into @sums. */
void rs_stats_read(u64 *sums);
/* One counter's sum over CPUs since the last reset (the sysfs files). */
u64 rs_stats_read_one(enum rs_counter i);
u64 rs_stats_attempts_max(void);
void rs_stats_reset(void);

/*
 * light=1 (main.c) counts without the probes on every fault: the counters
 * only those probes feed are not shown (debugfs "stats", sysfs, the
 * periodic events), since a 0 there would read as "none happened".  Set
 * once at load, before any interface is created.
 */
void rs_stats_set_light(bool light);
bool rs_counter_shown(enum rs_counter i);
bool rs_attempts_max_shown(void);

#endif /* RETRYSCOPE_STATS_H */

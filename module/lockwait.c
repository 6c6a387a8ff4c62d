// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): mmap_lock wait time, from the kernel's mmap_lock
 * tracepoints (attached by tracepoints.c).
 *
 * mmap_lock_start_locking is emitted before a lock (or trylock) attempt and
 * mmap_lock_acquire_returned after it, with success=false for a failed
 * trylock or an interrupted killable lock.  Per task and in that order, the
 * wait of one acquisition is acquire_returned - start_locking; an
 * acquire_returned with no pending start (kernels whose trylock emits no
 * start) counts as a trylock.  A lock taken inside lock_mm_and_find_vma()
 * (state RS_ST_MMAP_LOCKED, from its entry to its return: the read lock,
 * and the write lock of a stack expansion) is a fault-path acquisition and
 * is also counted by the task's scheduling class.
 */
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "filter.h"
#include "lockwait.h"
#include "stats.h"
#include "task_state.h"

void rs_lockwait_start(struct mm_struct *mm)
{
	struct rs_slot *slot;

	if (mm != current->mm || !rs_filter_match())
		return;
	slot = rs_slot_current();
	if (slot)
		WRITE_ONCE(slot->lock_start, ktime_get_mono_fast_ns());
}

static enum rs_wait_bucket rs_wait_bucket(u64 ns)
{
	unsigned int b = 0;
	u64 limit = NSEC_PER_USEC;

	while (b < RS_NR_BUCKETS - 1 && ns >= limit) {
		b++;
		limit *= 10;
	}
	return b;
}

static enum rs_thread_class rs_thread_class(void)
{
	if (rt_task(current))
		return RS_CLASS_rt;
	if (task_nice(current) < 0)
		return RS_CLASS_high;
	if (task_nice(current) > 0)
		return RS_CLASS_low;
	return RS_CLASS_normal;
}

static void rs_count_fault_path(u64 wait)
{
	const struct rs_class_counters *c = &rs_class_counters[rs_thread_class()];

	rs_inc(RS_fault_mmap_lock_acquire);
	rs_add(RS_fault_mmap_lock_wait_ns, wait);
	rs_inc(c->acquire);
	rs_add(c->wait_ns, wait);
}

void rs_lockwait_returned(struct mm_struct *mm, bool write, bool success)
{
	const struct rs_lock_counters *c = write ? &rs_lock_counters_write :
						   &rs_lock_counters_read;
	struct rs_task_state ts;
	u64 start, wait = 0;

	if (mm != current->mm || !rs_filter_match())
		return;
	if (!rs_state_get(&ts, 0))
		return;
	start = READ_ONCE(ts.slot->lock_start);
	WRITE_ONCE(ts.slot->lock_start, 0);
	if (!success) {
		rs_inc(c->failed);
		return;
	}
	if (start) {
		wait = ktime_get_mono_fast_ns() - start;
		rs_inc(c->acquire);
		rs_add(c->wait_ns, wait);
		rs_inc(c->wait[rs_wait_bucket(wait)]);
	} else {
		rs_inc(c->trylock);
	}
	if (ts.mine && ts.state == RS_ST_MMAP_LOCKED)
		rs_count_fault_path(wait);
}

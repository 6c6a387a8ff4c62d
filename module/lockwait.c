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
 *
 * The VMA write lock, from __vma_start_write()'s entry and return
 * (probes.c): a call that found readers holding the VMA (vm_refcnt above
 * 1: attached, plus one per reader) waits until they leave, and the call's
 * time is that wait.  This is what a fault holding the VMA lock across its
 * I/O (no-drop) costs fork()'s dup_mmap(), mprotect() and munmap(); the
 * wait is counted by the system call it came from and by the waiting
 * task's class.  A call that found no reader takes the lock at once and is
 * only counted.
 */
#include <linux/compat.h>
#include <linux/mm_types.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/sched/rt.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/unistd.h>

#include <asm/syscall.h>

#include "features.h"
#include "filter.h"
#include "lockwait.h"
#include "stats.h"
#include "task_state.h"

/*
 * Only a task's own lock requests touch its slot.  mmap_read_trylock()
 * can also run in IRQ or NMI context on the interrupted task's mm (BPF
 * stack maps' build-id lookup): between the task's own start_locking and
 * acquire_returned it would take the task's lock_start (its wait counted
 * as a trylock, the interrupt's trylock as an acquire, and a fault-path
 * one in RS_ST_MMAP_LOCKED), or claim the task a slot.  Such a call is
 * counted as what it is, a trylock, and leaves the slot alone.
 */
void rs_lockwait_start(struct mm_struct *mm)
{
	struct rs_slot *slot;

	if (!in_task() || mm != current->mm || !rs_filter_match())
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
	if (!in_task()) {
		rs_inc(success ? c->trylock : c->failed);
		return;
	}
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

/* The system call the current task is in, as an RS_VMW_* caller. */
static enum rs_vmw_caller rs_vmw_caller(void)
{
	long nr;

	/* an io_uring or vhost worker keeps the syscall number it was made in */
	if ((current->flags & (PF_KTHREAD | PF_USER_WORKER)) ||
	    in_compat_syscall())
		return RS_VMW_other;
	nr = syscall_get_nr(current, task_pt_regs(current));
	switch (nr) {
	case __NR_clone:
	case __NR_clone3:
#ifdef __NR_fork
	case __NR_fork:
#endif
#ifdef __NR_vfork
	case __NR_vfork:
#endif
		return RS_VMW_fork;
	case __NR_mprotect:
	case __NR_pkey_mprotect:
		return RS_VMW_mprotect;
	case __NR_munmap:
		return RS_VMW_munmap;
	default:
		return RS_VMW_other;
	}
}

int rs_vma_write_enter(void *data, unsigned long vma, unsigned long state,
		       unsigned long unused)
{
	struct rs_vmw_data *d = data;

	if (!rs_filter_match())
		return 1;
	rs_inc(rs_vmw_counters.calls);
	if (!rs_vma_has_readers((struct vm_area_struct *)vma))
		return 1;
	d->caller = rs_vmw_caller();
	d->t0 = ktime_get_mono_fast_ns();
	return 0;
}

void rs_vma_write_exit(void *data, unsigned long retval)
{
	const struct rs_vmw_counters *c = &rs_vmw_counters;
	const struct rs_vmw_data *d = data;
	enum rs_thread_class cls = rs_thread_class();
	u64 wait = ktime_get_mono_fast_ns() - d->t0;

	rs_inc(c->waited);
	if ((int)retval)
		rs_inc(c->failed);
	rs_add(c->wait_ns, wait);
	rs_inc(c->wait[rs_wait_bucket(wait)]);
	rs_inc(c->by_caller[d->caller].acquire);
	rs_add(c->by_caller[d->caller].wait_ns, wait);
	rs_inc(c->by_class[cls].acquire);
	rs_add(c->by_class[cls].wait_ns, wait);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_lock wait time, from the kernel's mmap_lock tracepoints.
 *
 * mmap_lock_start_locking is emitted before a lock (or trylock) attempt and
 * mmap_lock_acquire_returned after it, with success=false for a failed
 * trylock or an interrupted killable lock.  Per task and in that order, the
 * wait of one acquisition is acquire_returned - start_locking; an
 * acquire_returned with no pending start (kernels whose trylock emits no
 * start) counts as a trylock.  A lock taken while the task is in the arch
 * handler's mmap_lock path (state RS_ST_MMAP_LOCKED, set by the
 * lock_mm_and_find_vma probe) is a fault-path acquisition and is also
 * counted by the task's scheduling class.
 */
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "cause.h"
#include "probes.h"
#include "stats.h"

static void rs_tp_start_locking(void *data, struct mm_struct *mm, bool write)
{
	if (mm != current->mm || !rs_filter_match())
		return;
	rs_lock_start_set(ktime_get_mono_fast_ns());
}

static unsigned int rs_wait_bucket(u64 ns)
{
	unsigned int b = 0;
	u64 limit = NSEC_PER_USEC;

	while (b < 7 && ns >= limit) {
		b++;
		limit *= 10;
	}
	return b;
}

static void rs_count_fault_path(u64 wait)
{
	enum rs_counter acq, ns;

	if (rt_task(current)) {
		acq = RS_fault_mmap_lock_acquire_rt;
		ns = RS_fault_mmap_lock_wait_ns_rt;
	} else if (task_nice(current) < 0) {
		acq = RS_fault_mmap_lock_acquire_high;
		ns = RS_fault_mmap_lock_wait_ns_high;
	} else if (task_nice(current) > 0) {
		acq = RS_fault_mmap_lock_acquire_low;
		ns = RS_fault_mmap_lock_wait_ns_low;
	} else {
		acq = RS_fault_mmap_lock_acquire_normal;
		ns = RS_fault_mmap_lock_wait_ns_normal;
	}
	rs_inc(RS_fault_mmap_lock_acquire);
	rs_add(RS_fault_mmap_lock_wait_ns, wait);
	rs_inc(acq);
	rs_add(ns, wait);
}

static void rs_tp_acquire_returned(void *data, struct mm_struct *mm,
				   bool write, bool success)
{
	enum rs_counter base = write ? RS_mmap_lock_write_acquire :
				       RS_mmap_lock_read_acquire;
	struct rs_task_state ts;
	u64 start, wait = 0;

	if (mm != current->mm || !rs_filter_match())
		return;
	start = rs_lock_start_take();
	/* acquire, trylock, failed, wait_ns, 8 buckets: see RS_LOCK_COUNTERS */
	if (!success) {
		rs_inc(base + 2);
		return;
	}
	if (start) {
		wait = ktime_get_mono_fast_ns() - start;
		rs_inc(base);
		rs_add(base + 3, wait);
		rs_inc(base + 4 + rs_wait_bucket(wait));
	} else {
		rs_inc(base + 1);
	}
	rs_state_get(&ts, 0);
	if (ts.mine && ts.state == RS_ST_MMAP_LOCKED)
		rs_count_fault_path(wait);
}

struct rs_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	int err;
};

static struct rs_tp rs_tps[] = {
	{ .name = "mmap_lock_start_locking", .probe = rs_tp_start_locking },
	{ .name = "mmap_lock_acquire_returned", .probe = rs_tp_acquire_returned },
};

static void rs_tp_lookup(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rs_tps); i++)
		if (!strcmp(tp->name, rs_tps[i].name))
			rs_tps[i].tp = tp;
}

/*
 * Both tracepoints or neither: skip=mmap_lock leaves them off (their cost
 * is two clock reads per mmap_lock operation of a counted task).
 */
int rs_lockwait_attach(const char *skip, unsigned int *attached)
{
	bool off = rs_probe_skipped(skip, RS_SKIP_LOCKWAIT);
	unsigned int i;

	*attached = 0;
	for_each_kernel_tracepoint(rs_tp_lookup, NULL);
	for (i = 0; i < ARRAY_SIZE(rs_tps); i++) {
		struct rs_tp *t = &rs_tps[i];

		if (off)
			t->err = -ECANCELED;
		else if (!t->tp)
			t->err = -ENOENT;
		else
			t->err = tracepoint_probe_register(t->tp, t->probe,
							   NULL);
		if (!t->err)
			(*attached)++;
	}
	return 0;
}

void rs_lockwait_detach(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rs_tps); i++) {
		struct rs_tp *t = &rs_tps[i];

		if (!t->err)
			tracepoint_probe_unregister(t->tp, t->probe, NULL);
		t->err = -ENOENT;
	}
	tracepoint_synchronize_unregister();
}

void rs_lockwait_show(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rs_tps); i++) {
		const struct rs_tp *t = &rs_tps[i];

		seq_printf(m, "%s tracepoint %s - - -\n", t->name,
			   t->err ? "off" : "on");
		if (t->err)
			seq_printf(m, "#   %s: %s (%d)\n", t->name,
				   rs_probe_why(t->err), t->err);
	}
}

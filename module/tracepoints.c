// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 4 (probes): the kernel tracepoints the module attaches to.
 *
 * - mmap_lock_start_locking and mmap_lock_acquire_returned feed the
 *   lock-wait model (lockwait.c).  Both or neither: skip=mmap_lock leaves
 *   them off (their cost is two clock reads per mmap_lock operation of a
 *   counted task).
 * - sched_process_free releases a freed task's slot (task_state.c).
 *   Without it slots are never released, and once the table is full new
 *   tasks are not counted (state_table_full).
 * - signal_deliver ends a retry the arch handler dropped for a signal
 *   (count.c); without it the access re-executed after the signal handler
 *   counts as the retry.
 *
 * tracepoint_probe_register() takes a void * and checks no types, so the
 * probes here must have the prototype of the kernel built against: 7.3
 * passes (mm, write[, success]), 6.12 (mm, memcg_path, write[, success]).
 * Kbuild's compile tests (conftest/mmap_lock_tp*.c) say which; with
 * neither, the tracepoints stay off rather than read the wrong arguments.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/signal_types.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "count.h"
#include "lockwait.h"
#include "probes.h"
#include "task_state.h"
#include "tracepoints.h"

#if defined(RS_HAVE_MMAP_LOCK_TP)
static void rs_tp_start_locking(void *data, struct mm_struct *mm, bool write)
{
	rs_lockwait_start(mm);
}

static void rs_tp_acquire_returned(void *data, struct mm_struct *mm,
				   bool write, bool success)
{
	rs_lockwait_returned(mm, write, success);
}
#elif defined(RS_HAVE_MMAP_LOCK_TP_MEMCG)
static void rs_tp_start_locking(void *data, struct mm_struct *mm,
				const char *memcg_path, bool write)
{
	rs_lockwait_start(mm);
}

static void rs_tp_acquire_returned(void *data, struct mm_struct *mm,
				   const char *memcg_path, bool write,
				   bool success)
{
	rs_lockwait_returned(mm, write, success);
}
#else
#define rs_tp_start_locking NULL
#define rs_tp_acquire_returned NULL
#endif

/* Unchanged since 2.6.32: (struct task_struct *p). */
static void rs_tp_task_free(void *data, struct task_struct *p)
{
	rs_slot_release((unsigned long)p);
}

/* Unchanged since 2.6.32 but for siginfo_t's name. */
static void rs_tp_signal_deliver(void *data, int sig,
				 struct kernel_siginfo *info,
				 struct k_sigaction *ka)
{
	rs_signal_delivered();
}

struct rs_tp {
	const char *name;
	void *probe;
	bool lockwait;		/* one of the two skip=mmap_lock leaves off */
	struct tracepoint *tp;
	int err;
};

static struct rs_tp rs_tps[] = {
	{ .name = "mmap_lock_start_locking",
	  .probe = rs_tp_start_locking, .lockwait = true },
	{ .name = "mmap_lock_acquire_returned",
	  .probe = rs_tp_acquire_returned, .lockwait = true },
	{ .name = "sched_process_free", .probe = rs_tp_task_free },
	{ .name = "signal_deliver", .probe = rs_tp_signal_deliver },
};

static void rs_tp_lookup(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rs_tps); i++)
		if (!strcmp(tp->name, rs_tps[i].name))
			rs_tps[i].tp = tp;
}

unsigned int rs_tracepoints_attach(const char *skip)
{
	bool off = rs_probe_skipped(skip, RS_SKIP_LOCKWAIT);
	unsigned int i, attached = 0;

	for_each_kernel_tracepoint(rs_tp_lookup, NULL);
	for (i = 0; i < ARRAY_SIZE(rs_tps); i++) {
		struct rs_tp *t = &rs_tps[i];

		if (off && t->lockwait)
			t->err = -ECANCELED;
		else if (!t->probe)
			t->err = -EPROTO;
		else if (!t->tp)
			t->err = -ENOENT;
		else
			t->err = tracepoint_probe_register(t->tp, t->probe,
							   NULL);
		if (!t->err && t->lockwait)
			attached++;
		else if (t->err && !t->lockwait)
			pr_warn("retryscope: %s: %s (%d): counts are wrong where it matters (debugfs probes)\n",
				t->name, rs_probe_why(t->err), t->err);
	}
	return attached;
}

void rs_tracepoints_detach(void)
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

void rs_tracepoints_show(struct seq_file *m)
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

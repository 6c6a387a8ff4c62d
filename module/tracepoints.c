// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 4 (probes): the mmap_lock tracepoints, attached to the lock-wait
 * model's probes (lockwait.c).  Both or neither: skip=mmap_lock leaves
 * them off (their cost is two clock reads per mmap_lock operation of a
 * counted task).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "lockwait.h"
#include "probes.h"
#include "tracepoints.h"

struct rs_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	int err;
};

static struct rs_tp rs_tps[] = {
	{ .name = "mmap_lock_start_locking",
	  .probe = rs_lockwait_start_locking },
	{ .name = "mmap_lock_acquire_returned",
	  .probe = rs_lockwait_acquire_returned },
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

		if (off)
			t->err = -ECANCELED;
		else if (!t->tp)
			t->err = -ENOENT;
		else
			t->err = tracepoint_probe_register(t->tp, t->probe,
							   NULL);
		if (!t->err)
			attached++;
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 2 (filter): which tasks are counted, by thread group or by a
 * prefix of the task's comm.  Set by the module parameters and the
 * debugfs "filter" file; read by every handler before anything else.
 */
#ifndef RETRYSCOPE_FILTER_H
#define RETRYSCOPE_FILTER_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/types.h>

/* A comm prefix filter, never changed while a handler can read it. */
struct rs_comm_filter {
	unsigned int len;
	char comm[TASK_COMM_LEN];
};

extern s32 rs_filter_tgid;
extern struct rs_comm_filter *rs_filter_comm;
bool rs_filter_comm_match(const struct rs_comm_filter *f);

/*
 * Handlers read the filter without a lock: one change made while a fault
 * is being counted may count that one fault under the old filter (a tgid
 * and a comm filter can both be seen for an instant: the stricter).  What
 * a change means for faults in flight: rs_epoch in task_state.h.
 */
static __always_inline bool rs_filter_match(void)
{
	s32 tgid = READ_ONCE(rs_filter_tgid);
	/* pairs with rs_filter_set(): the prefix as it was published */
	const struct rs_comm_filter *f = smp_load_acquire(&rs_filter_comm);

	if (tgid && current->tgid != tgid)
		return false;
	return !f || rs_filter_comm_match(f);
}

int rs_filter_set_tgid(s32 tgid);
int rs_filter_set_comm(const char *comm);
void rs_filter_clear(void);
int rs_filter_show(char *buf, size_t size);

#endif /* RETRYSCOPE_FILTER_H */

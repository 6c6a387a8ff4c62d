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

extern s32 rs_filter_tgid;
extern unsigned int rs_filter_comm_len;
bool rs_filter_comm_match(unsigned int len);

/*
 * Handlers read the filter without a lock: a change made while a fault is
 * being counted may count that one fault under the old filter.
 */
static __always_inline bool rs_filter_match(void)
{
	s32 tgid = READ_ONCE(rs_filter_tgid);
	unsigned int len = READ_ONCE(rs_filter_comm_len);

	if (tgid && current->tgid != tgid)
		return false;
	return !len || rs_filter_comm_match(len);
}

int rs_filter_set_tgid(s32 tgid);
int rs_filter_set_comm(const char *comm);
void rs_filter_clear(void);
int rs_filter_show(char *buf, size_t size);

#endif /* RETRYSCOPE_FILTER_H */

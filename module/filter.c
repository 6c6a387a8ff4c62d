// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 (filter): which tasks are counted.  See filter.h.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "filter.h"

s32 rs_filter_tgid;
static char rs_filter_comm[TASK_COMM_LEN];
unsigned int rs_filter_comm_len;

bool rs_filter_comm_match(unsigned int len)
{
	return !strncmp(current->comm, rs_filter_comm, len);
}

int rs_filter_set_tgid(s32 tgid)
{
	if (tgid < 0)
		return -EINVAL;
	WRITE_ONCE(rs_filter_comm_len, 0);
	WRITE_ONCE(rs_filter_tgid, tgid);
	return 0;
}

/* @comm is a prefix of the task's comm, e.g. "fl-" for every faultload thread. */
int rs_filter_set_comm(const char *comm)
{
	size_t len = strlen(comm);

	if (!len || len >= TASK_COMM_LEN)
		return -EINVAL;
	WRITE_ONCE(rs_filter_tgid, 0);
	WRITE_ONCE(rs_filter_comm_len, 0);
	/* Readers see len 0 (no filter) before the prefix changes... */
	smp_wmb();
	memset(rs_filter_comm, 0, sizeof(rs_filter_comm));
	memcpy(rs_filter_comm, comm, len);
	/* ...and the whole new prefix before its length. */
	smp_wmb();
	WRITE_ONCE(rs_filter_comm_len, len);
	return 0;
}

void rs_filter_clear(void)
{
	WRITE_ONCE(rs_filter_tgid, 0);
	WRITE_ONCE(rs_filter_comm_len, 0);
}

int rs_filter_show(char *buf, size_t size)
{
	s32 tgid = READ_ONCE(rs_filter_tgid);

	if (tgid)
		return scnprintf(buf, size, "tgid %d\n", tgid);
	if (READ_ONCE(rs_filter_comm_len))
		return scnprintf(buf, size, "comm %s\n", rs_filter_comm);
	return scnprintf(buf, size, "none\n");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 (filter): which tasks are counted.  See filter.h.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "filter.h"

s32 rs_filter_tgid;
struct rs_comm_filter *rs_filter_comm;
/*
 * Two buffers: a new prefix is written to the one no handler reads, then
 * made the filter; synchronize_rcu() (handlers run with preemption
 * disabled) lets the old one be written next time.  Writers are
 * serialized by rs_filter_lock.
 */
static struct rs_comm_filter rs_comm_bufs[2];
static DEFINE_MUTEX(rs_filter_lock);

bool rs_filter_comm_match(const struct rs_comm_filter *f)
{
	return !strncmp(current->comm, f->comm, f->len);
}

static void rs_filter_set(s32 tgid, struct rs_comm_filter *comm)
{
	WRITE_ONCE(rs_filter_tgid, tgid);
	/* the prefix before the pointer: pairs with rs_filter_match() */
	smp_store_release(&rs_filter_comm, comm);
	synchronize_rcu();
}

int rs_filter_set_tgid(s32 tgid)
{
	if (tgid < 0)
		return -EINVAL;
	mutex_lock(&rs_filter_lock);
	rs_filter_set(tgid, NULL);
	mutex_unlock(&rs_filter_lock);
	return 0;
}

/* @comm is a prefix of the task's comm, e.g. "fl-" for every faultload thread. */
int rs_filter_set_comm(const char *comm)
{
	size_t len = strlen(comm);
	struct rs_comm_filter *f;

	if (!len || len >= TASK_COMM_LEN)
		return -EINVAL;
	mutex_lock(&rs_filter_lock);
	f = rs_filter_comm == &rs_comm_bufs[0] ? &rs_comm_bufs[1] :
						 &rs_comm_bufs[0];
	memset(f->comm, 0, sizeof(f->comm));
	memcpy(f->comm, comm, len);
	f->len = len;
	rs_filter_set(0, f);
	mutex_unlock(&rs_filter_lock);
	return 0;
}

void rs_filter_clear(void)
{
	mutex_lock(&rs_filter_lock);
	rs_filter_set(0, NULL);
	mutex_unlock(&rs_filter_lock);
}

int rs_filter_show(char *buf, size_t size)
{
	s32 tgid = READ_ONCE(rs_filter_tgid);

	int n;

	if (tgid)
		return scnprintf(buf, size, "tgid %d\n", tgid);
	mutex_lock(&rs_filter_lock);
	if (rs_filter_comm)
		n = scnprintf(buf, size, "comm %s\n", rs_filter_comm->comm);
	else
		n = scnprintf(buf, size, "none\n");
	mutex_unlock(&rs_filter_lock);
	return n;
}

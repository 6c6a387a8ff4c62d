// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap_lock tracepoints pass (mm, write[, success]), as on 7.3.
 * Earlier kernels, 6.12 among them, also pass the memcg path
 * (mmap_lock_tp_memcg.c).
 * tracepoint_probe_register() checks no types: a probe of the other
 * prototype would read write as success.  -Werror turns the
 * incompatible-pointer-types warning into the failure of this test.
 */
#include <linux/tracepoint.h>
#include <trace/events/mmap_lock.h>

static void rs_ct_start(void *data, struct mm_struct *mm, bool write)
{
}

static void rs_ct_returned(void *data, struct mm_struct *mm, bool write,
			   bool success)
{
}

int rs_conftest(void);
int rs_conftest(void)
{
	return register_trace_mmap_lock_start_locking(rs_ct_start, NULL) ?:
	       register_trace_mmap_lock_acquire_returned(rs_ct_returned, NULL);
}

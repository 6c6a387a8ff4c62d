// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap_lock tracepoints pass (mm, memcg_path, write[, success]), as
 * on 6.12 (Debian 12's 6.12.118; the GKI base).
 */
#include <linux/tracepoint.h>
#include <trace/events/mmap_lock.h>

static void rs_ct_start(void *data, struct mm_struct *mm,
			const char *memcg_path, bool write)
{
}

static void rs_ct_returned(void *data, struct mm_struct *mm,
			   const char *memcg_path, bool write, bool success)
{
}

int rs_conftest(void);
int rs_conftest(void)
{
	return register_trace_mmap_lock_start_locking(rs_ct_start, NULL) ?:
	       register_trace_mmap_lock_acquire_returned(rs_ct_returned, NULL);
}

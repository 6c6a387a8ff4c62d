/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): the lock wait models (lockwait.c): mmap_lock, fed by
 * the tracepoint probes of tracepoints.c, and the VMA write lock, fed by
 * the __vma_start_write() probe of probes.c.
 */
#ifndef RETRYSCOPE_LOCKWAIT_H
#define RETRYSCOPE_LOCKWAIT_H

#include <linux/types.h>

struct mm_struct;

/*
 * What mmap_lock_start_locking and mmap_lock_acquire_returned report,
 * called by their probes (tracepoints.c, which knows the prototypes).
 */
void rs_lockwait_start(struct mm_struct *mm);
void rs_lockwait_returned(struct mm_struct *mm, bool write, bool success);

/*
 * __vma_start_write()'s return probe: @data is a struct rs_vmw_data.  The
 * enter handler returns 1 (no exit) for a task the filter leaves out and
 * for a call that finds no reader to wait for.
 */
struct rs_vmw_data {
	u64 t0;
	u8 caller;		/* enum rs_vmw_caller */
};

int rs_vma_write_enter(void *data, unsigned long vma, unsigned long state,
		       unsigned long unused);
void rs_vma_write_exit(void *data, unsigned long retval);

#endif /* RETRYSCOPE_LOCKWAIT_H */

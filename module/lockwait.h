/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): the mmap_lock wait model's tracepoint probes
 * (lockwait.c), registered by tracepoints.c.
 */
#ifndef RETRYSCOPE_LOCKWAIT_H
#define RETRYSCOPE_LOCKWAIT_H

#include <linux/types.h>

struct mm_struct;

/* Probes of mmap_lock_start_locking and mmap_lock_acquire_returned. */
void rs_lockwait_start_locking(void *data, struct mm_struct *mm, bool write);
void rs_lockwait_acquire_returned(void *data, struct mm_struct *mm,
				  bool write, bool success);

#endif /* RETRYSCOPE_LOCKWAIT_H */

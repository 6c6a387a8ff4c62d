/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): the mmap_lock wait model (lockwait.c), fed by the
 * tracepoint probes of tracepoints.c.
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

#endif /* RETRYSCOPE_LOCKWAIT_H */

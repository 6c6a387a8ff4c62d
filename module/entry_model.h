/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): the entry model, counting from entry hooks alone (see
 * entry_model.c).  probes.c calls these from its ftrace_ops (or kprobe)
 * entry hooks, io_fault.c from the ->fault return probes, after the filter.
 */
#ifndef RETRYSCOPE_ENTRY_MODEL_H
#define RETRYSCOPE_ENTRY_MODEL_H

#include <linux/ptrace.h>

#include "task_state.h"

void rs_em_handle_mm_fault(unsigned long address, unsigned int flags);
void rs_em_lock_mm(unsigned long address, struct pt_regs *regs);
/*
 * filemap_fault()/do_swap_page()/shmem_fault() returned @ret: a retry
 * (that dropped the lock at @site) or a major fault.
 */
void rs_em_io_return(unsigned long address, unsigned int vmf_flags,
		     unsigned int ret, enum rs_state retry_state,
		     enum rs_drop_site site);

#endif /* RETRYSCOPE_ENTRY_MODEL_H */

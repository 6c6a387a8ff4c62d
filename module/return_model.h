/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): the return model (backend=fprobe, backend=kprobe),
 * which reads the return value of every hooked function.  Each handler is
 * written once, on plain arguments; probes.c calls it from a kretprobe's
 * or an fprobe's entry and exit handlers.  An enter handler returns
 * non-zero for a task the filter leaves out: no exit, no hit counted.
 */
#ifndef RETRYSCOPE_RETURN_MODEL_H
#define RETRYSCOPE_RETURN_MODEL_H

#include <linux/types.h>

#include "task_state.h"

/* Per-call data of lock_vma_under_rcu(mm, address). */
struct rs_addr_data {
	unsigned long address;
};

/* Per-call data of handle_mm_fault(vma, address, flags, regs). */
struct rs_hmf_data {
	unsigned long address;
	unsigned int flags;
	unsigned int attempt;
};

/* Enter handlers take the function's first three arguments. */
int rs_rm_lock_vma_enter(void *data, unsigned long mm, unsigned long address,
			 unsigned long unused);
void rs_rm_lock_vma_exit(void *data, unsigned long vma);
int rs_rm_hmf_enter(void *data, unsigned long vma, unsigned long address,
		    unsigned long flags);
void rs_rm_hmf_exit(void *data, unsigned long retval);
/* lock_mm_and_find_vma(mm, address, regs) entered (the filter passed) */
void rs_rm_lock_mm(unsigned long address);
/* filemap_fault() or do_swap_page() returned VM_FAULT_RETRY, from @site */
void rs_rm_io_retry(unsigned long address, unsigned int vmf_flags,
		    unsigned int ret, enum rs_state state,
		    enum rs_drop_site site);

#endif /* RETRYSCOPE_RETURN_MODEL_H */

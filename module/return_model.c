// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): the return model (backend=fprobe, backend=kprobe).
 *
 *   lock_vma_under_rcu    ret: a VMA, or NULL (an abort)
 *   handle_mm_fault       entry: flags, address; ret: VM_FAULT_* of one attempt
 *   lock_mm_and_find_vma  entry: the arch handler falls back to mmap_lock
 *
 * with filemap_fault() and do_swap_page() (io_fault.c) noting the cause of
 * a retry in the task's slot before handle_mm_fault() returns it.  It sees
 * every outcome, at several times the entry model's cost per fault.
 *
 * Callers run with preemption disabled.
 */
#include <linux/mm.h>

#include "count.h"
#include "features.h"
#include "filter.h"
#include "return_model.h"
#include "stats.h"
#include "task_state.h"
#include "trace.h"

int rs_rm_lock_vma_enter(void *data, unsigned long mm, unsigned long address,
			 unsigned long unused)
{
	struct rs_addr_data *d = data;

	if (!rs_filter_match())
		return 1;
	d->address = address;
	return 0;
}

void rs_rm_lock_vma_exit(void *data, unsigned long vma)
{
	struct rs_addr_data *d = data;
	struct rs_task_state ts;
	bool same;

	if (!rs_state_get(&ts, d->address))
		return;
	same = rs_state_same_fault(&ts, d->address);
	if (vma) {
		/* A retry came back to the VMA lock instead of mmap_lock. */
		if (same && rs_state_is_retry(&ts))
			rs_count_retry_kept(&ts, d->address);
		return;
	}
	rs_inc(RS_vma_lock_abort);
	if (!same) {
		ts.attempt = 0;
		ts.tag = rs_tag(d->address);
	}
	ts.state = RS_ST_VMA_ABORT;
	rs_state_set(&ts);
}

int rs_rm_hmf_enter(void *data, unsigned long vma, unsigned long address,
		    unsigned long flags)
{
	struct rs_hmf_data *d = data;
	struct rs_task_state ts;

	if (!rs_filter_match())
		return 1;
	d->address = address;
	d->flags = flags;

	if (!rs_state_get(&ts, d->address))
		return 1;	/* no room: counted in state_table_full */
	if (rs_state_same_fault(&ts, d->address)) {
		d->attempt = ts.attempt + 1;
	} else {
		if (ts.mine && rs_state_is_retry(&ts))
			rs_count_abandoned(&ts);
		d->attempt = 1;
		if (d->flags & FAULT_FLAG_USER)
			rs_inc(RS_user_faults);
	}
	ts.state = RS_ST_IN_FAULT;
	/* a new attempt: its ->fault notes where it drops the lock, if it does */
	ts.flags = rs_tf_with_site(ts.flags, RS_SITE_none);
	ts.attempt = d->attempt;
	ts.tag = rs_tag(d->address);
	rs_state_set(&ts);
	return 0;
}

/* handle_mm_fault() returned VM_FAULT_RETRY: by the cause in the slot. */
static void rs_rm_hmf_retry(struct rs_hmf_data *d, struct rs_task_state *ts,
			    unsigned int ret)
{
	enum rs_cause cause = RS_CAUSE_other_retry;

	if (ts->mine && (ts->state == RS_ST_RETRY_FILE_IO ||
			 ts->state == RS_ST_RETRY_SWAP_IO))
		cause = rs_retry_cause(ts->state);
	else
		ts->state = RS_ST_RETRY_OTHER;
	rs_count_retry(cause);
	rs_state_set(ts);
	trace_retryscope_fault_retry(d->address, cause, d->flags, ret,
				     d->attempt,
				     ret & RS_VM_FAULT_RETRY_VMA_BITS);
}

void rs_rm_hmf_exit(void *data, unsigned long retval)
{
	struct rs_hmf_data *d = data;
	unsigned int ret = retval;
	struct rs_task_state ts;

	/* The entry claimed the slot: it is there until the task is freed. */
	if (!rs_state_get(&ts, d->address))
		return;
	if (d->flags & RS_FAULT_FLAG_VMA_LOCK)
		rs_inc(ret & rs_fault_bits(VM_FAULT_RETRY) ?
		       RS_vma_lock_retry : RS_vma_lock_success);

	ts.attempt = d->attempt;
	ts.tag = rs_tag(d->address);

	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		rs_rm_hmf_retry(d, &ts, ret);
		return;
	}

	/* The fault is complete: account it as mm_account_fault() does. */
	if (d->flags & FAULT_FLAG_USER) {
		rs_inc(rs_attempt_bucket(d->attempt));
		rs_note_attempts(d->attempt);
	}
	if (!(ret & rs_fault_bits(VM_FAULT_ERROR)) &&
	    ((ret & rs_fault_bits(VM_FAULT_MAJOR)) ||
	     (d->flags & FAULT_FLAG_TRIED)))
		rs_inc(RS_major_faults);
	ts.state = RS_ST_NONE;
	ts.attempt = 0;
	rs_state_set(&ts);
}

void rs_rm_lock_mm(unsigned long address)
{
	struct rs_task_state ts;
	enum rs_cause cause;

	if (!rs_state_get(&ts, address))
		return;
	cause = rs_state_fallback_cause(&ts, address);
	rs_count_fallback(cause);
	if (cause == RS_CAUSE_file_io || cause == RS_CAUSE_swap_io)
		rs_count_fallback_site(ts.flags);
	ts.flags = rs_tf_with_site(ts.flags, RS_SITE_none);
	if (cause == RS_CAUSE_no_vma_lock)
		ts.attempt = 0;
	trace_retryscope_mmap_fallback(address, cause, ts.attempt);
	ts.state = RS_ST_MMAP_LOCKED;
	ts.tag = rs_tag(address);
	rs_state_set(&ts);
}

/*
 * A ->fault (filemap_fault, do_swap_page) returned VM_FAULT_RETRY: the
 * cause for handle_mm_fault()'s exit.  A user fault whose entry this model
 * did not see (the task was outside the filter then) has no exit to count
 * it: its retry is counted here.
 */
void rs_rm_io_retry(unsigned long address, unsigned int vmf_flags,
		    unsigned int ret, enum rs_state state,
		    enum rs_drop_site site)
{
	struct rs_task_state ts;
	bool seen;

	if (!rs_state_get(&ts, address))
		return;
	seen = ts.mine && ts.state == RS_ST_IN_FAULT &&
	       rs_state_same_page(&ts, address);
	/* not a fault: MADV_COLLAPSE's do_swap_page() (rs_em_io_return()) */
	if (!seen && !(vmf_flags & FAULT_FLAG_USER))
		return;
	ts.state = state;
	ts.flags = rs_tf_with_site(ts.flags, site);
	if (!seen) {
		if (vmf_flags & RS_FAULT_FLAG_VMA_LOCK)
			rs_inc(RS_vma_lock_retry);
		rs_count_retry(rs_retry_cause(state));
		ts.attempt = 1;
		ts.tag = rs_tag(address);
		trace_retryscope_fault_retry(address, rs_retry_cause(state),
					     vmf_flags, ret, 1,
					     ret & RS_VM_FAULT_RETRY_VMA_BITS);
	}
	rs_state_set(&ts);
}

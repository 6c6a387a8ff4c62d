// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): the entry model (backend=auto and backend=ftrace).
 *
 * Every outcome is read from the hook that comes next on the same task,
 * never from a return value of the fault path's hot functions.
 *
 * A return probe is what makes counting expensive: in the lab (TCG) an
 * empty fprobe with an exit handler on handle_mm_fault() costs 8% of the
 * minor-fault rate, an empty entry-only ftrace_ops 1%.  So this model hooks
 * only the entries of handle_mm_fault() and lock_mm_and_find_vma(), and
 * keeps return probes on filemap_fault(), do_swap_page() and shmem_fault(),
 * which run on file, swap and shmem faults only.  An attempt is counted as
 * finished when it starts (vma_lock_success, attempts_N); when a later hook
 * shows that it returned VM_FAULT_RETRY, its counts move:
 *
 *   filemap_fault() / do_swap_page() / shmem_fault() returned VM_FAULT_RETRY
 *       -> a file / swap / other I/O retry
 *   lock_mm_and_find_vma() on the same page while the task's finished-fault
 *   count (maj_flt + min_flt, bumped by mm_account_fault() for every
 *   attempt that neither retried nor failed) has not moved since the attempt
 *   started
 *       -> another retry (anon_vma prepare, userfaultfd, no ->map_pages, ...)
 *   handle_mm_fault() on the same page with FAULT_FLAG_TRIED
 *       -> another retry (get_user_pages() retries without the arch handler)
 *
 * and lock_mm_and_find_vma() in user mode that follows no retry is a
 * VMA-lock abort: on a kernel with per-VMA locks every user fault tries
 * lock_vma_under_rcu() first, so that call returned NULL (or, after a
 * retry that the kernel tries again under the VMA lock, that second call
 * did: rs_retry_tries_vma_lock()).
 *
 * What it cannot see, listed in docs/counters.md: aborts of
 * lock_vma_under_rcu() outside the fault path (madvise, userfaultfd, ...);
 * a major fault whose VM_FAULT_MAJOR comes from a ->fault other than the
 * three probed (DAX); an attempt that failed (VM_FAULT_ERROR) followed by a
 * fault on the same page looks like a retry.  backend=fprobe and
 * backend=kprobe use return probes and see all of these, at several times
 * the cost.
 *
 * light=1 (rs_light) is this model without the handle_mm_fault() hook:
 * no attempt starts, so a retry is counted only from its I/O return, and
 * a user fallback that follows none is not_io (an abort or a retry the
 * I/O probes did not see); the counters of the starts are not shown.
 *
 * Callers have checked the filter and run with preemption disabled.
 */
#include <linux/mm.h>
#include <linux/ptrace.h>

#include "count.h"
#include "entry_model.h"
#include "features.h"
#include "stats.h"
#include "task_state.h"
#include "trace.h"

/* A new fault begins; a retry left pending by the last one was abandoned. */
static void rs_em_new_fault(struct rs_task_state *ts)
{
	if (rs_state_is_retry(ts))
		rs_count_abandoned(ts);
	ts->flags = 0;
	ts->attempt = 0;
}

/*
 * The pending attempt in @ts returned VM_FAULT_RETRY: it was counted as a
 * success, count it as a retry.  @flags are the fault flags known for it,
 * @ret its return bits (only VM_FAULT_RETRY when inferred).
 */
static void rs_em_retried(struct rs_task_state *ts, enum rs_state state,
			  unsigned long address, unsigned int flags,
			  unsigned int ret)
{
	enum rs_cause cause = rs_retry_cause(state);

	/* What the attempt's start counted, if in this epoch (rs_epoch). */
	if ((ts->flags & (RS_TF_VMA | RS_TF_COUNTED)) ==
	    (RS_TF_VMA | RS_TF_COUNTED))
		rs_dec(RS_vma_lock_success);
	if ((ts->flags & (RS_TF_USER | RS_TF_COUNTED)) ==
	    (RS_TF_USER | RS_TF_COUNTED))
		rs_dec(rs_attempt_bucket(ts->attempt));
	if (ts->flags & RS_TF_VMA)
		rs_inc(RS_vma_lock_retry);
	ts->flags &= ~RS_TF_COUNTED;
	rs_count_retry(cause);
	ts->state = state;
	/* a retry under mmap_lock goes back to it whatever its flags */
	if ((ts->flags & RS_TF_VMA) && rs_retry_tries_vma_lock(ret))
		ts->flags |= RS_TF_RETRY_VMA;
	trace_retryscope_fault_retry(address, cause, flags, ret, ts->attempt,
				     ret & RS_VM_FAULT_RETRY_VMA_BITS);
}

/* The fault flags an inferred retry's trace event can name. */
static unsigned int rs_em_known_flags(const struct rs_task_state *ts)
{
	return (ts->flags & RS_TF_VMA ? RS_FAULT_FLAG_VMA_LOCK : 0) |
	       (ts->flags & RS_TF_USER ? FAULT_FLAG_USER : 0);
}

/*
 * The first attempt of a new fault, the common case, on the word alone:
 * what the general path below does when the slot holds no pending retry
 * or mmap_lock path of this task and the attempt is not FAULT_FLAG_TRIED.
 * (A slot left in RS_ST_IN_FAULT by the last fault is the usual case: that
 * fault finished.)  True when done, also for a task the slot table has no
 * room for, whose faults are not counted.
 */
static __always_inline bool rs_em_first_attempt(unsigned long address,
						unsigned int flags)
{
	struct rs_slot *slot = rs_slot_current();
	unsigned int tf = RS_TF_COUNTED, state;
	u64 v;

	if (unlikely(!slot))
		return true;	/* no room: counted in state_table_full */
	if (flags & FAULT_FLAG_TRIED)
		return false;
	v = READ_ONCE(slot->word);
	state = rs_word_state(v);
	/*
	 * A pending retry or fallback, a major fault to check, or an attempt
	 * on this page that did not finish (a retry no I/O probe saw).
	 */
	if (rs_retry_state(state) || rs_mmap_state(state) ||
	    (v >> RS_FLAGS_SHIFT) & RS_TF_MAJOR ||
	    (READ_ONCE(slot->page) == rs_tag(address) &&
	     READ_ONCE(slot->flt) == rs_task_flt()))
		return false;
	if (flags & FAULT_FLAG_USER) {
		rs_inc_task(RS_user_faults);
		rs_inc_task(RS_attempts_1);
		rs_note_attempts(1);
		tf |= RS_TF_USER;
	}
	if (flags & RS_FAULT_FLAG_VMA_LOCK) {
		rs_inc_task(RS_vma_lock_success);
		tf |= RS_TF_VMA;
	}
	WRITE_ONCE(slot->page, rs_tag(address));
	WRITE_ONCE(slot->word, rs_word(RS_ST_IN_FAULT, tf, 1));
	WRITE_ONCE(slot->flt, rs_task_flt());
	WRITE_ONCE(slot->epoch, READ_ONCE(rs_epoch));
	return true;
}

/* Every other attempt: a retry, a fault after a fallback, a GUP re-fault. */
static noinline void rs_em_handle_mm_fault_slow(unsigned long address,
						unsigned int flags)
{
	struct rs_task_state ts;
	unsigned int n;
	bool same;

	if (!rs_state_get(&ts, address))
		return;
	same = rs_state_same_fault(&ts, address) &&
	       (rs_state_is_retry(&ts) || rs_mmap_state(ts.state) ||
		(flags & FAULT_FLAG_TRIED) ||
		(ts.state == RS_ST_IN_FAULT && rs_flt_unchanged(&ts)));
	if (same && ts.state == RS_ST_IN_FAULT)
		rs_em_retried(&ts, RS_ST_RETRY_OTHER, address,
			      rs_em_known_flags(&ts),
			      rs_fault_bits(VM_FAULT_RETRY));
	if (same) {
		n = ts.attempt + 1;
		/* The retry came back to the VMA lock (the series). */
		if ((flags & RS_FAULT_FLAG_VMA_LOCK) && rs_state_is_retry(&ts))
			rs_count_retry_kept(&ts, address);
	} else {
		rs_count_unfinished(&ts);
		rs_em_new_fault(&ts);
		n = 1;
		if (flags & FAULT_FLAG_USER)
			rs_inc(RS_user_faults);
	}
	if (flags & FAULT_FLAG_USER) {
		rs_inc(rs_attempt_bucket(n));
		rs_note_attempts(n);
	}
	if (flags & RS_FAULT_FLAG_VMA_LOCK)
		rs_inc(RS_vma_lock_success);
	/* mm_account_fault(): a fault that was retried is a major fault. */
	if ((flags & FAULT_FLAG_TRIED) && !(ts.flags & RS_TF_MAJOR)) {
		rs_inc(RS_major_faults);
		ts.flags |= RS_TF_MAJOR;
	}
	ts.flags = (ts.flags & RS_TF_MAJOR) | RS_TF_COUNTED |
		   (flags & RS_FAULT_FLAG_VMA_LOCK ? RS_TF_VMA : 0) |
		   (flags & FAULT_FLAG_USER ? RS_TF_USER : 0);
	ts.state = RS_ST_IN_FAULT;
	ts.attempt = n;
	ts.tag = rs_tag(address);
	rs_state_set(&ts);
	rs_flt_mark(&ts);
}

void rs_em_handle_mm_fault(unsigned long address, unsigned int flags)
{
	if (!rs_em_first_attempt(address, flags))
		rs_em_handle_mm_fault_slow(address, flags);
}

void rs_em_lock_mm(unsigned long address, struct pt_regs *regs)
{
	bool user = regs && user_mode(regs);
	struct rs_task_state ts;
	enum rs_cause cause;
	bool pending;

	if (!rs_state_get(&ts, address))
		return;
	pending = rs_state_same_fault(&ts, address);
	if (pending && rs_state_is_retry(&ts) &&
	    !(ts.flags & RS_TF_RETRY_VMA)) {
		cause = rs_retry_cause(ts.state);
		rs_count_fallback_site(ts.flags);
	} else if (pending && ts.state == RS_ST_IN_FAULT &&
		   rs_flt_unchanged(&ts)) {
		/* The attempt did not finish: VM_FAULT_RETRY, no I/O we probe. */
		rs_em_retried(&ts, RS_ST_RETRY_OTHER, address,
			      rs_em_known_flags(&ts),
			      rs_fault_bits(VM_FAULT_RETRY));
		cause = RS_CAUSE_other_retry;
	} else if (user && RS_HAVE_PER_VMA_LOCK) {
		/*
		 * lock_vma_under_rcu() returned NULL: for a new user fault,
		 * or for the series' retry of a pending one (RETRY_VMA).
		 * light=1, which has no attempt's start, cannot tell that
		 * from a retry no I/O probe saw: both are not_io.
		 */
		if (!(pending && rs_state_is_retry(&ts)))
			rs_em_new_fault(&ts);
		if (rs_light) {
			cause = RS_CAUSE_not_io;
		} else {
			rs_inc(RS_vma_lock_abort);
			cause = RS_CAUSE_vma_abort;
		}
	} else {
		rs_em_new_fault(&ts);
		cause = RS_CAUSE_no_vma_lock;
	}
	rs_count_fallback(cause);
	trace_retryscope_mmap_fallback(address, cause, ts.attempt);
	ts.state = RS_ST_MMAP_LOCKED;
	ts.flags &= RS_TF_MAJOR;
	ts.tag = rs_tag(address);
	rs_state_set(&ts);
}

void rs_em_io_return(unsigned long address, unsigned int vmf_flags,
		     unsigned int ret, enum rs_state retry_state,
		     enum rs_drop_site site)
{
	struct rs_task_state ts;

	if (!rs_state_get(&ts, address))
		return;
	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		/*
		 * An attempt whose start this model did not see: a user
		 * fault of a task that was outside the filter then (its
		 * retry counts, nothing of its start is taken back), or
		 * no fault at all (MADV_COLLAPSE swapping pages in calls
		 * do_swap_page() itself: not counted, no state left).
		 */
		if (ts.state != RS_ST_IN_FAULT ||
		    !rs_state_same_page(&ts, address)) {
			if (!(vmf_flags & FAULT_FLAG_USER))
				return;
			ts.flags = (vmf_flags & RS_FAULT_FLAG_VMA_LOCK ?
				    RS_TF_VMA : 0) |
				   (vmf_flags & FAULT_FLAG_USER ? RS_TF_USER : 0);
			/*
			 * light=1 sees no attempt's start: a retry of
			 * the fault it saw retry last is its next one
			 * (a retry no I/O probe saw is not numbered)
			 */
			ts.attempt = rs_light && rs_state_same_fault(&ts, address) ?
				     ts.attempt + 1 : 1;
			ts.tag = rs_tag(address);
		}
		rs_em_retried(&ts, retry_state, address, vmf_flags, ret);
		ts.flags = rs_tf_with_site(ts.flags, site);
		/* A retry dropped for a signal: rs_signal_delivered(). */
		rs_state_set(&ts);
	} else if ((ret & rs_fault_bits(VM_FAULT_MAJOR)) &&
		   !(ret & rs_fault_bits(VM_FAULT_ERROR)) && ts.mine &&
		   ts.state == RS_ST_IN_FAULT && !(ts.flags & RS_TF_MAJOR)) {
		rs_inc(RS_major_faults);
		ts.flags |= RS_TF_MAJOR;
		rs_state_set(&ts);
	}
}

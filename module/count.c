// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): counting by cause, shared by both models.  See count.h.
 */
#include <linux/build_bug.h>
#include <linux/cache.h>

#include "count.h"
#include "filter.h"
#include "stats.h"
#include "task_state.h"
#include "trace.h"

bool rs_entry_model __read_mostly;
bool rs_light __read_mostly;

void rs_model_select(bool entry_model, bool light)
{
	/* trace.h exports every cause with TRACE_DEFINE_ENUM */
	BUILD_BUG_ON(RS_TRACE_CAUSES_EXPORTED != RS_NR_CAUSES);
	rs_entry_model = entry_model;
	rs_light = entry_model && light;
}

/* Which counting model the handlers follow: "entry", "entry-light" or "return". */
const char *rs_model_name(void)
{
	if (!rs_entry_model)
		return "return";
	return rs_light ? "entry-light" : "entry";
}

/*
 * The pending retry in @ts came back to the VMA lock (the series) instead
 * of mmap_lock: count it by the cause of the retry.  Both models.
 */
void rs_count_retry_kept(const struct rs_task_state *ts, unsigned long address)
{
	enum rs_cause cause = rs_state_fallback_cause(ts, address);

	rs_inc(RS_retry_kept_vma_lock);
	rs_inc(rs_cause_counters[rs_retry_cause(ts->state)].kept);
	trace_retryscope_retry_kept(address, cause, ts->attempt);
}

/*
 * The fault whose retry @ts holds will not be retried: forget it.  The
 * entry model counted its VM_FAULT_MAJOR when the I/O returned, but
 * mm_account_fault() counts nothing for an attempt that retried.
 */
void rs_count_abandoned(struct rs_task_state *ts)
{
	rs_inc(RS_faults_abandoned);
	/* its start, if timed, must not time the re-executed access */
	WRITE_ONCE(rs_slot_fault_start(ts->slot)->start, 0);
	if (ts->flags & RS_TF_MAJOR)
		rs_dec(RS_major_faults);
	ts->state = RS_ST_NONE;
	ts->flags = 0;
	ts->attempt = 0;
}

/*
 * The entry model counts a major fault when its attempt starts
 * (FAULT_FLAG_TRIED) or when its I/O returns VM_FAULT_MAJOR.  If the task's
 * finished-fault count has not moved since that attempt started, it did
 * not finish: it failed (VM_FAULT_ERROR: SIGBUS from a file truncated
 * under the fault) or retried and was abandoned, and mm_account_fault()
 * counted nothing.  Called when the task's next fault starts or when it
 * gets a signal (SIGBUS, or the one it abandoned the fault for).
 */
void rs_count_unfinished(struct rs_task_state *ts)
{
	if (ts->state != RS_ST_IN_FAULT || !(ts->flags & RS_TF_MAJOR) ||
	    !rs_flt_unchanged(ts))
		return;
	rs_dec(RS_major_faults);
	ts->flags &= ~RS_TF_MAJOR;
}

/*
 * signal_deliver: get_signal() hands the task a signal on its way to user
 * space.  A task with a retry pending gets there only when the arch
 * handler dropped the retry for a pending signal (fault_signal_pending());
 * the access it re-executes after the handler is a new fault, not a
 * retry, even when it comes back to the same page under the VMA lock.
 */
void rs_signal_delivered(void)
{
	struct rs_task_state ts;

	if (!rs_filter_match() || !rs_state_get(&ts, 0) || !ts.mine)
		return;
	if (rs_state_is_retry(&ts)) {
		rs_count_abandoned(&ts);
	} else if (rs_entry_model && ts.state == RS_ST_IN_FAULT) {
		rs_count_unfinished(&ts);
		ts.state = RS_ST_NONE;
		ts.attempt = 0;
	} else {
		return;
	}
	rs_state_set(&ts);
}

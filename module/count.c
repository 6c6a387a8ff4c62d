// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): counting by cause, shared by both models.  See count.h.
 */
#include <linux/build_bug.h>
#include <linux/cache.h>

#include "count.h"
#include "stats.h"
#include "task_state.h"
#include "trace.h"

bool rs_entry_model __read_mostly;

void rs_model_select(bool entry_model)
{
	/* trace.h exports every cause with TRACE_DEFINE_ENUM */
	BUILD_BUG_ON(RS_TRACE_CAUSES_EXPORTED != RS_NR_CAUSES);
	rs_entry_model = entry_model;
}

/* Which counting model the handlers follow: "entry" or "return". */
const char *rs_model_name(void)
{
	return rs_entry_model ? "entry" : "return";
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

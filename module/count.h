/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): what both counting models count the same way, by
 * cause: a retry, a retry kept on the VMA lock, an mmap_lock fallback.
 * The models themselves are entry_model.c and return_model.c; io_fault.c
 * holds the ->fault return probes both use, lockwait.c the lock waits.
 */
#ifndef RETRYSCOPE_COUNT_H
#define RETRYSCOPE_COUNT_H

#include <linux/cache.h>
#include <linux/types.h>

#include "stats.h"
#include "task_state.h"

/*
 * Which model the handlers follow: set by rs_model_select() at attach,
 * before any hook runs.  true: the entry model (backend=auto, ftrace);
 * false: the return model (backend=fprobe, kprobe).  rs_light: the entry
 * model without its handle_mm_fault() hook (light=1, main.c).
 */
extern bool rs_entry_model __read_mostly;
extern bool rs_light __read_mostly;

void rs_model_select(bool entry_model, bool light);
const char *rs_model_name(void);

/* An attempt returned VM_FAULT_RETRY for @cause (one of rs_retry_cause()). */
static __always_inline void rs_count_retry(enum rs_cause cause)
{
	rs_inc(RS_fault_retry);
	rs_inc(rs_cause_counters[cause].retry);
}

/* The arch handler took mmap_lock, for @cause (rs_state_fallback_cause()). */
static __always_inline void rs_count_fallback(enum rs_cause cause)
{
	rs_inc(RS_mmap_lock_fallback);
	rs_inc(rs_cause_counters[cause].fallback);
}

/*
 * ... and, for a retry after file or swap I/O, by where the ->fault
 * dropped the lock (the site its I/O return noted in @flags).
 */
static __always_inline void rs_count_fallback_site(unsigned int flags)
{
	enum rs_drop_site site = rs_tf_site(flags);

	if (site != RS_SITE_none)
		rs_inc(rs_site_counters[site].fallback);
}

void rs_count_retry_kept(const struct rs_task_state *ts, unsigned long address);
void rs_count_abandoned(struct rs_task_state *ts);
void rs_count_unfinished(struct rs_task_state *ts);
/* signal_deliver, on the task that gets the signal */
void rs_signal_delivered(void);

#endif /* RETRYSCOPE_COUNT_H */

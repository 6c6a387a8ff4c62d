// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 5 (interface): every totals_ms, while the retryscope_counter trace
 * event is enabled, one event per counter whose total changed since the
 * last period (every counter in the first period after the event is
 * turned on).  A recording (Perfetto's ftrace data source, trace-cmd)
 * then holds the totals on the kernels where debugfs is not mounted.
 * Runs in a workqueue, never on the fault path.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "stats.h"
#include "totals.h"
#include "trace.h"

static unsigned int rs_totals_ms;
static u64 *rs_totals_last, *rs_totals_now;
static bool rs_totals_was_on;
static void rs_totals_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(rs_totals_work, rs_totals_fn);

/*
 * On the unbound system workqueue: no CPU of its own is needed.  It is
 * system_dfl_wq where the kernel marks system_unbound_wq deprecated (7.3:
 * the first work queued there logs "enqueued on deprecated workqueue"),
 * system_unbound_wq before (6.12, whose android16-6.12 GKI symbol lists
 * export only that one: scripts/kmi-check).
 */
#ifdef RS_HAVE_WQ_DEPRECATED
#define RS_TOTALS_WQ system_dfl_wq
#else
#define RS_TOTALS_WQ system_unbound_wq
#endif

static void rs_totals_queue(void)
{
	queue_delayed_work(RS_TOTALS_WQ, &rs_totals_work,
			   msecs_to_jiffies(rs_totals_ms));
}

static void rs_totals_fn(struct work_struct *work)
{
	bool on = trace_retryscope_counter_enabled();
	unsigned int i;

	if (on) {
		rs_stats_read(rs_totals_now);
		for (i = 0; i < RS_NR_COUNTERS; i++)
			if (rs_counter_shown(i) &&
			    (!rs_totals_was_on || rs_totals_now[i] != rs_totals_last[i]))
				trace_retryscope_counter(rs_counter_names[i],
							 rs_totals_now[i]);
		swap(rs_totals_last, rs_totals_now);
	}
	rs_totals_was_on = on;
	rs_totals_queue();
}

int rs_totals_start(unsigned int period_ms)
{
	rs_totals_ms = period_ms;
	if (!period_ms)
		return 0;
	rs_totals_last = kcalloc(RS_NR_COUNTERS, sizeof(u64), GFP_KERNEL);
	rs_totals_now = kcalloc(RS_NR_COUNTERS, sizeof(u64), GFP_KERNEL);
	if (!rs_totals_last || !rs_totals_now) {
		rs_totals_stop();
		return -ENOMEM;
	}
	rs_totals_queue();
	return 0;
}

void rs_totals_stop(void)
{
	if (rs_totals_ms)
		cancel_delayed_work_sync(&rs_totals_work);
	kfree(rs_totals_last);
	kfree(rs_totals_now);
	rs_totals_last = NULL;
	rs_totals_now = NULL;
}

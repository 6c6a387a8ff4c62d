// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel marks system_wq and system_unbound_wq deprecated (7.3:
 * __WQ_DEPRECATED; the first work queued on one logs "enqueued on
 * deprecated workqueue") and has system_dfl_wq for unbound work.  6.12 has
 * system_dfl_wq too, but android16-6.12's GKI symbol lists export only
 * system_unbound_wq.
 */
#include <linux/workqueue.h>

struct workqueue_struct *rs_conftest(void);
struct workqueue_struct *rs_conftest(void)
{
	return __WQ_DEPRECATED ? system_dfl_wq : NULL;
}

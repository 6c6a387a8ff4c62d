/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): per-fault latency of the faults that go through
 * filemap_fault() or do_swap_page(), by outcome and cause (names.h:
 * RS_LAT_OUTCOME_LIST, RS_LAT_CAUSE_LIST), in a per-CPU histogram that
 * debugfs "latency" prints.
 */
#ifndef RETRYSCOPE_LATENCY_H
#define RETRYSCOPE_LATENCY_H

#include <linux/types.h>

#include "stats.h"

/*
 * Buckets: 0..7 ns one each, then four per power of two (a bucket is at
 * most 1/4 of its lower bound wide: a percentile read off it is within
 * 25%), up to 2^40 ns (18 minutes) and above in the last.
 */
#define RS_LAT_BUCKETS	160

/* One CPU's histogram, or their sum */
struct rs_lat_hist {
	u64 n[RS_NR_LAT_OUTCOMES][RS_NR_LAT_CAUSES][RS_LAT_BUCKETS];
};

extern const char * const rs_lat_outcome_names[RS_NR_LAT_OUTCOMES];
extern const char * const rs_lat_cause_names[RS_NR_LAT_CAUSES];

/*
 * A user fault's filemap_fault() or do_swap_page() at @address, entered
 * at @t0 (ktime_get_mono_fast_ns()) with vmf->flags @flags, returned @ret.
 */
void rs_lat_io_return(unsigned long address, unsigned int flags, u64 t0,
		      unsigned int ret, enum rs_lat_cause cause);
/*
 * Is the current task's fault at @address a retried fault being timed?
 * Only then is filemap_map_pages()'s return wanted: it finishes most
 * retried file faults (the fault-around maps the page readahead brought
 * in, and ->fault is not called again).
 */
bool rs_lat_pending(unsigned long address);
void rs_lat_map_pages_return(unsigned long address, unsigned int flags,
			     unsigned int ret);
/* Sum over CPUs into @sum */
void rs_lat_read(struct rs_lat_hist *sum);
void rs_lat_bucket_range(unsigned int b, u64 *lo, u64 *hi);
void rs_lat_reset(void);
/* The per-CPU histograms (too big for a module's static per-CPU area). */
int rs_lat_init(void);
void rs_lat_exit(void);

#endif /* RETRYSCOPE_LATENCY_H */

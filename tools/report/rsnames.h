/* rsnames: the names of module/names.h (the one list of counter, cause and
 * wait-bucket names) as C arrays and enums, for rs-trace and rs-report.
 *
 * Nothing in tools/report spells a cause name or the workload's comm prefix
 * again; a counter name that a report row mentions is checked against
 * rs_counter_known() when rs-report starts (measures_check()).
 */
#ifndef RS_RSNAMES_H
#define RS_RSNAMES_H

#include "../../module/names.h"

#include <stddef.h>

/* enum rs_cause: RS_CAUSE_NONE, RS_CAUSE_VMA_ABORT, ...; the numbers are
 * those of the module's trace events (the order of RS_CAUSES). */
#define RS_CAUSE_ENUM(id, name) id,
enum rs_cause { RS_CAUSES(RS_CAUSE_ENUM, RS_CAUSE_ENUM) RS_NCAUSES };
#undef RS_CAUSE_ENUM

/* enum rs_wait_bucket: RS_WAIT_lt1us ... RS_WAIT_1s_plus, the decades of an
 * mmap_lock wait; trace.json's wait_us_hist has the same eight buckets. */
#define RS_WAIT_ENUM(name) RS_WAIT_##name,
enum rs_wait_bucket { RS_WAIT_BUCKETS(RS_WAIT_ENUM) RS_NWAIT_BUCKETS };
#undef RS_WAIT_ENUM

extern const char *const rs_cause_name[RS_NCAUSES];         /* "none", "vma_abort", ... */
extern const char *const rs_wait_bucket_name[RS_NWAIT_BUCKETS]; /* "lt1us", ... */

/* 1 when name is one of RS_COUNTERS or RS_STATS_EXTRA, else 0. */
int rs_counter_known(const char *name);

#endif

/* rsnames: the names of module/names.h (the one list of counter, cause and
 * wait-bucket names, and the workload's comm prefix) as C arrays, for
 * rs-trace and rs-report.  The only file of tools/report that knows how
 * names.h spells its lists.
 *
 * Nothing in tools/report spells a counter, cause or bucket name without
 * a check: a row's counter is looked up with rs_counter_known(), a cause
 * with rs_cause_index(), when rs-report starts (measures_init()).
 */
#ifndef RS_RSNAMES_H
#define RS_RSNAMES_H

#include "../../module/names.h"

#include <stddef.h>

/*
 * names.h's lists, with the entry macros of the report: define
 * RS_COUNTER_ENTRY(name), RS_CAUSE_ENTRY("name") or
 * RS_WAIT_BUCKET_ENTRY(name), then expand RS_ALL_COUNTERS (the counters and
 * the "stats extra" lines), RS_ALL_CAUSES or RS_ALL_WAIT_BUCKETS.
 */
#define RS_COUNTER(name) RS_COUNTER_ENTRY(name)
#define RS_STATS_EXTRA(name) RS_COUNTER_ENTRY(name)
#define RS_CAUSE(name) RS_CAUSE_ENTRY(#name)
#define RS_CAUSE_LAST(name) RS_CAUSE_ENTRY(#name)
#define RS_WAIT_BUCKET(name) RS_WAIT_BUCKET_ENTRY(name)
#define RS_ALL_COUNTERS RS_COUNTER_LIST RS_STATS_EXTRA_LIST
#define RS_ALL_CAUSES RS_CAUSE_LIST
#define RS_ALL_WAIT_BUCKETS RS_WAIT_BUCKET_LIST

/* RS_NCAUSES: how many causes; their numbers (the trace events') are
 * their places in names.h. */
#define RS_CAUSE_ENTRY(str) +1
enum { RS_NCAUSES = 0 RS_ALL_CAUSES };
#undef RS_CAUSE_ENTRY

/* enum rs_wait_bucket: RS_WAIT_lt1us ... RS_WAIT_1s_plus, the decades of an
 * mmap_lock wait; trace.json's wait_us_hist has the same eight buckets. */
#define RS_WAIT_BUCKET_ENTRY(name) RS_WAIT_##name,
enum rs_wait_bucket { RS_ALL_WAIT_BUCKETS RS_NWAIT_BUCKETS };
#undef RS_WAIT_BUCKET_ENTRY

/* RS_NLAT_OUTCOMES, RS_NLAT_CAUSES: debugfs "latency"'s first two
 * columns, in names.h's order. */
#define RS_LAT_OUTCOME(name) +1
#define RS_LAT_CAUSE(name) +1
enum { RS_NLAT_OUTCOMES = 0 RS_LAT_OUTCOME_LIST, RS_NLAT_CAUSES = 0 RS_LAT_CAUSE_LIST };
#undef RS_LAT_OUTCOME
#undef RS_LAT_CAUSE

extern const char *const rs_cause_name[RS_NCAUSES];              /* "none", ... */
extern const char *const rs_wait_bucket_name[RS_NWAIT_BUCKETS]; /* "lt1us", ... */

extern const char *const rs_lat_outcome_name[RS_NLAT_OUTCOMES]; /* "first", ... */
extern const char *const rs_lat_cause_name[RS_NLAT_CAUSES];     /* "file_io", ... */

/* 1 when name is a counter of names.h (per-CPU or "stats extra"), else 0. */
int rs_counter_known(const char *name);
/* The number of cause name, or -1 when names.h has no such cause. */
int rs_cause_index(const char *name);
/* The place of name in v[0..n), or -1. */
int rs_name_index(const char *const *v, int n, const char *name);

#endif

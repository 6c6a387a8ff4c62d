/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the result of a run and its JSON form.
 *
 * The JSON shape (version 1) is read by tools/report; keep it stable:
 *   { "tool": "faultload", "version": 1, "scenario": NAME,
 *     "options": { every option that applies to the scenario },
 *     "setup": { what setup found: "setup_s", cache drop method,
 *                resident pages, swap eviction ... },
 *     "wall_s": S (to the microsecond), "hi_policy": P (ui-inversion only),
 *     "classes": { CLASS: { "threads", "ops", "minflt", "majflt",
 *                           "errors", "latency_ns": { "count", "min",
 *                           "max", "mean", "p50", "p90", "p99", "p999",
 *                           "buckets": [[lo, hi, count], ...] } } },
 *     "throughput_ops_s": page touches / wall_s,
 *     "faults_per_s": (minflt + majflt of every class) / wall_s,
 *     "vmstat": { system-wide /proc/vmstat deltas over the measured
 *                 phase: pgfault, pgmajfault, pswpin, pswpout and, with
 *                 CONFIG_PER_VMA_LOCK_STATS, vma_lock_success/abort/
 *                 retry/miss } }
 * Bucket bounds are inclusive and the same in every run (hist.h), so
 * runs can be merged bucket by bucket; only non-empty buckets, ascending;
 * the last, open-ended bucket (>= 2^37 ns) reports max as its upper bound.
 */
#ifndef FL_REPORT_H
#define FL_REPORT_H

#include <stdio.h>

#include "opts.h"
#include "stats.h"
#include "vmstat.h"

#define FL_MAX_SETUP	16

struct fl_setup_item {
	const char *key;
	const char *sval;	/* NULL: ival is the value */
	long long ival;
};

struct fl_result {
	double wall_s;				/* the measured phase */
	double setup_s;				/* before it: mapping, filling, eviction */
	struct fl_vmstat vmstat;		/* deltas over the measured phase */
	const char *hi_policy;			/* NULL unless ui-inversion */
	struct fl_classstat cls[FL_NCLASSES];	/* threads == 0: not used */
	struct fl_setup_item setup[FL_MAX_SETUP];
	unsigned int nsetup;
	int failed;				/* a check failed: exit 1 */
};

void fl_result_init(struct fl_result *r);
/* Record a setup fact; keys and strings must outlive the result. */
void fl_result_setup_int(struct fl_result *r, const char *key, long long v);
void fl_result_setup_str(struct fl_result *r, const char *key, const char *v);

/* Write the JSON document; 0, or -1 after a message. */
int fl_report_json(FILE *out, const char *path, const struct fl_opts *o,
		   const struct fl_result *r);
/* One human-readable line per class. */
void fl_report_summary(FILE *out, const struct fl_opts *o,
		       const struct fl_result *r);

#endif /* FL_REPORT_H */

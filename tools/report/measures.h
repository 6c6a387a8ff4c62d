/* measures: what rs-report shows, as static tables of rows, and how a row's
 * value is read from one run and summarized over runs.
 *
 * A row names its source (a module counter, a /proc/vmstat field, the
 * mmap_lock figures of trace.json, a workload class's latency, ...) and
 * the few fields that source needs; every field has one meaning.  The
 * tables are in measures.c: scenario_rows[] (a scenario's table, top to
 * bottom) and key_rows[] (the headline's columns and the summary's figures).
 * Every module counter a row names is checked against module/names.h by
 * measures_init() when rs-report starts.
 */
#ifndef RS_MEASURES_H
#define RS_MEASURES_H

#include "rsnames.h"
#include "runs.h"
#include "stats.h"

#include <stddef.h>
#include <stdio.h>


enum row_source {
	SRC_SECTION,       /* a section header: the label, no values */
	SRC_COUNTER,       /* module counter: after - before (see plus, per) */
	SRC_COUNTER_AFTER, /* module counter: its value after the run */
	SRC_VMSTAT,        /* /proc/vmstat field: after - before */
	SRC_MMAP_LOCK,     /* trace.json's mmap_lock.workload, else module counters */
	SRC_LATENCY,       /* a workload class's op latency (µs) */
	SRC_FAULT_LAT,     /* the module's per-fault latency (ms), outcomes lat_outcomes */
	SRC_CLASS_OPS,     /* a workload class's ops */
	SRC_WORKLOAD,      /* a top-level figure of workload.json */
	SRC_HI_FRAMES_OVER, /* the hi class's frames that took over_ns or longer */
};

enum lock_mode { LOCK_READ, LOCK_WRITE, LOCK_NMODES };

/* SRC_MMAP_LOCK figures: from trace.json, or from the module counters
 * mmap_lock_<mode>_acquire, _wait_ns and _wait_<bucket> without it. */
enum lock_figure {
	LOCK_ACQUIRE,   /* acquisitions that waited in start_locking */
	LOCK_WAIT_US,   /* their total wait (µs) */
	LOCK_WAIT_MS,   /* the same in ms */
	LOCK_AVG_US,    /* total wait / acquisitions (µs) */
	LOCK_WAITS_IN,  /* acquisitions whose wait fell in bucket */
	LOCK_WAITS_FROM, /* acquisitions whose wait fell in bucket or above */
	LOCK_MAX_US,    /* the longest wait (µs; trace.json only) */
};

/* The hi thread "waited on mmap_lock" (the inversion happened) when one
 * of its acquisitions waited this long or longer. */
#define HI_WAIT_BUCKET RS_WAIT_100us_1ms

enum wl_figure { WL_THROUGHPUT, WL_WALL_S, WL_FAULTS_PER_S, WL_ERRORS };

/* SRC_LATENCY quantile of the largest fault (the class's max). */
#define Q_MAX (-1.0)

/* A list that one row is expanded over: entry i gives a row whose label is
 * the row's label followed by text[i], reading counter[i]. */
struct row_list {
	size_t n;
	const char *const *name;    /* entry's short name (a plot's bar label) */
	const char *const *text;    /* appended to the row's label */
	const char *const *counter; /* the module counter the entry's row reads;
				     * NO_ROW: the entry has no row (and no bar) */
};
#define NO_ROW ""

/* SRC_FAULT_LAT: every outcome but "first", which names.h lists first
 * (measures_init() checks). */
#define LAT_RETRIED (((1u << RS_NLAT_OUTCOMES) - 1) & ~1u)

struct row {
	/* First column.  per_class: follows the class name and a space;
	 * each: followed by the entry's text. */
	const char *label;
	enum row_source src;
	/* SRC_COUNTER, SRC_COUNTER_AFTER: module counter (names.h);
	 * SRC_VMSTAT: the /proc/vmstat field. */
	const char *counter;
	const char *plus;            /* SRC_COUNTER: a second counter added to counter */
	const char *per;             /* SRC_COUNTER: value is 1000 * counter / per */
	const char *per_plus;        /* SRC_COUNTER: added to per */
	const struct row_list *each; /* SRC_COUNTER: one row per entry (its counter) */
	int per_class;               /* SRC_LATENCY, SRC_CLASS_OPS: one row per class of
				      * the scenario; consecutive per_class rows repeat
				      * as a group, class by class */
	double quantile;             /* SRC_LATENCY: 0.5, 0.99, 0.999 or Q_MAX */
	enum lock_mode mode;         /* SRC_MMAP_LOCK; LOCK_NMODES: read + write */
	int hi;                      /* SRC_MMAP_LOCK: fl-hi's (trace.json's
				      * by_comm) instead of the workload's; the
				      * row (and SRC_SECTION) only where the
				      * scenario has class hi */
	enum lock_figure lock;       /* SRC_MMAP_LOCK */
	enum rs_wait_bucket bucket;  /* SRC_MMAP_LOCK, LOCK_WAITS_IN */
	enum wl_figure wl;           /* SRC_WORKLOAD */
	unsigned int lat_outcomes;   /* SRC_FAULT_LAT: bit o for outcome o of names.h,
				      * file and swap faults pooled; quantile */
	double over_ns;              /* SRC_HI_FRAMES_OVER: the deadline, a bucket
				      * edge of faultload's histogram (NaN in a run
				      * whose buckets straddle it) */
};

/* Frame deadlines the hi thread's frames are counted against: 2^24 ns
 * (16.8 ms, within 0.7% of 60 Hz's 16.7 ms) and 2^23 ns (8.4 ms, 120 Hz's
 * 8.3 ms).  faultload's latency buckets are log-linear within powers of
 * two, so a power of two is an edge and the count is exact. */
#define FRAME_60HZ_NS 16777216.0
#define FRAME_120HZ_NS 8388608.0

extern const struct row scenario_rows[];
extern const size_t scenario_nrows;

/* The headline's columns (KEY_FALLBACKS .. KEY_THROUGHPUT, in this order:
 * what the decision needs) and the summary's figures.  KEY_P99 is
 * per_class; KEY_HI_WAIT only where the scenario has a hi thread. */
enum key_row {
	KEY_FALLBACKS, KEY_READ_WAIT, KEY_READ_1MS, KEY_WRITE_WAIT, KEY_WRITE_1MS,
	KEY_RETRIED_P99, KEY_ATTEMPTS3, KEY_HI_WAIT, KEY_THROUGHPUT,
	KEY_KEPT, KEY_P99, KEY_ATTEMPTS_MAX, NKEY_ROWS
};
#define NHEADLINE_COLS (KEY_THROUGHPUT + 1)
extern const struct row key_rows[NKEY_ROWS];

/* mmap_lock fallbacks by cause (every cause of names.h but none) and faults
 * by attempts: the rows' lists, and the plots' bars. */
extern const struct row_list fallback_causes, attempt_counts;

/* Map the causes of names.h to their fallback counters, and exit (fatal)
 * unless every module counter named by a row, a list or the mmap_lock
 * figures is in module/names.h and every cause has a counter.  First. */
void measures_init(void);

/* 1 when a row of scenario_rows reads module counter name (or the report
 * leaves it out on purpose): it gets no "other module counters" row. */
int measures_counter_shown(const char *name);

/* One row's value in one run; NaN when the run lacks it.  cls: the class
 * of a per_class row (else ignored).  A row with each must be expanded
 * first (row_entry). */
double row_value(const struct row *row, const char *cls, const struct run *r);
/* Entry i of row->each as a plain row (its counter, no list). */
struct row row_entry(const struct row *row, size_t i);

struct cell {
	struct st_summary s; /* median, min, max over the counted runs with a value */
};

/* The row over the counted runs (run_counted) of kernel and scen. */
struct cell cell_of(const struct results *res, const char *kernel, const char *scen,
		    const struct row *row, const char *cls);
/* Median over runs of a module counter's delta (NaN when no run has it). */
double counter_median(const struct results *res, const char *kernel, const char *scen,
		      const char *counter);
/* The sum over scenarios of a counter's median per run (scenarios without
 * it left out); NaN if no scenario of the kernel has it. */
double counter_sum_medians(const struct results *res, const char *kernel, const char *counter);
/* The sum over every scenario of a row's median per run; NaN if one
 * scenario of the kernel lacks it (sums over different scenarios are not
 * compared). */
double row_sum_medians(const struct results *res, const char *kernel, const struct row *row);
/* The cell's median, NaN when no run has a value. */
double cell_median(const struct results *res, const char *kernel, const char *scen,
		   const struct row *row, const char *cls);
/* "median [min–max]" (just the median when all are equal), or "n/a". */
void fmt_cell(const struct cell *c, char *buf, size_t n);
/* kernel median / baseline median, 3 significant digits; "—" when undefined. */
void fmt_ratio(const struct cell *k, const struct cell *base, char *buf, size_t n);

/* Whether the hi thread of run r waited on mmap_lock (HI_WAIT_BUCKET or
 * longer, trace.json): 1 or 0; -1 when the run cannot tell (no class hi,
 * or no per-task mmap_lock figures in its trace). */
int hi_waited(const struct run *r);

/* 0 when runs of kernel's scen tell (hi_waited) and in none of them did
 * the hi thread wait on mmap_lock; else 1. */
int inversion_exercised(const struct results *res, const char *kernel, const char *scen);

/* The A/A kernel: the baseline (kernels[0]) captured a second time by
 * make compare, named "<baseline>-aa"; its index in res->kernels, or -1. */
int aa_kernel(const struct results *res);
/* The noise band of a row in scen: |median(A/A) / median(baseline) - 1|,
 * how far two captures of the same kernel differ; NaN without an A/A
 * pair or when the baseline's median is 0. */
double noise_band(const struct results *res, const char *scen, const struct row *row,
		  const char *cls);
/* Whether a run's op latency can give quantile q: a p99 needs 100 ops, a
 * p99.9 1,000 (over fewer it is only the max); Q_MAX always, and a run
 * that does not say its count. */
int latency_resolves(const struct latency *l, double q);

/* The row's value in every counted run (run_counted) of kernel's scen, in
 * *out (free() it; it has room for res->n values, so that another
 * kernel's can be appended); returns how many. */
size_t row_runs(const struct results *res, const char *kernel, const char *scen,
		const struct row *row, const char *cls, double **out);

/* A difference's Mann-Whitney p at or above this is no difference. */
#define NOISE_P 0.05

/* What the runs of kernel k (neither of the A/A pair) and the baseline
 * say of their difference in row: NOISE_FEW when there are too few runs
 * for the exact Mann-Whitney test to reach NOISE_P at all (its smallest
 * p, 2 / C(nb + nk, nk), is at or above it: always so with fewer than 4
 * runs a side; after the first rounds of a compare), NOISE_YES when they
 * cannot be told apart (p >= NOISE_P, or the ratio of the medians is no
 * further from 1 on a log scale than the A/A copy's), else NOISE_NO (and
 * for a kernel whose median equals the baseline's: not labelled). */
enum noise { NOISE_NO, NOISE_YES, NOISE_FEW };

enum noise within_noise(const struct results *res, const char *scen, const struct row *row,
			const char *cls, size_t k);

/* A markdown table's head: the columns of lead ("| site |"), one per
 * kernel, right-aligned, then the alignment row (lead_align: "|---|"). */
void kernel_table_head(FILE *f, const struct results *res, const char *lead,
		       const char *lead_align);

/* Whether some run of scen has workload class cls. */
int scenario_has_class(const struct results *res, const char *scen, const char *cls);

/* The workload classes of a scenario: the known ones (hi io swap writer
 * same fork minor) in that order, then the others as first seen.  The
 * names live as long as res; free() the array. */
size_t scenario_classes(const struct results *res, const char *scen, const char ***out);
/* The scenario's first class (the headline's latency class), or NULL. */
const char *headline_class(const struct results *res, const char *scen);

#endif

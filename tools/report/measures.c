/* measures.c: the report's rows as static tables, their check against
 * module/names.h, and their evaluation over runs; see measures.h. */
#include "measures.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the tables ---- */

/* The fallback counter of every cause of names.h, by the cause's name.
 * measures_init() stops rs-report when a cause has no entry here or an
 * entry names no cause (renamed in names.h?). */
static const struct {
	const char *cause, *counter;
} fallback_counter[] = {
	{ "none", NO_ROW }, /* no fallback has no cause */
	{ "vma_abort", "fallback_vma_abort" },
	{ "file_io", "fallback_after_file_io" },
	{ "swap_io", "fallback_after_swap_io" },
	{ "other_retry", "fallback_after_other_retry" },
	{ "no_vma_lock", "fallback_no_vma_lock" },
	{ "not_io", "fallback_not_io" }, /* light=1 only */
};
#define NFALLBACK (sizeof(fallback_counter) / sizeof(*fallback_counter))

/* In names.h's order of the causes; filled by measures_init(). */
static const char *cause_counter[RS_NCAUSES];
const struct row_list fallback_causes = { RS_NCAUSES, rs_cause_name, rs_cause_name,
					  cause_counter };

static const char *const attempt_name[] = { "1", "2", "3", "4+" };
static const char *const attempt_text[] = { "1 attempt", "2 attempts", "3 attempts",
					    "4+ attempts" };
static const char *const attempt_counter[] = { "attempts_1", "attempts_2", "attempts_3",
					       "attempts_4plus" };
const struct row_list attempt_counts = { 4, attempt_name, attempt_text, attempt_counter };

#define SECTION(text) { .label = text, .src = SRC_SECTION }
#define COUNTER(text, name) { .label = text, .src = SRC_COUNTER, .counter = name }
#define VMSTAT(name) { .label = name, .src = SRC_VMSTAT, .counter = name }
#define LOCK(text, m, fig) { .label = text, .src = SRC_MMAP_LOCK, .mode = m, .lock = fig }
#define LOCK_BUCKET(text, m, b) \
	{ .label = text, .src = SRC_MMAP_LOCK, .mode = m, .lock = LOCK_WAITS_IN, .bucket = b }
#define HI_LOCK(text, fig, b) \
	{ .label = text, .src = SRC_MMAP_LOCK, .hi = 1, .mode = LOCK_NMODES, .lock = fig, .bucket = b }
#define LATENCY(text, q) { .label = text, .src = SRC_LATENCY, .per_class = 1, .quantile = q }
#define WORKLOAD(text, fig) { .label = text, .src = SRC_WORKLOAD, .wl = fig }
#define LOCK_ROWS(mode, m)                                                  \
	LOCK(mode " acquisitions", m, LOCK_ACQUIRE),                        \
	LOCK(mode " total wait (µs)", m, LOCK_WAIT_US),                     \
	LOCK(mode " avg wait (µs)", m, LOCK_AVG_US),                        \
	LOCK_BUCKET(mode " waits [1000, 10000) µs", m, RS_WAIT_1_10ms),     \
	LOCK_BUCKET(mode " waits [10000, 100000) µs", m, RS_WAIT_10_100ms), \
	LOCK(mode " max wait (µs)", m, LOCK_MAX_US)

/* A scenario's table, top to bottom ("other module counters" follow). */
const struct row scenario_rows[] = {
	SECTION("**faults and retries** (module counters, delta over the run)"),
	COUNTER("user faults", "user_faults"),
	COUNTER("major faults", "major_faults"),
	{ .label = "VM_FAULT_RETRY returns (filemap + swap)", .src = SRC_COUNTER,
	  .counter = "filemap_fault_retry", .plus = "swap_fault_retry" },
	COUNTER("retries kept on the VMA lock", "retry_kept_vma_lock"),
	COUNTER("&nbsp;&nbsp;kept after file I/O", "retry_kept_after_file_io"),
	COUNTER("&nbsp;&nbsp;kept after swap I/O", "retry_kept_after_swap_io"),
	COUNTER("mmap_lock fallbacks", "mmap_lock_fallback"),
	{ .label = "&nbsp;&nbsp;fallback: ", .src = SRC_COUNTER, .each = &fallback_causes },
	{ .label = "fallbacks per 1,000 I/O retries", .src = SRC_COUNTER,
	  .counter = "mmap_lock_fallback", .per = "filemap_fault_retry",
	  .per_plus = "swap_fault_retry" },
	SECTION("**attempts per fault**"),
	{ .label = "faults with ", .src = SRC_COUNTER, .each = &attempt_counts },
	{ .label = "max attempts (value after the run)", .src = SRC_COUNTER_AFTER,
	  .counter = "attempts_max" },
	SECTION("**mmap_lock** (trace.json, workload tasks; module counters without it)"),
	LOCK_ROWS("read", LOCK_READ),
	LOCK_ROWS("write", LOCK_WRITE),
	{ .label = "**the hi thread's mmap_lock** (trace.json: fl-hi's read and write "
		   "acquisitions, faults and syscalls)", .src = SRC_SECTION, .hi = 1 },
	HI_LOCK("hi acquisitions", LOCK_ACQUIRE, 0),
	HI_LOCK("hi total wait (µs)", LOCK_WAIT_US, 0),
	HI_LOCK("hi waits ≥ 100 µs", LOCK_WAITS_FROM, HI_WAIT_BUCKET),
	HI_LOCK("hi waits [100, 1000) µs", LOCK_WAITS_IN, RS_WAIT_100us_1ms),
	HI_LOCK("hi waits [1, 10) ms", LOCK_WAITS_IN, RS_WAIT_1_10ms),
	HI_LOCK("hi waits [10, 100) ms", LOCK_WAITS_IN, RS_WAIT_10_100ms),
	HI_LOCK("hi waits ≥ 100 ms", LOCK_WAITS_FROM, RS_WAIT_100ms_1s),
	HI_LOCK("hi max wait (µs)", LOCK_MAX_US, 0),
	{ .label = "hi read wait: its faults (ms)", .src = SRC_MMAP_LOCK, .hi = 1,
	  .mode = LOCK_READ, .lock = LOCK_WAIT_MS },
	{ .label = "hi write wait: its own mmap/munmap/mprotect (ms)", .src = SRC_MMAP_LOCK,
	  .hi = 1, .mode = LOCK_WRITE, .lock = LOCK_WAIT_MS },
	{ .label = "hi frames over 8.4 ms (120 Hz)", .src = SRC_HI_FRAMES_OVER, .hi = 1,
	  .over_ns = FRAME_120HZ_NS },
	{ .label = "hi frames over 16.8 ms (60 Hz)", .src = SRC_HI_FRAMES_OVER, .hi = 1,
	  .over_ns = FRAME_60HZ_NS },
	{ .label = "rt-class fault-path acquisitions (module; fl-hi when SCHED_FIFO)",
	  .src = SRC_COUNTER, .counter = "fault_mmap_lock_acquire_rt", .hi = 1 },
	{ .label = "rt-class fault-path wait (ns, module)", .src = SRC_COUNTER,
	  .counter = "fault_mmap_lock_wait_ns_rt", .hi = 1 },
	SECTION("**op latency** (µs, per class: faultload's ops, faulting or not; the hi "
		"class's op is one frame; per-fault latency is its own section)"),
	LATENCY("p50", 0.5),
	LATENCY("p99", 0.99),
	LATENCY("p99.9", 0.999),
	LATENCY("max", Q_MAX),
	SECTION("**workload**"),
	WORKLOAD("throughput (ops/s)", WL_THROUGHPUT),
	{ .label = "ops", .src = SRC_CLASS_OPS, .per_class = 1 },
	WORKLOAD("faults per second", WL_FAULTS_PER_S),
	WORKLOAD("wall time (s)", WL_WALL_S),
	WORKLOAD("errors (all classes)", WL_ERRORS),
	SECTION("**/proc/vmstat** (delta; every task of the guest: trace-cmd and the shell too, where the module counts the workload's tasks only)"),
	VMSTAT("pgfault"),
	VMSTAT("pgmajfault"),
	VMSTAT("pswpin"),
	VMSTAT("pswpout"),
	VMSTAT("vma_lock_success"),
	VMSTAT("vma_lock_abort"),
	VMSTAT("vma_lock_retry"),
	COUNTER("probe_nmissed (module)", "probe_nmissed"),
};
const size_t scenario_nrows = sizeof(scenario_rows) / sizeof(*scenario_rows);

const struct row key_rows[NKEY_ROWS] = {
	[KEY_FALLBACKS] = COUNTER("mmap_lock fallbacks", "mmap_lock_fallback"),
	[KEY_READ_WAIT] = LOCK("read wait (ms)", LOCK_READ, LOCK_WAIT_MS),
	[KEY_READ_1MS] = { .label = "read waits ≥ 1 ms", .src = SRC_MMAP_LOCK, .mode = LOCK_READ,
			   .lock = LOCK_WAITS_FROM, .bucket = RS_WAIT_1_10ms },
	[KEY_WRITE_WAIT] = LOCK("write wait (ms)", LOCK_WRITE, LOCK_WAIT_MS),
	[KEY_WRITE_1MS] = { .label = "write waits ≥ 1 ms", .src = SRC_MMAP_LOCK,
			    .mode = LOCK_WRITE, .lock = LOCK_WAITS_FROM, .bucket = RS_WAIT_1_10ms },
	[KEY_RETRIED_P99] = { .label = "retried faults' p99 (ms)", .src = SRC_FAULT_LAT,
			      .quantile = 0.99, .lat_outcomes = LAT_RETRIED },
	[KEY_ATTEMPTS3] = { .label = "faults with 3+ attempts", .src = SRC_COUNTER,
			    .counter = "attempts_3", .plus = "attempts_4plus" },
	[KEY_HI_WAIT] = HI_LOCK("hi thread's mmap_lock wait (ms)", LOCK_WAIT_MS, 0),
	[KEY_KEPT] = COUNTER("retries kept on the VMA lock", "retry_kept_vma_lock"),
	[KEY_P99] = { .label = "hi-thread p99 frame latency (µs)", .src = SRC_LATENCY,
		      .per_class = 1, .quantile = 0.99 },
	[KEY_THROUGHPUT] = WORKLOAD("throughput (ops/s)", WL_THROUGHPUT),
	[KEY_ATTEMPTS_MAX] = { .label = "max attempts", .src = SRC_COUNTER_AFTER,
			       .counter = "attempts_max" },
};

/* Module counters that no row reads and that get no "other module
 * counters" row either, as rs-report always had it: vma_lock_* (the
 * /proc/vmstat rows show the kernel's counters of the same names), and the
 * calls and VM_FAULT_RETRY_VMA returns of filemap_fault and do_swap_page. */
static const char *const not_shown[] = {
	"vma_lock_success", "vma_lock_abort", "vma_lock_retry", "filemap_fault_calls",
	"filemap_fault_retry_vma", "swap_fault_calls", "swap_fault_retry_vma",
};

/* ---- names ---- */

static const char *const lock_mode_name[LOCK_NMODES] = { "read", "write" };

/* The module counters of an mmap_lock mode: acquisitions, total wait, and
 * (which = 2 + bucket) one wait bucket. */
static void lock_counter(enum lock_mode m, int which, char *buf, size_t n)
{
	if (which == 0)
		snprintf(buf, n, "mmap_lock_%s_acquire", lock_mode_name[m]);
	else if (which == 1)
		snprintf(buf, n, "mmap_lock_%s_wait_ns", lock_mode_name[m]);
	else
		snprintf(buf, n, "mmap_lock_%s_wait_%s", lock_mode_name[m],
			 rs_wait_bucket_name[which - 2]);
}

static int name_errors; /* names that module/names.h does not have */

static void name_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void name_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	name_errors++;
}

static void check_counter(const char *name, const char *where)
{
	if (name && *name && !rs_counter_known(name))
		name_error("%s names counter \"%s\", which module/names.h does not have", where,
			   name);
}

static void check_rows(const struct row *rows, size_t n, const char *table)
{
	char buf[128];
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		if (r->src == SRC_COUNTER || r->src == SRC_COUNTER_AFTER) {
			check_counter(r->counter, table);
			check_counter(r->plus, table);
			check_counter(r->per, table);
			if (!r->counter && !r->each)
				name_error("%s: row \"%s\" reads no counter", table, r->label);
		}
		/* the hi rows read trace.json only */
		for (int w = 0; r->src == SRC_MMAP_LOCK && !r->hi && w < 2 + (r->lock == LOCK_WAITS_IN);
		     w++) {
			lock_counter(r->mode, w < 2 ? w : 2 + (int)r->bucket, buf, sizeof(buf));
			check_counter(buf, table);
		}
	}
}

static void check_list(const struct row_list *l, const char *what)
{
	for (size_t i = 0; i < l->n; i++)
		check_counter(l->counter[i], what);
}

/* cause_counter[] from fallback_counter[], both ways checked. */
static void map_causes(void)
{
	for (size_t i = 0; i < NFALLBACK; i++) {
		int c = rs_cause_index(fallback_counter[i].cause);
		if (c < 0)
			name_error("fallback_counter[] names cause \"%s\", which module/names.h "
				   "does not have",
				   fallback_counter[i].cause);
		else
			cause_counter[c] = fallback_counter[i].counter;
	}
	for (int c = 0; c < RS_NCAUSES; c++)
		if (!cause_counter[c]) {
			name_error("cause \"%s\" of module/names.h has no entry in fallback_counter[]",
				   rs_cause_name[c]);
			cause_counter[c] = NO_ROW;
		}
}

void measures_init(void)
{
	map_causes();
	check_rows(scenario_rows, scenario_nrows, "scenario_rows[]");
	check_rows(key_rows, NKEY_ROWS, "key_rows[]");
	if (strcmp(rs_lat_outcome_name[0], "first"))
		fatal("module/names.h: RS_LAT_OUTCOME_LIST must begin with \"first\" (LAT_RETRIED), not \"%s\"",
		      rs_lat_outcome_name[0]);
	check_list(&fallback_causes, "fallback_counter[]");
	check_list(&attempt_counts, "attempt_counter[]");
	for (size_t i = 0; i < sizeof(not_shown) / sizeof(*not_shown); i++)
		check_counter(not_shown[i], "not_shown[]");
	if (name_errors)
		fatal("%d name(s) in tools/report/measures.c do not match module/names.h "
		      "(renamed there? rename them here too)",
		      name_errors);
}

static int list_has(const struct row_list *l, const char *name)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (!strcmp(l->counter[i], name))
			return 1;
	return 0;
}

static int eq(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

int measures_counter_shown(const char *name)
{
	char buf[128];
	for (size_t i = 0; i < scenario_nrows; i++) {
		const struct row *r = &scenario_rows[i];
		if ((r->src == SRC_COUNTER || r->src == SRC_COUNTER_AFTER) &&
		    (eq(r->counter, name) || eq(r->plus, name) || eq(r->per, name) ||
		     list_has(r->each, name)))
			return 1;
	}
	/* the acquisitions and the total wait; the wait buckets keep their
	 * rows among the other counters */
	for (int m = 0; m < LOCK_NMODES; m++)
		for (int w = 0; w < 2; w++) {
			lock_counter((enum lock_mode)m, w, buf, sizeof(buf));
			if (!strcmp(buf, name))
				return 1;
		}
	for (size_t i = 0; i < sizeof(not_shown) / sizeof(*not_shown); i++)
		if (!strcmp(not_shown[i], name))
			return 1;
	return 0;
}

/* ---- the value of a row in one run ---- */

/* One figure from an mmap_lock record's acquisitions, total wait, waits in
 * the row's bucket, from it on, and longest wait (ns). */
static double lock_figure(enum lock_figure fig, double acq, double wait_ns, double in,
			  double from, double max_ns)
{
	switch (fig) {
	case LOCK_ACQUIRE:
		return acq;
	case LOCK_WAIT_US:
		return wait_ns / 1000.0;
	case LOCK_WAIT_MS:
		return wait_ns / 1e6;
	case LOCK_AVG_US:
		return acq > 0 ? wait_ns / 1000.0 / acq : NAN;
	case LOCK_WAITS_IN:
		return in;
	case LOCK_WAITS_FROM:
		return from;
	case LOCK_MAX_US:
		return max_ns / 1000.0;
	}
	return NAN;
}

/* fl-hi's figures (row->hi): trace.json's by_comm, read + write; zero
 * when the hi thread took no mmap_lock, NaN without a class hi or by_comm. */
static double hi_lock_value(const struct row *row, const struct run *r)
{
	double acq = 0, wait_ns = 0, max_ns = 0, in = 0, from = 0;
	if (!r->tr.have_by_comm || !workload_class(&r->wl, "hi"))
		return NAN;
	for (int m = 0; m < LOCK_NMODES; m++) {
		const struct trace_mode *t = &r->tr.hi[m];
		if (row->mode != LOCK_NMODES && row->mode != (enum lock_mode)m)
			continue;
		acq += t->acquire;
		wait_ns += t->wait_ns_total;
		max_ns = t->wait_ns_max > max_ns ? t->wait_ns_max : max_ns;
		in += t->hist[row->bucket];
		for (int b = (int)row->bucket; b < RS_NWAIT_BUCKETS; b++)
			from += t->hist[b];
	}
	return lock_figure(row->lock, acq, wait_ns, in, from, max_ns);
}

int hi_waited(const struct run *r)
{
	static const struct row waited = { .src = SRC_MMAP_LOCK, .hi = 1, .mode = LOCK_NMODES,
					   .lock = LOCK_WAITS_FROM, .bucket = HI_WAIT_BUCKET };
	double n = hi_lock_value(&waited, r);
	return isnan(n) ? -1 : n > 0;
}

int inversion_exercised(const struct results *res, const char *kernel, const char *scen)
{
	int known = 0, waited = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		int w = hi_waited(r);
		if (strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) ||
		    !run_counted(r) || w < 0)
			continue;
		known++;
		waited += w;
	}
	return !known || waited;
}

/* mmap_lock acquisitions and waits: the workload's tasks in trace.json when
 * the run has one, otherwise the module's counters (no max wait there);
 * fl-hi's for the hi rows. */
static double lock_value(const struct row *row, const struct run *r)
{
	double acq, wait_ns, in_bucket, from = 0, max_ns = NAN;
	if (row->hi)
		return hi_lock_value(row, r);
	if (r->tr.have_mmap_lock) {
		const struct trace_mode *t = &r->tr.mode[row->mode];
		acq = t->acquire;
		wait_ns = t->wait_ns_total;
		in_bucket = t->hist[row->bucket];
		for (int b = (int)row->bucket; b < RS_NWAIT_BUCKETS; b++)
			from += t->hist[b];
		max_ns = t->wait_ns_max;
	} else {
		char name[128];
		lock_counter(row->mode, 0, name, sizeof(name));
		acq = counter_delta(&r->stats, name);
		lock_counter(row->mode, 1, name, sizeof(name));
		wait_ns = counter_delta(&r->stats, name);
		lock_counter(row->mode, 2 + (int)row->bucket, name, sizeof(name));
		in_bucket = counter_delta(&r->stats, name);
		for (int b = (int)row->bucket; b < RS_NWAIT_BUCKETS; b++) {
			lock_counter(row->mode, 2 + b, name, sizeof(name));
			from += counter_delta(&r->stats, name);
		}
	}
	return lock_figure(row->lock, acq, wait_ns, in_bucket, from, max_ns);
}

int latency_resolves(const struct latency *l, double q)
{
	return q < 0 || isnan(l->count) || l->count * (1 - q) >= 1 - 1e-9;
}

/* Latency of one class in ns: quantile over its (thread-merged) buckets,
 * clamped to the observed min/max; the reported quantile when there are no
 * buckets; Q_MAX means the max.  A quantile beyond what the run's ops can
 * resolve (latency_resolves) is NaN: the max row has the max, and it is
 * not called a p99. */
static double class_latency_ns(const struct wclass *c, double q)
{
	const struct latency *l = &c->lat;
	if (!l->present)
		return NAN;
	if (q < 0)
		return l->max;
	if (!latency_resolves(l, q))
		return NAN;
	double v;
	if (st_hist_total(&l->hist) > 0) {
		v = st_hist_quantile(&l->hist, q);
		if (!isnan(l->min) && v < l->min)
			v = l->min;
		if (!isnan(l->max) && v > l->max)
			v = l->max;
	} else {
		v = q == 0.5 ? l->p50 : q == 0.9 ? l->p90 : q == 0.99 ? l->p99 : q == 0.999 ? l->p999 : NAN;
	}
	return v;
}

static double workload_value(enum wl_figure fig, const struct workload *w)
{
	if (!w->present)
		return NAN;
	switch (fig) {
	case WL_THROUGHPUT:
		return w->throughput;
	case WL_WALL_S:
		return w->wall_s;
	case WL_FAULTS_PER_S:
		return w->faults_per_s;
	case WL_ERRORS: {
		double s = 0;
		int any = 0;
		for (size_t i = 0; i < w->n; i++)
			if (!isnan(w->c[i].errors)) {
				s += w->c[i].errors;
				any = 1;
			}
		return any ? s : NAN;
	}
	}
	return NAN;
}

/* Quantile (ms) of the run's timed faults of the row's outcomes, file and
 * swap pooled; NaN without a latency file, without such faults, or with
 * too few for the quantile (a p99 needs 100). */
static double fault_lat_value(const struct row *row, const struct run *r)
{
	if (!r->flat.present)
		return NAN;
	struct st_hist h;
	st_hist_init(&h);
	for (int o = 0; o < RS_NLAT_OUTCOMES; o++)
		for (int c = 0; c < RS_NLAT_CAUSES; c++)
			if ((row->lat_outcomes >> o & 1) && st_hist_merge(&h, &r->flat.h[o][c]))
				fatal("out of memory");
	/* a p99 over fewer than 100 faults is only their max: n/a, as for
	 * a class's latency (latency_resolves) */
	double n = (double)st_hist_total(&h);
	double v = n > 0 && n * (1 - row->quantile) >= 1 - 1e-9 ?
			   st_hist_quantile(&h, row->quantile) / 1e6 : NAN;
	st_hist_free(&h);
	return v;
}

static double counter_value(const struct row *row, const struct run *r)
{
	double v = counter_delta(&r->stats, row->counter);
	if (row->plus)
		return v + counter_delta(&r->stats, row->plus);
	if (row->per) {
		double d = counter_delta(&r->stats, row->per);
		if (row->per_plus)
			d += counter_delta(&r->stats, row->per_plus);
		return d > 0 ? 1000.0 * v / d : NAN;
	}
	return v;
}

/* The hi class's ops of at least over_ns: exact from its buckets when none
 * straddles the deadline (NaN otherwise, or without class hi). */
static double frames_over(const struct run *r, double over_ns)
{
	const struct wclass *c = workload_class(&r->wl, "hi");
	double n = 0;

	if (!c || !c->lat.present || st_hist_total(&c->lat.hist) == 0)
		return NAN;
	for (size_t i = 0; i < c->lat.hist.n; i++) {
		const struct st_bucket *b = &c->lat.hist.b[i];
		int open = b->hi <= b->lo;

		if (b->lo >= over_ns)
			n += (double)b->count;
		else if (open || b->hi > over_ns)
			return NAN; /* the bucket holds frames on both sides */
	}
	return n;
}

double row_value(const struct row *row, const char *cls, const struct run *r)
{
	const struct wclass *c;
	switch (row->src) {
	case SRC_SECTION:
		return NAN;
	case SRC_COUNTER:
		return counter_value(row, r);
	case SRC_COUNTER_AFTER:
		return counter_after(&r->stats, row->counter);
	case SRC_VMSTAT:
		return counter_delta(&r->vmstat, row->counter);
	case SRC_MMAP_LOCK:
		return lock_value(row, r);
	case SRC_LATENCY:
		c = workload_class(&r->wl, cls);
		return c ? class_latency_ns(c, row->quantile) / 1000.0 : NAN;
	case SRC_FAULT_LAT:
		return fault_lat_value(row, r);
	case SRC_CLASS_OPS:
		c = workload_class(&r->wl, cls);
		return c ? c->ops : NAN;
	case SRC_WORKLOAD:
		return workload_value(row->wl, &r->wl);
	case SRC_HI_FRAMES_OVER:
		return frames_over(r, row->over_ns);
	}
	return NAN;
}

struct row row_entry(const struct row *row, size_t i)
{
	struct row e = *row;
	e.counter = row->each->counter[i];
	e.each = NULL;
	return e;
}

/* ---- over runs ---- */

struct cell cell_of(const struct results *res, const char *kernel, const char *scen,
		    const struct row *row, const char *cls)
{
	struct cell c = { { 0, NAN, NAN, NAN } };
	double *v = xmalloc(res->n * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) || !run_counted(r))
			continue;
		double x = row_value(row, cls, r);
		if (isnan(x))
			continue;
		v[n++] = x;
	}
	c.s = st_summarize(v, n);
	free(v);
	return c;
}

double cell_median(const struct results *res, const char *kernel, const char *scen,
		   const struct row *row, const char *cls)
{
	struct cell c = cell_of(res, kernel, scen, row, cls);
	return c.s.n ? c.s.median : NAN;
}

void fmt_cell(const struct cell *c, char *buf, size_t n)
{
	char a[64], b[64], d[64];
	if (c->s.n == 0)
		snprintf(buf, n, "n/a");
	else if (c->s.n == 1 || c->s.min == c->s.max)
		snprintf(buf, n, "%s", fmt_num(c->s.median, a, sizeof(a)));
	else
		snprintf(buf, n, "%s [%s–%s]", fmt_num(c->s.median, a, sizeof(a)),
			 fmt_num(c->s.min, b, sizeof(b)), fmt_num(c->s.max, d, sizeof(d)));
}

void fmt_ratio(const struct cell *k, const struct cell *base, char *buf, size_t n)
{
	if (base->s.n == 0 || k->s.n == 0 || base->s.median == 0)
		snprintf(buf, n, "—");
	else
		snprintf(buf, n, "%.3g", k->s.median / base->s.median);
}

/* ---- classes ---- */

static const char *const class_order[] = { "hi", "io", "swap", "writer", "same", "fork", "minor" };

static int known_class(const char *name)
{
	for (size_t o = 0; o < sizeof(class_order) / sizeof(*class_order); o++)
		if (!strcmp(class_order[o], name))
			return 1;
	return 0;
}

int aa_kernel(const struct results *res)
{
	for (size_t k = 1; k < res->nk; k++) {
		size_t n = strlen(res->kernels[0]);
		if (!strncmp(res->kernels[k], res->kernels[0], n) &&
		    !strcmp(res->kernels[k] + n, "-aa"))
			return (int)k;
	}
	return -1;
}

double noise_band(const struct results *res, const char *scen, const struct row *row,
		  const char *cls)
{
	int aa = aa_kernel(res);
	if (aa < 0)
		return NAN;
	double b = cell_median(res, res->kernels[0], scen, row, cls);
	double a = cell_median(res, res->kernels[aa], scen, row, cls);
	return isnan(a) || isnan(b) || b == 0 ? NAN : fabs(a / b - 1);
}

size_t row_runs(const struct results *res, const char *kernel, const char *scen,
		const struct row *row, const char *cls, double **out)
{
	size_t n = 0;
	double *v = xcalloc(res->n + 1, sizeof(*v));
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (!run_counted(r) || strcmp(r->kernel, kernel) || strcmp(r->scenario, scen))
			continue;
		double x = row_value(row, cls, r);
		if (!isnan(x))
			v[n++] = x;
	}
	*out = v;
	return n;
}

/* The exact two-sided Mann-Whitney test's smallest p with nb and nk runs:
 * every run of one side below every run of the other. */
static double mw_min_p(size_t nb, size_t nk)
{
	double lc = lgamma((double)(nb + nk) + 1) - lgamma((double)nb + 1) - lgamma((double)nk + 1);

	return fmin(1, 2 * exp(-lc));
}

enum noise within_noise(const struct results *res, const char *scen, const struct row *row,
			const char *cls, size_t k)
{
	int aa = aa_kernel(res);
	if (k == 0 || (int)k == aa)
		return NOISE_NO;
	double b = cell_median(res, res->kernels[0], scen, row, cls);
	double v = cell_median(res, res->kernels[k], scen, row, cls);
	if (isnan(b) || isnan(v) || b == v)
		return NOISE_NO;
	double *vb, *vk;
	size_t nb = row_runs(res, res->kernels[0], scen, row, cls, &vb);
	size_t nk = row_runs(res, res->kernels[k], scen, row, cls, &vk);
	double p = st_mann_whitney(vb, nb, vk, nk);
	free(vb);
	free(vk);
	/* the runs could not tell the two kernels apart however far apart */
	if (mw_min_p(nb, nk) >= NOISE_P)
		return NOISE_FEW;
	/* the runs cannot tell the two kernels apart */
	if (!isnan(p) && p >= NOISE_P)
		return NOISE_YES;
	/* or the change is no larger, on a log scale, than two captures of
	 * the baseline differ by: x0.5 and x2 are as far from x1 */
	double a = aa >= 0 ? cell_median(res, res->kernels[aa], scen, row, cls) : NAN;
	if (isnan(a) || a <= 0 || b <= 0 || v <= 0)
		return NOISE_NO;
	return fabs(log(v / b)) <= fabs(log(a / b)) ? NOISE_YES : NOISE_NO;
}

int scenario_has_class(const struct results *res, const char *scen, const char *cls)
{
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->r[i].scenario, scen) && workload_class(&res->r[i].wl, cls))
			return 1;
	return 0;
}

size_t scenario_classes(const struct results *res, const char *scen, const char ***out)
{
	const char **v = NULL;
	size_t n = 0;
	for (size_t o = 0; o < sizeof(class_order) / sizeof(*class_order); o++)
		if (scenario_has_class(res, scen, class_order[o])) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = class_order[o];
		}
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->scenario, scen))
			continue;
		for (size_t c = 0; c < r->wl.n; c++) {
			const char *name = r->wl.c[c].name;
			int dup = known_class(name);
			for (size_t k = 0; k < n; k++)
				dup |= !strcmp(v[k], name);
			if (dup)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = name;
		}
	}
	*out = v;
	return n;
}

const char *headline_class(const struct results *res, const char *scen)
{
	const char **cls;
	const char *first = scenario_classes(res, scen, &cls) ? cls[0] : NULL;
	free(cls);
	return first;
}

double counter_median(const struct results *res, const char *kernel, const char *scen,
		      const char *counter)
{
	struct row r = { .src = SRC_COUNTER, .counter = counter };
	return cell_of(res, kernel, scen, &r, NULL).s.median;
}

double counter_sum_medians(const struct results *res, const char *kernel, const char *counter)
{
	double sum = NAN;
	for (size_t s = 0; s < res->ns; s++) {
		double m = counter_median(res, kernel, res->scenarios[s], counter);
		if (!isnan(m))
			sum = isnan(sum) ? m : sum + m;
	}
	return sum;
}

double row_sum_medians(const struct results *res, const char *kernel, const struct row *row)
{
	double sum = 0;
	for (size_t s = 0; s < res->ns && !isnan(sum); s++)
		sum += cell_median(res, kernel, res->scenarios[s], row, NULL);
	return sum;
}

void kernel_table_head(FILE *f, const struct results *res, const char *lead,
		       const char *lead_align)
{
	fprintf(f, "%s", lead);
	for (size_t k = 0; k < res->nk; k++)
		fprintf(f, " %s |", res->kernels[k]);
	fprintf(f, "\n%s", lead_align);
	for (size_t k = 0; k < res->nk; k++)
		fprintf(f, "---:|");
	fprintf(f, "\n");
}

/* rs-report: turn a results directory into report.md and plots.
 *
 *   rs-report RESULTS_DIR [--kernels "stock rfc v2"] [--baseline stock]
 *             [-o report.md]
 *
 * --kernels orders the kernel columns (the first is the baseline unless
 * --baseline names another); kernels not listed follow, sorted.
 * RESULTS_DIR/<kernel>/<scenario>/<n>/ as written by scripts/capture (see
 * runs.h).  For each scenario and kernel every measure is summarized over
 * the runs that did not fail as "median [min–max]" (stats.c), with the
 * ratio of medians to the baseline kernel.  Lossy runs are included and
 * mark every cell they contribute to with a dagger; failed runs are listed
 * only.  The headline table is printed to stdout as well.
 */
#include "plots.h"
#include "selftests.h"
#include "runs.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DAGGER "†"

/* ---- measures ---- */

struct measure;
typedef double (*getter)(const struct run *r, const struct measure *m);

struct measure {
	char label[160];
	getter get;
	const char *a, *b; /* counter names, class name */
	int mode;          /* 0 read, 1 write */
	int what;
	double q;
	int section; /* 1: a section header row, no values */
};

static double g_delta(const struct run *r, const struct measure *m)
{
	return counter_delta(&r->stats, m->a);
}

static double g_after(const struct run *r, const struct measure *m)
{
	return counter_after(&r->stats, m->a);
}

static double g_sum2(const struct run *r, const struct measure *m)
{
	return counter_delta(&r->stats, m->a) + counter_delta(&r->stats, m->b);
}

static double g_per1000(const struct run *r, const struct measure *m)
{
	double n = counter_delta(&r->stats, m->a), d = counter_delta(&r->stats, m->b);
	return d > 0 ? 1000.0 * n / d : NAN;
}

static double g_vm(const struct run *r, const struct measure *m)
{
	return counter_delta(&r->vmstat, m->a);
}

enum { L_ACQ, L_WAIT_US, L_AVG_US, L_H1MS, L_H10MS, L_MAX_US };

/* mmap_lock acquisitions and waits: the workload's tasks in trace.json when
 * the run has one, otherwise the module's counters (no max wait there). */
static double g_lock(const struct run *r, const struct measure *m)
{
	if (r->tr.have_mmap_lock) {
		const struct trace_mode *t = &r->tr.mode[m->mode];
		switch (m->what) {
		case L_ACQ:
			return t->acquire;
		case L_WAIT_US:
			return t->wait_ns_total / 1000.0;
		case L_AVG_US:
			return t->acquire > 0 ? t->wait_ns_total / 1000.0 / t->acquire : NAN;
		case L_H1MS:
			return t->hist[4];
		case L_H10MS:
			return t->hist[5];
		case L_MAX_US:
			return t->wait_ns_max / 1000.0;
		}
		return NAN;
	}
	const char *mn = m->mode ? "write" : "read";
	char acq[64], wait[64], h[64];
	snprintf(acq, sizeof(acq), "mmap_lock_%s_acquire", mn);
	snprintf(wait, sizeof(wait), "mmap_lock_%s_wait_ns", mn);
	double a = counter_delta(&r->stats, acq), w = counter_delta(&r->stats, wait);
	switch (m->what) {
	case L_ACQ:
		return a;
	case L_WAIT_US:
		return w / 1000.0;
	case L_AVG_US:
		return a > 0 ? w / 1000.0 / a : NAN;
	case L_H1MS:
	case L_H10MS: /* the module's decade buckets (docs/counters.md) */
		snprintf(h, sizeof(h), "mmap_lock_%s_wait_%s", mn,
			 m->what == L_H1MS ? "1_10ms" : "10_100ms");
		return counter_delta(&r->stats, h);
	}
	return NAN;
}

/* Latency of one class in µs: quantile over its (thread-merged) buckets,
 * clamped to the observed min/max; the reported quantile when there are no
 * buckets; q < 0 means the max. */
static double class_latency_ns(const struct wclass *c, double q)
{
	const struct latency *l = &c->lat;
	if (!l->present)
		return NAN;
	if (q < 0)
		return l->max;
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

static double g_lat(const struct run *r, const struct measure *m)
{
	const struct wclass *c = workload_class(&r->wl, m->a);
	return c ? class_latency_ns(c, m->q) / 1000.0 : NAN;
}

static double g_class(const struct run *r, const struct measure *m)
{
	const struct wclass *c = workload_class(&r->wl, m->a);
	if (!c)
		return NAN;
	return m->what == 0 ? c->ops : m->what == 1 ? c->majflt : c->errors;
}

enum { W_TPUT, W_WALL, W_FPS, W_ERRORS };

static double g_wl(const struct run *r, const struct measure *m)
{
	if (!r->wl.present)
		return NAN;
	switch (m->what) {
	case W_TPUT:
		return r->wl.throughput;
	case W_WALL:
		return r->wl.wall_s;
	case W_FPS:
		return r->wl.faults_per_s;
	case W_ERRORS: {
		double s = 0;
		int any = 0;
		for (size_t i = 0; i < r->wl.n; i++)
			if (!isnan(r->wl.c[i].errors)) {
				s += r->wl.c[i].errors;
				any = 1;
			}
		return any ? s : NAN;
	}
	}
	return NAN;
}

struct mlist {
	struct measure *m;
	size_t n, cap;
};

static struct measure *madd(struct mlist *l, getter g, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static struct measure *madd(struct mlist *l, getter g, const char *fmt, ...)
{
	if (l->n == l->cap)
		l->m = xrealloc(l->m, (l->cap = l->cap ? l->cap * 2 : 64) * sizeof(*l->m));
	struct measure *m = &l->m[l->n++];
	memset(m, 0, sizeof(*m));
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->label, sizeof(m->label), fmt, ap);
	va_end(ap);
	m->get = g;
	m->section = g == NULL;
	return m;
}

static const char *const known_counters[] = {
	"user_faults", "major_faults", "vma_lock_success", "vma_lock_abort", "vma_lock_retry",
	"filemap_fault_calls", "filemap_fault_retry", "filemap_fault_retry_vma", "swap_fault_calls",
	"swap_fault_retry", "swap_fault_retry_vma", "retry_kept_vma_lock", "retry_kept_after_file_io",
	"retry_kept_after_swap_io", "mmap_lock_fallback", "fallback_vma_abort",
	"fallback_after_file_io", "fallback_after_swap_io", "fallback_after_other_retry",
	"fallback_no_vma_lock", "attempts_1", "attempts_2", "attempts_3", "attempts_4plus",
	"attempts_max", "mmap_lock_read_acquire", "mmap_lock_write_acquire", "mmap_lock_read_wait_ns",
	"mmap_lock_write_wait_ns", "probe_nmissed", NULL,
};

static int is_known(const char *n)
{
	for (int i = 0; known_counters[i]; i++)
		if (!strcmp(known_counters[i], n))
			return 1;
	return 0;
}

static const char *const causes[5] = { "vma_abort", "file_io", "swap_io", "other_retry",
				       "no_vma_lock" };
static const char *const cause_counter[5] = { "fallback_vma_abort", "fallback_after_file_io",
					      "fallback_after_swap_io",
					      "fallback_after_other_retry", "fallback_no_vma_lock" };

/* Classes present in any run of the scenario, in a fixed order first. */
static size_t scenario_classes(const struct results *res, const char *scen, char ***out)
{
	static const char *const order[] = { "hi", "io", "swap", "writer", "same", "fork", "minor" };
	char **v = NULL;
	size_t n = 0;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < res->n; i++) {
			const struct run *r = &res->r[i];
			if (strcmp(r->scenario, scen))
				continue;
			for (size_t c = 0; c < r->wl.n; c++) {
				const char *name = r->wl.c[c].name;
				int inorder = 0;
				for (size_t o = 0; o < sizeof(order) / sizeof(*order); o++)
					inorder |= !strcmp(order[o], name);
				if (pass == 0 && !inorder)
					continue;
				int dup = 0;
				for (size_t k = 0; k < n; k++)
					dup |= !strcmp(v[k], name);
				if (dup)
					continue;
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = xstrdup(name);
			}
		}
	/* sort the known ones by the fixed order, keep the others after */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			size_t oi = 99, oj = 99;
			for (size_t o = 0; o < sizeof(order) / sizeof(*order); o++) {
				if (!strcmp(order[o], v[i]))
					oi = o;
				if (!strcmp(order[o], v[j]))
					oj = o;
			}
			if (oj < oi) {
				char *t = v[i];
				v[i] = v[j];
				v[j] = t;
			}
		}
	*out = v;
	return n;
}

static void build_measures(const struct results *res, const char *scen, struct mlist *l,
			   char ***classes_out, size_t *ncls_out)
{
	struct measure *m;
	madd(l, NULL, "**faults and retries** (module counters, delta over the run)");
	m = madd(l, g_delta, "user faults");
	m->a = "user_faults";
	m = madd(l, g_delta, "major faults");
	m->a = "major_faults";
	m = madd(l, g_sum2, "VM_FAULT_RETRY returns (filemap + swap)");
	m->a = "filemap_fault_retry";
	m->b = "swap_fault_retry";
	m = madd(l, g_delta, "retries kept on the VMA lock");
	m->a = "retry_kept_vma_lock";
	m = madd(l, g_delta, "&nbsp;&nbsp;kept after file I/O");
	m->a = "retry_kept_after_file_io";
	m = madd(l, g_delta, "&nbsp;&nbsp;kept after swap I/O");
	m->a = "retry_kept_after_swap_io";
	m = madd(l, g_delta, "mmap_lock fallbacks");
	m->a = "mmap_lock_fallback";
	for (int c = 0; c < 5; c++) {
		m = madd(l, g_delta, "&nbsp;&nbsp;fallback: %s", causes[c]);
		m->a = cause_counter[c];
	}
	m = madd(l, g_per1000, "fallbacks per 1,000 major faults");
	m->a = "mmap_lock_fallback";
	m->b = "major_faults";
	madd(l, NULL, "**attempts per fault**");
	static const char *const att[] = { "attempts_1", "attempts_2", "attempts_3",
					   "attempts_4plus" };
	static const char *const attl[] = { "1", "2", "3", "4+" };
	for (int i = 0; i < 4; i++) {
		m = madd(l, g_delta, "faults with %s attempt%s", attl[i], i ? "s" : "");
		m->a = att[i];
	}
	m = madd(l, g_after, "max attempts (value after the run)");
	m->a = "attempts_max";

	madd(l, NULL, "**mmap_lock** (trace.json, workload tasks; module counters without it)");
	for (int mode = 0; mode < 2; mode++) {
		const char *mn = mode ? "write" : "read";
		m = madd(l, g_lock, "%s acquisitions", mn);
		m->mode = mode;
		m->what = L_ACQ;
		m = madd(l, g_lock, "%s total wait (µs)", mn);
		m->mode = mode;
		m->what = L_WAIT_US;
		m = madd(l, g_lock, "%s avg wait (µs)", mn);
		m->mode = mode;
		m->what = L_AVG_US;
		m = madd(l, g_lock, "%s waits [1000, 10000) µs", mn);
		m->mode = mode;
		m->what = L_H1MS;
		m = madd(l, g_lock, "%s waits [10000, 100000) µs", mn);
		m->mode = mode;
		m->what = L_H10MS;
		m = madd(l, g_lock, "%s max wait (µs)", mn);
		m->mode = mode;
		m->what = L_MAX_US;
	}

	char **cls;
	size_t ncls = scenario_classes(res, scen, &cls);
	madd(l, NULL, "**fault latency** (µs, per class; thread histograms merged per run)");
	for (size_t c = 0; c < ncls; c++) {
		static const double qs[] = { 0.5, 0.99, 0.999, -1 };
		static const char *const qn[] = { "p50", "p99", "p99.9", "max" };
		for (int i = 0; i < 4; i++) {
			m = madd(l, g_lat, "%s %s", cls[c], qn[i]);
			m->a = cls[c];
			m->q = qs[i];
		}
	}
	madd(l, NULL, "**workload**");
	m = madd(l, g_wl, "throughput (ops/s)");
	m->what = W_TPUT;
	for (size_t c = 0; c < ncls; c++) {
		m = madd(l, g_class, "%s ops", cls[c]);
		m->a = cls[c];
		m->what = 0;
	}
	m = madd(l, g_wl, "faults per second");
	m->what = W_FPS;
	m = madd(l, g_wl, "wall time (s)");
	m->what = W_WALL;
	m = madd(l, g_wl, "errors (all classes)");
	m->what = W_ERRORS;

	madd(l, NULL, "**/proc/vmstat** (delta)");
	static const char *const vm[] = { "pgfault", "pgmajfault", "pswpin", "pswpout",
					  "vma_lock_success", "vma_lock_abort", "vma_lock_retry" };
	for (size_t i = 0; i < sizeof(vm) / sizeof(*vm); i++) {
		m = madd(l, g_vm, "%s", vm[i]);
		m->a = vm[i];
	}
	m = madd(l, g_delta, "probe_nmissed (module)");
	m->a = "probe_nmissed";

	/* unknown module counters, generically */
	int header = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->scenario, scen))
			continue;
		for (size_t k = 0; k < r->stats.n; k++) {
			const char *name = r->stats.v[k].name;
			if (is_known(name))
				continue;
			int dup = 0;
			for (size_t j = 0; j < l->n; j++)
				dup |= l->m[j].get == g_delta && l->m[j].a && !strcmp(l->m[j].a, name);
			if (dup)
				continue;
			if (!header) {
				madd(l, NULL, "**other module counters** (delta)");
				header = 1;
			}
			m = madd(l, g_delta, "%s", name);
			m->a = name;
		}
	}
	*classes_out = cls;
	*ncls_out = ncls;
}

/* ---- cells ---- */

struct cell {
	struct st_summary s;
	int lossy; /* a lossy run contributed */
};

static struct cell compute(const struct results *res, const char *kernel, const char *scen,
			   const struct measure *m)
{
	struct cell c = { { 0, NAN, NAN, NAN }, 0 };
	double *v = xmalloc(res->n * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) || r->status == RUN_FAILED)
			continue;
		double x = m->get(r, m);
		if (isnan(x))
			continue;
		v[n++] = x;
		if (r->status == RUN_LOSSY)
			c.lossy = 1;
	}
	c.s = st_summarize(v, n);
	free(v);
	return c;
}

static void fmt_cell(const struct cell *c, char *buf, size_t n)
{
	char a[64], b[64], d[64];
	if (c->s.n == 0)
		snprintf(buf, n, "n/a");
	else if (c->s.n == 1 || c->s.min == c->s.max)
		snprintf(buf, n, "%s%s", fmt_num(c->s.median, a, sizeof(a)), c->lossy ? DAGGER : "");
	else
		snprintf(buf, n, "%s [%s–%s]%s", fmt_num(c->s.median, a, sizeof(a)),
			 fmt_num(c->s.min, b, sizeof(b)), fmt_num(c->s.max, d, sizeof(d)),
			 c->lossy ? DAGGER : "");
}

static void fmt_ratio(const struct cell *k, const struct cell *base, char *buf, size_t n)
{
	if (base->s.n == 0 || k->s.n == 0 || base->s.median == 0)
		snprintf(buf, n, "—");
	else
		snprintf(buf, n, "%.3g%s", k->s.median / base->s.median,
			 k->lossy || base->lossy ? DAGGER : "");
}

/* ---- report ---- */

struct opts {
	const char *dir, *baseline, *out, *kernels;
	char *outdir;
};

static int count_runs(const struct results *res, const char *k, const char *s, int status)
{
	int n = 0;
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->r[i].kernel, k) && !strcmp(res->r[i].scenario, s) &&
		    (status < 0 || (int)res->r[i].status == status))
			n++;
	return n;
}

/* Distinct values of a meta key over the runs of a kernel (or all, k NULL). */
static void meta_values(const struct results *res, const char *k, const char *key,
			struct sbuf *out)
{
	const char **seen = xcalloc(res->n, sizeof(*seen));
	size_t ns = 0;
	for (size_t i = 0; i < res->n; i++) {
		if (k && strcmp(res->r[i].kernel, k))
			continue;
		const char *v = meta_get(&res->r[i], key);
		if (!v)
			continue;
		int dup = 0;
		for (size_t j = 0; j < ns; j++)
			dup |= !strcmp(seen[j], v);
		if (!dup)
			seen[ns++] = v;
	}
	if (!ns)
		sb_printf(out, "n/a");
	for (size_t j = 0; j < ns; j++)
		sb_printf(out, "%s%s", j ? ", " : "", seen[j]);
	free(seen);
}

/* The class of the headline latency: hi, else io, else the scenario's first
 * class (in the fixed order of scenario_classes). */
static const char *headline_class(const struct results *res, const char *scen)
{
	int hi = 0, io = 0;
	for (size_t i = 0; i < res->n; i++) {
		if (strcmp(res->r[i].scenario, scen))
			continue;
		hi |= workload_class(&res->r[i].wl, "hi") != NULL;
		io |= workload_class(&res->r[i].wl, "io") != NULL;
	}
	if (hi || io)
		return hi ? "hi" : "io";
	static const char *const order[] = { "swap", "writer", "same", "fork", "minor" };
	for (size_t o = 0; o < sizeof(order) / sizeof(*order); o++)
		for (size_t i = 0; i < res->n; i++)
			if (!strcmp(res->r[i].scenario, scen) &&
			    workload_class(&res->r[i].wl, order[o]))
				return order[o];
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->r[i].scenario, scen) && res->r[i].wl.n)
			return res->r[i].wl.c[0].name; /* lives as long as res */
	return NULL;
}

static void headline(const struct results *res, struct sbuf *b)
{
	sb_printf(b, "| scenario | kernel | mmap_lock fallbacks | retries kept on the VMA lock | "
		     "hi-thread p99 fault latency (µs) | throughput (ops/s) |\n");
	sb_printf(b, "|---|---|---:|---:|---:|---:|\n");
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		const char *hc = headline_class(res, scen);
		struct measure ms[4];
		memset(ms, 0, sizeof(ms));
		ms[0].get = g_delta;
		ms[0].a = "mmap_lock_fallback";
		ms[1].get = g_delta;
		ms[1].a = "retry_kept_vma_lock";
		ms[2].get = g_lat;
		ms[2].a = hc ? hc : "hi";
		ms[2].q = 0.99;
		ms[3].get = g_wl;
		ms[3].what = W_TPUT;
		struct cell base[4];
		for (size_t k = 0; k < res->nk; k++) {
			sb_printf(b, "| %s | %s |", scen, res->kernels[k]);
			for (int i = 0; i < 4; i++) {
				char cb[160], rb[32];
				struct cell c = compute(res, res->kernels[k], scen, &ms[i]);
				if (k == 0)
					base[i] = c;
				fmt_cell(&c, cb, sizeof(cb));
				if (k > 0) {
					fmt_ratio(&c, &base[i], rb, sizeof(rb));
					sb_printf(b, " %s (×%s)", cb, rb);
				} else {
					sb_printf(b, " %s", cb);
				}
				if (i == 2 && hc && strcmp(hc, "hi"))
					sb_printf(b, " (%s class)", hc);
				sb_printf(b, " |");
			}
			sb_printf(b, "\n");
		}
	}
}

/* --- the summary: claims written from the medians, each with its figure -- */

static const char *find_scenario(const struct results *res, const char *prefix, const char *cls)
{
	for (size_t s = 0; s < res->ns; s++) {
		if (prefix && strncmp(res->scenarios[s], prefix, strlen(prefix)))
			continue;
		for (size_t i = 0; i < res->n; i++)
			if (!strcmp(res->r[i].scenario, res->scenarios[s]) &&
			    (!cls || workload_class(&res->r[i].wl, cls)))
				return res->scenarios[s];
	}
	return NULL;
}

/* One claim: the kernel (not the baseline) with the lowest (want < 0) or
 * highest (want > 0) value of v[], then every kernel's figure.  lo/hi, when
 * given, are each kernel's min and max over runs: the claim names the
 * kernels whose range overlaps the chosen one's. */
static void claim(const struct results *res, struct sbuf *b, const double *v, const double *lo,
		  const double *hi, int want, const char *what, const char *unit, const char *where)
{
	size_t best = 0;
	char nb[64], bb[64];
	for (size_t k = 1; k < res->nk; k++) {
		if (isnan(v[k]))
			continue;
		if (!best || (want < 0 ? v[k] < v[best] : v[k] > v[best]))
			best = k;
	}
	if (!best) {
		sb_printf(b, "- %s: n/a (no variant has a value in %s)\n", what, where);
		return;
	}
	/* "lowers most" when nothing is lower than the baseline is not a claim */
	int none = !isnan(v[0]) && (want < 0 ? v[best] >= v[0] : 0);
	int all_below = !isnan(v[0]) && want > 0 && v[best] <= v[0];
	int tie = 0;
	for (size_t k = 1; k < res->nk; k++)
		tie |= k != best && v[k] == v[best];
	if (none) {
		/* what is "lowers X most": say "No variant lowers X" */
		size_t wl = strlen(what);
		int most = wl > 5 && !strcmp(what + wl - 5, " most");
		sb_printf(b, "- **No variant %.*s**: the lowest is %s's", (int)(most ? wl - 5 : wl),
			  what, res->kernels[best]);
	} else {
		sb_printf(b, "- **%s", res->kernels[best]);
		for (size_t k = 1; k < res->nk; k++)
			if (k != best && v[k] == v[best])
				sb_printf(b, " = %s", res->kernels[k]);
		sb_printf(b, " %s%s**", what, tie ? " (tie)" : "");
	}
	sb_printf(b, ": %s%s", fmt_num(v[best], nb, sizeof(nb)), unit);
	if (!isnan(v[0]) && v[0] != 0)
		sb_printf(b, " against %s%s on %s (×%.3g)", fmt_num(v[0], bb, sizeof(bb)), unit,
			  res->kernels[0], v[best] / v[0]);
	if (all_below)
		sb_printf(b, ", and no variant is above %s", res->kernels[0]);
	sb_printf(b, "; %s.", where);
	if (lo && hi && !isnan(lo[best])) {
		int n = 0;
		for (size_t k = 0; k < res->nk; k++) {
			if (k == best || isnan(lo[k]) || lo[k] > hi[best] || hi[k] < lo[best])
				continue;
			sb_printf(b, "%s%s", n++ ? ", " : " Its [min–max] over runs overlaps that of ",
				  res->kernels[k]);
		}
		if (n)
			sb_printf(b, ".");
	}
	if (res->nk > 2) {
		sb_printf(b, " All:");
		for (size_t k = 0; k < res->nk; k++)
			sb_printf(b, "%s %s %s%s", k ? "," : "", res->kernels[k],
				  fmt_num(v[k], nb, sizeof(nb)), unit);
		sb_printf(b, ".");
	}
	sb_printf(b, "\n");
}

static double median_of(const struct results *res, const char *k, const char *scen,
			const struct measure *m)
{
	struct cell c = compute(res, k, scen, m);
	return c.s.n ? c.s.median : NAN;
}

/* Each kernel's median, min and max of m in scen (NaN when it has none). */
static void range_of(const struct results *res, const char *scen, const struct measure *m,
		     double *v, double *lo, double *hi)
{
	for (size_t k = 0; k < res->nk; k++) {
		struct cell c = compute(res, res->kernels[k], scen, m);
		v[k] = c.s.n ? c.s.median : NAN;
		lo[k] = c.s.n ? c.s.min : NAN;
		hi[k] = c.s.n ? c.s.max : NAN;
	}
}

/* The claim on the p99 latency of class cls (who: its name in the text), in
 * the first scenario that has it; v, lo, hi are scratch of res->nk each. */
static void p99_claim(const struct results *res, struct sbuf *b, const char *cls,
		      const char *who, int want, const char *what, double *v, double *lo,
		      double *hi)
{
	const char *scen = find_scenario(res, NULL, cls);
	struct measure m;

	if (!scen)
		return;
	memset(&m, 0, sizeof(m));
	m.get = g_lat;
	m.a = cls;
	m.q = 0.99;
	range_of(res, scen, &m, v, lo, hi);
	char *where = xasprintf("%s (median over runs of %s's p99)", scen, who);
	claim(res, b, v, lo, hi, want, what, " µs", where);
	free(where);
}

static void summary(const struct results *res, struct sbuf *b)
{
	double *v = xcalloc(res->nk, sizeof(*v));
	double *lo = xcalloc(res->nk, sizeof(*lo));
	double *hi = xcalloc(res->nk, sizeof(*hi));
	struct measure m;
	const char *scen;

	/* mmap_lock fallbacks: the sum over scenarios of each median */
	memset(&m, 0, sizeof(m));
	m.get = g_delta;
	m.a = "mmap_lock_fallback";
	for (size_t k = 0; k < res->nk; k++) {
		v[k] = 0;
		for (size_t s = 0; s < res->ns; s++) {
			double x = median_of(res, res->kernels[k], res->scenarios[s], &m);
			v[k] = isnan(x) || isnan(v[k]) ? NAN : v[k] + x;
		}
	}
	claim(res, b, v, NULL, NULL, -1, "removes the most mmap_lock fallbacks", "",
	      "the sum over every scenario of its median");

	p99_claim(res, b, "hi", "the hi thread", -1,
		  "lowers the high-priority thread's p99 fault latency most", v, lo, hi);
	p99_claim(res, b, "fork", "fork()", +1, "has the worst fork latency", v, lo, hi);

	/* the retry loop: the largest attempt count in same-pages runs */
	memset(&m, 0, sizeof(m));
	m.get = g_after;
	m.a = "attempts_max";
	for (size_t s = 0; s < res->ns; s++) {
		scen = res->scenarios[s];
		if (strncmp(scen, "same-pages", 10))
			continue;
		for (size_t k = 0; k < res->nk; k++) {
			struct cell c = compute(res, res->kernels[k], scen, &m);
			v[k] = c.s.n ? c.s.max : NAN;
		}
		char *where = xasprintf("%s (the largest over runs)", scen);
		claim(res, b, v, NULL, NULL, +1, "needs the most attempts for one fault", " attempts",
		      where);
		free(where);
	}
	free(v);
	free(lo);
	free(hi);
}

static void run_lists(const struct results *res, const char *scen, struct sbuf *b)
{
	int any = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (scen && strcmp(r->scenario, scen))
			continue;
		if (r->status == RUN_OK && !(r->tr.lost_events > 0))
			continue;
		if (!any)
			sb_printf(b, "\n");
		any = 1;
		if (r->status == RUN_LOSSY)
			sb_printf(b, "- " DAGGER " lossy run %s/%s/%s: %s (included)\n", r->kernel,
				  r->scenario, r->name, r->reason);
		else if (r->status == RUN_FAILED)
			sb_printf(b, "- failed run %s/%s/%s: %s (excluded)\n", r->kernel, r->scenario,
				  r->name, r->reason);
		if (r->tr.lost_events > 0)
			sb_printf(b, "- run %s/%s/%s: trace.json reports %.0f lost trace events\n",
				  r->kernel, r->scenario, r->name, r->tr.lost_events);
	}
}

static void sanitize(const char *in, char *out, size_t n)
{
	size_t i = 0;
	for (; *in && i + 1 < n; in++)
		out[i++] = (char)((*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
						  (*in >= '0' && *in <= '9') || *in == '-' || *in == '_' ||
						  *in == '.'
					  ? *in
					  : '_');
	out[i] = 0;
}

/* (a) latency CDF of the headline class, runs pooled per kernel */
static int plot_latency(const struct results *res, const struct opts *o, const char *scen,
			char *name, size_t namesz, const char **cls_out)
{
	const char *cls = headline_class(res, scen);
	*cls_out = cls;
	if (!cls)
		return -1;
	char sc[128];
	sanitize(scen, sc, sizeof(sc));
	snprintf(name, namesz, "plot-latency-%s", sc);
	struct series *s = xcalloc(res->nk, sizeof(*s));
	double **xs = xcalloc(res->nk, sizeof(*xs)), **ys = xcalloc(res->nk, sizeof(*ys));
	size_t ns = 0;
	for (size_t k = 0; k < res->nk; k++) {
		struct st_hist h;
		st_hist_init(&h);
		for (size_t i = 0; i < res->n; i++) {
			const struct run *r = &res->r[i];
			if (strcmp(r->kernel, res->kernels[k]) || strcmp(r->scenario, scen) ||
			    r->status == RUN_FAILED)
				continue;
			const struct wclass *c = workload_class(&r->wl, cls);
			if (c && st_hist_merge(&h, &c->lat.hist))
				fatal("out of memory");
		}
		uint64_t tot = st_hist_total(&h);
		if (!tot) {
			st_hist_free(&h);
			continue;
		}
		double *x = xmalloc((2 * h.n + 1) * sizeof(*x)), *y = xmalloc((2 * h.n + 1) * sizeof(*y));
		size_t n = 0;
		uint64_t cum = 0;
		for (size_t j = 0; j < h.n; j++) {
			if (!h.b[j].count)
				continue;
			if (n == 0 && h.b[j].lo > 0) {
				x[n] = h.b[j].lo / 1000.0;
				y[n++] = 0;
			}
			cum += h.b[j].count;
			x[n] = (h.b[j].hi > h.b[j].lo ? h.b[j].hi : h.b[j].lo) / 1000.0;
			y[n++] = (double)cum / (double)tot;
		}
		xs[ns] = x;
		ys[ns] = y;
		s[ns].title = res->kernels[k];
		s[ns].x = x;
		s[ns].y = y;
		s[ns].n = n;
		ns++;
		st_hist_free(&h);
	}
	char title[256];
	snprintf(title, sizeof(title), "%s: %s-class fault latency CDF (runs pooled)", scen, cls);
	int rc = ns ? plot_cdf(o->outdir, name, title, "fault latency (µs)", s, ns) : -1;
	for (size_t i = 0; i < ns; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(xs);
	free(ys);
	free(s);
	return rc;
}

/* (b) mmap_lock acquisitions of fault fallbacks by cause, stacked */
static int plot_causes(const struct results *res, const struct opts *o)
{
	size_t nrows = res->ns * res->nk;
	char **rl = xcalloc(nrows, sizeof(*rl));
	double *v = xcalloc(nrows * 5, sizeof(*v));
	for (size_t s = 0; s < res->ns; s++)
		for (size_t k = 0; k < res->nk; k++) {
			size_t row = s * res->nk + k;
			rl[row] = xasprintf("%s %s", res->scenarios[s], res->kernels[k]);
			for (int c = 0; c < 5; c++) {
				struct measure m;
				memset(&m, 0, sizeof(m));
				m.get = g_delta;
				m.a = cause_counter[c];
				struct cell cl = compute(res, res->kernels[k], res->scenarios[s], &m);
				v[row * 5 + (size_t)c] = cl.s.median;
			}
		}
	int rc = plot_bars(o->outdir, "plot-fallback-causes",
			   "mmap_lock acquisitions by fault fallbacks, by cause (median of runs)",
			   "mmap_lock fallbacks", 1, (const char *const *)rl, nrows, causes, 5, v);
	for (size_t i = 0; i < nrows; i++)
		free(rl[i]);
	free(rl);
	free(v);
	return rc;
}

/* (c) attempts per fault, one bar per kernel */
static int plot_attempts(const struct results *res, const struct opts *o, const char *scen,
			 char *name, size_t namesz)
{
	static const char *const att[] = { "attempts_1", "attempts_2", "attempts_3",
					   "attempts_4plus" };
	static const char *const rl[] = { "1", "2", "3", "4+" };
	char sc[128];
	sanitize(scen, sc, sizeof(sc));
	snprintf(name, namesz, "plot-attempts-%s", sc);
	double *v = xcalloc(4 * res->nk, sizeof(*v));
	for (int a = 0; a < 4; a++)
		for (size_t k = 0; k < res->nk; k++) {
			struct measure m;
			memset(&m, 0, sizeof(m));
			m.get = g_delta;
			m.a = att[a];
			struct cell cl = compute(res, res->kernels[k], scen, &m);
			v[(size_t)a * res->nk + k] = cl.s.median;
		}
	char title[256];
	snprintf(title, sizeof(title), "%s: attempts per fault (median of runs)", scen);
	int rc = plot_bars(o->outdir, name, title, "faults", 0, rl, 4,
			   (const char *const *)res->kernels, res->nk, v);
	free(v);
	return rc;
}

static const char definitions[] =
	"## Definitions\n\n"
	"Each cell is the median over the runs of that kernel and scenario that did not fail, "
	"with the smallest and largest run in brackets; the ratio column is the kernel's median "
	"divided by the baseline's median (— when the baseline median is 0 or n/a). A " DAGGER
	" marks a cell to which a lossy run contributed; n/a means the value was missing in every "
	"run (a counter that the module or kernel does not have).\n\n"
	"mmap_lock measures follow the cover letter of the VM_FAULT_RETRY_VMA series "
	"(\"mmap_lock Acquisitions And Wait Time\"):\n\n"
	"- **read/write acquisitions** (\"Read/Write Lock Count\"): mmap_lock acquisitions in read "
	"or write mode that went through `mmap_lock_start_locking` and ended in a successful "
	"`mmap_lock_acquire_returned`, by the workload's tasks (comm prefix of rs-trace, `fl-`). "
	"Without trace.json: the module counters `mmap_lock_read_acquire` / "
	"`mmap_lock_write_acquire`.\n"
	"- **total wait** (\"Total Wait (us)\"): sum over those acquisitions of the time from "
	"`start_locking` to `acquire_returned`, in µs; **avg wait** (\"Avg Wait (us)\"): total wait "
	"divided by the acquisitions.\n"
	"- **waiting time distribution** (\"Lock Waiting Time Distribution\"): the acquisitions "
	"counted in decade buckets of their wait in µs, [0, 1) [1, 10) [10, 100) [100, 1000) "
	"[1000, 10000) [10000, 100000) [100000, 1000000) [1000000, +); the table shows the two "
	"buckets [1000, 10000) (1–10 ms) and [10000, 100000) (10–100 ms), which the series cut "
	"by 97% and 98% on Douyin; trace.json has all eight. Without trace.json: the module "
	"counters `mmap_lock_<mode>_wait_1_10ms` and `_wait_10_100ms`; max wait only from "
	"trace.json.\n\n"
	"Fault measures (module counters, after − before):\n\n"
	"- **VM_FAULT_RETRY returns**: `filemap_fault_retry` + `swap_fault_retry`, the faults "
	"whose handler dropped the lock to wait for I/O and asked for a retry.\n"
	"- **retries kept on the VMA lock** (`retry_kept_vma_lock`): retries that the patched "
	"kernel ran again under the per-VMA lock (VM_FAULT_RETRY_VMA) instead of falling back to "
	"mmap_lock; 0 on a stock kernel.\n"
	"- **mmap_lock fallbacks** (`mmap_lock_fallback`): faults that ended up taking mmap_lock, "
	"by cause: `vma_abort` (the per-VMA lock could not be taken), `file_io` / `swap_io` (a "
	"retry after waiting for file or swap I/O), `other_retry`, `no_vma_lock` (the fault path "
	"did not try the VMA lock). **Per 1,000 major faults**: 1000 × fallbacks / major faults, "
	"per run.\n"
	"- **attempts per fault**: how many times one fault was handled before it completed "
	"(1 = no retry); max attempts is the counter's value after the run, not a delta.\n"
	"- **fault latency**: per workload class, quantiles over the class's latency histogram "
	"(threads merged per run, linear interpolation inside a bucket, clamped to the observed "
	"min/max), then the median across runs; max is the largest fault seen in a run.\n";

static void write_report(const struct results *res, const struct opts *o, FILE *f,
			 const struct sbuf *head)
{
	const char *b = res->kernels[0];
	char *dcopy = xstrdup(res->dir);
	size_t dl = strlen(dcopy);
	while (dl > 1 && dcopy[dl - 1] == '/')
		dcopy[--dl] = 0;
	fprintf(f, "# retryscope report: %s\n\n", basename(dcopy));
	free(dcopy);
	fprintf(f, "Baseline: **%s**. Results: `%s`.\n\n", b, res->dir);

	/* safety first: a kernel that oopsed or fails selftests the baseline passes */
	char *safety = NULL;
	size_t safety_len = 0;
	FILE *sf = open_memstream(&safety, &safety_len);
	if (!sf)
		fatal("open_memstream: %s", strerror(errno));
	struct sbuf marks = { 0 };
	selftests_report(res, &marks, sf);
	if (fclose(sf))
		fatal("selftests section: %s", strerror(errno));
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (r->status == RUN_FAILED && r->reason &&
		    (strstr(r->reason, "panic") || strstr(r->reason, "oops") ||
		     strstr(r->reason, "Oops") || strstr(r->reason, "BUG")))
			sb_printf(&marks, "- **%s: %s/%s: %s**\n", r->kernel, r->scenario, r->name,
				  r->reason);
	}
	if (marks.s)
		fprintf(f, "## Marked kernels\n\n%s\n", marks.s);
	sb_free(&marks);
	fprintf(f, "| kernel | release | config | accel | CPU |\n|---|---|---|---|---|\n");
	for (size_t k = 0; k < res->nk; k++) {
		struct sbuf rel = { 0 }, cfg = { 0 }, acc = { 0 }, cpu = { 0 };
		meta_values(res, res->kernels[k], "release", &rel);
		meta_values(res, res->kernels[k], "config_hash", &cfg);
		meta_values(res, res->kernels[k], "accel", &acc);
		meta_values(res, res->kernels[k], "cpu_model", &cpu);
		fprintf(f, "| %s | %s | %s | %s | %s |\n", res->kernels[k], rel.s, cfg.s, acc.s, cpu.s);
		sb_free(&rel);
		sb_free(&cfg);
		sb_free(&acc);
		sb_free(&cpu);
	}
	fprintf(f, "\nRuns per scenario (ok + lossy included, failed excluded):\n\n| scenario |");
	for (size_t k = 0; k < res->nk; k++)
		fprintf(f, " %s |", res->kernels[k]);
	fprintf(f, "\n|---|");
	for (size_t k = 0; k < res->nk; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (size_t s = 0; s < res->ns; s++) {
		fprintf(f, "| %s |", res->scenarios[s]);
		for (size_t k = 0; k < res->nk; k++) {
			const char *kk = res->kernels[k], *ss = res->scenarios[s];
			fprintf(f, " %d runs: %d ok, %d lossy, %d failed |", count_runs(res, kk, ss, -1),
				count_runs(res, kk, ss, RUN_OK), count_runs(res, kk, ss, RUN_LOSSY),
				count_runs(res, kk, ss, RUN_FAILED));
		}
		fprintf(f, "\n");
	}

	fprintf(f, "\n## Headline\n\nMedian [min–max] over runs; (×r) is the ratio of medians to "
		   "%s.\n\n%s",
		b, head->s);
	struct sbuf lists = { 0 };
	run_lists(res, NULL, &lists);
	if (lists.s)
		fprintf(f, "%s", lists.s);
	sb_free(&lists);

	if (res->nk > 1) {
		struct sbuf sum = { 0 };
		summary(res, &sum);
		fprintf(f, "\n## Summary\n\nWritten by rs-report from the medians above; each claim "
			   "names its figure.\n\n%s", sum.s ? sum.s : "");
		sb_free(&sum);
	}
	fputs(safety, f);
	free(safety);

	int causes_ok = plot_causes(res, o) == 0;
	if (causes_ok)
		fprintf(f, "\n![mmap_lock fallbacks by cause](plot-fallback-causes.svg)\n");

	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		struct mlist ml = { 0 };
		char **cls;
		size_t ncls;
		build_measures(res, scen, &ml, &cls, &ncls);
		fprintf(f, "\n## Scenario %s\n\n| measure |", scen);
		for (size_t k = 0; k < res->nk; k++) {
			fprintf(f, " %s |", res->kernels[k]);
			if (k)
				fprintf(f, " ratio %s/%s |", res->kernels[k], b);
		}
		fprintf(f, "\n|---|");
		for (size_t k = 0; k < res->nk; k++)
			fprintf(f, k ? "---:|---:|" : "---:|");
		fprintf(f, "\n");
		struct cell *cells = xcalloc(res->nk, sizeof(*cells));
		for (size_t i = 0; i < ml.n; i++) {
			const struct measure *m = &ml.m[i];
			if (m->section) {
				fprintf(f, "| %s |", m->label);
				for (size_t k = 0; k < res->nk; k++)
					fprintf(f, k ? " | |" : " |");
				fprintf(f, "\n");
				continue;
			}
			fprintf(f, "| %s |", m->label);
			for (size_t k = 0; k < res->nk; k++) {
				char cb[160], rb[32];
				cells[k] = compute(res, res->kernels[k], scen, m);
				fmt_cell(&cells[k], cb, sizeof(cb));
				fprintf(f, " %s |", cb);
				if (k) {
					fmt_ratio(&cells[k], &cells[0], rb, sizeof(rb));
					fprintf(f, " %s |", rb);
				}
			}
			fprintf(f, "\n");
		}
		free(cells);
		/* where the mmap_lock rows came from */
		int with = 0, without = 0;
		for (size_t i = 0; i < res->n; i++)
			if (!strcmp(res->r[i].scenario, scen) && res->r[i].status != RUN_FAILED)
				res->r[i].tr.have_mmap_lock ? with++ : without++;
		fprintf(f, "\nmmap_lock rows: %d run(s) from trace.json, %d from module counters.\n",
			with, without);
		struct sbuf l = { 0 };
		run_lists(res, scen, &l);
		if (l.s)
			fprintf(f, "%s", l.s);
		sb_free(&l);

		char name[200];
		const char *hc;
		if (plot_latency(res, o, scen, name, sizeof(name), &hc) == 0)
			fprintf(f, "\n![%s: %s-class latency CDF](%s.svg)\n", scen, hc, name);
		if (plot_attempts(res, o, scen, name, sizeof(name)) == 0)
			fprintf(f, "\n![%s: attempts per fault](%s.svg)\n", scen, name);

		for (size_t c = 0; c < ncls; c++)
			free(cls[c]);
		free(cls);
		free(ml.m);
	}
	fprintf(f, "\n%s", definitions);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: rs-report RESULTS_DIR [--kernels \"stock rfc ...\"] [--baseline stock]\n"
		   "                 [-o report.md]\n"
		   "  RESULTS_DIR/<kernel>/<scenario>/<n>/ as written by scripts/capture;\n"
		   "  writes report.md (default RESULTS_DIR/report.md) and plot-*.svg next to it,\n"
		   "  prints the headline table to stdout.\n");
}

int main(int argc, char **argv)
{
	struct opts o = { NULL, NULL, NULL, NULL, NULL };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--baseline") && i + 1 < argc)
			o.baseline = argv[++i];
		else if (!strncmp(argv[i], "--baseline=", 11))
			o.baseline = argv[i] + 11;
		else if (!strcmp(argv[i], "--kernels") && i + 1 < argc)
			o.kernels = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			o.out = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "rs-report: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!o.dir)
			o.dir = argv[i];
		else {
			fprintf(stderr, "rs-report: more than one RESULTS_DIR given\n");
			return 2;
		}
	}
	if (!o.dir) {
		usage(stderr);
		return 2;
	}
	struct results res;
	results_load(&res, o.dir);
	if (o.kernels && results_order(&res, o.kernels))
		fatal("%s: --kernels \"%s\" names a kernel with no runs", o.dir, o.kernels);
	if (!o.baseline)
		o.baseline = res.kernels[0] && o.kernels ? res.kernels[0] : "stock";
	if (results_baseline_first(&res, o.baseline))
		fatal("%s: baseline kernel \"%s\" has no runs (kernels: %s%s%s)", o.dir, o.baseline,
		      res.kernels[0], res.nk > 1 ? ", " : "", res.nk > 1 ? res.kernels[1] : "");
	char *outpath = o.out ? xstrdup(o.out) : xasprintf("%s/report.md", o.dir);
	char *tmp = xstrdup(outpath);
	o.outdir = xstrdup(dirname(tmp));
	free(tmp);

	struct sbuf head = { 0 };
	headline(&res, &head);
	FILE *f = fopen(outpath, "w");
	if (!f)
		fatal("%s: %s", outpath, strerror(errno));
	write_report(&res, &o, f, &head);
	if (fclose(f))
		fatal("%s: %s", outpath, strerror(errno));
	fputs(head.s, stdout);
	struct sbuf lists = { 0 };
	run_lists(&res, NULL, &lists);
	if (lists.s)
		fputs(lists.s, stdout);
	printf("\nreport: %s\n", outpath);
	sb_free(&lists);
	sb_free(&head);
	free(outpath);
	free(o.outdir);
	results_free(&res);
	return 0;
}

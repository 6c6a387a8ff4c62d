/* waitchains.c: the report's "Wait chains" section; see waitchains.h. */
#include "waitchains.h"
#include "measures.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOP_TOTALS 8  /* rows per kernel */
#define TOP_CHAINS 3  /* chains written out per kernel */

struct agg {
	const struct chain_total *key; /* names from the first run that had it */
	double chains, wait_ns, overlap_ns, preempted_ns, sleeping_ns;
};

struct line {
	const struct chain_line *l;
	const struct run *r;
};

static int same_key(const struct chain_total *a, const struct chain_total *b)
{
	return !strcmp(a->waiter, b->waiter) && !strcmp(a->member, b->member) &&
	       !strcmp(a->role, b->role) && !strcmp(a->reason, b->reason) &&
	       !strcmp(a->cause, b->cause);
}

static int by_wait(const void *x, const void *y)
{
	const struct agg *a = x, *b = y;
	return a->wait_ns < b->wait_ns ? 1 : a->wait_ns > b->wait_ns ? -1 : 0;
}

static int by_line_wait(const void *x, const void *y)
{
	const struct line *a = x, *b = y;
	return a->l->wait_ns < b->l->wait_ns ? 1 : a->l->wait_ns > b->l->wait_ns ? -1 : 0;
}

static int usable(const struct run *r, const char *kernel, const char *scen)
{
	return !strcmp(r->kernel, kernel) && !strcmp(r->scenario, scen) &&
	       run_counted(r) && r->tr.have_chains;
}

static void write_kernel(FILE *f, const struct results *res, const char *scen,
			 const char *kernel)
{
	struct agg *a = NULL;
	struct line *ls = NULL;
	size_t na = 0, nl = 0;
	int runs = 0;
	double waits = 0, waits_1ms = 0, thr = 0, wait_ns = 0, unc_ns = 0;

	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (!usable(r, kernel, scen))
			continue;
		runs++;
		waits += r->tr.chain_waits;
		waits_1ms += r->tr.chain_waits_1ms;
		wait_ns += r->tr.chain_wait_ns;
		unc_ns += r->tr.chain_uncovered_ns;
		thr = r->tr.chain_threshold_ns;
		for (size_t c = 0; c < r->tr.nct; c++) {
			const struct chain_total *t = &r->tr.ct[c];
			size_t k = 0;
			while (k < na && !same_key(a[k].key, t))
				k++;
			if (k == na) {
				a = xrealloc(a, (na + 1) * sizeof(*a));
				a[na++] = (struct agg){ .key = t };
			}
			a[k].chains += t->chains;
			a[k].wait_ns += t->wait_ns;
			a[k].overlap_ns += t->overlap_ns;
			a[k].preempted_ns += t->preempted_ns;
			a[k].sleeping_ns += t->sleeping_ns;
		}
		for (size_t c = 0; c < r->tr.ncl; c++) {
			ls = xrealloc(ls, (nl + 1) * sizeof(*ls));
			ls[nl++] = (struct line){ &r->tr.cl[c], r };
		}
	}
	if (!runs)
		return;
	fprintf(f, "\n**%s**: %.0f waits of %.0f µs or more in %d run(s), %.0f of them 1 ms or "
		   "more; %.1f ms of waiting in all, %.1f ms (%.0f%%) of it with nobody holding "
		   "or ahead (the lock free, the waiter not yet running).\n",
		kernel, waits, thr / 1000, runs, waits_1ms, wait_ns / 1e6, unc_ns / 1e6,
		wait_ns > 0 ? 100 * unc_ns / wait_ns : 0);
	if (na) {
		qsort(a, na, sizeof(*a), by_wait);
		fprintf(f, "\n| waiter ← member | role | reason | chains | their waits (ms) | "
			   "member's part (ms) | preempted (ms) | asleep (ms) |\n"
			   "|---|---|---|---:|---:|---:|---:|---:|\n");
		for (size_t k = 0; k < na && k < TOP_TOTALS; k++) {
			const struct chain_total *t = a[k].key;
			fprintf(f, "| %s ← %s | %s | %s%s%s | %.0f | %.2f | %.2f | %.2f | %.2f |\n",
				t->waiter, t->member, t->role, t->reason, *t->cause ? " after " : "",
				t->cause, a[k].chains, a[k].wait_ns / 1e6, a[k].overlap_ns / 1e6,
				a[k].preempted_ns / 1e6, a[k].sleeping_ns / 1e6);
		}
		if (na > TOP_TOTALS)
			fprintf(f, "\n%zu smaller rows in the runs' trace.json.\n", na - TOP_TOTALS);
	}
	if (nl) {
		qsort(ls, nl, sizeof(*ls), by_line_wait);
		fprintf(f, "\nLongest:\n\n");
		for (size_t k = 0; k < nl && k < TOP_CHAINS; k++)
			fprintf(f, "- run %s: %s\n", ls[k].r->name, ls[k].l->text);
	}
	free(a);
	free(ls);
}

/* Every (member, role, reason, cause) the hi thread (waiter fl-hi) waited
 * on in some counted run of scen, over all kernels: the rows of the
 * comparison table; *n of them. */
static const struct chain_total **hi_keys(const struct results *res, const char *scen, size_t *n)
{
	const struct chain_total **keys = NULL;

	*n = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];

		if (strcmp(r->scenario, scen) || !run_counted(r) || !r->tr.have_chains)
			continue;
		for (size_t c = 0; c < r->tr.nct; c++) {
			const struct chain_total *t = &r->tr.ct[c];
			size_t k = 0;

			if (strcmp(t->waiter, "fl-hi"))
				continue;
			while (k < *n && !(same_key(keys[k], t)))
				k++;
			if (k == *n) {
				keys = xrealloc(keys, (*n + 1) * sizeof(*keys));
				keys[(*n)++] = t;
			}
		}
	}
	return keys;
}

/* The member's part (ms) per run of key's chains of kernel in scen: the
 * sum over its counted runs divided by their number; NaN without runs. */
static double hi_part_per_run(const struct results *res, const char *scen, const char *kernel,
			      const struct chain_total *key)
{
	double sum = 0;
	int runs = 0;

	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];

		if (!usable(r, kernel, scen))
			continue;
		runs++;
		for (size_t c = 0; c < r->tr.nct; c++)
			if (same_key(&r->tr.ct[c], key))
				sum += r->tr.ct[c].overlap_ns;
	}
	return runs ? sum / runs / 1e6 : NAN;
}

/* Row j's largest value over n kernels (NaN ones skipped; 0 when none). */
static double row_max(const double *v, size_t j, size_t n)
{
	double m = 0;

	for (size_t k = 0; k < n; k++)
		m = v[j * n + k] > m ? v[j * n + k] : m;
	return m;
}

/* The inversion, kernel beside kernel: the hi thread's own mmap_lock wait
 * split into its faults' read waits and its syscalls' write waits (medians
 * over runs), then whom it waited on (the chains' member's part per run). */
static void write_hi_blame(FILE *f, const struct results *res, const char *scen)
{
	static const struct row split[] = {
		{ .label = "fl-hi's read wait: its faults (median, ms)", .src = SRC_MMAP_LOCK,
		  .hi = 1, .mode = LOCK_READ, .lock = LOCK_WAIT_MS },
		{ .label = "fl-hi's write wait: its mmap/munmap/mprotect (median, ms)",
		  .src = SRC_MMAP_LOCK, .hi = 1, .mode = LOCK_WRITE, .lock = LOCK_WAIT_MS },
	};
	size_t nkeys;
	const struct chain_total **keys = hi_keys(res, scen, &nkeys);
	char b[64];

	fprintf(f, "\nThe high-priority thread's waits, kernel beside kernel: its own wait split "
		   "by mode, then whom it waited on (the member's part of fl-hi's chains, ms per "
		   "run):\n\n");
	md_head(f, "| fl-hi |", "|---|", res->kernels, res->nk, "---:|");
	for (size_t i = 0; i < sizeof(split) / sizeof(*split); i++) {
		fprintf(f, "| %s |", split[i].label);
		for (size_t k = 0; k < res->nk; k++) {
			double v = cell_median(res, res->kernels[k], scen, &split[i], NULL);

			fprintf(f, " %s |", isnan(v) ? "n/a" : fmt_num(v, b, sizeof(b)));
		}
		fprintf(f, "\n");
	}
	/* the rows by their largest value over the kernels; under 1 ms, counted */
	double *v = xcalloc(nkeys * res->nk + 1, sizeof(*v));
	size_t *order = xcalloc(nkeys + 1, sizeof(*order)), small = 0;

	for (size_t j = 0; j < nkeys; j++) {
		order[j] = j;
		for (size_t k = 0; k < res->nk; k++)
			v[j * res->nk + k] = hi_part_per_run(res, scen, res->kernels[k], keys[j]);
	}
	for (size_t a = 1; a < nkeys; a++) /* insertion sort: a few rows */
		for (size_t c = a; c > 0 && row_max(v, order[c], res->nk) >
					    row_max(v, order[c - 1], res->nk); c--) {
			size_t tmp = order[c];

			order[c] = order[c - 1];
			order[c - 1] = tmp;
		}
	for (size_t o = 0; o < nkeys; o++) {
		size_t j = order[o];
		const struct chain_total *t = keys[j];

		if (row_max(v, j, res->nk) < 1) {
			small++;
			continue;
		}
		fprintf(f, "| ← %s (%s, %s%s%s) |", t->member, t->role, t->reason,
			*t->cause ? " after " : "", t->cause);
		for (size_t k = 0; k < res->nk; k++) {
			double x = v[j * res->nk + k];

			fprintf(f, " %s |", isnan(x) ? "n/a" : fmt_num(x, b, sizeof(b)));
		}
		fprintf(f, "\n");
	}
	if (small)
		fprintf(f, "\n%zu more members, under 1 ms a run on every kernel.\n", small);
	free(v);
	free(order);
	free(keys);
}

void write_wait_chains(FILE *f, const struct results *res)
{
	int header = 0;
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		int has_hi = scenario_has_class(res, scen, "hi"), has_chains = 0;
		for (size_t i = 0; i < res->n; i++)
			has_chains |= !strcmp(res->r[i].scenario, scen) && res->r[i].tr.have_chains;
		if (!has_hi || !has_chains)
			continue;
		if (!header++)
			fprintf(f, "\n## Wait chains\n\n"
				   "Who an mmap_lock wait waited for (rs-trace, from every task's "
				   "mmap_lock, sched_switch and retryscope events; sums over the runs). "
				   "A member *held* the lock during the wait or was *queued* for it "
				   "before the wait began; its reason is a fault's fallback to "
				   "mmap_lock (after file or swap I/O, ...), a write (mmap, munmap, "
				   "mprotect: syscalls) or another read; *preempted* and *asleep* are "
				   "the parts of its hold it spent off CPU.  Every scenario's chains "
				   "are in its runs' trace.json.\n");
		fprintf(f, "\n### %s\n", scen);
		write_hi_blame(f, res, scen);
		for (size_t k = 0; k < res->nk; k++)
			write_kernel(f, res, scen, res->kernels[k]);
	}
}

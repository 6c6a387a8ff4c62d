/* options.c: the Summary's options table, the lines each series changes and
 * the "Readahead" section; see options.h. */
#include "options.h"
#include "measures.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "key=value" of RESULTS/<kernel>/complexity (scripts/compare), or NAN. */
static double complexity_get(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == '=')
			return strtod(p + n + 1, NULL);
	return NAN;
}

/* Complexity next to effect (issue 17): the lines each kernel's series
 * changes, from the complexity files make compare writes; nothing when no
 * kernel has one. */
void write_complexity(FILE *f, const struct results *res)
{
	static const char *const area[] = { "mm", "arch", "other" };
	int any = 0, aa = aa_kernel(res);
	for (size_t k = 0; k < res->nk; k++) {
		if ((int)k == aa)	/* the baseline again: the same 0 lines */
			continue;
		char *path = xasprintf("%s/%s/complexity", res->dir, res->kernels[k]);
		size_t len;
		char *text = read_file(path, &len);
		free(path);
		if (!text)
			continue;
		if (!any++)
			fprintf(f, "\nLines each series changes (+added −removed; mm: mm/ and the mm "
				   "headers):\n\n| kernel | patches | mm | arch | other |\n"
				   "|---|---:|---:|---:|---:|\n");
		fprintf(f, "| %s | %.0f |", res->kernels[k], complexity_get(text, "patches"));
		for (size_t a = 0; a < sizeof(area) / sizeof(*area); a++) {
			char ka[32], kr[32];
			snprintf(ka, sizeof(ka), "%s_added", area[a]);
			snprintf(kr, sizeof(kr), "%s_removed", area[a]);
			double add = complexity_get(text, ka), rm = complexity_get(text, kr);
			if (isnan(add) || isnan(rm))
				fprintf(f, " n/a |");
			else
				fprintf(f, " +%.0f −%.0f |", add, rm);
		}
		fprintf(f, "\n");
		free(text);
	}
}


double complexity_lines(const struct results *res, size_t k, const char *area)
{
	char *path = xasprintf("%s/%s/complexity", res->dir, res->kernels[k]);
	size_t len;
	char *text = read_file(path, &len);
	char ka[32], kr[32];
	double v = NAN;

	free(path);
	if (!text)
		return NAN;
	snprintf(ka, sizeof(ka), "%s_added", area);
	snprintf(kr, sizeof(kr), "%s_removed", area);
	v = complexity_get(text, ka) + complexity_get(text, kr);
	free(text);
	return v;
}

/* The first scenario of the results named one of names[], or NULL. */
static const char *first_of(const struct results *res, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t s = 0; s < res->ns; s++)
			if (!strcmp(res->scenarios[s], names[i]))
				return res->scenarios[s];
	return NULL;
}

/* The first scenario in which some run has class cls, or NULL. */
static const char *scenario_with_class(const struct results *res, const char *cls)
{
	for (size_t s = 0; s < res->ns; s++)
		if (scenario_has_class(res, res->scenarios[s], cls))
			return res->scenarios[s];
	return NULL;
}

enum opt_col {
	OC_FALLBACKS, OC_REMOVED, OC_HI_WAIT, OC_FORK_P99, OC_FORK_MAX, OC_VMW_WAITS,
	OC_VMW_MS, OC_THRASH_RATE, OC_THRASH_MISS, OC_MM_LINES, OC_ARCH_LINES, NOPT_COLS
};

/* Each column's heading; %s: the scenario its figure comes from. */
static const char *const opt_head[NOPT_COLS] = {
	[OC_FALLBACKS] = "mmap_lock fallbacks (Σ)",
	[OC_REMOVED] = "removed vs %s",
	[OC_HI_WAIT] = "hi thread's mmap_lock wait, ms (%s)",
	[OC_FORK_P99] = "fork() p99, ms (%s)",
	[OC_FORK_MAX] = "fork() max, ms (%s)",
	[OC_VMW_WAITS] = "VMA write locks of fork() that waited (%s)",
	[OC_VMW_MS] = "their wait, ms (%s)",
	[OC_THRASH_RATE] = "thrash rounds/s",
	[OC_THRASH_MISS] = "thrash retry misses",
	[OC_MM_LINES] = "lines in mm/",
	[OC_ARCH_LINES] = "lines in arch/",
};

/* Kernel k's figure of column c; NAN where it has none. */
static double opt_value(const struct results *res, size_t k, enum opt_col c,
			const char *const *scen)
{
	static const struct row p99 = { .src = SRC_LATENCY, .per_class = 1, .quantile = 0.99 };
	static const struct row max = { .src = SRC_LATENCY, .per_class = 1, .quantile = Q_MAX };
	static const struct row rate = { .src = SRC_WORKLOAD, .wl = WL_THROUGHPUT };
	const char *kn = res->kernels[k], *s = scen[c];
	double v = NAN;

	if (c == OC_FALLBACKS || c == OC_REMOVED) {
		v = row_sum_medians(res, kn, &key_rows[KEY_FALLBACKS]);
		if (c == OC_REMOVED)
			v = opt_value(res, 0, OC_FALLBACKS, scen) - v;
		return v;
	}
	if (c == OC_MM_LINES || c == OC_ARCH_LINES)
		return complexity_lines(res, k, c == OC_MM_LINES ? "mm" : "arch");
	if (!s)
		return NAN;
	switch (c) {
	case OC_HI_WAIT:
		return cell_median(res, kn, s, &key_rows[KEY_HI_WAIT], NULL);
	case OC_FORK_P99:
		return cell_median(res, kn, s, &p99, "fork") / 1000;
	case OC_FORK_MAX:
		return cell_median(res, kn, s, &max, "fork") / 1000;
	case OC_VMW_WAITS:
		return counter_median(res, kn, s, "vma_write_lock_waited_fork");
	case OC_VMW_MS:
		return counter_median(res, kn, s, "vma_write_lock_wait_ns_fork") / 1e6;
	case OC_THRASH_RATE:
		return cell_median(res, kn, s, &rate, NULL);
	case OC_THRASH_MISS:
		return counter_median(res, kn, s, "filemap_retry_miss");
	default:
		return v;
	}
}

void write_options(FILE *f, const struct results *res)
{
	static const char *const fork_scen[] = { "fork-at-scale", "fork-during-io" };
	static const char *const thrash_scen[] = { "thrash" };
	const char *scen[NOPT_COLS] = { 0 };
	int shown[NOPT_COLS] = { 0 }, aa = aa_kernel(res);
	char nb[64];

	scen[OC_HI_WAIT] = scenario_with_class(res, "hi");
	scen[OC_FORK_P99] = scen[OC_FORK_MAX] = scen[OC_VMW_WAITS] = scen[OC_VMW_MS] =
		first_of(res, fork_scen, 2);
	scen[OC_THRASH_RATE] = scen[OC_THRASH_MISS] = first_of(res, thrash_scen, 1);
	for (int c = 0; c < NOPT_COLS; c++)
		for (size_t k = 0; k < res->nk; k++)
			shown[c] |= !isnan(opt_value(res, k, c, scen));
	fprintf(f, "\nWhat each option buys and what it costs, per kernel (medians over "
		   "runs; in brackets, the scenario a figure comes from):\n\n| kernel |");
	for (int c = 0; c < NOPT_COLS; c++) {
		if (!shown[c])
			continue;
		fputc(' ', f);
		fprintf(f, opt_head[c], c == OC_REMOVED ? res->kernels[0] : scen[c]);
		fprintf(f, " |");
	}
	fprintf(f, "\n|---|");
	for (int c = 0; c < NOPT_COLS; c++)
		if (shown[c])
			fprintf(f, "---:|");
	fprintf(f, "\n");
	for (size_t k = 0; k < res->nk; k++) {
		if ((int)k == aa)
			continue;
		fprintf(f, "| %s |", res->kernels[k]);
		for (int c = 0; c < NOPT_COLS; c++) {
			if (!shown[c])
				continue;
			double v = opt_value(res, k, c, scen);
			fprintf(f, " %s |", isnan(v) ? "n/a" : fmt_num(v, nb, sizeof(nb)));
		}
		fprintf(f, "\n");
	}
}

/* The run's read_ahead_kb (meta), or NULL. */
static const char *scenario_ra(const struct results *res, const char *scen)
{
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->r[i].scenario, scen) && meta_get(&res->r[i], "read_ahead_kb"))
			return meta_get(&res->r[i], "read_ahead_kb");
	return NULL;
}

/* "retries / fallbacks per 1,000 faults (retries / fallbacks per run)" */
static void readahead_cell(FILE *f, const struct results *res, const char *kernel,
			   const char *scen)
{
	static const struct row retry_pk = { .src = SRC_COUNTER, .counter = "filemap_fault_retry",
					     .per = "user_faults" };
	static const struct row fb_pk = { .src = SRC_COUNTER, .counter = "fallback_after_file_io",
					  .per = "user_faults" };
	const double v[4] = {
		cell_median(res, kernel, scen, &retry_pk, NULL),
		cell_median(res, kernel, scen, &fb_pk, NULL),
		counter_median(res, kernel, scen, "filemap_fault_retry"),
		counter_median(res, kernel, scen, "fallback_after_file_io"),
	};
	char b[4][64];

	for (int i = 0; i < 4; i++)
		if (isnan(v[i]))
			snprintf(b[i], sizeof(b[i]), "n/a");
		else
			fmt_num(v[i], b[i], sizeof(b[i]));
	fprintf(f, " %s / %s (%s / %s) |", b[0], b[1], b[2], b[3]);
}

void write_readahead(FILE *f, const struct results *res)
{
	const char *first = NULL;
	int differ = 0;

	for (size_t s = 0; s < res->ns; s++) {
		const char *ra = scenario_ra(res, res->scenarios[s]);
		if (!ra)
			continue;
		if (first && strcmp(first, ra))
			differ = 1;
		first = first ? first : ra;
	}
	if (!first)
		return;
	fprintf(f, "\n## Readahead\n\nThe guest data disk's `read_ahead_kb` (scripts/capture "
		   "--read-ahead-kb; Android sets 128–512, the lab's virtio-blk disk would read "
		   "8192 KB per fault)");
	if (!differ) {
		fprintf(f, ": %s KB in every run.\n", first);
		return;
	}
	fprintf(f, ", and what it changes: each file scenario's file retries and mmap_lock "
		   "fallbacks after file I/O per 1,000 user faults (the share of faults that "
		   "waited for a read), then per run; medians over runs.\n\n");
	kernel_table_head(f, res, "| scenario | read_ahead_kb |", "|---|---:|");
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s], *ra = scenario_ra(res, scen);
		if (!ra || !(counter_median(res, res->kernels[0], scen, "filemap_fault_calls") > 0))
			continue;
		fprintf(f, "| %s | %s |", scen, ra);
		for (size_t k = 0; k < res->nk; k++)
			readahead_cell(f, res, res->kernels[k], scen);
		fprintf(f, "\n");
	}
}

/* One kernel's forks in scen, pooled over its counted runs. */
struct fork_sum {
	double forks, fork_ns, vma_ns, lock_ns, max_ns;
	struct st_hist h;
	int runs, no_vma, no_lock; /* runs without the VMA or the lock figure */
};

static void fork_sum(const struct results *res, const char *kernel, const char *scen,
		     struct fork_sum *s)
{
	memset(s, 0, sizeof(*s));
	st_hist_init(&s->h);
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		const struct wclass *c = workload_class(&r->wl, "fork");

		if (!run_counted(r) || strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) ||
		    !c || !c->lat.present || isnan(c->ops) || isnan(c->lat.mean))
			continue;
		s->runs++;
		s->forks += c->ops;
		s->fork_ns += c->ops * c->lat.mean;
		double vma = counter_delta(&r->stats, "vma_write_lock_wait_ns_fork");

		/* an older module has no such counter, a trace no by_comm */
		if (isnan(vma))
			s->no_vma++;
		else
			s->vma_ns += vma;
		if (!r->tr.have_by_comm)
			s->no_lock++;
		s->lock_ns += r->tr.forker[LOCK_WRITE].wait_ns_total;
		s->max_ns = c->lat.max > s->max_ns ? c->lat.max : s->max_ns;
		if (st_hist_merge(&s->h, &c->lat.hist))
			fatal("out of memory");
	}
}

/* fork()'s cost, kernel by kernel, over every fork of every run (issue 29
 * item 5): the mean fork split into its wait for VMA write locks (module,
 * __vma_start_write from dup_mmap), its wait for mmap_lock (fl-main's write
 * waits, trace.json) and the rest (copying the page tables and VMAs). */
void write_fork_cost(FILE *f, const struct results *res)
{
	for (size_t sc = 0; sc < res->ns; sc++) {
		const char *scen = res->scenarios[sc];

		if (!scenario_has_class(res, scen, "fork"))
			continue;
		fprintf(f, "\n## fork() cost: %s (exploratory)\n\nEvery fork of every run pooled "
			   "(p99 only over 100 forks or more, else the max); the mean fork split into "
			   "its wait for the VMAs' write locks (module: `vma_write_lock_wait_ns_fork`), "
			   "its wait for mmap_lock (trace.json: fl-main's write waits) and the rest "
			   "(copying page tables and VMAs, and the time it was not running).\n\n"
			   "| kernel | forks (runs) | mean (ms) | p50 (ms) | p99 or max (ms) | VMA "
			   "write-lock wait (ms a fork) | mmap_lock wait (ms a fork) | the rest (ms a "
			   "fork) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
			scen);
		for (size_t k = 0; k < res->nk; k++) {
			struct fork_sum s;

			fork_sum(res, res->kernels[k], scen, &s);
			if (!s.forks) {
				fprintf(f, "| %s | 0 (%d) | n/a | n/a | n/a | n/a | n/a | n/a |\n",
					res->kernels[k], s.runs);
				st_hist_free(&s.h);
				continue;
			}
			double n = s.forks, mean = s.fork_ns / n / 1e6;
			double vma = s.vma_ns / n / 1e6, lock = s.lock_ns / n / 1e6;
			double p50 = st_hist_quantile(&s.h, 0.5) / 1e6;
			double p99 = n >= 100 ? st_hist_quantile(&s.h, 0.99) / 1e6 : NAN;
			double max = s.max_ns;
			char cv[32], cl[32], cr[32];

			/* a part some run lacks is n/a, and so is the rest */
			snprintf(cv, sizeof(cv), "%.3f", vma);
			snprintf(cl, sizeof(cl), "%.3f", lock);
			snprintf(cr, sizeof(cr), "%.2f", mean - vma - lock);
			if (s.no_vma)
				snprintf(cv, sizeof(cv), "n/a");
			if (s.no_lock)
				snprintf(cl, sizeof(cl), "n/a");
			if (s.no_vma || s.no_lock)
				snprintf(cr, sizeof(cr), "n/a");
			fprintf(f, "| %s | %.0f (%d) | %.2f | %.2f | %.2f%s | %s | %s | %s |\n",
				res->kernels[k], n, s.runs, mean, p50, isnan(p99) ? max / 1e6 : p99,
				isnan(p99) ? " (max)" : "", cv, cl, cr);
			st_hist_free(&s.h);
		}
	}
}

/* report.c: report.md section by section; see report.h.  The rows of a
 * scenario's table come from measures.c, the headline and the summary from
 * summary.c, the plots from plots.c, the selftest table from selftests.c,
 * the wait chains from waitchains.c. */
#include "report.h"
#include "decision.h"
#include "dropsites.h"
#include "faultlat.h"
#include "measures.h"
#include "options.h"
#include "plots.h"
#include "selftests.h"
#include "summary.h"
#include "waitchains.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

void run_lists(const struct results *res, const char *scen, struct sbuf *b)
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
			sb_printf(b, "- lossy run %s/%s/%s: %s (excluded)\n", r->kernel,
				  r->scenario, r->name, r->reason);
		else if (r->status == RUN_FAILED)
			sb_printf(b, "- failed run %s/%s/%s: %s (excluded)\n", r->kernel, r->scenario,
				  r->name, r->reason);
		if (r->tr.lost_events > 0)
			sb_printf(b, "- run %s/%s/%s: trace.json reports %.0f lost trace events (excluded)\n",
				  r->kernel, r->scenario, r->name, r->tr.lost_events);
	}
}

static const char definitions[] =
	"## Definitions\n\n"
	"Each cell is the median over the ok runs of that kernel and scenario (failed and lossy "
	"runs, and runs that lost trace events, are left out), with the smallest and largest run "
	"in brackets; the ratio column is the kernel's median divided by the baseline's median "
	"(— when the baseline median is 0 or n/a); n/a means the value was missing in every "
	"run (a counter that the module or kernel does not have).\n\n"
	"mmap_lock measures follow the cover letter of the VM_FAULT_RETRY_VMA series "
	"(\"mmap_lock Acquisitions And Wait Time\"):\n\n"
	"- **read/write acquisitions** (\"Read/Write Lock Count\"): mmap_lock acquisitions in read "
	"or write mode that went through `mmap_lock_start_locking` and ended in a successful "
	"`mmap_lock_acquire_returned`, by the workload's tasks (comm prefix of rs-trace, `" RS_COMM_PREFIX "`). "
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
	"did not try the VMA lock). **Per 1,000 I/O retries**: 1000 × fallbacks / the "
	"`VM_FAULT_RETRY` returns of `filemap_fault()` and `do_swap_page()`, per run. Not per "
	"major fault: `mm_account_fault()` counts a fault as major when its last attempt had "
	"`FAULT_FLAG_TRIED`, which the stock retry under `mmap_lock` sets and the series' retry "
	"under the VMA lock does not, so the same I/O makes fewer major faults on a patched "
	"kernel and `major faults` is not comparable between them.\n"
	"- **attempts per fault**: how many times one fault was handled before it completed "
	"(1 = no retry); max attempts is the counter's value after the run, not a delta.\n"
	"- **op latency**: per workload class, quantiles over the class's latency histogram of "
	"its ops (a touch, a read, the hi thread's frame: only some of them fault, so this is "
	"not a fault's latency; threads merged per run, linear interpolation inside a bucket, "
	"clamped to the observed min/max), then the median across runs; max is the longest op "
	"seen in a run.\n"
	"- **per-fault latency**: the module's (docs/counters.md), faults of a kernel's runs "
	"pooled.\n";

/* ---- the top: title, marked kernels, kernels, runs ---- */

static void write_title(FILE *f, const struct results *res)
{
	char *dcopy = xstrdup(res->dir);
	size_t dl = strlen(dcopy);
	while (dl > 1 && dcopy[dl - 1] == '/')
		dcopy[--dl] = 0;
	fprintf(f, "# retryscope report: %s\n\n", basename(dcopy));
	free(dcopy);
	/* the run id only: a host's path says nothing to a reader */
}

/* The Safety section (selftests.c) into a string, and its marks. */
static char *safety_section(const struct results *res, struct sbuf *marks)
{
	char *safety = NULL;
	size_t safety_len = 0;
	FILE *sf = open_memstream(&safety, &safety_len);
	if (!sf)
		fatal("open_memstream: %s", strerror(errno));
	selftests_report(res, marks, sf);
	if (fclose(sf))
		fatal("selftests section: %s", strerror(errno));
	return safety;
}

/* Safety first: the kernels that crashed in a run (status crash=, or an
 * old status's reason) or fail selftests that the baseline passes (marks
 * from the selftests). */
static void write_marks(FILE *f, const struct results *res, struct sbuf *marks)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (!r->crash)
			continue;
		sb_printf(marks, "- **%s: %s/%s: ", r->kernel, r->scenario, r->name);
		if (!r->status_keys) /* the reason is where the crash was read */
			sb_printf(marks, "%s**\n", r->reason);
		else if (*r->reason)
			sb_printf(marks, "guest %s (%s)**\n", r->crash, r->reason);
		else
			sb_printf(marks, "guest %s**\n", r->crash);
	}
	if (marks->s)
		fprintf(f, "## Marked kernels\n\n%s\n", marks->s);
}

/*
 * Guest crashes by kernel, and what they look like: one kernel crashing
 * again and again while the others never do is a finding about that
 * kernel; crashes spread over kernels look like the lab
 * (docs/known-problems.md: text patching under multi-threaded TCG).  A
 * hang is the host's time limit running out, which a hung kernel and a
 * guest the host starved of CPU both cause: hangs are counted apart and
 * the verdict is drawn from the other crashes only.
 */
static bool crash_is_hang(const struct run *r)
{
	return r->crash && !strcmp(r->crash, "hang");
}

static void write_crash_verdict(FILE *f, const struct results *res)
{
	size_t total = 0, hangs = 0, kernels = 0, worst = 0, worst_k = 0;

	for (size_t i = 0; i < res->n; i++)
		total += res->r[i].crash != NULL;
	if (!total)
		return;
	total = 0;
	fprintf(f, "\nGuest crashes by kernel:");
	for (size_t k = 0; k < res->nk; k++) {
		size_t n = 0, nh = 0;

		for (size_t i = 0; i < res->n; i++) {
			if (!res->r[i].crash || strcmp(res->r[i].kernel, res->kernels[k]))
				continue;
			n++;
			nh += crash_is_hang(&res->r[i]);
		}
		fprintf(f, " %s %zu%s", res->kernels[k], n, k + 1 < res->nk ? "," : ".");
		hangs += nh;
		total += n - nh;
		kernels += n > nh;
		if (n - nh > worst)
			worst = n - nh, worst_k = k;
	}
	if (hangs)
		fprintf(f, " %zu of them %s: the host stopped a guest that had not finished within its time limit, which a hung kernel and a guest the host starved of CPU both cause (each run's meta.host has the host's CPU time); %s not counted in what follows.",
			hangs, hangs == 1 ? "is a hang" : "are hangs", hangs == 1 ? "it is" : "they are");
	if (total == 0)
		fprintf(f, "\n");
	else if (total == 1)
		fprintf(f, " One crash alone cannot tell a kernel's bug from the lab's (docs/known-problems.md).\n");
	else if (kernels == 1 && res->nk > 1)
		fprintf(f, " They repeat on %s only: that looks like a finding about that kernel, not lab noise.\n",
			res->kernels[worst_k]);
	else
		fprintf(f, " They are spread over %zu kernels: that looks like the lab (docs/known-problems.md), not one kernel.\n",
			kernels);
}

static void write_kernels(FILE *f, const struct results *res)
{
	static const char *const keys[] = { "release", "arch", "config_hash", "accel", "cpu_model" };
	fprintf(f, "| kernel | release | arch | config | accel | CPU |\n|---|---|---|---|---|---|\n");
	for (size_t k = 0; k < res->nk; k++) {
		fprintf(f, "| %s |", res->kernels[k]);
		for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
			struct sbuf v = { 0 };
			meta_values(res, res->kernels[k], keys[i], &v);
			fprintf(f, " %s |", v.s);
			sb_free(&v);
		}
		fprintf(f, "\n");
	}
}

static void write_run_counts(FILE *f, const struct results *res)
{
	fprintf(f, "\nRuns per scenario (the figures come from the ok runs; lossy and failed runs are left out):\n\n");
	md_head(f, "| scenario |", "|---|", res->kernels, res->nk, "---|");
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
}

/* ---- headline, summary ---- */

static void write_headline(FILE *f, const struct results *res, const struct sbuf *head)
{
	fprintf(f, "\n## Headline (exploratory)\n\nMedian [min–max] over runs; (×r) is the ratio of "
		   "medians to %s; \"noise\" where the runs cannot tell the two apart (Mann-Whitney "
		   "p ≥ %.2g, uncorrected) or the ratio is within the A/A copy's; \"too few runs\" "
		   "where there are too few for the test to reach p < %.2g however far apart they are "
		   "(fewer than 4 a side).\n\n%s",
		res->kernels[0], NOISE_P, NOISE_P, head->s);
	struct sbuf lists = { 0 };
	run_lists(res, NULL, &lists);
	if (lists.s)
		fprintf(f, "%s", lists.s);
	sb_free(&lists);
}

static void write_summary(FILE *f, const struct results *res, const struct decision *d)
{
	if (res->nk < 2)
		return;
	struct sbuf sum = { 0 };
	decision_claims(res, d, &sum);
	fprintf(f, "\n## Summary\n\nThe claims of the Decision section, each with its CI and "
		   "corrected p; nothing else in this report is a claim.\n\n%s",
		sum.s ? sum.s : "");
	sb_free(&sum);
	fprintf(f, "\nDescriptive, not tested (medians over runs):\n");
	write_options(f, res);
	write_complexity(f, res);
}

/* ---- a scenario ---- */

/* One table row: label, then each kernel's cell and its ratio to the
 * baseline; a section row has empty cells. */
/* The labels of the rows that were 0 in every run of every kernel: not
 * written as rows, but listed in one line under the table. */
static struct sbuf zero_rows;

/* Whether every kernel has the row and it is 0 in every run. */
static int all_zero(const struct results *res, const char *scen, const struct row *row,
		    const char *cls)
{
	for (size_t k = 0; k < res->nk; k++) {
		struct cell c = cell_of(res, res->kernels[k], scen, row, cls);
		if (!c.s.n || c.s.min != 0 || c.s.max != 0)
			return 0;
	}
	return row->src != SRC_SECTION;
}

static void write_row(FILE *f, const struct results *res, const char *scen,
		      const struct row *row, const char *cls, const char *label)
{
	struct cell base = { { 0, NAN, NAN, NAN } };
	if (all_zero(res, scen, row, cls)) {
		while (!strncmp(label, "&nbsp;", 6))
			label += 6;
		sb_printf(&zero_rows, "%s%s", zero_rows.s ? ", " : "", label);
		return;
	}
	fprintf(f, "| %s |", label);
	for (size_t k = 0; k < res->nk; k++) {
		char cb[160], rb[32];
		if (row->src == SRC_SECTION) {
			fprintf(f, k ? " | |" : " |");
			continue;
		}
		struct cell c = cell_of(res, res->kernels[k], scen, row, cls);
		fmt_cell(&c, cb, sizeof(cb));
		fprintf(f, " %s |", cb);
		if (k) {
			fmt_ratio(&c, &base, rb, sizeof(rb));
			fprintf(f, " %s |", rb);
		} else {
			base = c;
		}
	}
	fprintf(f, "\n");
}

/* The rows from i on that have per_class set, once per class; returns the
 * index after them. */
static size_t write_class_rows(FILE *f, const struct results *res, const char *scen,
			       size_t i)
{
	const char **cls;
	size_t ncls = scenario_classes(res, scen, &cls), end = i;
	while (end < scenario_nrows && scenario_rows[end].per_class)
		end++;
	for (size_t c = 0; c < ncls; c++)
		for (size_t j = i; j < end; j++) {
			char *label = xasprintf("%s %s", cls[c], scenario_rows[j].label);
			write_row(f, res, scen, &scenario_rows[j], cls[c], label);
			free(label);
		}
	free(cls);
	return end;
}

/* A row with a list: one row per entry that has a counter. */
static void write_list_rows(FILE *f, const struct results *res, const char *scen,
			    const struct row *row)
{
	for (size_t e = 0; e < row->each->n; e++) {
		if (!strcmp(row->each->counter[e], NO_ROW))
			continue;
		struct row entry = row_entry(row, e);
		char *label = xasprintf("%s%s", row->label, row->each->text[e]);
		write_row(f, res, scen, &entry, NULL, label);
		free(label);
	}
}

/* Module counters that no row shows, as the runs of scen have them. */
static void write_other_counters(FILE *f, const struct results *res, const char *scen)
{
	static const struct row header = { .label = "**other module counters** (delta)",
					   .src = SRC_SECTION };
	const char **seen = NULL;
	size_t n = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		for (size_t k = 0; !strcmp(r->scenario, scen) && k < r->stats.n; k++) {
			const char *name = r->stats.v[k].name;
			int dup = measures_counter_shown(name);
			for (size_t j = 0; j < n; j++)
				dup |= !strcmp(seen[j], name);
			if (dup)
				continue;
			if (!n)
				write_row(f, res, scen, &header, NULL, header.label);
			seen = xrealloc(seen, (n + 1) * sizeof(*seen));
			seen[n++] = name;
			struct row row = { .label = name, .src = SRC_COUNTER, .counter = name };
			write_row(f, res, scen, &row, NULL, name);
		}
	}
	free(seen);
}

static void write_table(FILE *f, const struct results *res, const char *scen)
{
	fprintf(f, "\n## Scenario %s\n\n| measure |", scen);
	for (size_t k = 0; k < res->nk; k++) {
		fprintf(f, " %s |", res->kernels[k]);
		if (k)
			fprintf(f, " ratio %s/%s |", res->kernels[k], res->kernels[0]);
	}
	fprintf(f, "\n|---|");
	for (size_t k = 0; k < res->nk; k++)
		fprintf(f, k ? "---:|---:|" : "---:|");
	fprintf(f, "\n");
	int has_hi = scenario_has_class(res, scen, "hi");
	for (size_t i = 0; i < scenario_nrows;) {
		const struct row *row = &scenario_rows[i];
		if (row->hi && !has_hi) {
			i++;
			continue;
		}
		if (row->per_class) {
			i = write_class_rows(f, res, scen, i);
			continue;
		}
		if (row->each)
			write_list_rows(f, res, scen, row);
		else
			write_row(f, res, scen, row, NULL, row->label);
		i++;
	}
	write_other_counters(f, res, scen);
	if (zero_rows.s)
		fprintf(f, "\n0 in every run of every kernel: %s.\n", zero_rows.s);
	sb_free(&zero_rows);
	zero_rows = (struct sbuf){ 0 };
}

static void write_scenario(FILE *f, const struct results *res, const char *outdir,
			   const char *scen)
{
	write_table(f, res, scen);
	/* where the mmap_lock rows came from */
	int with = 0, without = 0;
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->r[i].scenario, scen) && run_counted(&res->r[i]))
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
	if (plot_latency(res, outdir, scen, name, sizeof(name), &hc) == 0)
		fprintf(f, "\n![%s: %s-class latency CCDF](%s.svg)\n", scen, hc, name);
	if (plot_attempts(res, outdir, scen, name, sizeof(name)) == 0)
		fprintf(f, "\n![%s: attempts per fault](%s.svg)\n", scen, name);
}

/* ---- the whole ---- */

void write_report(const struct results *res, const char *outdir, FILE *f,
		  const struct sbuf *head, FILE *scen_f, const char *scen_name)
{
	struct sbuf marks = { 0 };
	write_title(f, res);
	char *safety = safety_section(res, &marks);
	write_marks(f, res, &marks);
	sb_free(&marks);
	struct decision d;
	decision_compute(res, &d);
	write_decision(f, res, &d);
	write_summary(f, res, &d);
	decision_free(&d);
	fprintf(f, "\n## How it ran\n\n");
	write_kernels(f, res);
	write_crash_verdict(f, res);
	write_run_counts(f, res);
	write_headline(f, res, head);
	write_wait_chains(f, res);
	write_drop_sites(f, res);
	write_readahead(f, res);
	write_fork_cost(f, res);
	write_fault_latency(f, res);
	fputs(safety, f);
	free(safety);
	if (plot_causes(res, outdir) == 0)
		fprintf(f, "\n![mmap_lock fallbacks after file or swap I/O, log scale](plot-fallback-causes.svg)\n");
	fprintf(f, "\n## Every measure\n\nOne table per scenario, every measure of every kernel "
		   "(median [min–max] over runs, ratio to %s), with its plots and the definitions: "
		   "[%s](%s). Every number of every run: the CSV beside this report.\n",
		res->kernels[0], scen_name, scen_name);
	fprintf(scen_f, "# retryscope: every measure, per scenario\n\nThe appendix of the "
			"report beside it.\n");
	for (size_t s = 0; s < res->ns; s++)
		write_scenario(scen_f, res, outdir, res->scenarios[s]);
	fprintf(scen_f, "\n%s", definitions);
}

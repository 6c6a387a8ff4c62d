/* pair.c: rs-report --format pair; see pair.h. */
#include "pair.h"
#include "measures.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The headline's measures that the pair compares (KEY_P99 is replaced by
 * every class's latency; KEY_HI_WAIT only where there is a hi thread). */
static const enum key_row pair_keys[] = {
	KEY_FALLBACKS, KEY_KEPT, KEY_READ_WAIT, KEY_READ_1MS, KEY_WRITE_WAIT, KEY_WRITE_1MS,
	KEY_RETRIED_P99, KEY_ATTEMPTS3, KEY_HI_WAIT, KEY_THROUGHPUT,
};

struct side {
	double *v;
	size_t n;
	struct cell c;
};

/* The row's runs and cell for kernel's scen. */
static void collect(const struct results *res, const char *kernel, const char *scen,
		    const struct row *row, const char *cls, struct side *s)
{
	s->n = row_runs(res, kernel, scen, row, cls, &s->v);
	s->c = cell_of(res, kernel, scen, row, cls);
}

/* Whether every run of both kernels' scen has ops enough of cls for a p99. */
static int enough_for_p99(const struct results *res, const char *scen, const char *cls)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (!run_counted(r) || strcmp(r->scenario, scen) ||
		    (strcmp(r->kernel, res->kernels[0]) && strcmp(r->kernel, res->kernels[1])))
			continue;
		const struct wclass *c = workload_class(&r->wl, cls);
		if (c && !latency_resolves(&c->lat, 0.99))
			return 0;
	}
	return 1;
}

/* One measure: a table row; 1 when it moved. */
static int pair_row(FILE *f, const struct results *res, const char *scen, const char *label,
		    const struct row *row, const char *cls, int *rows)
{
	struct side a, b;
	char ca[96], cb[96], ratio[32], p[32], spread[32];
	int moved = 0;

	collect(res, res->kernels[0], scen, row, cls, &a);
	collect(res, res->kernels[1], scen, row, cls, &b);
	if (a.n == 0 && b.n == 0)
		goto out;
	fmt_cell(&a.c, ca, sizeof(ca));
	fmt_cell(&b.c, cb, sizeof(cb));
	fmt_ratio(&b.c, &a.c, ratio, sizeof(ratio));
	double pv = st_mann_whitney(a.v, a.n, b.v, b.n);
	double sp = a.n && a.c.s.median != 0 ? (a.c.s.max - a.c.s.min) / fabs(a.c.s.median) : NAN;
	if (isnan(pv))
		snprintf(p, sizeof(p), "—");
	else
		snprintf(p, sizeof(p), "%.3g", pv);
	if (isnan(sp))
		snprintf(spread, sizeof(spread), a.n && a.c.s.min == a.c.s.max ? "0%%" : "—");
	else
		snprintf(spread, sizeof(spread), "%.0f%%", 100 * sp);
	/* moved: the test says so and the change is larger than A's own spread
	 * (an A that is always 0 has spread 0: any B that differs moved) */
	if (!isnan(pv) && pv < NOISE_P && b.n) {
		double r = a.c.s.median != 0 ? b.c.s.median / a.c.s.median : INFINITY;
		double s = isnan(sp) ? 0 : sp;
		moved = fabs(r - 1) > s;
	}
	fprintf(f, "| %s | %s (%zu) | %s (%zu) | %s | %s | %s | %s |\n", label, ca, a.n, cb, b.n,
		ratio, p, spread, moved ? "**moved**" : "no");
	(*rows)++;
out:
	free(a.v);
	free(b.v);
	return moved;
}

static int has_runs(const struct results *res, const char *kernel, const char *scen)
{
	for (size_t i = 0; i < res->n; i++)
		if (!strcmp(res->r[i].kernel, kernel) && !strcmp(res->r[i].scenario, scen))
			return 1;
	return 0;
}

int write_pair(FILE *f, const struct results *res)
{
	const char *ka = res->kernels[0], *kb = res->kernels[1];
	int moved = 0, rows = 0;

	fprintf(f, "# %s (A) against %s (B)\n\n", ka, kb);
	fprintf(f, "Each cell: median [min–max] over the runs that did not fail (runs). "
		   "p: exact two-sided Mann-Whitney test over the runs. A's spread: "
		   "(max − min) / median of A. A measure **moved** when p < 0.05 and B/A "
		   "is further from 1 than A's spread. A latency is a p99 where every run "
		   "has 100 samples or more, else the max, and says so.\n");
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		if (!has_runs(res, ka, scen) || !has_runs(res, kb, scen))
			continue;
		fprintf(f, "\n## %s\n\n| measure | A: %s | B: %s | B/A | p | A's spread | moved |\n"
			   "|---|---:|---:|---:|---:|---:|---|\n", scen, ka, kb);
		for (size_t k = 0; k < sizeof(pair_keys) / sizeof(*pair_keys); k++) {
			const struct row *row = &key_rows[pair_keys[k]];
			if (pair_keys[k] == KEY_HI_WAIT && !scenario_has_class(res, scen, "hi"))
				continue;
			moved += pair_row(f, res, scen, row->label, row, NULL, &rows);
		}
		const char **cls;
		size_t nc = scenario_classes(res, scen, &cls);
		for (size_t c = 0; c < nc; c++) {
			int p99 = enough_for_p99(res, scen, cls[c]);
			struct row lat = { .src = SRC_LATENCY, .per_class = 1,
					   .quantile = p99 ? 0.99 : Q_MAX };
			char *label = xasprintf("%s op latency %s (µs)", cls[c],
						p99 ? "p99" : "max (under 100 samples a run)");
			moved += pair_row(f, res, scen, label, &lat, cls[c], &rows);
			free(label);
		}
		free(cls);
	}
	fprintf(f, "\n%d of %d measures moved (p < 0.05 and beyond A's spread).\n", moved, rows);
	return moved;
}

/* summary.c: the headline table and the Summary's claims; see summary.h. */
#include "summary.h"
#include "measures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One headline cell: kernel k's median of key row i (its range is in the
 * scenario's table) and its ratio to the baseline's, or what stands for
 * it: nothing when both are 0, "(stock 0)" when only the baseline's is. */
static void headline_cell(const struct results *res, struct sbuf *b, const char *scen,
			  size_t k, int i, int has_hi, struct cell *base)
{
	char cb[64];
	if (i == KEY_HI_WAIT && !has_hi) {
		sb_printf(b, " — |");
		return;
	}
	struct cell c = cell_of(res, res->kernels[k], scen, &key_rows[i], NULL);
	if (k == 0)
		*base = c;
	if (!c.s.n) {
		sb_printf(b, " n/a |");
		return;
	}
	sb_printf(b, " %s%s", fmt_num(c.s.median, cb, sizeof(cb)), c.lossy ? DAGGER : "");
	if (k > 0 && base->s.n && base->s.median > 0)
		sb_printf(b, " (×%.3g%s%s)", c.s.median / base->s.median, base->lossy ? DAGGER : "",
			  within_noise(res, scen, &key_rows[i], NULL, k) ? ", noise" : "");
	else if (k > 0 && base->s.n && c.s.median != 0)
		sb_printf(b, " (%s 0)", res->kernels[0]);
	if (i == KEY_HI_WAIT && !inversion_exercised(res, res->kernels[k], scen))
		sb_printf(b, " (inversion not exercised)");
	sb_printf(b, " |");
}

void headline(const struct results *res, struct sbuf *b)
{
	sb_printf(b, "| scenario | kernel |");
	for (int i = 0; i < NHEADLINE_COLS; i++)
		sb_printf(b, " %s |", key_rows[i].label);
	sb_printf(b, "\n|---|---|");
	for (int i = 0; i < NHEADLINE_COLS; i++)
		sb_printf(b, "---:|");
	sb_printf(b, "\n");
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		int has_hi = scenario_has_class(res, scen, "hi");
		struct cell base[NHEADLINE_COLS];
		for (size_t k = 0; k < res->nk; k++) {
			sb_printf(b, "| %s | %s |", scen, res->kernels[k]);
			for (int i = 0; i < NHEADLINE_COLS; i++)
				headline_cell(res, b, scen, k, i, has_hi, &base[i]);
			sb_printf(b, "\n");
		}
	}
}

/* The first scenario in which some run has class cls. */
static const char *find_scenario(const struct results *res, const char *cls)
{
	for (size_t s = 0; s < res->ns; s++)
		for (size_t i = 0; i < res->n; i++)
			if (!strcmp(res->r[i].scenario, res->scenarios[s]) &&
			    workload_class(&res->r[i].wl, cls))
				return res->scenarios[s];
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
	int aa = aa_kernel(res);
	for (size_t k = 1; k < res->nk; k++) {
		if (isnan(v[k]) || (int)k == aa)
			continue;
		if (!best || (want < 0 ? v[k] < v[best] : v[k] > v[best]))
			best = k;
	}
	if (!best) {
		sb_printf(b, "- %s: n/a (no variant has a value in %s)\n", what, where);
		return;
	}
	/* an effect inside the A/A noise band is no effect */
	double band = aa >= 0 && !isnan(v[aa]) && !isnan(v[0]) && v[0] != 0 ?
			      fabs(v[aa] / v[0] - 1) : NAN;
	if (!isnan(band) && fabs(v[best] / v[0] - 1) <= band) {
		sb_printf(b, "- **No difference** (%s): the furthest from %s is %s at ×%.3g, inside "
			     "the noise band of ±%.0f%% that two captures of %s differ by (%s ×%.3g); %s.\n",
			  what, res->kernels[0], res->kernels[best], v[best] / v[0], 100 * band,
			  res->kernels[0], res->kernels[aa], v[aa] / v[0], where);
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
	/* every candidate; the A/A copy of the baseline is noise, not one */
	if (res->nk > (aa >= 0 ? 3u : 2u)) {
		sb_printf(b, " All:");
		for (size_t k = 0; k < res->nk; k++)
			if ((int)k != aa)
				sb_printf(b, "%s %s %s%s", k ? "," : "", res->kernels[k],
					  fmt_num(v[k], nb, sizeof(nb)), unit);
		sb_printf(b, ".");
	}
	sb_printf(b, "\n");
}

/* Each kernel's median, min and max of a row in scen (NaN when it has none). */
static void range_of(const struct results *res, const char *scen, const struct row *row,
		     const char *cls, double *v, double *lo, double *hi)
{
	for (size_t k = 0; k < res->nk; k++) {
		struct cell c = cell_of(res, res->kernels[k], scen, row, cls);
		v[k] = c.s.n ? c.s.median : NAN;
		lo[k] = c.s.n ? c.s.min : NAN;
		hi[k] = c.s.n ? c.s.max : NAN;
	}
}

/* The hi thread's latency says something about the inversion only where it
 * waited on mmap_lock: each kernel none of whose runs of scen shows such a
 * wait (hi_waited) loses its value in v[] and is named.  Returns 0 when no
 * kernel is left (the claim is not made). */
static int inversion_guard(const struct results *res, struct sbuf *b, const char *scen,
			   double *v)
{
	int left = 0, named = 0;
	for (size_t k = 0; k < res->nk; k++) {
		if (!inversion_exercised(res, res->kernels[k], scen)) {
			sb_printf(b, "%s%s", named++ ? ", " : "- The high-priority thread: ",
				  res->kernels[k]);
			v[k] = NAN;
		} else if (k && !isnan(v[k])) {
			left++; /* a variant the claim can name */
		}
	}
	int go = left > 0 && !isnan(v[0]);
	if (named)
		sb_printf(b, ": this run did not exercise the inversion (in no run of %s did "
			     "fl-hi wait 100 µs or more on mmap_lock, trace.json), so its latency "
			     "is no verdict on it.%s\n",
			  scen, go ? "" : " No claim on the hi thread's p99 is made.");
	return go;
}

/* The claim on the p99 latency of class cls (who: its name in the text), in
 * the first scenario that has it; v, lo, hi are scratch of res->nk each. */
static void p99_claim(const struct results *res, struct sbuf *b, const char *cls,
		      const char *who, int want, const char *what, double *v, double *lo,
		      double *hi)
{
	const char *scen = find_scenario(res, cls);

	if (!scen)
		return;
	range_of(res, scen, &key_rows[KEY_P99], cls, v, lo, hi);
	if (!strcmp(cls, "hi") && !inversion_guard(res, b, scen, v))
		return;
	char *where = xasprintf("%s (median over runs of %s's p99)", scen, who);
	claim(res, b, v, lo, hi, want, what, " µs", where);
	free(where);
}

/* mmap_lock fallbacks: the sum over scenarios of each median. */
static void fallbacks_claim(const struct results *res, struct sbuf *b, double *v)
{
	for (size_t k = 0; k < res->nk; k++)
		v[k] = row_sum_medians(res, res->kernels[k], &key_rows[KEY_FALLBACKS]);
	claim(res, b, v, NULL, NULL, -1, "removes the most mmap_lock fallbacks", "",
	      "the sum over every scenario of its median");
}

/* The retry loop: the largest attempt count in same-pages runs. */
static void attempts_claims(const struct results *res, struct sbuf *b, double *v)
{
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		if (strncmp(scen, "same-pages", 10))
			continue;
		for (size_t k = 0; k < res->nk; k++) {
			struct cell c = cell_of(res, res->kernels[k], scen,
						&key_rows[KEY_ATTEMPTS_MAX], NULL);
			v[k] = c.s.n ? c.s.max : NAN;
		}
		char *where = xasprintf("%s (the largest over runs)", scen);
		claim(res, b, v, NULL, NULL, +1, "needs the most attempts for one fault", " attempts",
		      where);
		free(where);
	}
}

void summary(const struct results *res, struct sbuf *b)
{
	double *v = xcalloc(res->nk, sizeof(*v));
	double *lo = xcalloc(res->nk, sizeof(*lo));
	double *hi = xcalloc(res->nk, sizeof(*hi));

	fallbacks_claim(res, b, v);
	p99_claim(res, b, "hi", "the hi thread", -1,
		  "lowers the high-priority thread's p99 latency most (ui-inversion: per frame)", v, lo, hi);
	p99_claim(res, b, "fork", "fork()", +1, "has the worst fork latency", v, lo, hi);
	attempts_claims(res, b, v);
	free(v);
	free(lo);
	free(hi);
}

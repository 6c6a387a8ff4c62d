/* decision.c: the primary metrics, their tests against the pooled baseline,
 * and the report's first screen; see decision.h. */
#include "decision.h"
#include "measures.h"
#include "options.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the primary metrics, declared before any run is read ---- */

struct primary {
	const char *key;   /* the CSV's name */
	const char *label; /* the tables' text */
	const char *scen;
	const char *cls;   /* a per_class row's class */
	struct row row;
	int better;        /* -1: lower is better; +1: higher */
	int key_row;       /* the headline column it repeats, or -1 */
};

static const struct primary primaries[] = {
	{ "fallbacks_after_file_io", "mmap_lock fallbacks after file I/O (file-major)",
	  "file-major", NULL,
	  { .src = SRC_COUNTER, .counter = "fallback_after_file_io" }, -1, -1 },
	{ "fallbacks_after_swap_io", "mmap_lock fallbacks after swap I/O (swap-in)", "swap-in",
	  NULL, { .src = SRC_COUNTER, .counter = "fallback_after_swap_io" }, -1, -1 },
	{ "read_wait_ms", "mmap_lock read wait, ms (contended)", "contended", NULL,
	  { .src = SRC_MMAP_LOCK, .mode = LOCK_READ, .lock = LOCK_WAIT_MS }, -1, KEY_READ_WAIT },
	{ "hi_fault_wait_ms", "hi thread's fault-path mmap_lock wait, ms (ui-inversion)",
	  "ui-inversion", NULL,
	  { .src = SRC_MMAP_LOCK, .hi = 1, .mode = LOCK_READ, .lock = LOCK_WAIT_MS }, -1, -1 },
	{ "hi_frames_over_16ms", "hi thread's frames over 16.8 ms (ui-inversion)", "ui-inversion",
	  NULL, { .src = SRC_HI_FRAMES_OVER, .hi = 1, .over_ns = FRAME_60HZ_NS }, -1, -1 },
	{ "fork_p50_us", "fork() median, µs (fork-at-scale)", "fork-at-scale", "fork",
	  { .src = SRC_LATENCY, .per_class = 1, .quantile = 0.5 }, -1, -1 },
	{ "thrash_rounds_per_s", "thrash rounds/s (thrash)", "thrash", NULL,
	  { .src = SRC_WORKLOAD, .wl = WL_THROUGHPUT }, +1, KEY_THROUGHPUT },
};
#define NPRIMARY (sizeof(primaries) / sizeof(*primaries))

size_t primary_count(void)
{
	return NPRIMARY;
}

const char *primary_key(size_t p)
{
	return primaries[p].key;
}

const char *primary_label(size_t p)
{
	return primaries[p].label;
}

double primary_value(size_t p, const struct run *r)
{
	if (strcmp(r->scenario, primaries[p].scen))
		return NAN;
	return row_value(&primaries[p].row, primaries[p].cls, r);
}

/* ---- tests ---- */

/* The values of row in scen over the counted runs (run_counted) of kernels
 * ka and kb (kb < 0: ka alone). */
static size_t pooled(const struct results *res, const char *scen, const struct row *row,
		     const char *cls, int ka, int kb, double **out)
{
	size_t n = row_runs(res, res->kernels[ka], scen, row, cls, out), m;
	double *vb;

	if (kb < 0)
		return n;
	/* row_runs() leaves room for every run of the results: kb's fit */
	m = row_runs(res, res->kernels[kb], scen, row, cls, &vb);
	memcpy(*out + n, vb, m * sizeof(*vb));
	free(vb);
	return n + m;
}

/* FNV-1a of two strings: the bootstrap's seed, the same in every report. */
static unsigned long long seed_of(const char *a, const char *b)
{
	unsigned long long h = 1469598103934665603ULL;

	for (const char *s = a; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ '/') * 1099511628211ULL;
	for (const char *s = b; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct test run_test(const double *vk, size_t nk, const double *vb, size_t nb,
			    unsigned long long seed)
{
	struct test t = { nb, nk, NAN, NAN, NAN, NAN, NAN, NAN, NAN, V_NA };

	if (!nk || !nb)
		return t;
	t.mb = st_median(vb, nb);
	t.mk = st_median(vk, nk);
	t.ratio = t.mb != 0 ? t.mk / t.mb : t.mk == 0 ? 1 : INFINITY;
	if (st_ratio_ci(vk, nk, vb, nb, DECISION_NBOOT, seed, &t.lo, &t.hi))
		fatal("out of memory");
	t.p = st_mann_whitney(vk, nk, vb, nb);
	return t;
}

/* Better, worse or the same, from the CI and the p given; better is the
 * metric's direction (-1 lower). */
static enum verdict judge(const struct test *t, double p, int better)
{
	if (!t->nk || !t->nb || isnan(p))
		return V_NA;
	if (p >= DECISION_ALPHA || (t->lo <= 1 && t->hi >= 1))
		return V_SAME;
	int lower = t->hi < 1;

	return (better < 0) == lower ? V_BETTER : V_WORSE;
}

static struct test test_row(const struct results *res, const char *scen, const struct row *row,
			    const char *cls, size_t k, int aa, const char *seedkey)
{
	double *vb, *vk;
	size_t nb = pooled(res, scen, row, cls, 0, aa, &vb);
	size_t nk = pooled(res, scen, row, cls, (int)k, -1, &vk);
	struct test t = run_test(vk, nk, vb, nb, seed_of(seedkey, res->kernels[k]));

	free(vb);
	free(vk);
	return t;
}

void decision_compute(const struct results *res, struct decision *d)
{
	d->np = NPRIMARY;
	d->nk = res->nk;
	d->aa = aa_kernel(res);
	d->t = xcalloc(NPRIMARY * res->nk, sizeof(*d->t));
	d->aa_t = xcalloc(NPRIMARY, sizeof(*d->aa_t));
	double *p = xcalloc(NPRIMARY * res->nk + 1, sizeof(*p));

	for (size_t i = 0; i < NPRIMARY * res->nk; i++)
		p[i] = NAN;
	for (size_t m = 0; m < NPRIMARY; m++) {
		const struct primary *pr = &primaries[m];

		for (size_t k = 1; k < res->nk; k++) {
			if ((int)k == d->aa)
				continue;
			struct test *t = &d->t[m * res->nk + k];

			*t = test_row(res, pr->scen, &pr->row, pr->cls, k, d->aa, pr->key);
			p[m * res->nk + k] = t->p;
		}
		if (d->aa >= 0) {
			double *vb, *va;
			size_t nb = pooled(res, pr->scen, &pr->row, pr->cls, 0, -1, &vb);
			size_t na = pooled(res, pr->scen, &pr->row, pr->cls, d->aa, -1, &va);

			d->aa_t[m] = run_test(va, na, vb, nb, seed_of(pr->key, "aa"));
			d->aa_t[m].v = judge(&d->aa_t[m], d->aa_t[m].p, pr->better);
			free(vb);
			free(va);
		}
	}
	d->family = 0;
	for (size_t i = 0; i < NPRIMARY * res->nk; i++)
		d->family += !isnan(p[i]);
	if (st_holm(p, NPRIMARY * res->nk))
		fatal("out of memory");
	for (size_t m = 0; m < NPRIMARY; m++)
		for (size_t k = 1; k < res->nk; k++) {
			struct test *t = &d->t[m * res->nk + k];

			t->p_holm = p[m * res->nk + k];
			t->v = judge(t, t->p_holm, primaries[m].better);
		}
	free(p);
}

void decision_free(struct decision *d)
{
	free(d->t);
	free(d->aa_t);
	d->t = d->aa_t = NULL;
}

/* ---- text ---- */

static const char *const verdict_word[] = { "n/a", "no difference shown", "better", "worse" };

/* "×0.123 [0.1–0.15]": the ratio and its CI, or what stands for them. */
static void fmt_ratio_ci(const struct test *t, char *buf, size_t n)
{
	if (!t->nk || !t->nb)
		snprintf(buf, n, "n/a");
	else if (t->mb == 0 && t->mk == 0)
		snprintf(buf, n, "0 = 0");
	else if (t->mb == 0)
		snprintf(buf, n, "from 0 to %g", t->mk);
	else
		snprintf(buf, n, "×%.3g [%.3g–%.3g]", t->ratio, t->lo, t->hi);
}

static void fmt_p(double p, char *buf, size_t n)
{
	if (isnan(p))
		snprintf(buf, n, "n/a");
	else if (p < 0.001)
		snprintf(buf, n, "%.1e", p);
	else
		snprintf(buf, n, "%.3f", p);
}

/* One primary result in a sentence's words: "label ×r [lo–hi], p = x". */
static void sb_result(struct sbuf *b, size_t m, const struct test *t, double pv)
{
	char r[96], p[32];

	fmt_ratio_ci(t, r, sizeof(r));
	fmt_p(pv, p, sizeof(p));
	sb_printf(b, "%s %s, p = %s", primaries[m].label, r, p);
}

/* Key rows the exploratory scan reads, and the direction that is worse. */
static const struct {
	int key;
	int worse; /* +1: higher is worse */
} scanned[] = {
	{ KEY_FALLBACKS, +1 }, { KEY_READ_WAIT, +1 }, { KEY_WRITE_WAIT, +1 },
	{ KEY_RETRIED_P99, +1 }, { KEY_ATTEMPTS3, +1 }, { KEY_HI_WAIT, +1 },
	{ KEY_THROUGHPUT, -1 },
};

static int is_primary_cell(const char *scen, int key)
{
	for (size_t m = 0; m < NPRIMARY; m++)
		if (primaries[m].key_row == key && !strcmp(primaries[m].scen, scen))
			return 1;
	return 0;
}

/* Kernel k's regressions outside the noise among the headline's figures
 * (exploratory: CI excludes 1 and the uncorrected p < 0.05); returns how
 * many. */
static int exploratory_costs(const struct results *res, const struct decision *d, size_t k,
			     struct sbuf *b)
{
	int n = 0;

	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];

		for (size_t i = 0; i < sizeof(scanned) / sizeof(*scanned); i++) {
			const struct row *row = &key_rows[scanned[i].key];

			if (is_primary_cell(scen, scanned[i].key) ||
			    (row->hi && !scenario_has_class(res, scen, "hi")))
				continue;
			char *sk = xasprintf("%s/%s", scen, row->label);
			struct test t = test_row(res, scen, row, NULL, k, d->aa, sk);

			free(sk);
			if (judge(&t, t.p, -scanned[i].worse) != V_WORSE)
				continue;
			char r[96], p[32];

			fmt_ratio_ci(&t, r, sizeof(r));
			fmt_p(t.p, p, sizeof(p));
			sb_printf(b, "%s%s %s %s (p = %s)", n++ ? "; " : "", scen, row->label, r, p);
		}
	}
	return n;
}

/* The largest attempt count of one fault over kernel k's runs, and in how
 * many runs some fault took 3 or more attempts. */
static void attempts_of(const struct results *res, size_t k, struct sbuf *b)
{
	double max = NAN;
	size_t runs = 0, with3 = 0;

	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];

		if (!run_counted(r) || strcmp(r->kernel, res->kernels[k]))
			continue;
		double a = row_value(&key_rows[KEY_ATTEMPTS_MAX], NULL, r);
		double a3 = row_value(&key_rows[KEY_ATTEMPTS3], NULL, r);

		if (!isnan(a) && (isnan(max) || a > max))
			max = a;
		runs++;
		with3 += !isnan(a3) && a3 > 0;
	}
	if (isnan(max))
		sb_printf(b, "n/a");
	else
		sb_printf(b, "max %.0f; 3+ in %zu of %zu runs", max, with3, runs);
}

static void write_option_row(FILE *f, const struct results *res, const struct decision *d,
			     size_t k)
{
	struct sbuf fix = { 0 }, cost = { 0 }, expl = { 0 }, att = { 0 };
	int nbetter = 0, nworse = 0, nsame = 0, nna = 0;

	for (size_t m = 0; m < NPRIMARY; m++) {
		const struct test *t = &d->t[m * d->nk + k];

		switch (t->v) {
		case V_BETTER:
			sb_printf(&fix, "%s", nbetter++ ? "; " : "");
			sb_result(&fix, m, t, t->p_holm);
			break;
		case V_WORSE:
			sb_printf(&cost, "%s", nworse++ ? "; " : "");
			sb_result(&cost, m, t, t->p_holm);
			break;
		case V_SAME:
			nsame++;
			break;
		case V_NA:
			nna++;
			break;
		}
	}
	int nexpl = exploratory_costs(res, d, k, &expl);

	attempts_of(res, k, &att);
	double lines = 0;
	int have_lines = 1;
	static const char *const area[] = { "mm", "arch", "other" };

	for (size_t a = 0; a < 3; a++) {
		double l = complexity_lines(res, k, area[a]);

		have_lines &= !isnan(l);
		lines += isnan(l) ? 0 : l;
	}
	fprintf(f, "| **%s** | %s | %s | %s | ", res->kernels[k], fix.s ? fix.s : "none shown",
		cost.s ? cost.s : "none shown", nexpl ? expl.s : "none");
	if (have_lines)
		fprintf(f, "%.0f", lines);
	else
		fprintf(f, "n/a");
	fprintf(f, " | %s | better on %d, worse on %d, no difference shown on %d of %zu primary "
		   "metrics%s |\n",
		att.s, nbetter, nworse, nsame, NPRIMARY, nna ? " (the rest not measured)" : "");
	sb_free(&fix);
	sb_free(&cost);
	sb_free(&expl);
	sb_free(&att);
}

/* Runs per kernel that detect a change of DECISION_EFFECT with power
 * DECISION_POWER at the family's smallest Holm threshold (alpha / family),
 * from the log-scale spread of the pooled baseline; 0 when it cannot be
 * told (a value <= 0, fewer than 3 runs). */
static double log_sd(const double *v, size_t n)
{
	double s = 0, s2 = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i] <= 0)
			return NAN;
		s += log(v[i]);
	}
	if (n < 3)
		return NAN;
	double mean = s / (double)n;

	for (size_t i = 0; i < n; i++)
		s2 += (log(v[i]) - mean) * (log(v[i]) - mean);
	return sqrt(s2 / (double)(n - 1));
}

/* Two groups far apart: the sorted positive values v split at a gap of
 * at least BIMODAL_GAP times, with 2 runs or more on each side.  The SD of
 * ln of such runs measures the gap, not a spread: a run count computed
 * from it (27,734 for the ui-inversion hi thread's wait on arm64) means
 * nothing.  1 and the split (runs below, the lower group's max, the upper
 * group's min) when there is one, else 0. */
#define BIMODAL_GAP 100.0
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int bimodal_split(const double *v, size_t n, size_t *nlo, double *lo_max, double *hi_min)
{
	double *s;
	int found = 0;

	if (n < 4)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return 0;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = 2; i + 2 <= n && s[0] > 0; i++)
		if (s[i] >= BIMODAL_GAP * s[i - 1] &&
		    (!found || s[i] / s[i - 1] > *hi_min / *lo_max)) {
			found = 1;
			*nlo = i;
			*lo_max = s[i - 1];
			*hi_min = s[i];
		}
	free(s);
	return found;
}

/* ln C(n, k) */
static double log_choose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

static void write_power(FILE *f, const struct results *res, const struct decision *d)
{
	size_t fam = d->family ? d->family : 1;
	double a = DECISION_ALPHA / (double)fam;
	double z = st_norm_quantile(1 - a / 2) + st_norm_quantile(DECISION_POWER);
	/* the Mann-Whitney test's efficiency against the t-test, normal data */
	const double are = 3 / M_PI;
	/* baseline runs per variant run: 2 with an A/A copy pooled in, else 1 */
	const double r = d->aa >= 0 ? 2 : 1;
	size_t floor_n = 1;

	/* the exact test's smallest p, 2 / C((1 + r) n, n), with r n baseline runs */
	while (floor_n < 100 &&
	       log(2.0) - log_choose((1 + r) * (double)floor_n, (double)floor_n) >= log(a))
		floor_n++;
	fprintf(f, "\n**Power.** With %s, a variant needs at least %zu runs for the exact test "
		   "to reach p < %.2g (%.2g / %zu tests) at all. Per metric, from the baseline's "
		   "spread (SD of ln): the change the runs at hand detect with %.0f%% power, and the "
		   "runs per kernel that detect ×%.1f:\n\n| primary metric | baseline runs | SD of ln "
		   "| detectable now | runs for ×%.1f |\n|---|---:|---:|---:|---:|\n",
		d->aa >= 0 ? "the pooled baseline twice a variant's runs" :
			     "as many baseline runs as a variant's",
		floor_n, a, DECISION_ALPHA, fam, 100 * DECISION_POWER, DECISION_EFFECT,
		DECISION_EFFECT);
	for (size_t m = 0; m < NPRIMARY; m++) {
		const struct primary *pr = &primaries[m];
		double *vb;
		size_t nb = pooled(res, pr->scen, &pr->row, pr->cls, 0, d->aa, &vb);
		double sd = log_sd(vb, nb);
		size_t nk = 0;

		for (size_t k = 1; k < res->nk; k++)
			if ((int)k != d->aa && d->t[m * d->nk + k].nk > nk)
				nk = d->t[m * d->nk + k].nk;
		size_t nlo = 0;
		double lo_max = 0, hi_min = 0;
		int two = !isnan(sd) && bimodal_split(vb, nb, &nlo, &lo_max, &hi_min);

		free(vb);
		fprintf(f, "| %s | %zu |", pr->label, nb);
		if (isnan(sd) || !nk) {
			fprintf(f, " n/a | n/a | n/a |\n");
			continue;
		}
		if (two) {
			char a[32], b[32];

			fprintf(f, " %.3f | n/a | n/a: two groups, %zu runs at %s or less and %zu at %s "
				   "or more; the SD of ln measures the gap between them, and their median "
				   "moves with the share of runs in each |\n",
				sd, nlo, fmt_num(lo_max, a, sizeof(a)), nb - nlo,
				fmt_num(hi_min, b, sizeof(b)));
			continue;
		}
		double det = exp(z * sd * sqrt(1.0 / (double)nb + 1.0 / (double)nk) / sqrt(are));
		/* n variant runs against r n baseline runs: variance (1 + 1 / r) / n */
		double need = (1 + 1 / r) * z * z * sd * sd /
			      (log(DECISION_EFFECT) * log(DECISION_EFFECT)) / are;
		size_t n = (size_t)ceil(need);

		fprintf(f, " %.3f | ×%.3g | %zu |\n", sd, det, n > floor_n ? n : floor_n);
	}
}

void write_decision(FILE *f, const struct results *res, const struct decision *d)
{
	if (res->nk < 2)
		return;
	fprintf(f, "## Decision\n\nBaseline: **%s**%s%s%s. Primary metrics, declared before the runs "
		   "(tools/report/decision.c): ",
		res->kernels[0], d->aa >= 0 ? " and its A/A copy **" : "",
		d->aa >= 0 ? res->kernels[d->aa] : "", d->aa >= 0 ? "**, pooled" : " alone");
	for (size_t m = 0; m < NPRIMARY; m++)
		fprintf(f, "%s%s", m ? "; " : "", primaries[m].label);
	fprintf(f, ". A kernel is **better** or **worse** on one only when the bootstrap 95%% "
		   "CI of its ratio of medians to the baseline excludes 1 and the exact "
		   "Mann-Whitney p, Holm-corrected over the %zu primary tests of this report, is "
		   "below %.2g; otherwise no difference is shown. Lossy and failed runs are left "
		   "out. Everything after this section is exploratory.\n\n",
		d->family, DECISION_ALPHA);
	fprintf(f, "| option | fixes (primary) | costs (primary) | worse outside the noise "
		   "(exploratory: headline figures, CI excludes 1 and uncorrected p < 0.05) | lines "
		   "changed | attempts for one fault | verdict |\n|---|---|---|---|---:|---|---|\n");
	for (size_t k = 1; k < res->nk; k++)
		if ((int)k != d->aa)
			write_option_row(f, res, d, k);

	fprintf(f, "\n### Primary metrics\n\nRatio of medians to the pooled baseline [bootstrap "
		   "95%% CI], Holm-corrected p, verdict; runs in brackets.%s\n\n| metric | baseline "
		   "median |",
		d->aa >= 0 ? " The A/A column is the copy against the baseline alone (not "
			     "corrected, not in the family): a verdict there measures the lab's "
			     "noise, and its ratio how large that noise is." :
			     "");
	if (d->aa >= 0)
		fprintf(f, " A/A (%s) |", res->kernels[d->aa]);
	for (size_t k = 1; k < res->nk; k++)
		if ((int)k != d->aa)
			fprintf(f, " %s |", res->kernels[k]);
	fprintf(f, "\n|---|---:|");
	for (size_t k = 1; k < res->nk; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (size_t m = 0; m < NPRIMARY; m++) {
		char r[96], p[32], nb[64];
		const struct test *t0 = NULL;

		for (size_t k = 1; k < res->nk && !t0; k++)
			if ((int)k != d->aa && d->t[m * d->nk + k].nb)
				t0 = &d->t[m * d->nk + k];
		fprintf(f, "| %s | %s [%zu] |", primaries[m].label,
			t0 ? fmt_num(t0->mb, nb, sizeof(nb)) : "n/a", t0 ? t0->nb : 0);
		if (d->aa >= 0) {
			const struct test *t = &d->aa_t[m];

			fmt_ratio_ci(t, r, sizeof(r));
			fmt_p(t->p, p, sizeof(p));
			fprintf(f, " %s, p = %s, %s [%zu] |", r, p, verdict_word[t->v], t->nk);
		}
		for (size_t k = 1; k < res->nk; k++) {
			if ((int)k == d->aa)
				continue;
			const struct test *t = &d->t[m * d->nk + k];

			fmt_ratio_ci(t, r, sizeof(r));
			fmt_p(t->p_holm, p, sizeof(p));
			fprintf(f, " %s, p = %s, %s%s%s [%zu] |", r, p,
				t->v == V_BETTER || t->v == V_WORSE ? "**" : "", verdict_word[t->v],
				t->v == V_BETTER || t->v == V_WORSE ? "**" : "", t->nk);
		}
		fprintf(f, "\n");
	}
	write_power(f, res, d);
	fprintf(f, "\n");
}

void decision_claims(const struct results *res, const struct decision *d, struct sbuf *b)
{
	int any = 0;

	for (size_t k = 1; k < res->nk; k++) {
		if ((int)k == d->aa)
			continue;
		for (size_t m = 0; m < NPRIMARY; m++) {
			const struct test *t = &d->t[m * d->nk + k];

			if (t->v != V_BETTER && t->v != V_WORSE)
				continue;
			sb_printf(b, "- **%s is %s** on ", res->kernels[k], verdict_word[t->v]);
			sb_result(b, m, t, t->p_holm);
			char mk[64], mb[64];

			sb_printf(b, " (medians %s against %s; %zu runs against %zu; report.csv: "
				     "primary,%s).\n",
				  fmt_num(t->mk, mk, sizeof(mk)), fmt_num(t->mb, mb, sizeof(mb)), t->nk,
				  t->nb, primaries[m].key);
			any++;
		}
	}
	if (!any)
		sb_printf(b, "- No kernel differs from the baseline on any primary metric.\n");
	sb_printf(b, "- Every other primary metric of every kernel: no difference shown, or n/a "
		     "where the run has no such scenario (the Primary metrics table gives each "
		     "ratio, CI and p).\n");
	for (size_t m = 0; m < NPRIMARY && d->aa >= 0; m++)
		if (d->aa_t[m].v == V_BETTER || d->aa_t[m].v == V_WORSE) {
			sb_printf(b, "- **The A/A copy differs from the baseline** on ");
			sb_result(b, m, &d->aa_t[m], d->aa_t[m].p);
			sb_printf(b, " (uncorrected): two captures of one kernel differ this much on "
				     "this metric, so a verdict on it is only as good as an effect "
				     "well beyond that.\n");
		}
}

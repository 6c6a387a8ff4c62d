/* mail.c: the cover-letter tables; see mail.h.  The layout is the v2
 * cover letter's: Metric / Before (Avg) / After (Avg) / Change. */
#include "mail.h"
#include "measures.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define RULE "------------------------------------------------------------------------"

static const char *const bucket_label[RS_NWAIT_BUCKETS] = {
	"[0, 1)", "[1, 10)", "[10, 100)", "[100, 1000)", "[1000, 10000)",
	"[10000, 100000)", "[100000, 1000000)", "[1000000, +)",
};

/* The mean of a row over kernel's runs of scen that did not fail; NaN
 * when none has a value.  *n gets the number of runs averaged. */
static double mean_of(const struct results *res, const char *kernel, const char *scen,
		      const struct row *row, int *n)
{
	double sum = 0;
	*n = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) || !run_counted(r))
			continue;
		double v = row_value(row, NULL, r);
		if (isnan(v))
			continue;
		sum += v;
		(*n)++;
	}
	return *n ? sum / *n : NAN;
}

static void fmt(double v, int decimals, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "n/a");
	else if (decimals)
		snprintf(buf, n, "%.2f", v);
	else if (v != round(v) && v < 100)
		snprintf(buf, n, "%.1f", v); /* a mean over runs: 0.2 is not 0 */
	else
		fmt_num(round(v), buf, n);
}

static void line(FILE *f, const char *label, double before, double after, int decimals)
{
	char b[32], a[32], c[32];
	fmt(before, decimals, b, sizeof(b));
	fmt(after, decimals, a, sizeof(a));
	if (isnan(before) || isnan(after) || before == 0)
		snprintf(c, sizeof(c), "N/A");
	else
		snprintf(c, sizeof(c), "%+.2f%%", 100 * (after - before) / before);
	fprintf(f, "%-26s%-16s%-15s%s\n", label, b, a, c);
}

static void lock_table(FILE *f, const struct results *res, const char *scen, int *nb, int *na)
{
	static const char *const mode_name[LOCK_NMODES] = { "Read", "Write" };
	fprintf(f, "Metric                    Before (Avg)    After (Avg)    Change\n" RULE "\n");
	for (int m = 0; m < LOCK_NMODES; m++) {
		struct row cnt = { .src = SRC_MMAP_LOCK, .mode = m, .lock = LOCK_ACQUIRE };
		struct row tot = { .src = SRC_MMAP_LOCK, .mode = m, .lock = LOCK_WAIT_US };
		double cb = mean_of(res, res->kernels[0], scen, &cnt, nb);
		double ca = mean_of(res, res->kernels[1], scen, &cnt, na);
		double tb = mean_of(res, res->kernels[0], scen, &tot, nb);
		double ta = mean_of(res, res->kernels[1], scen, &tot, na);
		char label[64];
		snprintf(label, sizeof(label), "%s Lock Count", mode_name[m]);
		line(f, label, cb, ca, 0);
		snprintf(label, sizeof(label), "%s Total Wait (us)", mode_name[m]);
		line(f, label, tb, ta, 0);
		snprintf(label, sizeof(label), "%s Avg Wait (us)", mode_name[m]);
		line(f, label, cb > 0 ? tb / cb : NAN, ca > 0 ? ta / ca : NAN, 1);
	}
}

static void dist_table(FILE *f, const struct results *res, const char *scen, int m)
{
	int n;
	fprintf(f, "Range (us)                Before (Avg)    After (Avg)    Change\n" RULE "\n");
	for (int b = 0; b < RS_NWAIT_BUCKETS; b++) {
		struct row row = { .src = SRC_MMAP_LOCK, .mode = m, .lock = LOCK_WAITS_IN,
				   .bucket = b };
		line(f, bucket_label[b], mean_of(res, res->kernels[0], scen, &row, &n),
		     mean_of(res, res->kernels[1], scen, &row, &n), 0);
	}
}

void write_mail(FILE *f, const struct results *res)
{
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		int nb, na;
		struct row any = { .src = SRC_MMAP_LOCK, .mode = LOCK_READ, .lock = LOCK_ACQUIRE };
		mean_of(res, res->kernels[0], scen, &any, &nb);
		mean_of(res, res->kernels[1], scen, &any, &na);
		if (!nb || !na)
			continue;
		fprintf(f, "== %s: mmap_lock Acquisitions And Wait Time ==\n\n", scen);
		fprintf(f, "Before: %s, After: %s; means over %d and %d runs.\n\n", res->kernels[0],
			res->kernels[1], nb, na);
		lock_table(f, res, scen, &nb, &na);
		fprintf(f, "\n== %s: Read Lock Waiting Time Distribution ==\n\n", scen);
		dist_table(f, res, scen, LOCK_READ);
		fprintf(f, "\n== %s: Write Lock Waiting Time Distribution ==\n\n", scen);
		dist_table(f, res, scen, LOCK_WRITE);
		fprintf(f, "\n");
	}
}

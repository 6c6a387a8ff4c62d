/* rs-report: turn a results directory into report.md and plots.
 *
 *   rs-report RESULTS_DIR [--kernels "stock rfc v2"] [--baseline stock]
 *             [-o report.md]
 *
 * --kernels orders the kernel columns (the first is the baseline unless
 * --baseline names another); kernels not listed follow, sorted.
 * RESULTS_DIR/<kernel>/<scenario>/<n>/ as written by scripts/capture (see
 * runs.h).  This file holds the options and main(); the report itself is
 * report.c (sections), measures.c (rows), summary.c (headline, summary),
 * plots.c and selftests.c.
 */
#include "measures.h"
#include "report.h"
#include "runs.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	const char *dir, *baseline, *out, *kernels;
	char *outdir;
};

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
	measures_check();
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
	write_report(&res, o.outdir, f, &head);
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

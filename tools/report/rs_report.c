/* rs-report: turn a results directory into report.md and plots.
 *
 * This file holds the options (cli.c) and main(); the report itself is
 * report.c (sections), measures.c (rows), summary.c (headline, summary),
 * plots.c and selftests.c, read from RESULTS_DIR by runs.c; --format mail
 * is mail.c, --format pair pair.c.
 */
#include "cli.h"
#include "csvdump.h"
#include "mail.h"
#include "pair.h"
#include "measures.h"
#include "report.h"
#include "runs.h"
#include "summary.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_KERNELS, OPT_BASELINE, OPT_OUTPUT, OPT_FORMAT, OPT_HELP, NOPTS };

static const struct cli_opt options[NOPTS] = {
	[OPT_KERNELS] = { "kernels", 0, "LIST",
			  "the kernel columns in this order (names separated\n"
			  "by spaces or commas); the first is the baseline\n"
			  "unless --baseline names another; kernels not\n"
			  "listed follow, sorted" },
	[OPT_BASELINE] = { "baseline", 0, "KERNEL",
			   "the kernel of the ratio columns (default: the\n"
			   "first of --kernels, else stock)" },
	[OPT_OUTPUT] = { "output", 'o', "FILE",
			 "the report (default RESULTS_DIR/report.md); its\n"
			 "directory must exist; the plots go next to it;\n"
			 "--format mail, pair: the tables (default -: stdout)" },
	[OPT_FORMAT] = { "format", 0, "md|mail|pair",
			 "md: report.md and plots (default); mail: the\n"
			 "v2 cover letter's mmap_lock tables, first kernel\n"
			 "of --kernels before, second after, plain text;\n"
			 "pair: the first two kernels measure by measure,\n"
			 "with the Mann-Whitney p-value of each difference\n"
			 "(scripts/host-independence)" },
	[OPT_HELP] = CLI_OPT_HELP,
};

static const struct cli cli = {
	.prog = "rs-report",
	.operand = "RESULTS_DIR",
	.about = "Reads RESULTS_DIR/<kernel>/<scenario>/<n>/ as scripts/capture writes it and\n"
		 "writes report.md and report.csv (every number of every run): per\n"
		 "scenario and kernel every measure as \"median\n"
		 "[min-max]\" over the runs that did not fail, with the ratio to the baseline;\n"
		 "plot-*.{dat,gp,svg} (gnuplot) next to it.  Prints the headline table and\n"
		 "the lossy or failed runs to stdout.  Exit status: 0 ok, 1 a missing or\n"
		 "malformed input (named with file and line), 2 bad usage.\n",
	.opts = options,
	.nopts = NOPTS,
	.examples = "  rs-report results/2026-12-04-variants --kernels \"stock rfc v2 anon-only\"\n"
		    "      # four kernels, columns in this order, stock the baseline\n"
		    "  rs-report results/2026-12-04-variants --baseline=stock -o /tmp/ref/report.md\n"
		    "      # the report and its plots in /tmp/tcg\n"
		    "  rs-report RESULTS --kernels=stock,v2 >headline.txt\n"
		    "      # stock and v2 first, the other kernels after them\n"
		    "  rs-report results/latest --format mail --kernels stock,rfc\n"
		    "      # stock -> rfc tables for a cover letter, 72 columns\n"
		    "  rs-report results/host-independence --format pair --kernels idle,hog\n"
		    "      # did the hog move any measure? medians, ratios, p-values\n",
};

struct opts {
	const char *dir, *baseline, *out, *kernels;
	int mail, pair;
};

static void set_option(void *ctx, int opt, const char *value)
{
	struct opts *o = ctx;
	cli_need_value(&cli, opt, value);
	if (opt == OPT_KERNELS) {
		if (!value[strspn(value, " ,")])
			cli_usage_error(&cli, "--kernels: no kernel named in '%s'", value);
		o->kernels = value;
	} else if (opt == OPT_BASELINE) {
		o->baseline = value;
	} else if (opt == OPT_OUTPUT) {
		o->out = value;
	} else if (opt == OPT_FORMAT) {
		if (strcmp(value, "md") && strcmp(value, "mail") && strcmp(value, "pair"))
			cli_usage_error(&cli, "--format: '%s' is not md, mail or pair", value);
		o->mail = !strcmp(value, "mail");
		o->pair = !strcmp(value, "pair");
	}
}

/* --format mail or pair: the tables to o->out or stdout. */
static void write_tables_to(const struct results *res, const struct opts *o)
{
	if (res->nk < 2)
		fatal("%s: --format %s compares two kernels; the runs have only %s", o->dir,
		      o->mail ? "mail" : "pair", res->kernels[0]);
	FILE *f = stdout;
	if (o->out && strcmp(o->out, "-")) {
		f = fopen(o->out, "w");
		if (!f)
			fatal("%s: %s", o->out, strerror(errno));
	}
	if (o->mail)
		write_mail(f, res);
	else
		write_pair(f, res);
	if (f != stdout && fclose(f))
		fatal("%s: %s", o->out, strerror(errno));
}

/* Order the kernels as the options say (fatal on a kernel without runs). */
static void order_kernels(struct results *res, const struct opts *o)
{
	if (o->kernels && results_order(res, o->kernels))
		fatal("%s: --kernels \"%s\" names a kernel with no runs", o->dir, o->kernels);
	const char *baseline = o->baseline;
	if (!baseline)
		baseline = res->kernels[0] && o->kernels ? res->kernels[0] : "stock";
	if (results_baseline_first(res, baseline))
		fatal("%s: baseline kernel \"%s\" has no runs (kernels: %s%s%s)", o->dir, baseline,
		      res->kernels[0], res->nk > 1 ? ", " : "", res->nk > 1 ? res->kernels[1] : "");
}

/* report.md into outpath, plots next to it; the headline to stdout. */
static void write_all(const struct results *res, const char *outpath)
{
	char *tmp = xstrdup(outpath);
	char *outdir = xstrdup(dirname(tmp));
	free(tmp);
	struct sbuf head = { 0 };
	headline(res, &head);
	/* next to report.md: report-scenarios.md (the appendix), report.csv */
	size_t l = strlen(outpath);
	int md = l > 3 && !strcmp(outpath + l - 3, ".md");
	char *scen = md ? xasprintf("%.*s-scenarios.md", (int)(l - 3), outpath) :
			  xasprintf("%s-scenarios.md", outpath);
	char *csv = md ? xasprintf("%.*s.csv", (int)(l - 3), outpath) :
			 xasprintf("%s.csv", outpath);
	FILE *f = fopen(outpath, "w");
	if (!f)
		fatal("%s: %s", outpath, strerror(errno));
	FILE *sf = fopen(scen, "w");
	if (!sf)
		fatal("%s: %s", scen, strerror(errno));
	char *tmp2 = xstrdup(scen);
	write_report(res, outdir, f, &head, sf, basename(tmp2));
	free(tmp2);
	if (fclose(f))
		fatal("%s: %s", outpath, strerror(errno));
	if (fclose(sf))
		fatal("%s: %s", scen, strerror(errno));
	free(scen);
	if (write_csv(res, csv))
		fatal("%s: %s", csv, strerror(errno));
	fputs(head.s, stdout);
	struct sbuf lists = { 0 };
	run_lists(res, NULL, &lists);
	if (lists.s)
		fputs(lists.s, stdout);
	printf("\nreport: %s (every number of every run: %s)\n", outpath, csv);
	free(csv);
	sb_free(&lists);
	sb_free(&head);
	free(outdir);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	measures_init();
	o.dir = cli_parse(&cli, argc, argv, set_option, &o);
	struct results res;
	results_load(&res, o.dir);
	order_kernels(&res, &o);
	if (o.mail || o.pair) {
		write_tables_to(&res, &o);
		results_free(&res);
		return 0;
	}
	char *outpath = o.out ? xstrdup(o.out) : xasprintf("%s/report.md", o.dir);
	write_all(&res, outpath);
	free(outpath);
	results_free(&res);
	return 0;
}

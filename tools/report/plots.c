/* plots.c: the report's plots (latency CDF, fallbacks by cause, attempts per
 * fault) and the gnuplot files they are drawn from; see plots.h. */
#include "plots.h"
#include "measures.h"
#include "util.h"

#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* gnuplot single-quoted string: ' is doubled */
static void gq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static int run_gnuplot(const char *outdir, const char *base)
{
	char *gp = xasprintf("%s.gp", base), *log = xasprintf("%s.log", base);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		warn("fork: cannot run gnuplot");
		free(gp);
		free(log);
		return -1;
	}
	if (pid == 0) {
		if (chdir(outdir))
			_exit(126);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (!ok)
		warn("%s/%s: gnuplot %s (see %s/%s)", outdir, gp,
		     WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "not found" : "failed", outdir, log);
	else {
		char *lp = xasprintf("%s/%s", outdir, log);
		unlink(lp); /* keep the log only when something went wrong */
		free(lp);
	}
	free(gp);
	free(log);
	return ok ? 0 : -1;
}

static FILE *open_in(const char *outdir, const char *name)
{
	char *p = xasprintf("%s/%s", outdir, name);
	FILE *f = fopen(p, "w");
	if (!f)
		warn("%s: cannot write", p);
	free(p);
	return f;
}

static void preamble(FILE *g, const char *base, const char *title)
{
	fprintf(g, "# written by rs-report; run: gnuplot %s.gp\n", base);
	fprintf(g, "set terminal svg size 960,540 dynamic noenhanced font 'sans,12'\n");
	fprintf(g, "set output '%s.svg'\n", base);
	fprintf(g, "set datafile separator '\\t'\n");
	fprintf(g, "set title ");
	gq(g, title);
	fprintf(g, "\nset key outside right top\nset grid ytics\n");
}

/* ---- gnuplot files ---- */

struct series {
	const char *title;
	const double *x, *y;
	size_t n;
};

struct plot {
	const char *outdir, *base;
	char *dat;   /* BASE.dat, as the script names it */
	FILE *d, *g; /* BASE.dat, BASE.gp */
};

/* Create BASE.dat and BASE.gp in outdir; 0, or -1 if either failed. */
static int plot_open(struct plot *p, const char *outdir, const char *base)
{
	char *gp = xasprintf("%s.gp", base);
	p->outdir = outdir;
	p->base = base;
	p->dat = xasprintf("%s.dat", base);
	p->d = open_in(outdir, p->dat);
	p->g = open_in(outdir, gp);
	free(gp);
	return p->d && p->g ? 0 : -1;
}

/* Close the files and, when written, run gnuplot: 0 when BASE.svg was made. */
static int plot_close(struct plot *p, int written)
{
	if (p->d)
		fclose(p->d);
	if (p->g)
		fclose(p->g);
	int rc = written ? run_gnuplot(p->outdir, p->base) : -1;
	free(p->dat);
	return rc;
}

/* Step lines y(x), log x axis (x must be > 0). */
static int plot_ccdf(const char *outdir, const char *base, const char *title,
		    const char *xlabel, const struct series *s, size_t ns)
{
	struct plot p;
	if (plot_open(&p, outdir, base))
		return plot_close(&p, 0);
	for (size_t i = 0; i < ns; i++) {
		fprintf(p.d, "# %s\n", s[i].title);
		for (size_t j = 0; j < s[i].n; j++)
			if (s[i].x[j] > 0)
				fprintf(p.d, "%.6g\t%.6f\n", s[i].x[j], s[i].y[j]);
		fprintf(p.d, "\n\n");
	}
	preamble(p.g, base, title);
	fprintf(p.g, "set logscale xy\nset format y '%%g'\nset xlabel ");
	gq(p.g, xlabel);
	fprintf(p.g, "\nset ylabel 'fraction above x (log)'\nset yrange [*:1.5]\n"
		     "set grid xtics ytics\n");
	fprintf(p.g, "plot ");
	for (size_t i = 0; i < ns; i++) {
		fprintf(p.g, "%s'%s' index %zu using 1:2 with lines lw 2 title ",
			i ? ", \\\n     " : "", p.dat, i);
		gq(p.g, s[i].title);
	}
	fprintf(p.g, "\n");
	return plot_close(&p, ns > 0);
}

/* Bars: one row per bar position (rowlabels), one value per column
 * (collabels); stacked: columns stacked in one bar per row; otherwise
 * clustered: one bar per column inside each row's cluster.  v is
 * nrows * ncols, row-major; NaN is drawn as 0.  logy: a log y axis from
 * 0.5, where a 0 has no bar and 1 a short one. */
static int plot_bars(const char *outdir, const char *base, const char *title,
		     const char *ylabel, int stacked, int logy, const char *const *rowlabels,
		     size_t nrows, const char *const *collabels, size_t ncols, const double *v)
{
	struct plot p;
	if (plot_open(&p, outdir, base) || !nrows || !ncols)
		return plot_close(&p, 0);
	fprintf(p.d, "label");
	for (size_t c = 0; c < ncols; c++)
		fprintf(p.d, "\t%s", collabels[c]);
	fprintf(p.d, "\n");
	for (size_t r = 0; r < nrows; r++) {
		fprintf(p.d, "%s", rowlabels[r]);
		for (size_t c = 0; c < ncols; c++) {
			double x = v[r * ncols + c];
			/* n/a: no bar, and its label says so (not a 0) */
			if (isnan(x))
				fprintf(p.d, "\tn/a");
			else
				fprintf(p.d, "\t%.6g", x);
		}
		fprintf(p.d, "\n");
	}
	preamble(p.g, base, title);
	fprintf(p.g, "set datafile missing 'n/a'\nset ylabel ");
	gq(p.g, ylabel);
	double top = 1;

	for (size_t i = 0; i < nrows * ncols; i++)
		top = !isnan(v[i]) && v[i] > top ? v[i] : top;
	/* a log axis: room above the tallest bar for its label */
	if (logy)
		fprintf(p.g, "\nset logscale y\nset yrange [0.5:%g]\nset style data histograms\n",
			top * 40);
	else
		fprintf(p.g, "\nset yrange [0:*]\nset style data histograms\n");
	fprintf(p.g, "set style histogram %s\n", stacked ? "rowstacked" : "clustered gap 1");
	fprintf(p.g, "set style fill solid 0.8 border -1\nset boxwidth 0.75\n");
	fprintf(p.g, "set xtics rotate by -30 left\n");
	fprintf(p.g, "plot ");
	for (size_t c = 0; c < ncols; c++)
		fprintf(p.g, "%s'%s' using %zu%s title columnheader(%zu)", c ? ", \\\n     " : "",
			p.dat, c + 2, c == 0 ? ":xtic(1)" : "", c + 2);
	/* On a log axis a 0 has no bar and 1-6 hardly one: every bar gets its
	 * value written above it (a 0 at the axis' floor), so that every kernel
	 * can be read.  A cluster's boxes sit 1/(ncols + gap) apart around its
	 * row's x. */
	for (size_t c = 0; logy && !stacked && c < ncols; c++)
		fprintf(p.g, ", \\\n     '%s' skip 1 using ($0 + (%zu - %.1f) / %zu.0):"
			     "(valid(%zu) && $%zu > 0.7 ? $%zu : 0.7):"
			     "(valid(%zu) ? sprintf('%%g', $%zu) : 'n/a') with labels rotate left "
			     "font ',8' offset 0,0.4 notitle",
			p.dat, c, (double)(ncols - 1) / 2, ncols + 1, c + 2, c + 2, c + 2, c + 2,
			c + 2);
	fprintf(p.g, "\n");
	return plot_close(&p, 1);
}

/* ---- the report's plots ---- */

/* A plot name for a scenario: prefix + the scenario, [A-Za-z0-9._-] kept. */
static void plot_name(const char *prefix, const char *scen, char *out, size_t n)
{
	char sc[128];
	size_t i = 0;
	for (; *scen && i + 1 < sizeof(sc); scen++)
		sc[i++] = isalnum((unsigned char)*scen) || strchr("-_.", *scen) ? *scen : '_';
	sc[i] = 0;
	snprintf(out, n, "%s%s", prefix, sc);
}

/* The CDF of h in µs: points (x, y), with a 0 at the first bucket's lower
 * bound; returns the number of points (x, y hold 2 * h->n + 1). */
/* The complementary CDF, P(latency > x), at the buckets' bounds (µs):
 * the tail is what the series changes, and on log-log axes p99 and p99.9
 * are the 10^-2 and 10^-3 lines instead of the top pixel.  The last bound
 * (nothing above it) is left out: log scale. */
static size_t hist_ccdf(const struct st_hist *h, double *x, double *y)
{
	uint64_t tot = st_hist_total(h), cum = 0;
	size_t n = 0;
	for (size_t j = 0; j < h->n; j++) {
		if (!h->b[j].count)
			continue;
		if (n == 0 && h->b[j].lo > 0) {
			x[n] = h->b[j].lo / 1000.0;
			y[n++] = 1;
		}
		cum += h->b[j].count;
		if (cum == tot)
			break;
		x[n] = (h->b[j].hi > h->b[j].lo ? h->b[j].hi : h->b[j].lo) / 1000.0;
		y[n++] = (double)(tot - cum) / (double)tot;
	}
	return n;
}

/* Class cls's latency histogram over the non-failed runs of kernel, scen. */
static void pooled_hist(const struct results *res, const char *kernel, const char *scen,
			const char *cls, struct st_hist *h)
{
	st_hist_init(h);
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) ||
		    !run_counted(r))
			continue;
		const struct wclass *c = workload_class(&r->wl, cls);
		if (c && st_hist_merge(h, &c->lat.hist))
			fatal("out of memory");
	}
}

int plot_latency(const struct results *res, const char *outdir, const char *scen,
		 char *name, size_t namesz, const char **cls_out)
{
	const char *cls = headline_class(res, scen);
	*cls_out = cls;
	if (!cls)
		return -1;
	plot_name("plot-latency-", scen, name, namesz);
	struct series *s = xcalloc(res->nk, sizeof(*s));
	size_t ns = 0;
	for (size_t k = 0; k < res->nk; k++) {
		struct st_hist h;
		pooled_hist(res, res->kernels[k], scen, cls, &h);
		if (st_hist_total(&h)) {
			double *x = xmalloc((2 * h.n + 1) * sizeof(*x));
			double *y = xmalloc((2 * h.n + 1) * sizeof(*y));
			s[ns] = (struct series){ res->kernels[k], x, y, hist_ccdf(&h, x, y) };
			ns++;
		}
		st_hist_free(&h);
	}
	char title[256];
	snprintf(title, sizeof(title), "%s: op latency of the %s class, fraction above x (runs pooled)",
		 scen, cls);
	int rc = ns ? plot_ccdf(outdir, name, title, "latency (µs)", s, ns) : -1;
	for (size_t i = 0; i < ns; i++) {
		free((double *)s[i].x);
		free((double *)s[i].y);
	}
	free(s);
	return rc;
}

/* The entries of l that have a counter: their indices (idx) and names;
 * returns how many (idx and name hold l->n). */
static size_t list_columns(const struct row_list *l, size_t *idx, const char **name)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->counter[i], NO_ROW)) {
			idx[n] = i;
			name[n++] = l->name[i];
		}
	return n;
}

/* The fallbacks after I/O (what the series is about) per scenario, a bar
 * per kernel, on a log scale: 5 and 500 both visible.  The other causes
 * are in each scenario's table. */
int plot_causes(const struct results *res, const char *outdir)
{
	double *v = xcalloc(res->ns * res->nk, sizeof(*v));
	for (size_t s = 0; s < res->ns; s++)
		for (size_t k = 0; k < res->nk; k++)
			v[s * res->nk + k] =
				counter_median(res, res->kernels[k], res->scenarios[s],
					       "fallback_after_file_io") +
				counter_median(res, res->kernels[k], res->scenarios[s],
					       "fallback_after_swap_io");
	int rc = plot_bars(outdir, "plot-fallback-causes",
			   "mmap_lock fallbacks after file or swap I/O (median of runs, log scale; each bar labelled, a 0 at the floor)",
			   "fallbacks per run", 0, 1, (const char *const *)res->scenarios, res->ns,
			   (const char *const *)res->kernels, res->nk, v);
	free(v);
	return rc;
}

int plot_attempts(const struct results *res, const char *outdir, const char *scen,
		  char *name, size_t namesz)
{
	const struct row_list *l = &attempt_counts;
	size_t *idx = xcalloc(l->n, sizeof(*idx));
	const char **rl = xcalloc(l->n, sizeof(*rl));
	size_t na = list_columns(l, idx, rl);
	double *v = xcalloc(na * res->nk, sizeof(*v));
	plot_name("plot-attempts-", scen, name, namesz);
	for (size_t a = 0; a < na; a++)
		for (size_t k = 0; k < res->nk; k++)
			v[a * res->nk + k] = counter_median(res, res->kernels[k], scen,
							    l->counter[idx[a]]);
	char title[256];
	snprintf(title, sizeof(title), "%s: faults by attempts (median of runs, log scale)", scen);
	int rc = plot_bars(outdir, name, title, "faults", 0, 1, rl, na,
			   (const char *const *)res->kernels, res->nk, v);
	free(idx);
	free(rl);
	free(v);
	return rc;
}

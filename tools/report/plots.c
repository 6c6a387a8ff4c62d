/* plots.c: see plots.h. */
#include "plots.h"
#include "util.h"

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

int plot_cdf(const char *outdir, const char *base, const char *title, const char *xlabel,
	     const struct series *s, size_t ns)
{
	char *dat = xasprintf("%s.dat", base), *gpn = xasprintf("%s.gp", base);
	FILE *d = open_in(outdir, dat), *g = open_in(outdir, gpn);
	int rc = -1;
	if (!d || !g)
		goto out;
	size_t blocks = 0;
	for (size_t i = 0; i < ns; i++) {
		fprintf(d, "# %s\n", s[i].title);
		for (size_t j = 0; j < s[i].n; j++)
			if (s[i].x[j] > 0)
				fprintf(d, "%.6g\t%.6f\n", s[i].x[j], s[i].y[j]);
		fprintf(d, "\n\n");
		blocks++;
	}
	preamble(g, base, title);
	fprintf(g, "set logscale x\nset xlabel ");
	gq(g, xlabel);
	fprintf(g, "\nset ylabel 'fraction of faults <= x'\nset yrange [0:1.02]\n");
	fprintf(g, "plot ");
	for (size_t i = 0; i < blocks; i++) {
		fprintf(g, "%s'%s' index %zu using 1:2 with linespoints lw 2 title ", i ? ", \\\n     " : "",
			dat, i);
		gq(g, s[i].title);
	}
	fprintf(g, "\n");
	rc = 0;
out:
	if (d)
		fclose(d);
	if (g)
		fclose(g);
	if (rc == 0 && blocks)
		rc = run_gnuplot(outdir, base);
	else
		rc = -1;
	free(dat);
	free(gpn);
	return rc;
}

int plot_bars(const char *outdir, const char *base, const char *title, const char *ylabel,
	      int stacked, const char *const *rowlabels, size_t nrows,
	      const char *const *collabels, size_t ncols, const double *v)
{
	char *dat = xasprintf("%s.dat", base), *gpn = xasprintf("%s.gp", base);
	FILE *d = open_in(outdir, dat), *g = open_in(outdir, gpn);
	int rc = -1;
	if (!d || !g || !nrows || !ncols)
		goto out;
	fprintf(d, "label");
	for (size_t c = 0; c < ncols; c++)
		fprintf(d, "\t%s", collabels[c]);
	fprintf(d, "\n");
	for (size_t r = 0; r < nrows; r++) {
		fprintf(d, "%s", rowlabels[r]);
		for (size_t c = 0; c < ncols; c++) {
			double x = v[r * ncols + c];
			fprintf(d, "\t%.6g", isnan(x) ? 0.0 : x);
		}
		fprintf(d, "\n");
	}
	preamble(g, base, title);
	fprintf(g, "set ylabel ");
	gq(g, ylabel);
	fprintf(g, "\nset yrange [0:*]\nset style data histograms\n");
	fprintf(g, "set style histogram %s\n", stacked ? "rowstacked" : "clustered gap 1");
	fprintf(g, "set style fill solid 0.8 border -1\nset boxwidth 0.75\n");
	fprintf(g, "set xtics rotate by -30 left\n");
	fprintf(g, "plot ");
	for (size_t c = 0; c < ncols; c++)
		fprintf(g, "%s'%s' using %zu%s title columnheader(%zu)", c ? ", \\\n     " : "", dat,
			c + 2, c == 0 ? ":xtic(1)" : "", c + 2);
	fprintf(g, "\n");
	rc = 0;
out:
	if (d)
		fclose(d);
	if (g)
		fclose(g);
	if (rc == 0)
		rc = run_gnuplot(outdir, base);
	free(dat);
	free(gpn);
	return rc;
}

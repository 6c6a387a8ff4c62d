/* plots: write gnuplot data + script next to the report and run gnuplot
 * (SVG terminal).  Each function returns 0 when BASE.svg was written. */
#ifndef RS_PLOTS_H
#define RS_PLOTS_H

#include <stddef.h>

struct series {
	const char *title;
	const double *x, *y;
	size_t n;
};

/* Step lines y(x), log x axis (x must be > 0). */
int plot_cdf(const char *outdir, const char *base, const char *title, const char *xlabel,
	     const struct series *s, size_t ns);

/* Bars: one row per bar position (rowlabels), one value per column
 * (collabels); stacked: columns stacked in one bar per row; otherwise
 * clustered: one bar per column inside each row's cluster.  v is
 * nrows * ncols, row-major; NaN is drawn as 0. */
int plot_bars(const char *outdir, const char *base, const char *title, const char *ylabel,
	      int stacked, const char *const *rowlabels, size_t nrows,
	      const char *const *collabels, size_t ncols, const double *v);

#endif

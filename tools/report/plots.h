/* plots: the report's plots.  Each is written as gnuplot data (BASE.dat) and
 * script (BASE.gp) next to the report, and gnuplot is run on it (SVG
 * terminal).  Each function returns 0 when BASE.svg was written; a failed
 * plot is warned about. */
#ifndef RS_PLOTS_H
#define RS_PLOTS_H

#include "runs.h"

#include <stddef.h>

/* plot-latency-<scenario>: CDF of the headline class's fault latency, runs
 * pooled per kernel.  name gets the plot's base name, *cls the class. */
int plot_latency(const struct results *res, const char *outdir, const char *scen,
		 char *name, size_t namesz, const char **cls);

/* plot-fallback-causes: mmap_lock fallbacks by cause, stacked, one bar per
 * scenario and kernel (medians of runs). */
int plot_causes(const struct results *res, const char *outdir);

/* plot-attempts-<scenario>: faults by attempts, one bar per kernel. */
int plot_attempts(const struct results *res, const char *outdir, const char *scen,
		  char *name, size_t namesz);

#endif

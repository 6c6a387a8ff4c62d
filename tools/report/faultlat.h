/* faultlat: the report's "Per-fault latency" section, from the module's
 * per-fault latency histograms (debugfs "latency", a run's `latency` file;
 * module/latency.c says what is timed). */
#ifndef RS_FAULTLAT_H
#define RS_FAULTLAT_H

#include "runs.h"

#include <stdio.h>

/* One table: a row per scenario, cause and outcome that some kernel has
 * faults in, a column per kernel with the faults of its runs pooled:
 * "faults: p50 / p99 / max µs".  Nothing when no run has a latency file. */
void write_fault_latency(FILE *f, const struct results *res);

#endif

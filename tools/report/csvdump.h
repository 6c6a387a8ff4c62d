/* csvdump: every number of every run in one CSV file beside report.md
 * (report.csv), for what the report leaves out or rounds. */
#ifndef RS_CSVDUMP_H
#define RS_CSVDUMP_H

#include "runs.h"

/* Columns: kernel, scenario, run, status (ok, lossy, failed), source
 * (module: counter delta; module_after: the value after the run; vmstat:
 * delta, the fields that moved; trace: trace.json's mmap_lock figures of the workload's tasks;
 * workload: faultload's per class; primary: the Decision's primary metrics,
 * from which its medians, ratios and tests recompute), name, value.  A run the
 * report leaves out (run_counted) is never "ok".  0, or -1 with errno. */
int write_csv(const struct results *res, const char *path);

#endif

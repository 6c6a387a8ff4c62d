/* report: report.md, one function per section (title and kernels, marked
 * kernels, headline, summary, wait chains, per-fault latency, safety), and
 * the appendix report-scenarios.md (one table per scenario with every
 * measure, its plots, definitions). */
#ifndef RS_REPORT_H
#define RS_REPORT_H

#include "runs.h"
#include "util.h"

#include <stdio.h>

/* The report into f and its appendix into scen_f (named scen_name, the
 * link from f); plots go to outdir; head is the headline table
 * (summary.h), printed to stdout as well by the caller. */
void write_report(const struct results *res, const char *outdir, FILE *f,
		  const struct sbuf *head, FILE *scen_f, const char *scen_name);

/* The lossy and failed runs (and runs with lost trace events) of scen, or
 * of all scenarios when scen is NULL, as a markdown list. */
void run_lists(const struct results *res, const char *scen, struct sbuf *b);

#endif

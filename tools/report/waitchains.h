/* waitchains: the report's "Wait chains" section, from the wait_chains of
 * the runs' trace.json (rs-trace, tools/report/chains.h). */
#ifndef RS_WAITCHAINS_H
#define RS_WAITCHAINS_H

#include "runs.h"

#include <stdio.h>

/* Per scenario with a hi class (the inversion's), per kernel: the waits of
 * the threshold or longer, the totals by (waiter <- member, role, reason)
 * summed over runs, the longest chains written out.  Nothing when no run
 * has wait_chains. */
void write_wait_chains(FILE *f, const struct results *res);

#endif

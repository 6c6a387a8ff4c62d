/* options: the Summary's table of what each option buys and costs (issue
 * 17), the lines each series changes, and the report's "Readahead"
 * section. */
#ifndef RS_OPTIONS_H
#define RS_OPTIONS_H

#include "runs.h"

#include <stdio.h>

/* Per kernel: mmap_lock fallbacks (the sum over scenarios of each median)
 * and those removed against the baseline, the hi thread's mmap_lock wait
 * (ui-inversion), fork()'s p99 and max and the VMA write-lock waits of
 * fork (fork-at-scale, else fork-during-io), thrash's rounds/s and retry
 * misses, and the lines its series changes in mm/ and arch/.  A column no
 * run has is left out. */
void write_options(FILE *f, const struct results *res);

/* The lines each kernel's series changes (RESULTS/<kernel>/complexity). */
void write_complexity(FILE *f, const struct results *res);

/* Kernel k's lines added + removed in area ("mm", "arch", "other"), or NAN
 * without its complexity file. */
double complexity_lines(const struct results *res, size_t k, const char *area);

/* The read_ahead_kb of the runs (meta), and where scenarios ran at
 * different ones, each one's file retries and fallbacks per kernel. */
void write_readahead(FILE *f, const struct results *res);

/* fork()'s cost per kernel in each scenario with a fork class: every fork
 * pooled, its mean split into VMA write-lock wait, mmap_lock wait and the
 * rest (exploratory). */
void write_fork_cost(FILE *f, const struct results *res);

#endif

/* pair: rs-report --format pair, two captures side by side, measure by
 * measure, with the test that says whether they differ: the proof that the
 * host does not move the lab's numbers (scripts/host-independence
 * captures one kernel on an idle host and beside a CPU hog) and, between
 * any two kernels, a difference stated with its p-value. */
#ifndef RS_PAIR_H
#define RS_PAIR_H

#include "runs.h"

#include <stdio.h>

/* A markdown table per scenario that both kernels have runs of: for
 * kernels[0] (A) and kernels[1] (B), each headline measure (key_rows) and
 * each workload class's latency (p99 when every run has 100 samples or
 * more, else the max, and said so), as "median [min–max]" over the runs
 * that did not fail, B/A, the exact Mann-Whitney p-value, and A's spread
 * ((max - min) / median).  A measure "moved" when p < 0.05 and B/A is
 * further from 1 than A's spread.  Ends with the count of measures that
 * moved.  Returns that count.  res->nk must be 2 or more. */
int write_pair(FILE *f, const struct results *res);

#endif

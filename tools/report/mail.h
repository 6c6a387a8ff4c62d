/* mail: rs-report --format mail, the mmap_lock tables of the v2 cover
 * letter for two kernels, plain text in 72 columns, to paste into a mail. */
#ifndef RS_MAIL_H
#define RS_MAIL_H

#include "runs.h"

#include <stdio.h>

/* Per scenario that both have runs of: kernels[0] (Before) against
 * kernels[1] (After), the means over their runs that did not fail of the
 * read and write lock counts, total and average waits, and the two wait
 * time distributions in decade buckets (trace.json, else module
 * counters).  res->nk must be 2 or more; the rest are ignored. */
void write_mail(FILE *f, const struct results *res);

#endif

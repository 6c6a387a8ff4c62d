/* dropsites: the report's "Where the lock was dropped" section, from the
 * module's drop-site counters (docs/counters.md). */
#ifndef RS_DROPSITES_H
#define RS_DROPSITES_H

#include "runs.h"

#include <stdio.h>

/* Per kernel and site: the file and swap retries and those of them that
 * fell back to mmap_lock, medians per run summed over the scenarios.
 * Nothing when no run has the counters (a module before them). */
void write_drop_sites(FILE *f, const struct results *res);

#endif

/* runjson: the JSON files of a run (runs.c reads the rest).  A malformed
 * file (syntax, with its line; a field of the wrong type, by its path)
 * stops the program; an absent file leaves present = 0. */
#ifndef RS_RUNJSON_H
#define RS_RUNJSON_H

#include "runs.h"

/* workload.json: the classes, their latency histograms merged across
 * threads when a class has a "threads" array. */
void load_workload(struct workload *w, const char *path);
/* trace.json: mmap_lock.workload's read and write figures, lost events. */
void load_trace(struct trace_sum *t, const char *path);

#endif

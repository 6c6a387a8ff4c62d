/* perfetto: rs-trace --perfetto FILE, the trace as Chrome's JSON Trace Event
 * Format, which ui.perfetto.dev and chrome://tracing open.
 *
 * One track per thread (named "comm (prio P)", grouped in its process: the
 * tgid the module's events give, else the first thread seen on the same
 * mm), with:
 *   complete slices ("ph":"X") for every mmap_lock wait and hold, named
 *     "mmap_lock wait read|write" and "mmap_lock read|write: <reason>";
 *   instant events ("ph":"i") for the module's retries, fallbacks and kept
 *     retries, named by cause, and for the longest wait chains (on the
 *     waiter's track when its wait ends, the members in args);
 * and beside each thread's track a second one, "comm faults", with the
 * faults the module timed (retryscope_fault_done: the file and swap faults)
 * as slices named by outcome and cause ("fault mmap_lock (file_io)"): a
 * fault ends before the arch handler releases mmap_lock, so its slice and
 * the hold overlap without nesting, which one track cannot show.
 * Timestamps are microseconds from the trace's clock, as the format wants.
 */
#ifndef RS_PERFETTO_H
#define RS_PERFETTO_H

#include "chains.h"

#include <stdint.h>

struct pf;

struct pf *pf_new(void);
void pf_free(struct pf *p);

/* A hold or wait (chains' sink); cause: the fallback cause's name or NULL. */
void pf_span(struct pf *p, const struct ch_span *s, const char *cause);
/* A fault of thread tid, [start, start + dur), on its fault track. */
void pf_fault(struct pf *p, int tid, uint64_t start, uint64_t dur, const char *name,
	      const char *args);
/* An instant event on tid's track; args: a JSON object's text or NULL. */
void pf_instant(struct pf *p, int tid, uint64_t ts, const char *name, const char *args);
/* tid belongs to process tgid (from the module's events). */
void pf_tgid(struct pf *p, int tid, int tgid);

/* Write the file: comm(tid) and prio(tid) name the tracks.  0, or -1 with
 * errno set. */
int pf_write(struct pf *p, const char *path, const char *(*comm)(void *, int),
	     int (*prio)(void *, int), void *arg);
/* 1 when an allocation failed (events were dropped). */
int pf_oom(const struct pf *p);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - what one thread measures, and the per-class aggregate.
 *
 * Every worker thread owns one struct fl_tstat and is the only writer of
 * it; the main thread reads it after pthread_join().  Fault counts are
 * getrusage(RUSAGE_THREAD) deltas taken inside the thread around its
 * measured phase, so setup faults are excluded.
 */
#ifndef FL_STATS_H
#define FL_STATS_H

#include <stdint.h>

#include "hist.h"

/* Thread classes; the name is the JSON key, the comm is "fl-" + name. */
enum fl_class {
	FL_CLASS_IO,		/* file read faults, cold page cache */
	FL_CLASS_SWAP,		/* swap-in faults */
	FL_CLASS_SAME,		/* many threads, same file pages */
	FL_CLASS_MINOR,		/* minor-fault microbenchmark */
	FL_CLASS_HI,		/* the high-priority "UI" thread: ops are frames */
	FL_CLASS_WRITER,	/* mmap_lock writer: ops are write cycles */
	FL_CLASS_FORK,		/* fork() calls by the main thread */
	FL_CLASS_CPU,		/* CPU-bound spinners: ops are 1 ms slices */
	FL_CLASS_IDLE,		/* threads that only sleep (an app's many) */
	FL_NCLASSES
};

const char *fl_class_name(enum fl_class c);	/* "io" */
const char *fl_class_comm(enum fl_class c);	/* "fl-io" */
/* Classes whose ops are page touches (they make throughput_ops_s). */
int fl_class_touches_pages(enum fl_class c);

struct fl_tstat {
	uint64_t ops;
	uint64_t errors;
	uint64_t minflt, majflt;	/* deltas over the measured phase */
	long ru_minflt0, ru_majflt0;	/* at fl_tstat_begin() */
	struct hist lat;		/* per-op latency, ns */
};

void fl_tstat_init(struct fl_tstat *st);
/* Snapshot getrusage(RUSAGE_THREAD) of the calling thread. */
void fl_tstat_begin(struct fl_tstat *st);
/* Add the fault deltas since fl_tstat_begin(). */
void fl_tstat_end(struct fl_tstat *st);

static inline void fl_tstat_op(struct fl_tstat *st, uint64_t ns)
{
	st->ops++;
	hist_add(&st->lat, ns);
}

struct fl_classstat {
	unsigned int threads;		/* 0: class not used by the scenario */
	uint64_t ops, errors, minflt, majflt;
	struct hist lat;
};

void fl_classstat_init(struct fl_classstat *cs);
void fl_classstat_add(struct fl_classstat *cs, const struct fl_tstat *st);

#endif /* FL_STATS_H */

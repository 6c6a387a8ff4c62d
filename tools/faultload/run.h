/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - starting, timing and stopping a group of worker threads.
 *
 * A scenario adds its threads with fl_run_add(), then fl_run_start()
 * creates them; each names itself after its class, runs its setup
 * function (allocation, priorities: not measured), and waits until every
 * thread is ready.  Then all start together: the trampoline snapshots
 * the thread's rusage, calls the work function, and snapshots again.
 * fl_run_wait() sleeps until the duration ends or every thread is done;
 * fl_run_finish() stops and joins them and folds their stats into the
 * result per class.
 */
#ifndef FL_RUN_H
#define FL_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "stats.h"
#include "vmstat.h"

struct fl_result;

/*
 * fl_stop: the one global of faultload.  Non-zero once the run must end:
 * the duration is over, SIGINT/SIGTERM arrived, or a thread found a
 * failed check (corrupt data).  Workers poll it between page touches.
 */
extern atomic_int fl_stop;

static inline int fl_stopping(void)
{
	return atomic_load_explicit(&fl_stop, memory_order_relaxed);
}

static inline void fl_request_stop(void)
{
	atomic_store(&fl_stop, 1);
}

/* SIGINT and SIGTERM set fl_stop. */
void fl_install_signal_handlers(void);

struct fl_thread;
typedef int (*fl_setup_fn)(struct fl_thread *t);	/* 0 or -1 after a message */
typedef void (*fl_work_fn)(struct fl_thread *t);

struct fl_thread {
	enum fl_class cls;
	unsigned int idx;	/* index among the threads of its class */
	unsigned int nr;	/* threads in its class */
	void *ctx;		/* the scenario's shared context */
	void *priv;		/* per-thread data, free()d by fl_run_destroy() */
	fl_setup_fn setup;
	fl_work_fn work;
	struct fl_tstat st;
	int endless;		/* works until stopped: not waited for */
	int fatal;		/* set by the thread: a check failed, exit 1 */
	uint64_t t_done;	/* when its work returned */
	/* private to run.c */
	struct fl_run *run;
	pthread_t pt;
	int created, setup_failed;
};

struct fl_run {
	struct fl_thread *t;
	unsigned int n, cap;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int ready;	/* threads past their setup */
	int state;		/* 0 wait, 1 go, -1 abort */
	atomic_uint running;	/* threads not endless and not yet done */
	uint64_t t_init;	/* ns, fl_run_init(): setup begins */
	uint64_t t_start;	/* ns, when the threads were let go */
	struct fl_vmstat vs_start;
};

void fl_run_init(struct fl_run *run);
/* Add a thread (created by fl_run_start); NULL and a message on ENOMEM. */
struct fl_thread *fl_run_add(struct fl_run *run, enum fl_class cls,
			     fl_setup_fn setup, fl_work_fn work, void *ctx);
/* fl_run_add() n times; 0, or -1 after a message. */
int fl_run_add_n(struct fl_run *run, unsigned int n, enum fl_class cls,
		 fl_setup_fn setup, fl_work_fn work, void *ctx);
/* Add a thread that works until fl_stop (a writer): 0, or -1. */
int fl_run_add_endless(struct fl_run *run, enum fl_class cls,
		       fl_setup_fn setup, fl_work_fn work, void *ctx);
/* Create the threads, wait for their setup, let them go: 0, or -1. */
int fl_run_start(struct fl_run *run);
/* Whether threads (not endless) still work and no stop was requested. */
int fl_run_busy(struct fl_run *run);
/* Sleep until duration_s after the start, or until !fl_run_busy(). */
void fl_run_wait(struct fl_run *run, double duration_s);
/*
 * Stop, join, and add every thread's stats to res->cls[]; sets
 * res->wall_s (start to the last thread done), res->setup_s (init to
 * start), res->vmstat (deltas over the measured phase) and res->failed.
 */
void fl_run_finish(struct fl_run *run, struct fl_result *res);
void fl_run_destroy(struct fl_run *run);

#endif /* FL_RUN_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - the one run skeleton of every scenario: starting, timing and
 * stopping its groups of worker threads.
 *
 * A scenario describes its run in a struct fl_plan (the file mapping and
 * swap area it needs, its thread groups, its hooks) and calls
 * fl_run_plan(), which does the rest in this order: the setup clock
 * starts; --file is mapped (plan.file); plan.swap_size bytes are pushed
 * to swap (plan.swap); the prepare hook runs; the threads are created.
 * Each names itself after its class, runs its setup function
 * (allocation, priorities: not measured), and waits until every thread
 * is ready.  Then all start together: the trampoline snapshots the
 * thread's rusage, calls the work function, and snapshots again.  The
 * main thread runs the main hook, or sleeps until the duration ends or
 * every thread is done; then the threads are stopped and joined, their
 * stats folded into the result per class, and the done hook runs.
 * Whatever step failed, the threads are joined, the cleanup hook runs,
 * and the swap area and the mapping are released.
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
	void *priv;		/* per-thread data, free()d when the run ends */
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
	uint64_t t_init;	/* ns: setup begins */
	uint64_t t_start;	/* ns, when the threads were let go */
	struct fl_vmstat vs_start;
};

struct fl_opts;
struct fl_file;
struct fl_swap;

/* n threads of one class, all with the same functions and context. */
struct fl_group {
	enum fl_class cls;
	unsigned int n;
	fl_setup_fn setup;	/* may be NULL */
	fl_work_fn work;
	void *ctx;		/* the threads' t->ctx */
	int endless;		/* each works until fl_stop: not waited for */
};

/* What a scenario's run needs; every member may be 0 or NULL but groups. */
struct fl_plan {
	struct fl_file *file;	/* fl_file_map() of the options' file first */
	struct fl_swap *swap;	/* then fl_swap_prepare() of swap_size bytes */
	uint64_t swap_size;
	const struct fl_group *groups;	/* threads are added in this order */
	unsigned int ngroups;
	void *ctx;		/* the scenario's, passed to the hooks */
	/* After the mapping and the swap, before the threads: 0, or -1
	 * after a message. */
	int (*prepare)(void *ctx, const struct fl_opts *o,
		       struct fl_result *res);
	/* The main thread's part of the measured phase, instead of waiting. */
	void (*main)(struct fl_run *run, void *ctx);
	/* After the threads are joined and their stats are in res. */
	void (*done)(void *ctx, struct fl_result *res);
	/* Always, once the threads are gone (also after a failed step). */
	void (*cleanup)(void *ctx);
};

#define FL_PLAN_GROUPS(g) \
	.groups = (g), .ngroups = sizeof(g) / sizeof((g)[0])

/*
 * Run the plan.  res gets every thread's stats per class, wall_s (start
 * to the last thread done), setup_s (start of setup to the start of the
 * measured phase), vmstat (deltas over the measured phase) and failed.
 * 0, or FL_EXIT_FAIL after a message.
 */
int fl_run_plan(const struct fl_plan *plan, const struct fl_opts *o,
		struct fl_result *res);
/* Whether threads (not endless) still work and no stop was requested. */
int fl_run_busy(struct fl_run *run);

#endif /* FL_RUN_H */

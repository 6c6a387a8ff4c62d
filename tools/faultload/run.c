// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - worker thread group, see run.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "report.h"
#include "run.h"
#include "swap.h"
#include "util.h"

#define FL_STACK_SIZE	(256u << 10)

atomic_int fl_stop;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&fl_stop, 1);
}

void fl_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void run_init(struct fl_run *run)
{
	memset(run, 0, sizeof(*run));
	run->t_init = fl_now_ns();
	pthread_mutex_init(&run->lock, NULL);
	pthread_cond_init(&run->cond, NULL);
}

/* Add a thread (created by run_start); NULL and a message on ENOMEM. */
static struct fl_thread *run_add(struct fl_run *run, enum fl_class cls,
				 fl_setup_fn setup, fl_work_fn work, void *ctx)
{
	struct fl_thread *t;
	unsigned int i, idx = 0;

	if (run->n == run->cap) {
		unsigned int cap = run->cap ? run->cap * 2 : 16;

		t = realloc(run->t, cap * sizeof(*t));
		if (!t) {
			fl_err("out of memory for %u threads", cap);
			return NULL;
		}
		run->t = t;
		run->cap = cap;
	}
	for (i = 0; i < run->n; i++)
		if (run->t[i].cls == cls)
			idx++;
	t = &run->t[run->n++];
	memset(t, 0, sizeof(*t));
	t->cls = cls;
	t->idx = idx;
	t->ctx = ctx;
	t->setup = setup;
	t->work = work;
	fl_tstat_init(&t->st);
	return t;
}

/* Add a group's threads: 0, or -1 after a message. */
static int run_add_group(struct fl_run *run, const struct fl_group *g)
{
	struct fl_thread *t;
	unsigned int i;

	for (i = 0; i < g->n; i++) {
		t = run_add(run, g->cls, g->setup, g->work, g->ctx);
		if (!t)
			return -1;
		t->endless = g->endless;
	}
	return 0;
}

static void *trampoline(void *arg)
{
	struct fl_thread *t = arg;
	struct fl_run *run = t->run;
	int go;

	fl_set_thread_name(fl_class_comm(t->cls));
	if (t->setup && t->setup(t))
		t->setup_failed = 1;

	pthread_mutex_lock(&run->lock);
	run->ready++;
	pthread_cond_broadcast(&run->cond);
	while (!run->state)
		pthread_cond_wait(&run->cond, &run->lock);
	go = run->state > 0;
	pthread_mutex_unlock(&run->lock);

	if (go) {
		fl_tstat_begin(&t->st);
		t->work(t);
		fl_tstat_end(&t->st);
	}
	t->t_done = fl_now_ns();
	if (!t->endless)
		atomic_fetch_sub(&run->running, 1);
	return NULL;
}

static void release(struct fl_run *run, int state)
{
	pthread_mutex_lock(&run->lock);
	if (state > 0)
		run->t_start = fl_now_ns();
	run->state = state;
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
}

/* Create the threads, wait for their setup, let them go: 0, or -1. */
static int run_start(struct fl_run *run)
{
	unsigned int i, j, created = 0, failed = 0, finite = 0;
	pthread_attr_t attr;
	int ret;

	for (i = 0; i < run->n; i++) {
		run->t[i].run = run;
		run->t[i].nr = 0;
		for (j = 0; j < run->n; j++)
			if (run->t[j].cls == run->t[i].cls)
				run->t[i].nr++;
	}
	for (i = 0; i < run->n; i++)
		finite += !run->t[i].endless;
	atomic_store(&run->running, finite);
	pthread_attr_init(&attr);
	/* workers keep their data on the heap: small stacks, many threads */
	pthread_attr_setstacksize(&attr, FL_STACK_SIZE);
	for (i = 0; i < run->n; i++) {
		ret = pthread_create(&run->t[i].pt, &attr, trampoline, &run->t[i]);
		if (ret) {
			fl_err("pthread_create (thread %u of %u, %s): %s", i + 1,
			       run->n, fl_class_comm(run->t[i].cls), strerror(ret));
			pthread_attr_destroy(&attr);
			release(run, -1);
			return -1;
		}
		run->t[i].created = 1;
		created++;
	}
	pthread_attr_destroy(&attr);

	pthread_mutex_lock(&run->lock);
	while (run->ready < created)
		pthread_cond_wait(&run->cond, &run->lock);
	pthread_mutex_unlock(&run->lock);
	for (i = 0; i < run->n; i++)
		failed += run->t[i].setup_failed;
	if (failed) {
		release(run, -1);
		return -1;
	}
	if (fl_vmstat_read(&run->vs_start))
		memset(&run->vs_start, 0, sizeof(run->vs_start));
	release(run, 1);
	return 0;
}

int fl_run_busy(struct fl_run *run)
{
	return !fl_stopping() && atomic_load(&run->running) > 0;
}

/* Sleep until duration_s after the start, or until !fl_run_busy(). */
static void run_wait(struct fl_run *run, double duration_s)
{
	uint64_t end = run->t_start + (uint64_t)(duration_s * NSEC_PER_SEC);
	uint64_t now, tick = 10 * NSEC_PER_MSEC;

	while (fl_run_busy(run) && (now = fl_now_ns()) < end)
		fl_sleep_ns(end - now < tick ? end - now : tick);
}

/*
 * Stop, join, and add every thread's stats to res->cls[]; sets
 * res->wall_s, res->setup_s, res->vmstat and res->failed.  With res
 * NULL, only stop and join.
 */
static void run_finish(struct fl_run *run, struct fl_result *res)
{
	struct fl_vmstat vs_end;
	uint64_t last = run->t_start;
	unsigned int i;

	fl_request_stop();
	for (i = 0; i < run->n; i++) {
		struct fl_thread *t = &run->t[i];

		if (!t->created)
			continue;
		pthread_join(t->pt, NULL);
		t->created = 0;
		if (t->t_done > last)
			last = t->t_done;
		if (res) {
			fl_classstat_add(&res->cls[t->cls], &t->st);
			res->failed |= t->fatal;
		}
	}
	if (!res)
		return;
	if (!fl_vmstat_read(&vs_end))
		fl_vmstat_delta(&res->vmstat, &run->vs_start, &vs_end);
	res->wall_s = (double)(last - run->t_start) / NSEC_PER_SEC;
	res->setup_s = (double)(run->t_start - run->t_init) / NSEC_PER_SEC;
}

static void run_destroy(struct fl_run *run)
{
	unsigned int i;

	run_finish(run, NULL);
	for (i = 0; i < run->n; i++)
		free(run->t[i].priv);
	free(run->t);
	pthread_mutex_destroy(&run->lock);
	pthread_cond_destroy(&run->cond);
	memset(run, 0, sizeof(*run));
}

int fl_run_plan(const struct fl_plan *plan, const struct fl_opts *o,
		struct fl_result *res)
{
	struct fl_run run;
	unsigned int i;
	int ret = FL_EXIT_FAIL;

	run_init(&run);
	if (plan->file && fl_file_map(plan->file, o, res))
		goto out;
	if (plan->swap &&
	    fl_swap_prepare(plan->swap, plan->swap_size, o->seed, res))
		goto out;
	if (plan->prepare && plan->prepare(plan->ctx, o, res))
		goto out;
	for (i = 0; i < plan->ngroups; i++)
		if (run_add_group(&run, &plan->groups[i]))
			goto out;
	if (run_start(&run))
		goto out;
	if (plan->main)
		plan->main(&run, plan->ctx);
	else
		run_wait(&run, o->duration);
	run_finish(&run, res);
	if (plan->done)
		plan->done(plan->ctx, res);
	ret = 0;
out:
	run_destroy(&run);
	if (plan->cleanup)
		plan->cleanup(plan->ctx);
	if (plan->swap)
		fl_swap_destroy(plan->swap);
	if (plan->file)
		fl_file_unmap(plan->file);
	return ret;
}

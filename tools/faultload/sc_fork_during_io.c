// SPDX-License-Identifier: GPL-2.0
/*
 * fork-during-io: fork() latency while threads wait for file I/O.
 *
 * --threads fl-io threads run the file-major workload on --file.  The
 * main thread (fl-main) calls fork() every --fork-interval ms; the child
 * calls _exit(0) at once and the parent reaps it (not timed).  fork()
 * takes mmap_lock for write in dup_mmap(), so each call waits for the
 * faults that hold or retry under mmap_lock: the "fork" class holds the
 * latency of every fork() call.  Ends after --duration.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

struct fork_ctx {
	const struct fl_opts *o;
	struct fl_tstat st;	/* the "fork" class: the main thread's calls */
};

/* fork() every interval until the run ends; stats into st. */
static void fork_loop(struct fl_run *run, const struct fl_opts *o,
		      struct fl_tstat *st)
{
	uint64_t interval = (uint64_t)(o->fork_interval_ms * NSEC_PER_MSEC);
	uint64_t end = run->t_start + (uint64_t)(o->duration * NSEC_PER_SEC);
	uint64_t now, next = run->t_start, t0, t1, wait;
	pid_t pid;

	while (fl_run_busy(run) && (now = fl_now_ns()) < end) {
		if (now < next) {
			wait = next - now;
			if (wait > end - now)
				wait = end - now;
			if (wait > 10 * NSEC_PER_MSEC)
				wait = 10 * NSEC_PER_MSEC;
			fl_sleep_ns(wait);
			continue;
		}
		t0 = fl_now_ns();
		pid = fork();
		t1 = fl_now_ns();
		if (pid == 0)
			_exit(0);
		if (pid < 0) {
			if (!st->errors)
				fl_warn("fork: %s", strerror(errno));
			st->errors++;
		} else {
			fl_tstat_op(st, t1 - t0);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		next = t0 + interval;
	}
}

/* The main thread's part of the run, as fl-main. */
static void fork_main(struct fl_run *run, void *arg)
{
	struct fork_ctx *ctx = arg;

	fl_tstat_init(&ctx->st);
	fl_tstat_begin(&ctx->st);
	fork_loop(run, ctx->o, &ctx->st);
	fl_tstat_end(&ctx->st);
}

static void fork_done(void *arg, struct fl_result *res)
{
	struct fork_ctx *ctx = arg;

	fl_classstat_add(&res->cls[FL_CLASS_FORK], &ctx->st);
}

static int fork_during_io_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_io_ctx ioctx = { .o = o, .file = &file };
	struct fork_ctx ctx = { .o = o };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
	};
	const struct fl_plan plan = {
		.file = &file, FL_PLAN_GROUPS(groups), .ctx = &ctx,
		.main = fork_main, .done = fork_done,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_fork_during_io = {
	.id = SC_FORK_DURING_IO, .name = "fork-during-io",
	.run = fork_during_io_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 2, 64ull << 20, 8, 0 },
	.summary = "fork() latency while threads take file I/O faults",
	.help = "  --threads fl-io threads fault the cold --file; the main thread\n"
		"  (fl-main) forks every --fork-interval ms, the child exits at\n"
		"  once, and each fork() call is timed (class \"fork\").\n",
};

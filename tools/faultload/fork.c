// SPDX-License-Identifier: GPL-2.0
/*
 * fork.c - the timed fork() loop of fork-during-io and fork-at-scale
 * (fork.h).  fork() takes mmap_lock for write in dup_mmap() and write-locks
 * every VMA of the parent: each call waits for the faults that hold
 * mmap_lock, or a VMA's lock, at the time.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fork.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "util.h"

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

void fl_fork_main(struct fl_run *run, void *arg)
{
	struct fl_fork_ctx *ctx = arg;

	fl_tstat_init(&ctx->st);
	fl_tstat_begin(&ctx->st);
	fork_loop(run, ctx->o, &ctx->st);
	fl_tstat_end(&ctx->st);
}

void fl_fork_done(void *arg, struct fl_result *res)
{
	struct fl_fork_ctx *ctx = arg;

	fl_classstat_add(&res->cls[FL_CLASS_FORK], &ctx->st);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fork.h - the timed fork() loop of fork-during-io and fork-at-scale.
 *
 * The main thread (fl-main) calls fork() every --fork-interval ms until
 * the run ends; the child calls _exit(0) at once and the parent reaps it
 * (not timed).  Each fork() call is one op of the "fork" class.  Pass
 * fl_fork_main and fl_fork_done as a plan's main and done hooks, with a
 * struct fl_fork_ctx as its ctx.
 */
#ifndef FL_FORK_H
#define FL_FORK_H

#include "stats.h"

struct fl_opts;
struct fl_result;
struct fl_run;

struct fl_fork_ctx {
	const struct fl_opts *o;
	struct fl_tstat st;	/* the "fork" class: the main thread's calls */
};

void fl_fork_main(struct fl_run *run, void *ctx);
void fl_fork_done(void *ctx, struct fl_result *res);

#endif /* FL_FORK_H */

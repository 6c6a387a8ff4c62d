// SPDX-License-Identifier: GPL-2.0
/*
 * fork-during-io: fork() latency while threads wait for file I/O.
 *
 * --threads fl-io threads run the file-major workload on --file.  The
 * main thread (fl-main) calls fork() every --fork-interval ms; the child
 * calls _exit(0) at once and the parent reaps it (not timed; fork.c).
 * fork() takes mmap_lock for write in dup_mmap(), so each call waits for
 * the faults that hold or retry under mmap_lock: the "fork" class holds
 * the latency of every fork() call.  Ends after --duration.
 */
#include "fileio.h"
#include "fork.h"
#include "opts.h"
#include "run.h"
#include "scenario.h"

static int fork_during_io_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_io_ctx ioctx = { .o = o, .file = &file };
	struct fl_fork_ctx ctx = { .o = o };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
	};
	const struct fl_plan plan = {
		.file = &file, FL_PLAN_GROUPS(groups), .ctx = &ctx,
		.main = fl_fork_main, .done = fl_fork_done,
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

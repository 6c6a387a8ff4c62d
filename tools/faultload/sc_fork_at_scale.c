// SPDX-License-Identifier: GPL-2.0
/*
 * fork-at-scale: fork() latency in a process the size of a large Android
 * app while its threads wait for file and swap I/O.
 *
 * The after-v2 thread (Xiaomi's data): fork() at run time is common (82
 * of 200 top apps), Taobao forked with 526 threads and 8,987 VMAs, and
 * holding the per-VMA lock across I/O made dup_mmap(), which write-locks
 * every VMA, wait 440 and 515 ms.  Here: --vmas extra VMAs (one page
 * each, written, neighbours of different protection so that none merge)
 * and --idle-threads fl-idle threads that only sleep (each a stack VMA
 * and its guard) make the process that size; --threads fl-io threads take
 * file-major faults on --file and --swap-threads fl-swap threads swap-ins
 * of --swap-size bytes (prepared as in swap-in; 0 leaves them out); the
 * main thread (fl-main) forks every --fork-interval ms and times each call
 * (class "fork", fork.c).  The module's vma_write_lock_waited_fork counts
 * the write locks that waited for a fault.  Ends after --duration.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "fork.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"
#include "util.h"

struct scale_ctx {
	struct fl_fork_ctx fork;
	char **vmas;
	unsigned int nvmas;
	long vmas_at_start;	/* the process's VMAs, threads created */
};

/* fl-idle: sleep until the run ends, as most of an app's threads do. */
static void idle_work(struct fl_thread *t)
{
	(void)t;
	while (!fl_stopping())
		fl_sleep_ns(10 * NSEC_PER_MSEC);
}

/* --vmas one-page VMAs, written; alternate protections keep them apart. */
static int scale_prepare(void *arg, const struct fl_opts *o,
			 struct fl_result *res)
{
	struct scale_ctx *ctx = arg;
	size_t psz = fl_page_size();
	unsigned int i;

	ctx->vmas = calloc(o->vmas ? o->vmas : 1, sizeof(*ctx->vmas));
	if (!ctx->vmas) {
		fl_err("fork-at-scale: calloc of %u VMA pointers failed", o->vmas);
		return -1;
	}
	for (i = 0; i < o->vmas; i++) {
		char *p = mmap(NULL, psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			fl_err("fork-at-scale: mmap of VMA %u of %u: %s (vm.max_map_count?)",
			       i + 1, o->vmas, strerror(errno));
			return -1;
		}
		ctx->vmas[ctx->nvmas++] = p;
		p[0] = 1;
		if ((i & 1) && mprotect(p, psz, PROT_READ)) {
			fl_err("fork-at-scale: mprotect of VMA %u: %s", i + 1,
			       strerror(errno));
			return -1;
		}
	}
	fl_result_setup_int(res, "extra_vmas", ctx->nvmas);
	return 0;
}

/* The measured phase: the process's size as fork() sees it, then forks. */
static void scale_main(struct fl_run *run, void *arg)
{
	struct scale_ctx *ctx = arg;

	ctx->vmas_at_start = fl_count_vmas();
	fl_fork_main(run, &ctx->fork);
}

static void scale_done(void *arg, struct fl_result *res)
{
	struct scale_ctx *ctx = arg;

	fl_result_setup_int(res, "process_vmas", ctx->vmas_at_start);
	fl_fork_done(&ctx->fork, res);
}

static void scale_cleanup(void *arg)
{
	struct scale_ctx *ctx = arg;
	size_t psz = fl_page_size();

	while (ctx->nvmas)
		munmap(ctx->vmas[--ctx->nvmas], psz);
	free(ctx->vmas);
	ctx->vmas = NULL;
}

static int fork_at_scale_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_swap swap;
	struct fl_io_ctx ioctx = { .o = o, .file = &file };
	struct fl_swap_ctx sctx = { .o = o, .swap = &swap };
	struct scale_ctx ctx = { .fork = { .o = o } };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
		{ FL_CLASS_SWAP, o->swap_threads, fl_swap_setup, fl_swap_work,
		  &sctx, 0 },
		{ FL_CLASS_IDLE, o->idle_threads, NULL, idle_work, NULL, 1 },
	};
	const struct fl_plan plan = {
		.file = &file, .swap = o->swap_threads ? &swap : NULL,
		.swap_size = o->swap_size, FL_PLAN_GROUPS(groups), .ctx = &ctx,
		.prepare = scale_prepare, .main = scale_main,
		.done = scale_done, .cleanup = scale_cleanup,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_fork_at_scale = {
	.id = SC_FORK_AT_SCALE, .name = "fork-at-scale",
	.run = fork_at_scale_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 8, 64ull << 20, 8, 0 },
	.summary = "fork() latency with hundreds of threads and thousands of VMAs in I/O",
	.help = "  --vmas extra one-page VMAs and --idle-threads sleeping fl-idle\n"
		"  threads size the process like a large app; --threads fl-io\n"
		"  (file I/O faults) and --swap-threads fl-swap (swap-ins of\n"
		"  --swap-size, needs swap) fault while the main thread forks\n"
		"  every --fork-interval ms and times each fork() (class \"fork\").\n"
		"  e.g. faultload fork-at-scale --idle-threads 240 --vmas 4000\n",
};

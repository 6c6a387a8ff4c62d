// SPDX-License-Identifier: GPL-2.0
/*
 * ui-inversion: a high-priority thread's frames stall on mmap_lock behind
 * low-priority threads whose faults fell back to it after I/O.
 *
 * The Android case from LSFMM 2026: the UI thread never touches the file
 * or the swapped memory, yet it waits.  One fl-hi thread asks for
 * SCHED_FIFO priority 10 (pthread_setschedparam); if that is not
 * permitted, nice -20; if that is not either, it runs as it is ("hi_policy"
 * in the JSON).  Each frame it does what a UI thread does that needs
 * mmap_lock, and the frame's duration is one op of class "hi":
 *   - maps a fresh --hi-pages anonymous region and writes each page: the
 *     first fault of a VMA without an anon_vma cannot finish under the
 *     VMA lock and falls back to mmap_lock (thread stacks, heap growth);
 *   - unmaps it (mmap_lock for write);
 *   - empties (MADV_DONTNEED) and writes its page of a shared VMA whose
 *     last --writer-size bytes the fl-writer thread flips with mprotect()
 *     (mmap_lock for write, and the VMA write-locked: the fault cannot
 *     take the VMA lock while the writer holds it);
 * then sleeps --hi-interval ms (a frame, not a busy loop).  Meanwhile, at
 * nice 19: --threads fl-io threads take file-major faults on --file,
 * --swap-threads fl-swap threads swap-in faults on --swap-size bytes
 * (prepared as in swap-in; --swap-threads 0 leaves them out), and the
 * fl-writer.  --cpu-threads fl-cpu threads at nice 0 (default one per
 * online CPU) spin, so that a nice-19 thread holding mmap_lock after its
 * I/O gets preempted while it holds it.  Ends after --duration.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "hi.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"
#include "util.h"

#define LO_NICE		19
#define CPU_SPIN_NS	NSEC_PER_MSEC

static int lo_setup(struct fl_thread *t)
{
	int nice = t->cls == FL_CLASS_CPU ? 0 : LO_NICE, err;

	err = fl_set_thread_nice(nice);
	if (err)
		fl_warn("%s: setpriority(nice %d): %s", fl_class_comm(t->cls),
			nice, strerror(-err));
	return 0;
}

/* fl-writer: flip the shared VMA's tail read-only and back; an op each. */
static void writer_work(struct fl_thread *t)
{
	struct fl_hi_ctx *ctx = t->ctx;
	unsigned char *tail = ctx->shared + ctx->shared_len - ctx->tail;
	uint64_t pause = (uint64_t)(ctx->o->writer_pause_ms * NSEC_PER_MSEC);
	uint64_t t0;

	while (!fl_stopping()) {
		t0 = fl_now_ns();
		if (mprotect(tail, ctx->tail, PROT_READ) ||
		    mprotect(tail, ctx->tail, PROT_READ | PROT_WRITE)) {
			fl_err("fl-writer: mprotect: %s", strerror(errno));
			t->st.errors++;
			t->fatal = 1;
			fl_request_stop();
			return;
		}
		fl_tstat_op(&t->st, fl_now_ns() - t0);
		if (pause)
			fl_sleep_ns(pause);
	}
}

/*
 * fl-cpu: spin in 1 ms slices until the run ends; an op is a slice, its
 * latency how long it took (1 ms plus the time it was preempted).
 */
static void cpu_work(struct fl_thread *t)
{
	volatile uint64_t sink = 0;
	uint64_t t0;

	while (!fl_stopping()) {
		t0 = fl_now_ns();
		while (fl_now_ns() - t0 < CPU_SPIN_NS)
			sink++;
		fl_tstat_op(&t->st, fl_now_ns() - t0);
	}
}

/* The shared VMA: fl-hi's page, then the writer's --writer-size tail. */
static int hi_prepare(void *arg, const struct fl_opts *o,
		      struct fl_result *res)
{
	struct fl_hi_ctx *ctx = arg;
	size_t psz = fl_page_size();

	(void)res;
	ctx->tail = (o->writer_size + psz - 1) / psz * psz;
	ctx->shared_len = psz + ctx->tail;
	ctx->shared = mmap(NULL, ctx->shared_len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ctx->shared == MAP_FAILED) {
		ctx->shared = NULL;
		fl_err("ui-inversion: mmap of the shared %zu bytes: %s",
		       ctx->shared_len, strerror(errno));
		return -1;
	}
	(void)madvise(ctx->shared, ctx->shared_len, MADV_NOHUGEPAGE);
	/* an anon_vma from the start: the frame's fault there is not a first */
	memset(ctx->shared, 1, ctx->shared_len);
	return 0;
}

static void hi_done(void *arg, struct fl_result *res)
{
	struct fl_hi_ctx *ctx = arg;

	res->hi_policy = ctx->policy;
}

static void hi_cleanup(void *arg)
{
	struct fl_hi_ctx *ctx = arg;

	if (ctx->shared)
		munmap(ctx->shared, ctx->shared_len);
}

static int ui_inversion_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_swap swap;
	struct fl_io_ctx ioctx = { .o = o, .file = &file, .nice = LO_NICE };
	struct fl_swap_ctx sctx = { .o = o, .swap = &swap, .nice = LO_NICE };
	struct fl_hi_ctx hctx = { .o = o };
	const struct fl_group groups[] = {
		{ FL_CLASS_HI, 1, fl_hi_setup, fl_hi_work, &hctx, 1 },
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
		{ FL_CLASS_SWAP, o->swap_threads, fl_swap_setup, fl_swap_work,
		  &sctx, 0 },
		{ FL_CLASS_WRITER, 1, lo_setup, writer_work, &hctx, 1 },
		{ FL_CLASS_CPU, o->cpu_threads, lo_setup, cpu_work, &hctx, 1 },
	};
	const struct fl_plan plan = {
		.file = &file, .swap = o->swap_threads ? &swap : NULL,
		.swap_size = o->swap_size, FL_PLAN_GROUPS(groups), .ctx = &hctx,
		.prepare = hi_prepare, .done = hi_done, .cleanup = hi_cleanup,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_ui_inversion = {
	.id = SC_UI_INVERSION, .name = "ui-inversion", .run = ui_inversion_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 2, 64ull << 20, 8, 0 },
	.summary = "a SCHED_FIFO thread's frames beside low-priority I/O faults",
	.help = "  One fl-hi thread (SCHED_FIFO 10, else nice -20, else normal:\n"
		"  \"hi_policy\") times frames: mmap a fresh --hi-pages region,\n"
		"  write it, munmap it, then fault a page of a VMA whose tail the\n"
		"  fl-writer mprotect()s; sleeps --hi-interval between frames.\n"
		"  At nice 19: --threads fl-io (file I/O faults), --swap-threads\n"
		"  fl-swap (swap-ins, needs swap) and the fl-writer; at nice 0:\n"
		"  --cpu-threads fl-cpu spinners that preempt them.\n"
		"  e.g. faultload ui-inversion --threads 2 --swap-threads 2 --duration 4\n",
};

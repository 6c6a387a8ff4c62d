// SPDX-License-Identifier: GPL-2.0
/*
 * ui-inversion: a high-priority thread's minor faults while low-priority
 * threads wait for file I/O and a writer takes mmap_lock.
 *
 * The Android case from the LSFMM discussion: the UI thread never touches
 * the file, yet it stalls.  One fl-hi thread asks for SCHED_FIFO priority
 * 10 (pthread_setschedparam); if that is not permitted, nice -20; if that
 * is not either, it runs as it is.  The policy it got is "hi_policy" in
 * the JSON.  It owns a --hi-pages anonymous VMA and, in a loop, writes
 * one byte per page, each access timed with CLOCK_MONOTONIC, then
 * MADV_DONTNEED so that every touch of the next pass is a fresh minor
 * fault, then sleeps --hi-interval ms (a frame, not a busy loop: on two
 * vCPUs a SCHED_FIFO spinner would starve the rest).  Meanwhile
 * --threads fl-io threads at nice 19 take file-major faults on --file
 * and one fl-writer thread at nice 19 cycles mmap_lock for write.  The
 * hi thread's latency tail is the measurement.  Ends after --duration.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"
#include "writer.h"

#define HI_FIFO_PRIO	10
#define HI_NICE		(-20)
#define LO_NICE		19

struct hi_ctx {
	const struct fl_opts *o;
	unsigned char *vma;
	size_t len;
	const char *policy;	/* written by the hi thread's setup */
};

static int hi_setup(struct fl_thread *t)
{
	struct hi_ctx *ctx = t->ctx;
	struct sched_param sp = { .sched_priority = HI_FIFO_PRIO };
	int err, nerr;

	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (!err) {
		ctx->policy = "SCHED_FIFO";
		return 0;
	}
	nerr = fl_set_thread_nice(HI_NICE);
	if (!nerr) {
		ctx->policy = "nice-20";
		fl_warn("fl-hi: SCHED_FIFO %d not permitted (%s): running at nice %d",
			HI_FIFO_PRIO, strerror(err), HI_NICE);
		return 0;
	}
	ctx->policy = "normal";
	fl_warn("fl-hi: neither SCHED_FIFO %d (%s) nor nice %d (%s) permitted: running at normal priority",
		HI_FIFO_PRIO, strerror(err), HI_NICE, strerror(-nerr));
	return 0;
}

/*
 * Empty the VMA so that the next pass faults again.  Without madvise()
 * (ENOSYS) map fresh memory over it instead; that takes mmap_lock for
 * write, untimed, and is reported once.
 */
static int hi_zap(struct hi_ctx *ctx, int *no_madvise)
{
	void *p;

	if (!*no_madvise) {
		if (!madvise(ctx->vma, ctx->len, MADV_DONTNEED))
			return 0;
		if (errno != ENOSYS)
			return -errno;
		*no_madvise = 1;
		fl_warn("fl-hi: madvise(MADV_DONTNEED): %s%s; mapping over the VMA instead",
			strerror(ENOSYS), FL_NO_ADVISE_HINT);
	}
	p = mmap(ctx->vma, ctx->len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	return p == MAP_FAILED ? -errno : 0;
}

static void hi_work(struct fl_thread *t)
{
	struct hi_ctx *ctx = t->ctx;
	uint64_t pause = (uint64_t)(ctx->o->hi_interval_ms * NSEC_PER_MSEC);
	size_t psz = fl_page_size(), i;
	int no_madvise = 0, err;

	while (!fl_stopping()) {
		for (i = 0; i < ctx->o->hi_pages && !fl_stopping(); i++)
			fl_tstat_op(&t->st, fl_touch_write(ctx->vma + i * psz));
		err = hi_zap(ctx, &no_madvise);
		if (err && no_madvise) {
			/* MAP_FIXED failed: the VMA may be gone */
			fl_err("fl-hi: mapping over its VMA: %s", strerror(-err));
			t->st.errors++;
			t->fatal = 1;
			fl_request_stop();
			return;
		}
		if (err) {
			if (!t->st.errors)
				fl_warn("fl-hi: emptying its VMA: %s", strerror(-err));
			t->st.errors++;
		}
		fl_sleep_ns(pause);
	}
}

/* The hi thread's VMA. */
static int hi_prepare(void *arg, const struct fl_opts *o,
		      struct fl_result *res)
{
	struct hi_ctx *ctx = arg;

	(void)res;
	ctx->len = (size_t)o->hi_pages * fl_page_size();
	ctx->vma = mmap(NULL, ctx->len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ctx->vma == MAP_FAILED) {
		ctx->vma = NULL;
		fl_err("ui-inversion: mmap of the hi thread's %zu bytes: %s",
		       ctx->len, strerror(errno));
		return -1;
	}
	(void)madvise(ctx->vma, ctx->len, MADV_NOHUGEPAGE);
	return 0;
}

static void hi_done(void *arg, struct fl_result *res)
{
	struct hi_ctx *ctx = arg;

	res->hi_policy = ctx->policy;
}

static void hi_cleanup(void *arg)
{
	struct hi_ctx *ctx = arg;

	if (ctx->vma)
		munmap(ctx->vma, ctx->len);
}

static int ui_inversion_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_io_ctx ioctx = { .o = o, .file = &file, .nice = LO_NICE };
	struct fl_writer_ctx wctx = { .o = o, .nice = LO_NICE };
	struct hi_ctx hctx = { .o = o };
	const struct fl_group groups[] = {
		{ FL_CLASS_HI, 1, hi_setup, hi_work, &hctx, 1 },
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
		{ FL_CLASS_WRITER, 1, fl_writer_setup, fl_writer_work, &wctx, 1 },
	};
	const struct fl_plan plan = {
		.file = &file, FL_PLAN_GROUPS(groups), .ctx = &hctx,
		.prepare = hi_prepare, .done = hi_done, .cleanup = hi_cleanup,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_ui_inversion = {
	.id = SC_UI_INVERSION, .name = "ui-inversion", .run = ui_inversion_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 2, 64ull << 20, 8, 0 },
	.summary = "a SCHED_FIFO thread's minor faults beside I/O faults and a writer",
	.help = "  One fl-hi thread (SCHED_FIFO 10, else nice -20, else normal:\n"
		"  \"hi_policy\") writes its own --hi-pages VMA page by page, timing\n"
		"  each access, MADV_DONTNEED, sleeps --hi-interval; --threads fl-io\n"
		"  threads at nice 19 fault the cold --file and an fl-writer at\n"
		"  nice 19 cycles mmap_lock for write.\n",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * hi.c - the high-priority "UI" thread, fl-hi (hi.h), shared by the
 * scenarios that time frames (ui-inversion, app-start).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "hi.h"
#include "opts.h"
#include "run.h"
#include "util.h"

#define HI_FIFO_PRIO	10
#define HI_NICE		(-20)

int fl_hi_setup(struct fl_thread *t)
{
	struct fl_hi_ctx *ctx = t->ctx;
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

/* One frame: 0, or -errno of the call that failed. */
static int hi_frame(struct fl_hi_ctx *ctx)
{
	size_t psz = fl_page_size(), len = ctx->o->hi_pages * psz, i;
	unsigned char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	for (i = 0; i < len; i += psz)
		(void)fl_touch_write(p + i);
	if (munmap(p, len))
		return -errno;
	if (!ctx->shared)
		return 0;
	if (madvise(ctx->shared, psz, MADV_DONTNEED))
		return -errno;
	(void)fl_touch_write(ctx->shared);
	return 0;
}

void fl_hi_work(struct fl_thread *t)
{
	struct fl_hi_ctx *ctx = t->ctx;
	uint64_t pause = (uint64_t)(ctx->o->hi_interval_ms * NSEC_PER_MSEC);
	uint64_t t0;
	int err;

	while (!fl_stopping()) {
		t0 = fl_now_ns();
		err = hi_frame(ctx);
		if (err) {
			if (!t->st.errors)
				fl_warn("fl-hi: frame: %s", strerror(-err));
			t->st.errors++;
		} else {
			fl_tstat_op(&t->st, fl_now_ns() - t0);
		}
		fl_sleep_ns(pause);
	}
}

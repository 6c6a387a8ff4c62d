// SPDX-License-Identifier: GPL-2.0
/*
 * writer.c - the mmap_lock writer thread, see writer.h.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "opts.h"
#include "run.h"
#include "util.h"
#include "writer.h"

int fl_writer_setup(struct fl_thread *t)
{
	struct fl_writer_ctx *ctx = t->ctx;
	int err;

	if (ctx->nice) {
		err = fl_set_thread_nice(ctx->nice);
		if (err)
			fl_warn("fl-writer: setpriority(nice %d): %s", ctx->nice,
				strerror(-err));
	}
	return 0;
}

static int cycle(size_t len)
{
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (mprotect(p, len, PROT_READ)) {
		int err = -errno;

		munmap(p, len);
		return err;
	}
	if (munmap(p, len))
		return -errno;
	return 0;
}

void fl_writer_work(struct fl_thread *t)
{
	struct fl_writer_ctx *ctx = t->ctx;
	uint64_t pause = (uint64_t)(ctx->o->writer_pause_ms * NSEC_PER_MSEC);
	uint64_t t0;
	int err;

	while (!fl_stopping()) {
		t0 = fl_now_ns();
		err = cycle(ctx->o->writer_size);
		if (err) {
			if (!t->st.errors)
				fl_warn("fl-writer: mmap/mprotect/munmap of %llu bytes: %s",
					(unsigned long long)ctx->o->writer_size,
					strerror(-err));
			t->st.errors++;
			fl_sleep_ns(NSEC_PER_MSEC);	/* do not spin on ENOMEM */
			continue;
		}
		fl_tstat_op(&t->st, fl_now_ns() - t0);
		if (pause)
			fl_sleep_ns(pause);
	}
}

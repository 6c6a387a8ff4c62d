// SPDX-License-Identifier: GPL-2.0
/*
 * same-pages: many threads faulting the same file pages at once.
 *
 * --threads (default 8) fl-same threads walk the same first --size bytes
 * of --file, in the same order (--order random: one shuffle shared by
 * all), one byte per page, starting together on a cold page cache.  One
 * thread's fault starts the read; the others find the folio locked (or,
 * once the read is done, uptodate) and retry: the case where checking
 * folio_test_uptodate() could avoid the fallback to mmap_lock.  With
 * --passes N (or until --duration) the threads meet at a barrier after
 * each pass, one of them makes the range cold again (MADV_DONTNEED +
 * POSIX_FADV_DONTNEED), and all start the next pass together.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "opts.h"
#include "order.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

struct same_ctx {
	const struct fl_opts *o;
	struct fl_file *file;
	uint32_t *order;
	pthread_barrier_t pass_end;
	int have_barrier;	/* pass_end is initialized */
	int again;		/* written by thread 0 between the barriers */
};

static void same_work(struct fl_thread *t)
{
	struct same_ctx *ctx = t->ctx;
	const struct fl_opts *o = ctx->o;
	const unsigned char *map = ctx->file->map;
	size_t psz = fl_page_size(), n = ctx->file->npages, i;
	uint64_t pass;
	int err;

	for (pass = 0;; pass++) {
		for (i = 0; i < n && !fl_stopping(); i++)
			fl_tstat_op(&t->st,
				    fl_touch_read(map + (size_t)ctx->order[i] * psz));
		/* every thread gets here the same number of times */
		pthread_barrier_wait(&ctx->pass_end);
		if (t->idx == 0) {
			ctx->again = !fl_stopping() &&
				     (!o->passes || pass + 1 < o->passes);
			if (ctx->again) {
				err = fl_file_drop_range(ctx->file, 0, n,
							 o->drop_caches);
				if (err == -ENOSYS) {
					fl_warn("fl-same: cannot make pages cold again: madvise/fadvise: %s%s; stopping after %llu pass(es)",
						strerror(ENOSYS), FL_NO_ADVISE_HINT,
						(unsigned long long)pass + 1);
					t->st.errors++;
					ctx->again = 0;
				} else if (err) {
					if (!t->st.errors)
						fl_warn("fl-same: dropping pages between passes: %s",
							strerror(-err));
					t->st.errors++;
				}
			}
		}
		pthread_barrier_wait(&ctx->pass_end);
		if (!ctx->again)
			break;
	}
}

/* The shared walk order and the barrier between passes. */
static int same_prepare(void *arg, const struct fl_opts *o,
			struct fl_result *res)
{
	struct same_ctx *ctx = arg;
	size_t npages = ctx->file->npages;
	int err;

	(void)res;
	ctx->order = malloc(npages * sizeof(*ctx->order));
	if (!ctx->order) {
		fl_err("same-pages: out of memory for %zu pages", npages);
		return -1;
	}
	fl_order_fill(ctx->order, npages, o->order == FL_ORDER_RANDOM, o->seed);
	err = pthread_barrier_init(&ctx->pass_end, NULL, o->threads);
	if (err) {
		fl_err("same-pages: pthread_barrier_init: %s", strerror(err));
		return -1;
	}
	ctx->have_barrier = 1;
	return 0;
}

static void same_cleanup(void *arg)
{
	struct same_ctx *ctx = arg;

	if (ctx->have_barrier)
		pthread_barrier_destroy(&ctx->pass_end);
	free(ctx->order);
}

static int same_pages_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct same_ctx ctx = { .o = o, .file = &file };
	const struct fl_group groups[] = {
		{ FL_CLASS_SAME, o->threads, NULL, same_work, &ctx, 0 },
	};
	const struct fl_plan plan = {
		.file = &file, FL_PLAN_GROUPS(groups), .ctx = &ctx,
		.prepare = same_prepare, .cleanup = same_cleanup,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_same_pages = {
	.id = SC_SAME_PAGES, .name = "same-pages", .run = same_pages_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 8, 16ull << 20, 8, 0 },
	.summary = "many threads fault the same cold file pages in the same order",
	.help = "  --threads fl-same threads all walk the same --size bytes of the\n"
		"  cold --file in the same order: one waits for the read, the others\n"
		"  retry on a locked or already uptodate folio.  Passes (--passes,\n"
		"  or until --duration) are separated by a barrier and a cold drop.\n",
};

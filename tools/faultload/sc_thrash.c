// SPDX-License-Identifier: GPL-2.0
/*
 * thrash: the shape of the Kunwu/Lian reproducer from the v2 thread
 * (../shared/upstream/v2/stress-test.txt): --threads fl-io threads each
 * mmap() their own slice of --file, read one byte of every page, munmap()
 * it, and start again, until --duration (or --passes rounds each).  One
 * op is one round, so the ops rate is rounds/s and the op latency a
 * round's time.
 *
 * Run it under --memcg-max below the slices' sum, with --memcg-swap-max 0
 * (swap out of the picture: only page cache is reclaimed): a folio read
 * by one fault's first attempt can be reclaimed before its retry, which
 * then reads it again.  Every mmap() and munmap() takes mmap_lock for
 * write, so the faults that fall back to mmap_lock wait for them.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "opts.h"
#include "order.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

struct thrash_ctx {
	const struct fl_opts *o;
	struct fl_file *file;
	atomic_int warned;	/* one warning for all threads */
};

/* One round over [first, first + n) pages: map, read, unmap; ns or 0. */
static uint64_t thrash_round(struct thrash_ctx *ctx, size_t first, size_t n)
{
	size_t psz = fl_page_size(), len = n * psz, i;
	uint64_t t0 = fl_now_ns();
	unsigned char *map;

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, ctx->file->fd,
		   (off_t)(first * psz));
	if (map == MAP_FAILED) {
		if (!atomic_exchange(&ctx->warned, 1))
			fl_warn("fl-io: mmap of %zu bytes of %s: %s", len,
				ctx->o->file, strerror(errno));
		return 0;
	}
	for (i = 0; i < n && !fl_stopping(); i++)
		fl_touch_read(map + i * psz);
	munmap(map, len);
	return fl_now_ns() - t0;
}

static void thrash_work(struct fl_thread *t)
{
	struct thrash_ctx *ctx = t->ctx;
	const struct fl_opts *o = ctx->o;
	size_t first, n;
	uint64_t r, ns;

	fl_slice(ctx->file->npages, t->idx, t->nr, &first, &n);
	for (r = 0; (!o->passes || r < o->passes) && !fl_stopping(); r++) {
		ns = thrash_round(ctx, first, n);
		if (!ns) {
			t->st.errors++;
			break;
		}
		fl_tstat_op(&t->st, ns);
	}
}

static int thrash_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct thrash_ctx ctx = { .o = o, .file = &file };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, NULL, thrash_work, &ctx, 0 },
	};
	const struct fl_plan plan = { .file = &file, FL_PLAN_GROUPS(groups) };

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_thrash = {
	.id = SC_THRASH, .name = "thrash", .run = thrash_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 4, 32ull << 20, 8, 0 },
	.summary = "threads mmap, read and munmap their own file slices in a loop",
	.help = "  --threads fl-io threads each mmap() their own slice of --file,\n"
		"  read every page, munmap() and repeat (an op is a round): the\n"
		"  v2 thread's reproducer.  With --memcg-max below --size and\n"
		"  --memcg-swap-max 0 the page cache is reclaimed between a\n"
		"  fault's I/O and its retry.\n",
};

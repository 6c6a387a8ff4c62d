// SPDX-License-Identifier: GPL-2.0
/*
 * swap-writeback: swap-in faults on pages whose write to swap is still in
 * flight.
 *
 * --size bytes of anonymous memory are filled and pushed to swap (as
 * in swap-in).  One fl-writer thread walks the area in --writer-size
 * chunks and MADV_PAGEOUTs each: the pages go to the swap cache under
 * writeback (the I/O takes the storage profile's time).  --threads fl-swap
 * threads walk their slices right behind it and write each page's first
 * word back with the value it holds: the fault finds a swap-cache folio
 * that reclaim may hold locked or that is under writeback, and the page
 * is dirty again, so the next pass writes it out again.  Every page is
 * checked against its pattern after the touch (corrupt: exit 1).  This is
 * the case of Matthew Wilcox's point on v2's patch 4 (an uptodate folio
 * can still be locked for writeback: wait for it, or retry?); the
 * module's drop sites and waits under the VMA lock tell which each kernel
 * did.  Ends after --duration.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "opts.h"
#include "order.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"
#include "util.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

struct wb_ctx {
	const struct fl_opts *o;
	struct fl_swap *swap;
};

/* fl-writer: MADV_PAGEOUT chunk after chunk, round the area; an op each. */
static void evict_work(struct fl_thread *t)
{
	struct wb_ctx *c = t->ctx;
	size_t psz = fl_page_size(), off = 0;
	size_t chunk = (c->o->writer_size + psz - 1) / psz * psz;
	uint64_t pause = (uint64_t)(c->o->writer_pause_ms * NSEC_PER_MSEC);
	uint64_t t0;

	if (chunk > c->swap->len)
		chunk = c->swap->len;
	while (!fl_stopping()) {
		size_t len = off + chunk > c->swap->len ? c->swap->len - off : chunk;

		t0 = fl_now_ns();
		if (madvise(c->swap->area + off, len, MADV_PAGEOUT)) {
			if (!t->st.errors)
				fl_warn("fl-writer: madvise(MADV_PAGEOUT) of %zu bytes: %s", len,
					strerror(errno));
			t->st.errors++;
			fl_sleep_ns(NSEC_PER_MSEC);
		} else {
			fl_tstat_op(&t->st, fl_now_ns() - t0);
		}
		off = off + len >= c->swap->len ? 0 : off + len;
		if (pause)
			fl_sleep_ns(pause);
	}
}

/* fl-swap: dirty every page of the slice (its first word written back as
 * it is), timed, then check the page; round and round. */
static void dirty_work(struct fl_thread *t)
{
	struct wb_ctx *c = t->ctx;
	size_t psz = fl_page_size(), first, n, i;
	uint64_t t0;

	fl_slice(c->swap->npages, t->idx, t->nr, &first, &n);
	while (!fl_stopping()) {
		for (i = 0; i < n && !fl_stopping(); i++) {
			volatile uint64_t *w = (volatile uint64_t *)(c->swap->area + (first + i) * psz);

			t0 = fl_now_ns();
			*w = *w;
			fl_tstat_op(&t->st, fl_now_ns() - t0);
			if (fl_swap_check(c->swap, first + i, "swap-writeback")) {
				t->st.errors++;
				t->fatal = 1;
				fl_request_stop();
				return;
			}
		}
	}
}

static int swap_writeback_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_swap swap;
	struct wb_ctx ctx = { .o = o, .swap = &swap };
	const struct fl_group groups[] = {
		{ FL_CLASS_SWAP, o->threads, NULL, dirty_work, &ctx, 0 },
		{ FL_CLASS_WRITER, 1, NULL, evict_work, &ctx, 1 },
	};
	const struct fl_plan plan = {
		.swap = &swap, .swap_size = o->size, FL_PLAN_GROUPS(groups),
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_swap_writeback = {
	.id = SC_SWAP_WRITEBACK, .name = "swap-writeback", .run = swap_writeback_run,
	.flags = 0, .def = { 2, 32ull << 20, 8, 0 },
	.summary = "swap-in faults on pages whose write to swap is in flight",
	.help = "  One fl-writer MADV_PAGEOUTs --size of anonymous memory in\n"
		"  --writer-size chunks, round and round; --threads fl-swap threads\n"
		"  dirty each page right behind it, so their faults find swap-cache\n"
		"  folios under writeback (Wilcox's point on v2's patch 4).  Every\n"
		"  page is checked after the touch.  Needs active swap.\n",
};

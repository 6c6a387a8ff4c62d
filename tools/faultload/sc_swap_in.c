// SPDX-License-Identifier: GPL-2.0
/*
 * swap-in: faults on anonymous memory that is out in swap.
 *
 * --size bytes of anonymous memory (THP off) are filled with a pattern
 * that differs in every word of every page, so that neither zram's
 * same-page detection nor KSM can skip the I/O.  MADV_PAGEOUT pushes
 * them to swap and memory.reclaim takes what writeback left in the swap
 * cache (see swap.c); the run fails clearly if no swap is on, it is too
 * small, or MADV_PAGEOUT is not supported.  Then --threads fl-swap
 * threads each read one word per page of their own slice: do_swap_page()
 * starts the read and drops the lock to wait.  Each page is checked
 * entirely against its pattern after the touch; a mismatch ends the run
 * with exit status 1.  More --passes evict the slice again first.
 */
#include "opts.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"

static int swap_in_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_swap swap;
	struct fl_swap_ctx ctx = { .o = o, .swap = &swap, .passes = o->passes };
	const struct fl_group groups[] = {
		{ FL_CLASS_SWAP, o->threads, fl_swap_setup, fl_swap_work, &ctx, 0 },
	};
	const struct fl_plan plan = {
		.swap = &swap, .swap_size = o->size, FL_PLAN_GROUPS(groups),
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_swap_in = {
	.id = SC_SWAP_IN, .name = "swap-in", .run = swap_in_run,
	.flags = 0, .def = { 2, 64ull << 20, 8, 1 },
	.summary = "threads fault anonymous memory back in from swap, verified",
	.help = "  --size of anonymous memory, every page a distinct pattern, is\n"
		"  pushed to swap (MADV_PAGEOUT + memory.reclaim); --threads fl-swap\n"
		"  threads touch their slices so do_swap_page() waits for the read,\n"
		"  and check every page (corrupt: exit 1).  Needs active swap.\n",
};

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
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"
#include "util.h"

static int swap_in_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_swap_ctx ctx;
	struct fl_swap swap;
	struct fl_run run;
	int ret = FL_EXIT_FAIL;

	fl_run_init(&run);
	if (fl_swap_prepare(&swap, o->size, o->seed, res))
		goto out;
	ctx = (struct fl_swap_ctx){ .o = o, .swap = &swap, .passes = o->passes };
	if (fl_run_add_n(&run, o->threads, FL_CLASS_SWAP, fl_swap_setup,
			 fl_swap_work, &ctx) ||
	    fl_run_start(&run))
		goto out;
	fl_run_wait(&run, o->duration);
	fl_run_finish(&run, res);
	ret = 0;
out:
	fl_run_destroy(&run);
	fl_swap_destroy(&swap);
	return ret;
}

const struct fl_scenario fl_sc_swap_in = {
	.id = SC_SWAP_IN,
	.name = "swap-in",
	.summary = "threads fault anonymous memory back in from swap, verified",
	.help =
	"  --size of anonymous memory, every page a distinct pattern, is\n"
	"  pushed to swap (MADV_PAGEOUT + memory.reclaim); --threads fl-swap\n"
	"  threads touch their slices so do_swap_page() waits for the read,\n"
	"  and check every page (corrupt: exit 1).  Needs active swap.\n",
	.flags = 0,
	.def_threads = 2,
	.def_size = 64ull << 20,
	.def_duration = 8,
	.def_passes = 1,
	.run = swap_in_run,
};

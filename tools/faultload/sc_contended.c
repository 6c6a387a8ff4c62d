// SPDX-License-Identifier: GPL-2.0
/*
 * contended: file I/O faults, swap-in faults and an mmap_lock writer at
 * once.
 *
 * --threads fl-io threads run the file-major workload on --size bytes of
 * --file, --swap-threads fl-swap threads the swap-in workload on
 * --swap-size bytes of anonymous memory (prepared as in swap-in, needs
 * swap; --swap-threads 0 leaves it out), and one fl-writer thread takes
 * mmap_lock for write in a loop (mmap/mprotect/munmap of its own
 * --writer-size VMA, --writer-pause between cycles).  Every fallback to
 * mmap_lock by a retrying fault now queues behind or in front of the
 * writer, as in the stress test posted for the RFC series.  Ends after
 * --passes (of the fault threads) or --duration.
 */
#include "fileio.h"
#include "opts.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"
#include "writer.h"

static int contended_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_swap swap;
	struct fl_io_ctx ioctx = { .o = o, .file = &file, .passes = o->passes };
	struct fl_swap_ctx sctx = { .o = o, .swap = &swap, .passes = o->passes };
	struct fl_writer_ctx wctx = { .o = o };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
		{ FL_CLASS_SWAP, o->swap_threads, fl_swap_setup, fl_swap_work,
		  &sctx, 0 },
		{ FL_CLASS_WRITER, 1, fl_writer_setup, fl_writer_work, &wctx, 1 },
	};
	/* --swap-threads 0: no swap needed */
	const struct fl_plan plan = {
		.file = &file, .swap = o->swap_threads ? &swap : NULL,
		.swap_size = o->swap_size, FL_PLAN_GROUPS(groups),
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_contended = {
	.id = SC_CONTENDED, .name = "contended", .run = contended_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 2, 64ull << 20, 8, 0 },
	.summary = "file-major and swap-in threads plus an mmap_lock writer",
	.help = "  --threads fl-io threads on --file, --swap-threads fl-swap threads\n"
		"  on --swap-size of swapped-out memory, and one fl-writer thread\n"
		"  cycling mmap/mprotect/munmap (mmap_lock for write) all at once.\n",
};

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
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "swap.h"
#include "util.h"
#include "writer.h"

static int contended_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_writer_ctx wctx = { .o = o };
	struct fl_swap_ctx sctx;
	struct fl_io_ctx ioctx;
	struct fl_file file;
	struct fl_swap swap = { .area = NULL };
	struct fl_run run;
	int ret = FL_EXIT_FAIL, have_swap = 0;

	fl_run_init(&run);
	if (fl_file_map(&file, o, res))
		goto out;
	if (o->swap_threads) {
		have_swap = 1;
		if (fl_swap_prepare(&swap, o->swap_size, o->seed, res))
			goto out;
	}
	ioctx = (struct fl_io_ctx){ .o = o, .file = &file, .passes = o->passes };
	sctx = (struct fl_swap_ctx){ .o = o, .swap = &swap, .passes = o->passes };
	if (fl_run_add_n(&run, o->threads, FL_CLASS_IO, fl_io_setup,
			 fl_io_work, &ioctx) ||
	    fl_run_add_n(&run, o->swap_threads, FL_CLASS_SWAP, fl_swap_setup,
			 fl_swap_work, &sctx) ||
	    fl_run_add_endless(&run, FL_CLASS_WRITER, fl_writer_setup,
			       fl_writer_work, &wctx) ||
	    fl_run_start(&run))
		goto out;
	fl_run_wait(&run, o->duration);
	fl_run_finish(&run, res);
	ret = 0;
out:
	fl_run_destroy(&run);
	if (have_swap)
		fl_swap_destroy(&swap);
	fl_file_unmap(&file);
	return ret;
}

const struct fl_scenario fl_sc_contended = {
	.id = SC_CONTENDED,
	.name = "contended",
	.summary = "file-major and swap-in threads plus an mmap_lock writer",
	.help =
	"  --threads fl-io threads on --file, --swap-threads fl-swap threads\n"
	"  on --swap-size of swapped-out memory, and one fl-writer thread\n"
	"  cycling mmap/mprotect/munmap (mmap_lock for write) all at once.\n",
	.flags = SCF_FILE | SCF_DROP,
	.def_threads = 2,
	.def_size = 64ull << 20,
	.def_duration = 8,
	.def_passes = 0,
	.run = contended_run,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * file-major: read faults on a file with a cold page cache.
 *
 * The first --size bytes of --file are mapped MAP_SHARED, PROT_READ, with
 * madvise(--madv).  --threads fl-io threads each own a slice of the
 * mapping and touch one byte per page (--order seq or random within the
 * slice).  With the page cache cold, filemap_fault() starts the read and,
 * under the per-VMA lock, drops it and returns VM_FAULT_RETRY; stock
 * kernels retry under mmap_lock, VM_FAULT_RETRY_VMA kernels under the VMA
 * lock again.  With readahead (--madv normal) one wait brings in many
 * pages, the following touches hit pages still under read (folio locked):
 * that is where the two kernels differ most.
 *
 * After a pass a thread zaps its slice (MADV_DONTNEED) and drops it from
 * the page cache (POSIX_FADV_DONTNEED), so every pass is cold; the run
 * ends after --passes or when --duration is over.
 */
#include "fileio.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

static int file_major_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_io_ctx ctx;
	struct fl_file file;
	struct fl_run run;
	int ret = FL_EXIT_FAIL;

	fl_run_init(&run);
	if (fl_file_map(&file, o, res))
		goto out;
	ctx = (struct fl_io_ctx){ .o = o, .file = &file, .passes = o->passes };
	if (fl_run_add_n(&run, o->threads, FL_CLASS_IO, fl_io_setup,
			 fl_io_work, &ctx) ||
	    fl_run_start(&run))
		goto out;
	fl_run_wait(&run, o->duration);
	fl_run_finish(&run, res);
	ret = 0;
out:
	fl_run_destroy(&run);
	fl_file_unmap(&file);
	return ret;
}

const struct fl_scenario fl_sc_file_major = {
	.id = SC_FILE_MAJOR,
	.name = "file-major",
	.summary = "threads read-fault their own slices of a cold file mapping",
	.help =
	"  --threads fl-io threads touch one byte per page of their own\n"
	"  slice of a MAP_SHARED PROT_READ mapping of --file (cold page\n"
	"  cache), so filemap_fault() drops the lock to wait for the read.\n"
	"  Each pass is made cold again; ends after --passes or --duration.\n",
	.flags = SCF_FILE | SCF_DROP,
	.def_threads = 4,
	.def_size = 64ull << 20,
	.def_duration = 8,
	.def_passes = 0,
	.run = file_major_run,
};

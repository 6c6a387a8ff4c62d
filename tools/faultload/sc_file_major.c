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
#include "run.h"
#include "scenario.h"

static int file_major_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct fl_io_ctx ctx = { .o = o, .file = &file, .passes = o->passes };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ctx, 0 },
	};
	const struct fl_plan plan = { .file = &file, FL_PLAN_GROUPS(groups) };

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_file_major = {
	.id = SC_FILE_MAJOR, .name = "file-major", .run = file_major_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 4, 64ull << 20, 8, 0 },
	.summary = "threads read-fault their own slices of a cold file mapping",
	.help = "  --threads fl-io threads touch one byte per page of their own\n"
		"  slice of a MAP_SHARED PROT_READ mapping of --file (cold page\n"
		"  cache), so filemap_fault() drops the lock to wait for the read.\n"
		"  Each pass is made cold again; ends after --passes or --duration.\n",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * vma-churn: file I/O faults on a VMA that another thread splits and
 * merges without pause.
 *
 * The file-major workload on --size bytes of --file, whose last
 * --writer-size bytes no fl-io thread touches: the fl-writer thread flips
 * them between PROT_NONE and PROT_READ (mprotect), which splits the
 * faulting VMA and merges it back, write-locking it every time.  A fault
 * that dropped its lock for I/O finds the VMA write-locked or replaced
 * when it comes back: on stock the retry takes mmap_lock, on the series'
 * kernels it tries the VMA lock again, and each failure is another
 * attempt.  This is where a retry loop would show that it is unbounded:
 * the module's attempts_* counters and attempts_max (the Decision's
 * "attempts for one fault").  An fl-writer op is one split and one merge;
 * --writer-pause between them (default 0).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "opts.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

struct churn_ctx {
	const struct fl_opts *o;
	struct fl_file *file;
	unsigned char *tail;	/* the pages the writer flips */
	size_t tail_len, full_len, full_npages;
};

/* Keep the io threads off the tail: the mapping's last --writer-size bytes. */
static int churn_prepare(void *p, const struct fl_opts *o, struct fl_result *res)
{
	struct churn_ctx *c = p;
	size_t psz = fl_page_size();
	size_t pages = (o->writer_size + psz - 1) / psz;

	(void)res;
	c->full_len = c->file->len;
	c->full_npages = c->file->npages;
	if (pages == 0 || pages + (size_t)o->threads > c->file->npages) {
		fl_err("vma-churn: --writer-size %llu leaves fewer pages than --threads %u in a --size of %zu pages",
		       (unsigned long long)o->writer_size, o->threads, c->file->npages);
		return -1;
	}
	c->file->npages -= pages;
	c->file->len = c->file->npages * psz;
	c->tail = c->file->map + c->file->len;
	c->tail_len = pages * psz;
	return 0;
}

/* The whole mapping again, for fl_file_unmap(). */
static void churn_cleanup(void *p)
{
	struct churn_ctx *c = p;

	if (c->full_len) {
		c->file->len = c->full_len;
		c->file->npages = c->full_npages;
	}
}

static void churn_work(struct fl_thread *t)
{
	struct churn_ctx *c = t->ctx;
	uint64_t pause = (uint64_t)(c->o->writer_pause_ms * NSEC_PER_MSEC);
	uint64_t t0;

	while (!fl_stopping()) {
		t0 = fl_now_ns();
		if (mprotect(c->tail, c->tail_len, PROT_NONE) ||
		    mprotect(c->tail, c->tail_len, PROT_READ)) {
			if (!t->st.errors)
				fl_warn("fl-writer: mprotect of the mapping's last %zu bytes: %s",
					c->tail_len, strerror(errno));
			t->st.errors++;
			fl_sleep_ns(NSEC_PER_MSEC);
			continue;
		}
		fl_tstat_op(&t->st, fl_now_ns() - t0);
		if (pause)
			fl_sleep_ns(pause);
	}
}

static int vma_churn_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file = { 0 };
	struct fl_io_ctx ioctx = { .o = o, .file = &file, .passes = o->passes };
	struct churn_ctx cctx = { .o = o, .file = &file };
	const struct fl_group groups[] = {
		{ FL_CLASS_IO, o->threads, fl_io_setup, fl_io_work, &ioctx, 0 },
		{ FL_CLASS_WRITER, 1, NULL, churn_work, &cctx, 1 },
	};
	const struct fl_plan plan = {
		.file = &file, FL_PLAN_GROUPS(groups), .ctx = &cctx,
		.prepare = churn_prepare, .cleanup = churn_cleanup,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_vma_churn = {
	.id = SC_VMA_CHURN, .name = "vma-churn", .run = vma_churn_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 4, 64ull << 20, 8, 0 },
	.summary = "file I/O faults on a VMA another thread splits and merges",
	.help = "  --threads fl-io threads fault their slices of a cold --file\n"
		"  mapping (file-major) while one fl-writer flips its last\n"
		"  --writer-size bytes between PROT_NONE and PROT_READ: the VMA is\n"
		"  split and merged, write-locked each time, so retries find it\n"
		"  changed (attempts per fault: is the retry loop bounded?).\n",
};

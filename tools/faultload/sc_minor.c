// SPDX-License-Identifier: GPL-2.0
/*
 * minor: a minor-fault microbenchmark, for the overhead of a patch on
 * faults that never wait.
 *
 * --kind anon: each of --threads fl-minor threads loops mmap() of --size
 * anonymous bytes (THP off, so one fault per page), writes one byte per
 * page, munmap().  --kind file: the first --size bytes of --file are
 * read once (so they are in the page cache and no fault waits), then
 * each thread loops mmap(MAP_SHARED, PROT_READ) with --madv, reads one
 * byte per page, munmap(); fault-around maps several pages per fault, so
 * faults are fewer than touches.  Ends after --passes cycles per thread
 * or --duration; "faults_per_s" is the number to compare.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fileio.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

#define WARM_CHUNK	(1u << 20)

struct minor_ctx {
	const struct fl_opts *o;
};

/* Read the first --size bytes of the file into the page cache. */
static int warm_file(const struct fl_opts *o, struct fl_result *res)
{
	uint64_t off = 0;
	void *map;
	char *buf;
	ssize_t n;

	buf = malloc(WARM_CHUNK);
	if (!buf) {
		fl_err("minor: out of memory");
		return -1;
	}
	while (off < o->size) {
		n = pread(o->fd, buf, WARM_CHUNK, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fl_err("minor: reading %s at %llu: %s", o->file,
			       (unsigned long long)off,
			       n ? strerror(errno) : "unexpected end of file");
			free(buf);
			return -1;
		}
		off += (uint64_t)n;
	}
	free(buf);
	map = mmap(NULL, o->size, PROT_READ, MAP_SHARED, o->fd, 0);
	if (map != MAP_FAILED) {
		fl_result_setup_int(res, "resident_pages_at_start",
				    fl_resident_pages(map, o->size));
		munmap(map, o->size);
	}
	fl_result_setup_int(res, "file_size", (long long)o->file_size);
	return 0;
}

static void *map_once(const struct fl_opts *o)
{
	void *p;
	int err;

	if (o->kind == FL_KIND_ANON) {
		p = mmap(NULL, o->size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			(void)madvise(p, o->size, MADV_NOHUGEPAGE);
	} else {
		p = mmap(NULL, o->size, PROT_READ, MAP_SHARED, o->fd, 0);
		/* no madvise() (ENOSYS) is fine for MADV_NORMAL */
		if (p != MAP_FAILED && madvise(p, o->size, o->madv) &&
		    (errno != ENOSYS || o->madv != MADV_NORMAL)) {
			err = errno;
			munmap(p, o->size);
			errno = err;
			p = MAP_FAILED;
		}
	}
	return p;
}

static void minor_work(struct fl_thread *t)
{
	struct minor_ctx *ctx = t->ctx;
	const struct fl_opts *o = ctx->o;
	size_t psz = fl_page_size(), n = o->size / psz, i;
	unsigned char *p;
	uint64_t cycle;

	for (cycle = 0; (!o->passes || cycle < o->passes) && !fl_stopping();
	     cycle++) {
		p = map_once(o);
		if (p == MAP_FAILED) {
			if (!t->st.errors)
				fl_warn("fl-minor: mmap/madvise of %llu bytes: %s",
					(unsigned long long)o->size,
					strerror(errno));
			t->st.errors++;
			fl_sleep_ns(NSEC_PER_MSEC);
			continue;
		}
		for (i = 0; i < n && !fl_stopping(); i++)
			fl_tstat_op(&t->st, o->kind == FL_KIND_ANON ?
				    fl_touch_write(p + i * psz) :
				    fl_touch_read(p + i * psz));
		munmap(p, o->size);
	}
}

static int minor_prepare(void *arg, const struct fl_opts *o,
			 struct fl_result *res)
{
	(void)arg;
	return o->kind == FL_KIND_FILE ? warm_file(o, res) : 0;
}

static int minor_run(const struct fl_opts *o, struct fl_result *res)
{
	struct minor_ctx ctx = { .o = o };
	const struct fl_group groups[] = {
		{ FL_CLASS_MINOR, o->threads, NULL, minor_work, &ctx, 0 },
	};
	const struct fl_plan plan = {
		FL_PLAN_GROUPS(groups), .prepare = minor_prepare,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_minor = {
	.id = SC_MINOR, .name = "minor", .run = minor_run,
	.flags = SCF_FILE, .def = { 2, 4ull << 20, 5, 0 },
	.summary = "minor-fault microbenchmark (overhead): mmap, touch, munmap",
	.help = "  --threads fl-minor threads loop mmap/touch every page/munmap of\n"
		"  --size bytes: --kind anon (default; THP off) or --kind file (the\n"
		"  page-cache-resident first --size bytes of --file).  Compare\n"
		"  \"faults_per_s\".\n",
};

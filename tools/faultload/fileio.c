// SPDX-License-Identifier: GPL-2.0
/*
 * fileio.c - file mapping, cold page cache, and the io worker thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fileio.h"
#include "opts.h"
#include "order.h"
#include "report.h"
#include "run.h"
#include "util.h"

#define DROP_CACHES	"/proc/sys/vm/drop_caches"

#define barrier()	__asm__ __volatile__("" ::: "memory")

uint64_t fl_touch_read(const unsigned char *p)
{
	uint64_t t0, t1;

	t0 = fl_now_ns();
	barrier();
	(void)*(const volatile unsigned char *)p;
	barrier();
	t1 = fl_now_ns();
	return t1 - t0;
}

uint64_t fl_touch_write(unsigned char *p)
{
	uint64_t t0, t1;

	t0 = fl_now_ns();
	barrier();
	*(volatile unsigned char *)p = 1;
	barrier();
	t1 = fl_now_ns();
	return t1 - t0;
}

static const char *madv_const(int madv)
{
	switch (madv) {
	case MADV_RANDOM:
		return "MADV_RANDOM";
	case MADV_SEQUENTIAL:
		return "MADV_SEQUENTIAL";
	default:
		return "MADV_NORMAL";
	}
}

/* Write drop_caches and fadvise the file; the method that worked. */
static const char *drop_cache(const struct fl_opts *o)
{
	int err, ferr;

	/* clean pages only: the file is on a read-only disk */
	err = fl_write_file(DROP_CACHES, "3\n");
	ferr = posix_fadvise(o->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (!err && !ferr)
		return "drop_caches+fadvise";
	if (!err)
		return "drop_caches";	/* ENOSYS: no CONFIG_ADVISE_SYSCALLS */
	if (!ferr) {
		fl_warn("cannot write 3 to %s (%s): posix_fadvise(DONTNEED) of %s alone",
			DROP_CACHES, strerror(-err), o->file);
		return "fadvise";
	}
	fl_warn("cannot make the page cache cold: writing %s: %s; posix_fadvise(DONTNEED): %s%s",
		DROP_CACHES, strerror(-err), strerror(ferr),
		ferr == ENOSYS ? FL_NO_ADVISE_HINT : "");
	return "none";
}

int fl_file_map(struct fl_file *f, const struct fl_opts *o,
		struct fl_result *res)
{
	const char *how = "none";
	long resident;

	memset(f, 0, sizeof(*f));
	f->fd = o->fd;
	f->len = o->size;
	f->npages = o->size / fl_page_size();

	if (o->drop_caches)
		how = drop_cache(o);

	f->map = mmap(NULL, f->len, PROT_READ, MAP_SHARED, f->fd, 0);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		fl_err("mmap(%s, %zu bytes, PROT_READ, MAP_SHARED): %s",
		       o->file, f->len, strerror(errno));
		return -1;
	}
	if (madvise(f->map, f->len, o->madv)) {
		/* without madvise() the mapping is MADV_NORMAL anyway */
		if (errno != ENOSYS || o->madv != MADV_NORMAL) {
			fl_err("madvise(%s, %s): %s%s", o->file,
			       madv_const(o->madv), strerror(errno),
			       errno == ENOSYS ? FL_NO_ADVISE_HINT : "");
			fl_file_unmap(f);
			return -1;
		}
		fl_result_setup_str(res, "madvise", "ENOSYS");
	}
	resident = fl_resident_pages(f->map, f->len);
	fl_result_setup_str(res, "cache_drop", how);
	fl_result_setup_int(res, "file_size", (long long)o->file_size);
	fl_result_setup_int(res, "resident_pages_at_start", resident);
	if (o->drop_caches && strcmp(how, "none") &&
	    resident > (long)(f->npages / 10))
		fl_warn("%ld of %zu pages of %s still cached after the drop (mapped elsewhere?)",
			resident, f->npages, o->file);
	return 0;
}

void fl_file_unmap(struct fl_file *f)
{
	if (f->map)
		munmap(f->map, f->len);
	f->map = NULL;
}

int fl_file_drop_range(struct fl_file *f, size_t first, size_t n,
		       int drop_cache)
{
	size_t psz = fl_page_size();
	int err;

	if (madvise(f->map + first * psz, n * psz, MADV_DONTNEED))
		return -errno;
	if (!drop_cache)
		return 0;
	err = posix_fadvise(f->fd, (off_t)(first * psz), (off_t)(n * psz),
			    POSIX_FADV_DONTNEED);
	return -err;
}

struct io_priv {
	size_t first, n;
	uint32_t order[];	/* page offsets within the slice */
};

int fl_io_setup(struct fl_thread *t)
{
	struct fl_io_ctx *ctx = t->ctx;
	const struct fl_opts *o = ctx->o;
	struct io_priv *p;
	size_t first, n;
	int err;

	fl_slice(ctx->file->npages, t->idx, t->nr, &first, &n);
	p = malloc(sizeof(*p) + n * sizeof(p->order[0]));
	if (!p) {
		fl_err("%s: out of memory for %zu pages", fl_class_comm(t->cls), n);
		return -1;
	}
	p->first = first;
	p->n = n;
	fl_order_fill(p->order, n, o->order == FL_ORDER_RANDOM,
		      o->seed + t->idx);
	t->priv = p;
	if (ctx->nice) {
		err = fl_set_thread_nice(ctx->nice);
		if (err)
			fl_warn("%s: setpriority(nice %d): %s",
				fl_class_comm(t->cls), ctx->nice, strerror(-err));
	}
	return 0;
}

void fl_io_work(struct fl_thread *t)
{
	struct fl_io_ctx *ctx = t->ctx;
	struct io_priv *p = t->priv;
	const unsigned char *base;
	size_t psz = fl_page_size(), i;
	uint64_t pass;
	int err;

	base = ctx->file->map + p->first * psz;
	for (pass = 0; !ctx->passes || pass < ctx->passes; pass++) {
		if (pass) {
			err = fl_file_drop_range(ctx->file, p->first, p->n,
						 ctx->o->drop_caches);
			if (err == -ENOSYS) {
				/* a pass over mapped pages would not fault */
				if (!atomic_exchange(&ctx->warned, 1))
					fl_warn("%s: cannot make pages cold again: madvise/fadvise: %s%s; one pass only",
						fl_class_comm(t->cls), strerror(ENOSYS),
						FL_NO_ADVISE_HINT);
				t->st.errors++;
				break;
			}
			if (err) {
				if (!t->st.errors)
					fl_warn("%s: dropping pages between passes: %s",
						fl_class_comm(t->cls), strerror(-err));
				t->st.errors++;
			}
		}
		for (i = 0; i < p->n && !fl_stopping(); i++)
			fl_tstat_op(&t->st,
				    fl_touch_read(base + (size_t)p->order[i] * psz));
		if (fl_stopping())
			break;
	}
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fileio.h - the file mapping and the "io" worker: read faults on a
 * MAP_SHARED PROT_READ mapping of --file with a cold page cache, so that
 * filemap_fault() drops the per-VMA lock to wait for the read.
 */
#ifndef FL_FILEIO_H
#define FL_FILEIO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct fl_opts;
struct fl_result;
struct fl_thread;

struct fl_file {
	int fd;
	unsigned char *map;
	size_t len;		/* bytes mapped: --size */
	size_t npages;
};

/*
 * Map the first o->size bytes of o->fd with madvise(o->madv); with
 * o->drop_caches first make the page cache cold.  Records "cache_drop",
 * "file_size" and "resident_pages_at_start" in res.  0, or -1 after a
 * message.
 */
int fl_file_map(struct fl_file *f, const struct fl_opts *o,
		struct fl_result *res);
void fl_file_unmap(struct fl_file *f);
/*
 * Before another pass over pages [first, first+n): zap their PTEs
 * (MADV_DONTNEED) so that every touch faults again and, with drop_cache,
 * drop them from the page cache (POSIX_FADV_DONTNEED) so that it waits
 * for I/O again.  0 or -errno.
 */
int fl_file_drop_range(struct fl_file *f, size_t first, size_t n,
		       int drop_cache);

/* Touch one byte of the page, timed; returns the latency in ns. */
uint64_t fl_touch_read(const unsigned char *p);
/* The same with a write (anonymous memory). */
uint64_t fl_touch_write(unsigned char *p);

/* Shared by all io threads of a run. */
struct fl_io_ctx {
	const struct fl_opts *o;
	struct fl_file *file;
	int nice;		/* set on each io thread if non-zero */
	uint64_t passes;	/* 0: until stopped */
	atomic_int warned;	/* one warning for all threads */
};

/*
 * Thread functions for a struct fl_group (run.h): each io thread walks
 * its own slice of the mapping (--order), and between passes makes the
 * slice cold.
 */
int fl_io_setup(struct fl_thread *t);
void fl_io_work(struct fl_thread *t);

#endif /* FL_FILEIO_H */

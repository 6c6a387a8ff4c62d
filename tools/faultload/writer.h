/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writer.h - the "writer" worker: takes mmap_lock for write in a loop.
 *
 * One cycle is mmap() of its own small anonymous VMA, mprotect() of it to
 * PROT_READ and munmap(): three mmap_lock write acquisitions, which queue
 * behind fault retries holding mmap_lock for read and make new readers
 * queue behind them.  An op is one cycle, its latency the whole cycle.
 * The VMA is MAP_NORESERVE, so it never merges with a measured VMA.
 */
#ifndef FL_WRITER_H
#define FL_WRITER_H

struct fl_opts;
struct fl_thread;

struct fl_writer_ctx {
	const struct fl_opts *o;
	int nice;		/* set on the writer if non-zero */
};

int fl_writer_setup(struct fl_thread *t);
void fl_writer_work(struct fl_thread *t);

#endif /* FL_WRITER_H */

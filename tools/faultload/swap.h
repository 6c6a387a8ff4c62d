/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swap.h - anonymous memory pushed out to swap, and the "swap" worker
 * whose touches make do_swap_page() wait for the read.
 */
#ifndef FL_SWAP_H
#define FL_SWAP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct fl_opts;
struct fl_result;
struct fl_thread;

struct fl_swap {
	unsigned char *area;
	size_t len, npages;
	uint64_t seed;
	char reclaim_path[512];	/* memory.reclaim of our cgroup, or "" */
	int reclaim_mode;	/* how far its syntax goes, see swap.c */
	pthread_mutex_t reclaim_lock;
};

/*
 * Check that swap is on with room for len bytes, map len bytes, fill
 * every page with its own pattern, push it all out (MADV_PAGEOUT, then
 * memory.reclaim for what writeback left in the swap cache).  Records
 * "swap_pages", "swap_evict" and "swap_resident_after_evict" in res.
 * 0, or -1 after a message (no swap, no MADV_PAGEOUT, no memory).
 */
int fl_swap_prepare(struct fl_swap *s, uint64_t len, uint64_t seed,
		    struct fl_result *res);
void fl_swap_destroy(struct fl_swap *s);
/*
 * Push pages [first, first+n) out again.  Returns how many are still
 * resident (in the swap cache: their touches will not wait), or -errno.
 */
long fl_swap_evict(struct fl_swap *s, size_t first, size_t n);

/*
 * Check page against the pattern fl_swap_prepare() wrote: 0, or -1 after
 * "<who>: page N ... is corrupt ..." on stderr.
 */
int fl_swap_check(const struct fl_swap *s, size_t page, const char *who);

struct fl_swap_ctx {
	const struct fl_opts *o;
	struct fl_swap *swap;
	uint64_t passes;	/* 0: until stopped */
	int nice;		/* set on each swap thread if non-zero */
};

/*
 * Thread functions for a struct fl_group (run.h): each swap thread reads
 * its slice (--order), one timed touch per page, then checks the whole
 * page against its pattern: a mismatch is fatal (exit 1).  Between
 * passes it evicts its slice again.
 */
int fl_swap_setup(struct fl_thread *t);
void fl_swap_work(struct fl_thread *t);

#endif /* FL_SWAP_H */

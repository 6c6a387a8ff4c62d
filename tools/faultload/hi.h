/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hi.h - the high-priority "UI" thread, fl-hi (class hi): SCHED_FIFO 10
 * (else nice -20, else normal; the policy it got is in ctx->policy), and
 * per frame: mmap a fresh --hi-pages anonymous region and write each page
 * (the first fault of a VMA without an anon_vma falls back to mmap_lock,
 * as thread stacks and heap growth do), munmap it (mmap_lock for write)
 * and, where the scenario gives one, empty and write the first page of a
 * shared VMA; then sleep --hi-interval ms.  A frame is one op, its
 * duration the op's latency.
 */
#ifndef FL_HI_H
#define FL_HI_H

#include <stddef.h>

struct fl_opts;
struct fl_thread;

struct fl_hi_ctx {
	const struct fl_opts *o;
	unsigned char *shared;	/* page 0: fl-hi's (NULL: none); ui-inversion's
				 * tail: fl-writer's */
	size_t shared_len, tail;
	const char *policy;	/* written by the hi thread's setup */
};

int fl_hi_setup(struct fl_thread *t);
void fl_hi_work(struct fl_thread *t);

#endif /* FL_HI_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg: run the process in a child cgroup (v2) with a memory.max limit,
 * so that page cache and anonymous memory are reclaimed while the
 * scenario runs (same-pages under memory pressure: a folio can be
 * reclaimed between the I/O and the retry).
 */
#ifndef FL_MEMCG_H
#define FL_MEMCG_H

#include <stddef.h>
#include <stdint.h>

#define CGROUP_ROOT	"/sys/fs/cgroup"

/* This process's cgroup v2 directory (CGROUP_ROOT for the root cgroup)
 * into buf.  Returns 0, or -1 (no cgroup v2 line, or buf too small). */
int fl_cgroup_dir(char *buf, size_t size);

struct fl_memcg {
	char parent[512];	/* the cgroup we came from, under /sys/fs/cgroup */
	char path[544];		/* the child we made, "" if none */
};

/* Move this process into a new child cgroup limited to max bytes, and
 * to swap_max bytes of swap (memory.swap.max) unless swap_max < 0.
 * Returns 0, or -1 after one line on stderr naming the file and the errno. */
int fl_memcg_enter(struct fl_memcg *m, uint64_t max, int64_t swap_max);
/* Move back to the parent and remove the child; quiet if none was made. */
void fl_memcg_leave(struct fl_memcg *m);

#endif /* FL_MEMCG_H */

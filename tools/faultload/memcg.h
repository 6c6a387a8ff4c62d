/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg: run the process in a child cgroup (v2) with a memory.max limit,
 * so that page cache and anonymous memory are reclaimed while the
 * scenario runs (same-pages under memory pressure: a folio can be
 * reclaimed between the I/O and the retry).
 */
#ifndef FL_MEMCG_H
#define FL_MEMCG_H

#include <stdint.h>

struct fl_memcg {
	char parent[512];	/* the cgroup we came from, under /sys/fs/cgroup */
	char path[544];		/* the child we made, "" if none */
};

/* Move this process into a new child cgroup limited to max bytes.
 * Returns 0, or -1 after one line on stderr naming the file and the errno. */
int fl_memcg_enter(struct fl_memcg *m, uint64_t max);
/* Move back to the parent and remove the child; quiet if none was made. */
void fl_memcg_leave(struct fl_memcg *m);

#endif /* FL_MEMCG_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * memcg: a child cgroup v2 with memory.max, entered before any scenario
 * thread starts (cgroup.procs moves the whole thread group).  See memcg.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memcg.h"
#include "util.h"

/* Write s to dir/file; -1 with a message naming the file on failure. */
static int write_file(const char *dir, const char *file, const char *s)
{
	char p[sizeof(((struct fl_memcg *)0)->path) + 32];
	ssize_t n;
	int fd, e;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fl_err("memcg: open %s: %s", p, strerror(errno));
		return -1;
	}
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	if (n != (ssize_t)strlen(s)) {
		fl_err("memcg: write '%s' to %s: %s", s, p,
		       n < 0 ? strerror(e) : "short write");
		return -1;
	}
	return 0;
}

int fl_cgroup_dir(char *buf, size_t size)
{
	char line[256];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if ((size_t)snprintf(buf, size, CGROUP_ROOT "%s",
				     strcmp(line + 3, "/") ? line + 3 : "") >= size)
			break;
		ret = 0;
	}
	fclose(f);
	return ret;
}

int fl_memcg_enter(struct fl_memcg *m, uint64_t max, int64_t swap_max)
{
	char num[32];

	m->path[0] = '\0';
	if (fl_cgroup_dir(m->parent, sizeof(m->parent))) {
		fl_err("memcg: no cgroup v2 path of ours in /proc/self/cgroup (cgroup2 not mounted, or the path is too long)");
		return -1;
	}
	/* A non-root parent with processes cannot delegate (EBUSY): say so. */
	if (write_file(m->parent, "cgroup.subtree_control", "+memory"))
		return -1;
	if ((size_t)snprintf(m->path, sizeof(m->path), "%s/fl-%d", m->parent,
			     (int)getpid()) >= sizeof(m->path)) {
		fl_err("memcg: cgroup path %s too long", m->parent);
		m->path[0] = '\0';
		return -1;
	}
	if (mkdir(m->path, 0755)) {
		fl_err("memcg: mkdir %s: %s", m->path, strerror(errno));
		m->path[0] = '\0';
		return -1;
	}
	snprintf(num, sizeof(num), "%" PRIu64, max);
	if (write_file(m->path, "memory.max", num))
		goto undo;
	snprintf(num, sizeof(num), "%" PRId64, swap_max);
	/* no memory.swap.max: a kernel without CONFIG_SWAP; write_file says so */
	if (swap_max >= 0 && write_file(m->path, "memory.swap.max", num))
		goto undo;
	snprintf(num, sizeof(num), "%d", (int)getpid());
	if (write_file(m->path, "cgroup.procs", num))
		goto undo;
	return 0;
undo:
	rmdir(m->path);
	m->path[0] = '\0';
	return -1;
}

void fl_memcg_leave(struct fl_memcg *m)
{
	char num[32];

	if (!m->path[0])
		return;
	snprintf(num, sizeof(num), "%d", (int)getpid());
	if (!write_file(m->parent, "cgroup.procs", num) && rmdir(m->path))
		fl_warn("memcg: rmdir %s: %s", m->path, strerror(errno));
	m->path[0] = '\0';
}

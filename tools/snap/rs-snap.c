// SPDX-License-Identifier: GPL-2.0
/*
 * rs-snap: read several counter files at one instant, without faulting.
 *
 *   rs-snap SRC=DST [SRC=DST ...]
 *
 * Comparing the module's counters with /proc/vmstat needs both read over the
 * same interval: a shell running `cat` twice takes page faults of its own
 * between the two reads.  rs-snap locks all its memory first
 * (mlockall(MCL_CURRENT | MCL_FUTURE) prefaults the static buffers), reads
 * every SRC back to back into those buffers, and only then writes the DSTs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SNAP_MAX_FILES	8
#define SNAP_BUF_SIZE	(256 * 1024)

struct snap {
	const char *src;
	const char *dst;
	size_t len;
	char buf[SNAP_BUF_SIZE];
};

static int snap_read(struct snap *s)
{
	int fd = open(s->src, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "rs-snap: %s: %s\n", s->src, strerror(errno));
		return -1;
	}
	s->len = 0;
	while ((n = read(fd, s->buf + s->len, sizeof(s->buf) - s->len)) > 0)
		s->len += n;
	if (n < 0) {
		fprintf(stderr, "rs-snap: read %s: %s\n", s->src, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (s->len == sizeof(s->buf)) {
		fprintf(stderr, "rs-snap: %s is larger than %d bytes\n", s->src,
			SNAP_BUF_SIZE);
		return -1;
	}
	return 0;
}

static int snap_write(const struct snap *s)
{
	FILE *f = fopen(s->dst, "w");

	if (!f) {
		fprintf(stderr, "rs-snap: %s: %s\n", s->dst, strerror(errno));
		return -1;
	}
	if (fwrite(s->buf, 1, s->len, f) != s->len || fclose(f)) {
		fprintf(stderr, "rs-snap: write %s: %s\n", s->dst, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct snap snaps[SNAP_MAX_FILES];
	int i, n = argc - 1;

	if (n < 1 || n > SNAP_MAX_FILES) {
		fprintf(stderr, "usage: rs-snap SRC=DST [SRC=DST ...] (1 to %d pairs)\n",
			SNAP_MAX_FILES);
		return 2;
	}
	for (i = 0; i < n; i++) {
		char *eq = strchr(argv[i + 1], '=');

		if (!eq || eq == argv[i + 1] || !eq[1]) {
			fprintf(stderr, "rs-snap: '%s' is not SRC=DST\n", argv[i + 1]);
			return 2;
		}
		*eq = '\0';
		snaps[i].src = argv[i + 1];
		snaps[i].dst = eq + 1;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		fprintf(stderr, "rs-snap: mlockall: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++)
		if (snap_read(&snaps[i]))
			return 1;
	munlockall();
	for (i = 0; i < n; i++)
		if (snap_write(&snaps[i]))
			return 1;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * readahead.c - the read_ahead_kb of --file's block device (readahead.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "readahead.h"
#include "util.h"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int write_long(const char *path, long v)
{
	FILE *f = fopen(path, "we");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%ld\n", v) < 0)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* The device's queue, else its parent's (a partition has none). */
static int find_queue(struct fl_readahead *ra, const char *file)
{
	static const char *const fmt[] = {
		"/sys/dev/block/%u:%u/queue/read_ahead_kb",
		"/sys/dev/block/%u:%u/../queue/read_ahead_kb",
	};
	struct stat st;
	unsigned int i;

	if (stat(file, &st))
		return -1;
	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		snprintf(ra->path, sizeof(ra->path), fmt[i], major(st.st_dev),
			 minor(st.st_dev));
		if (!access(ra->path, R_OK))
			return 0;
	}
	ra->path[0] = '\0';
	return -1;
}

long fl_readahead_set(struct fl_readahead *ra, const char *file, int fd, long kb)
{
	int err;

	memset(ra, 0, sizeof(*ra));
	ra->was = -1;
	if (find_queue(ra, file)) {
		if (kb >= 0)
			fl_warn("--read-ahead-kb: %s is on no block device with a queue: left alone",
				file);
		return -1;
	}
	ra->was = read_long(ra->path);
	if (kb < 0 || kb == ra->was)
		return ra->was;
	err = write_long(ra->path, kb);
	if (err) {
		fl_err("--read-ahead-kb %ld: writing %s: %s", kb, ra->path,
		       strerror(-err));
		return -2;
	}
	ra->changed = 1;
	/* the open file's window (f_ra) was the old value's */
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
	if (err) {
		fl_err("--read-ahead-kb %ld: posix_fadvise(NORMAL) of %s: %s", kb, file,
		       strerror(err));
		return -2;
	}
	return read_long(ra->path);
}

void fl_readahead_restore(struct fl_readahead *ra)
{
	int err;

	if (!ra->changed)
		return;
	err = write_long(ra->path, ra->was);
	if (err)
		fl_warn("restoring %s to %ld: %s", ra->path, ra->was,
			strerror(-err));
	ra->changed = 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers, see util.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "run.h"
#include "util.h"

uint64_t fl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void fl_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR && !fl_stopping())
		;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* one write: lines from several threads do not interleave */
	fprintf(stderr, "%s: %s%s\n", FL_NAME, prefix, buf);
}

void fl_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void fl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

size_t fl_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);	/* from the auxv: cheap */
}

long fl_count_vmas(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

uint64_t fl_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fl_rand(uint64_t *state)
{
	*state += 0x9e3779b97f4a7c15ull;
	return fl_mix64(*state);
}

void fl_set_thread_name(const char *name)
{
	/* cosmetic for us, essential for trace analysis: warn, go on */
	int ret = pthread_setname_np(pthread_self(), name);

	if (ret)
		fl_warn("pthread_setname_np(%s): %s", name, strerror(ret));
}

int fl_set_thread_nice(int nice)
{
	/* PRIO_PROCESS with a tid changes only that thread on Linux */
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), nice))
		return -errno;
	return 0;
}

int fl_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

long fl_resident_pages(void *addr, size_t len)
{
	size_t psz = fl_page_size(), n = (len + psz - 1) / psz, i;
	unsigned char *vec;
	long resident = 0;

	vec = malloc(n ? n : 1);
	if (!vec)
		return -ENOMEM;
	if (mincore(addr, len, vec)) {
		resident = -errno;
	} else {
		for (i = 0; i < n; i++)
			resident += vec[i] & 1;
	}
	free(vec);
	return resident;
}

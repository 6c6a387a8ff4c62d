/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by every part of faultload: clocks,
 * messages, a seedable PRNG, thread naming and priorities, sysfs writes.
 */
#ifndef FL_UTIL_H
#define FL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define FL_NAME "faultload"

/* Exit statuses: 0 success, 1 the run failed, 2 bad usage. */
#define FL_EXIT_FAIL	1
#define FL_EXIT_USAGE	2

#define NSEC_PER_SEC	1000000000ull
#define NSEC_PER_MSEC	1000000ull

/* Appended to ENOSYS messages of madvise() and posix_fadvise(). */
#define FL_NO_ADVISE_HINT \
	" (the kernel lacks CONFIG_ADVISE_SYSCALLS=y)"

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t fl_now_ns(void);
/* Sleep for ns nanoseconds (restarted after signals unless stop is set). */
void fl_sleep_ns(uint64_t ns);

/* "faultload: <msg>\n" on stderr; fl_warn() adds "warning: ". */
void fl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The system page size. */
size_t fl_page_size(void);
/* The lines of /proc/self/maps: this process's VMAs (-1: unreadable). */
long fl_count_vmas(void);

/* splitmix64: a full-period 64-bit mixer; *state advances. */
uint64_t fl_rand(uint64_t *state);
uint64_t fl_mix64(uint64_t x);

/* Name the calling thread (comm, at most 15 characters). */
void fl_set_thread_name(const char *name);
/* setpriority() on the calling thread; 0 or -errno. */
int fl_set_thread_nice(int nice);

/* Write a string to a sysfs/procfs file; 0 or -errno. */
int fl_write_file(const char *path, const char *s);

/* Count the resident pages of [addr, addr+len) with mincore(); -errno. */
long fl_resident_pages(void *addr, size_t len);

#endif /* FL_UTIL_H */

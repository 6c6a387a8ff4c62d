// SPDX-License-Identifier: GPL-2.0
/*
 * rs-edgecase: the workloads of the module's edge-case tests (issue 15,
 * tests/vm/counts.sh): each one a situation the lab's scenarios never
 * create, in which a counter could go wrong.
 *
 *   threads  N threads alive at once, each faulting one page of a cold
 *            file: per-task state at Android's thread counts
 *   signal   a reader of cold file pages hit by SIGUSR1 every few
 *            microseconds: retries abandoned on a signal
 *   efault   read() into an unmapped address (a fault that ends in
 *            lock_mm_and_find_vma()), then mmap/munmap in a loop
 *   truncate a cold read of a file truncated during its I/O: the retry
 *            fails with SIGBUS
 *   reset    threads in I/O while the counters are reset or the filter
 *            changed (--write)
 *   uffd     a reader of anonymous pages that userfaultfd fills: every
 *            fault returns VM_FAULT_RETRY from handle_userfault() (a
 *            retry of cause "other")
 *   cowfirst the first write to each of many MAP_PRIVATE mappings of a
 *            cached file page while another thread write-locks mmap_lock
 *            (mprotect): under the VMA lock the fault retries for the
 *            anon_vma, then finishes in filemap_fault()
 *   dropsite rounds that each reach one place where filemap_fault() or
 *            do_swap_page() drops the lock (--site): the module's
 *            filemap_retry_<site> and swap_retry_<site> counters
 *   samepage threads that touch the same cold page at once, readahead
 *            off: the ones that find another's folio locked (locked_folio)
 *   thrash   readers of their own file slices in a memory cgroup smaller
 *            than the slices: retries that find their page reclaimed
 *   vmawrite rounds in which mprotect() or fork() write-locks a VMA while
 *            another thread's fault on it sleeps in the read of a cold
 *            page: where the fault holds the VMA lock across its I/O
 *            (no-drop), the write lock waits for it (vma_write_lock_*)
 *
 * The measured interval is bracketed by --snap SRC=DST copies, read with
 * the process's memory locked (as rs-snap does) to DST.before and
 * DST.after, and the process's getrusage() fault counts over the same
 * interval are printed as key=value lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/userfaultfd.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EC_MAX_SNAPS	4
#define EC_SNAP_SIZE	(256 * 1024)
#define EC_STACK_SIZE	(64 * 1024)

struct ec_snap {
	const char *src, *dst;
	size_t len[3];
	char buf[3][EC_SNAP_SIZE];	/* before, after, and mid (reset) */
};

struct ec_opts {
	const char *file;
	long threads;		/* threads */
	long pages;		/* signal: pages read */
	long interval_us;	/* signal: between two signals */
	long loops;		/* efault: mmap/munmap cycles */
	long at_ms;		/* reset: when to --write */
	const char *write_path;	/* reset: the file to write (debugfs reset, filter) */
	const char *write_value;/* ... what to write, %p the process's pid */
	int nsnaps;
	struct ec_snap *snaps;
	int marker;		/* --marker fd, or -1 */
	const char *site;	/* dropsite: which one */
};

static long ec_page;

static void ec_die(const char *what)
{
	fprintf(stderr, "rs-edgecase: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* --- the measured interval ------------------------------------------------ */

static int ec_snap_read(struct ec_snap *s, int which)
{
	int fd = open(s->src, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	s->len[which] = 0;
	while ((n = read(fd, s->buf[which] + s->len[which],
			 EC_SNAP_SIZE - s->len[which])) > 0)
		s->len[which] += n;
	close(fd);
	return n < 0 || s->len[which] == EC_SNAP_SIZE ? -1 : 0;
}

static void ec_snap_write(const struct ec_snap *s, int which)
{
	char path[PATH_MAX];
	FILE *f;

	static const char *const name[] = { "before", "after", "mid" };

	snprintf(path, sizeof(path), "%s.%s", s->dst, name[which]);
	f = fopen(path, "w");
	if (!f || fwrite(s->buf[which], 1, s->len[which], f) != s->len[which] ||
	    fclose(f))
		ec_die(path);
}

static struct rusage ec_ru[2];

/*
 * Start (0) or end (1) the interval: the snapshots and getrusage(), and
 * inside them a line in the --marker file (a tracefs trace_marker).
 */
static void ec_mark(const struct ec_opts *o, int which)
{
	static const char *const line[] = { "rs-edgecase begin\n", "rs-edgecase end\n" };

	if (which && o->marker >= 0 &&
	    write(o->marker, line[1], strlen(line[1])) < 0)
		ec_die("--marker");
	for (int i = 0; i < o->nsnaps; i++)
		if (ec_snap_read(&o->snaps[i], which))
			ec_die(o->snaps[i].src);
	getrusage(RUSAGE_SELF, &ec_ru[which]);
	if (!which && o->marker >= 0 &&
	    write(o->marker, line[0], strlen(line[0])) < 0)
		ec_die("--marker");
}

static void ec_report(const struct ec_opts *o)
{
	for (int i = 0; i < o->nsnaps; i++) {
		ec_snap_write(&o->snaps[i], 0);
		ec_snap_write(&o->snaps[i], 1);
		if (o->snaps[i].len[2])
			ec_snap_write(&o->snaps[i], 2);
	}
	printf("minflt=%ld\nmajflt=%ld\n", ec_ru[1].ru_minflt - ec_ru[0].ru_minflt,
	       ec_ru[1].ru_majflt - ec_ru[0].ru_majflt);
}

/* A MAP_SHARED PROT_READ mapping of @o->file, MADV_RANDOM, its pages cold. */
static const char *ec_map_cold(const struct ec_opts *o, size_t *size)
{
	int fd = open(o->file, O_RDONLY);
	off_t end;
	void *p;

	if (fd < 0)
		ec_die(o->file);
	end = lseek(fd, 0, SEEK_END);
	if (end < ec_page)
		ec_die("the file is shorter than a page");
	*size = end;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	p = mmap(NULL, *size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		ec_die("mmap");
	madvise(p, *size, MADV_RANDOM);
	close(fd);
	return p;
}

/* --- a pool of threads, each with an index ------------------------------- */

struct ec_pool_arg {
	void *ctx;
	long index;
};

struct ec_pool {
	pthread_t *tids;
	struct ec_pool_arg *args;
	long n;
};

/* Start @n threads running @fn(&{ctx, index}) on 64 KiB stacks, or die. */
static void ec_pool_start(struct ec_pool *p, long n, void *(*fn)(void *),
			  void *ctx)
{
	pthread_attr_t attr;

	p->n = n;
	p->tids = calloc(n, sizeof(*p->tids));
	p->args = calloc(n, sizeof(*p->args));
	if (!p->tids || !p->args)
		ec_die("calloc");
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, EC_STACK_SIZE);
	for (long i = 0; i < n; i++) {
		p->args[i] = (struct ec_pool_arg){ ctx, i };
		errno = pthread_create(&p->tids[i], &attr, fn, &p->args[i]);
		if (errno) {
			fprintf(stderr, "rs-edgecase: thread %ld of %ld: %s\n", i + 1,
				n, strerror(errno));
			exit(1);
		}
	}
	pthread_attr_destroy(&attr);
}

static void ec_pool_join(struct ec_pool *p)
{
	for (long i = 0; i < p->n; i++)
		pthread_join(p->tids[i], NULL);
	free(p->tids);
	free(p->args);
}

/* --- threads --------------------------------------------------------------- */

struct ec_threads {
	pthread_barrier_t ready, start, done, leave;
	const char *map;
	long stride;
	atomic_long sum;
};

static void *ec_faulter(void *arg)
{
	struct ec_pool_arg *a = arg;
	struct ec_threads *t = a->ctx;

	/* started (its stack faulted in) before the interval */
	pthread_barrier_wait(&t->ready);
	pthread_barrier_wait(&t->start);
	atomic_fetch_add(&t->sum, t->map[a->index * t->stride]);
	pthread_barrier_wait(&t->done);
	pthread_barrier_wait(&t->leave);
	return NULL;
}

static int ec_threads_run(const struct ec_opts *o)
{
	struct ec_threads t = { .sum = 0 };
	struct ec_pool pool;
	size_t size;

	t.map = ec_map_cold(o, &size);
	if ((size_t)o->threads * ec_page > size) {
		fprintf(stderr, "rs-edgecase: %s has %zu pages, fewer than --threads %ld\n",
			o->file, size / ec_page, o->threads);
		return 1;
	}
	t.stride = (size / ec_page / o->threads) * ec_page;
	pthread_barrier_init(&t.ready, NULL, o->threads + 1);
	pthread_barrier_init(&t.start, NULL, o->threads + 1);
	pthread_barrier_init(&t.done, NULL, o->threads + 1);
	pthread_barrier_init(&t.leave, NULL, o->threads + 1);
	ec_pool_start(&pool, o->threads, ec_faulter, &t);
	pthread_barrier_wait(&t.ready);
	ec_mark(o, 0);
	pthread_barrier_wait(&t.start);
	pthread_barrier_wait(&t.done);
	ec_mark(o, 1);
	pthread_barrier_wait(&t.leave);
	ec_pool_join(&pool);
	printf("threads=%ld\n", o->threads);
	ec_report(o);
	return 0;
}

/* --- signal ---------------------------------------------------------------- */

struct ec_signal {
	pthread_t reader;
	pthread_barrier_t ready, start;
	const char *map;
	long pages;
	atomic_int done;
	atomic_long sum;
};

static void ec_on_usr1(int sig)
{
	(void)sig;
}

/*
 * Fault in the stack below the caller's frame, where the kernel will
 * write signal frames: a kernel write to a new stack page is a fault
 * without FAULT_FLAG_USER, which getrusage() counts and user_faults does
 * not.
 */
static __attribute__((noinline)) long ec_touch_stack(void)
{
	volatile char below[32 * 1024];

	memset((char *)below, 1, sizeof(below));
	return below[0];
}

static void *ec_reader(void *arg)
{
	struct ec_signal *s = arg;
	long touched = ec_touch_stack();

	/* its stack faults done before the interval starts */
	pthread_barrier_wait(&s->ready);
	pthread_barrier_wait(&s->start);
	for (long i = 0; i < s->pages; i++)
		atomic_fetch_add(&s->sum, s->map[i * ec_page]);
	atomic_store(&s->done, 1);
	return (void *)touched;
}

static int ec_signal_run(const struct ec_opts *o)
{
	struct ec_signal s = { .pages = o->pages };
	struct timespec gap = { 0, o->interval_us * 1000 };
	struct sigaction sa = { .sa_handler = ec_on_usr1 };
	long sent = 0;
	size_t size;

	if (sigaction(SIGUSR1, &sa, NULL))
		ec_die("sigaction");
	s.map = ec_map_cold(o, &size);
	if ((size_t)s.pages * ec_page > size)
		s.pages = size / ec_page;
	pthread_barrier_init(&s.ready, NULL, 2);
	pthread_barrier_init(&s.start, NULL, 2);
	errno = pthread_create(&s.reader, NULL, ec_reader, &s);
	if (errno)
		ec_die("pthread_create");
	pthread_barrier_wait(&s.ready);
	ec_mark(o, 0);
	pthread_barrier_wait(&s.start);
	while (!atomic_load(&s.done)) {
		if (!pthread_kill(s.reader, SIGUSR1))
			sent++;
		nanosleep(&gap, NULL);
	}
	/* its exit (glibc madvises the stack) inside the interval */
	pthread_join(s.reader, NULL);
	ec_mark(o, 1);
	printf("pages=%ld\nsignals=%ld\n", s.pages, sent);
	ec_report(o);
	return 0;
}

/* --- truncate -------------------------------------------------------------- */

/*
 * Per round: --file is rewritten with 16 pages and made cold, the reader
 * touches its first page (a cold read: the fault drops the lock for the
 * I/O and retries with FAULT_FLAG_TRIED), and 0 to 3.2 ms after the
 * reader started (by round: 0, then 25 us doubling), the truncator cuts
 * the file to 0 bytes, so that in some rounds the retry finds the page
 * beyond EOF: VM_FAULT_SIGBUS.  The reader catches SIGBUS.  The delay is
 * a busy wait on CLOCK_MONOTONIC, not a sleep: a guest's timer wakeup can
 * take longer than a read served from the host's page cache, and then no
 * round races (seen once in CI with nanosleep() from 100 us).  SIGBUS
 * rounds are printed per delay.
 */
#define EC_TRUNC_PAGES	16
#define EC_TRUNC_DELAYS	9	/* 0, 25, 50, ... 3200 us */

static sigjmp_buf ec_bus_jmp;
static volatile sig_atomic_t ec_buses;

static void ec_on_bus(int sig)
{
	(void)sig;
	ec_buses++;
	siglongjmp(ec_bus_jmp, 1);
}

struct ec_trunc {
	int fd;
	long delay_us;		/* from the reader's start to the truncation */
	atomic_int touching;	/* the reader is about to touch page 0 */
};

/* Microseconds of CLOCK_MONOTONIC since t0. */
static long ec_elapsed_us(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000L + (t.tv_nsec - t0->tv_nsec) / 1000;
}

static long ec_trunc_delay_us(long round)
{
	long i = round % EC_TRUNC_DELAYS;

	return i ? 25L << (i - 1) : 0;
}

static void *ec_truncator(void *arg)
{
	struct ec_trunc *t = arg;
	struct timespec t0;

	while (!atomic_load(&t->touching))
		;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ec_elapsed_us(&t0) < t->delay_us)
		;
	if (ftruncate(t->fd, 0))
		ec_die("ftruncate");
	return NULL;
}

/* Rewrite the file's EC_TRUNC_PAGES pages and drop them from the cache. */
static void ec_trunc_refill(int fd, char *page)
{
	for (int i = 0; i < EC_TRUNC_PAGES; i++)
		if (pwrite(fd, page, ec_page, (off_t)i * ec_page) != ec_page)
			ec_die("pwrite");
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		ec_die("fsync");
}

static void ec_trunc_round(struct ec_trunc *t, long *sum)
{
	size_t size = (size_t)EC_TRUNC_PAGES * ec_page;
	volatile const char *map;
	pthread_t tid;

	map = mmap(NULL, size, PROT_READ, MAP_SHARED, t->fd, 0);
	if (map == MAP_FAILED)
		ec_die("mmap");
	madvise((void *)map, size, MADV_RANDOM);
	atomic_store(&t->touching, 0);
	errno = pthread_create(&tid, NULL, ec_truncator, t);
	if (errno)
		ec_die("pthread_create");
	if (!sigsetjmp(ec_bus_jmp, 1)) {
		atomic_store(&t->touching, 1);
		*sum += map[0];
	}
	pthread_join(tid, NULL);
	munmap((void *)map, size);
}

static int ec_truncate_run(const struct ec_opts *o)
{
	struct sigaction sa = { .sa_handler = ec_on_bus };
	struct ec_trunc t = { .touching = 0 };
	long by_delay[EC_TRUNC_DELAYS] = { 0 };
	char *page = malloc(ec_page);
	long sum = 0;

	t.fd = open(o->file, O_RDWR);
	if (t.fd < 0 || !page)
		ec_die(o->file);
	memset(page, 0x5a, ec_page);
	if (sigaction(SIGBUS, &sa, NULL))
		ec_die("sigaction");
	ec_mark(o, 0);
	for (long r = 0; r < o->loops; r++) {
		int before = ec_buses;

		t.delay_us = ec_trunc_delay_us(r);
		ec_trunc_refill(t.fd, page);
		ec_trunc_round(&t, &sum);
		by_delay[r % EC_TRUNC_DELAYS] += ec_buses - before;
	}
	ec_mark(o, 1);
	printf("rounds=%ld\nsigbus=%d\nsigbus_by_delay_us=", o->loops, (int)ec_buses);
	for (int i = 0; i < EC_TRUNC_DELAYS; i++)
		printf("%s%ld:%ld", i ? "," : "", ec_trunc_delay_us(i), by_delay[i]);
	putchar('\n');
	ec_report(o);
	close(t.fd);
	free(page);
	return 0;
}

/* --- efault ---------------------------------------------------------------- */

static int ec_efault_run(const struct ec_opts *o)
{
	int fd = open(o->file, O_RDONLY);
	char *hole;
	ssize_t r;

	if (fd < 0)
		ec_die(o->file);
	/* An address with no VMA: mapped, then unmapped. */
	hole = mmap(NULL, ec_page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED || munmap(hole, ec_page))
		ec_die("mmap");
	ec_mark(o, 0);
	r = read(fd, hole, ec_page);
	if (r >= 0 || errno != EFAULT) {
		fprintf(stderr, "rs-edgecase: read() into an unmapped page returned %zd (%s), not EFAULT\n",
			r, r < 0 ? strerror(errno) : "no error");
		return 1;
	}
	for (long i = 0; i < o->loops; i++) {
		void *p = mmap(NULL, ec_page, PROT_READ,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED || munmap(p, ec_page))
			ec_die("mmap/munmap loop");
	}
	ec_mark(o, 1);
	close(fd);
	printf("efault=1\nloops=%ld\n", o->loops);
	ec_report(o);
	return 0;
}

/* --- reset ---------------------------------------------------------------- */

struct ec_reset {
	const char *map;
	long pages_each;
	atomic_int stop;
	atomic_long sum;
};

/* Fault the thread's slice page by page, again and again, until stopped. */
static void *ec_reset_reader(void *arg)
{
	struct ec_pool_arg *a = arg;
	struct ec_reset *r = a->ctx;
	long first = a->index * r->pages_each;

	for (long i = 0; !atomic_load(&r->stop); i = (i + 1) % r->pages_each)
		atomic_fetch_add(&r->sum, r->map[(first + i) * ec_page]);
	return NULL;
}

/* Write --write's value (%p: this process's pid) to its file, or die. */
static void ec_write_now(const struct ec_opts *o)
{
	char val[64];
	int fd, n = 0;

	for (const char *c = o->write_value; *c && n < (int)sizeof(val) - 12; c++) {
		if (c[0] == '%' && c[1] == 'p') {
			n += snprintf(val + n, sizeof(val) - n, "%d", (int)getpid());
			c++;
		} else {
			val[n++] = *c;
		}
	}
	val[n] = '\0';
	fd = open(o->write_path, O_WRONLY);
	if (fd < 0 || write(fd, val, n) != n || close(fd))
		ec_die(o->write_path);
}

static int ec_reset_run(const struct ec_opts *o)
{
	struct ec_reset r = { .stop = 0 };
	struct timespec at = { o->at_ms / 1000, o->at_ms % 1000 * 1000000 };
	struct ec_pool pool;
	size_t size;

	if (!o->write_path) {
		fprintf(stderr, "rs-edgecase: reset needs --write PATH=VALUE\n");
		return 2;
	}
	r.map = ec_map_cold(o, &size);
	r.pages_each = size / ec_page / o->threads;
	if (r.pages_each < 1) {
		fprintf(stderr, "rs-edgecase: %s has fewer pages than --threads %ld\n",
			o->file, o->threads);
		return 1;
	}
	ec_pool_start(&pool, o->threads, ec_reset_reader, &r);
	nanosleep(&at, NULL);
	ec_mark(o, 0);
	ec_write_now(o);
	ec_mark(o, 2);
	nanosleep(&at, NULL);
	/* no new fault after this; the ones in flight finish */
	atomic_store(&r.stop, 1);
	ec_pool_join(&pool);
	ec_mark(o, 1);
	printf("threads=%ld\n", o->threads);
	ec_report(o);
	return 0;
}

/* --- uffd ------------------------------------------------------------------ */

struct ec_uffd {
	int fd;
	const char *src;	/* one page, the contents UFFDIO_COPY puts in */
	atomic_int stop;
};

/* Answer every missing-page fault with a copy of ->src, until stopped. */
static void *ec_uffd_handler(void *arg)
{
	struct ec_uffd *u = arg;
	struct uffd_msg msg;

	while (!atomic_load(&u->stop)) {
		struct pollfd pfd = { .fd = u->fd, .events = POLLIN };
		struct uffdio_copy copy = { .src = (unsigned long)u->src,
					    .len = ec_page };

		if (poll(&pfd, 1, 100) <= 0 ||
		    read(u->fd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		copy.dst = msg.arg.pagefault.address & ~(unsigned long)(ec_page - 1);
		if (ioctl(u->fd, UFFDIO_COPY, &copy) && errno != EEXIST)
			ec_die("UFFDIO_COPY");
	}
	return NULL;
}

static int ec_uffd_run(const struct ec_opts *o)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct ec_uffd u = { .stop = 0 };
	size_t size = o->pages * ec_page;
	pthread_t handler;
	char *map, *src;
	long sum = 0;

	u.fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (u.fd < 0 && errno == ENOSYS) {
		fprintf(stderr, "rs-edgecase: userfaultfd: not in this kernel (CONFIG_USERFAULTFD)\n");
		return 4;
	}
	if (u.fd < 0 || ioctl(u.fd, UFFDIO_API, &api))
		ec_die("userfaultfd");
	src = mmap(NULL, ec_page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || map == MAP_FAILED)
		ec_die("mmap");
	memset(src, 1, ec_page);
	reg.range.start = (unsigned long)map;
	reg.range.len = size;
	if (ioctl(u.fd, UFFDIO_REGISTER, &reg))
		ec_die("UFFDIO_REGISTER");
	u.src = src;
	errno = pthread_create(&handler, NULL, ec_uffd_handler, &u);
	if (errno)
		ec_die("pthread_create");
	/* the handler's own stack faults, before the interval */
	usleep(200000);
	ec_mark(o, 0);
	for (long i = 0; i < o->pages; i++)
		sum += map[i * ec_page];
	ec_mark(o, 1);
	atomic_store(&u.stop, 1);
	pthread_join(handler, NULL);
	close(u.fd);
	if (sum != o->pages) {
		fprintf(stderr, "rs-edgecase: read %ld, not %ld: a page missed its copy\n",
			sum, o->pages);
		return 1;
	}
	printf("uffd_pages=%ld\n", o->pages);
	ec_report(o);
	return 0;
}

/* --- cowfirst ------------------------------------------------------------- */

#define EC_COW_CONTEND	(64L << 20)

struct ec_cow {
	char *region;		/* EC_COW_CONTEND bytes, every page present */
	atomic_int stop;
	long flips;
};

/* Write-lock mmap_lock over and over: mprotect() a populated region. */
static void *ec_cow_contender(void *arg)
{
	struct ec_cow *c = arg;

	while (!atomic_load(&c->stop)) {
		int prot = c->flips++ & 1 ? PROT_READ | PROT_WRITE : PROT_READ;

		if (mprotect(c->region, EC_COW_CONTEND, prot))
			ec_die("mprotect");
	}
	return NULL;
}

/* /proc/vmstat's @name, or -1 when the kernel has no such counter */
static long ec_vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	long v, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/*
 * Before the interval, a read fault of a cold page in the middle of @fd's
 * file, readahead on: under the VMA lock it drops the lock for the read
 * and retries, and the retry maps the page in the fault-around, without
 * a ->fault call.  A module that keeps that fault's start (latency.c)
 * would time the later faults whose first attempt retried before any
 * ->fault, the anon_vma ones below, from it.  Prints primed_retry=, the
 * kernel's vma_lock_retry over the read (1: it retried; -1: no
 * PER_VMA_LOCK_STATS), nothing else of the process faulting meanwhile.
 */
static void ec_cow_prime(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END), off;
	volatile char *p;
	long a, b;

	if (end < 4 * ec_page) {
		/* a page near page 0, which the pread() read ahead, is not cold */
		printf("primed_retry=none (the file is shorter than 4 pages)\n");
		return;
	}
	off = end / 2 / ec_page * ec_page;
	posix_fadvise(fd, off, ec_page, POSIX_FADV_DONTNEED);
	p = mmap(NULL, end, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		ec_die("mmap");
	a = ec_vmstat("vma_lock_retry");
	(void)p[off];
	b = ec_vmstat("vma_lock_retry");
	printf("primed_retry=%ld\n", a < 0 || b < 0 ? -1 : b - a);
}

static int ec_cowfirst_run(const struct ec_opts *o)
{
	struct ec_cow c = { .stop = 0 };
	int fd = open(o->file, O_RDONLY);
	char **maps, page[1];
	pthread_t contender;

	if (fd < 0)
		ec_die(o->file);
	/* the file's first page in the page cache: no I/O in the interval */
	if (pread(fd, page, 1, 0) != 1)
		ec_die("pread");
	maps = calloc(o->loops, sizeof(*maps));
	if (!maps)
		ec_die("calloc");
	/* one VMA each: same file offset, so they never merge */
	for (long i = 0; i < o->loops; i++) {
		maps[i] = mmap(NULL, ec_page, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			       fd, 0);
		if (maps[i] == MAP_FAILED)
			ec_die("mmap");
	}
	ec_cow_prime(fd);
	c.region = mmap(NULL, EC_COW_CONTEND, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (c.region == MAP_FAILED)
		ec_die("mmap");
	errno = pthread_create(&contender, NULL, ec_cow_contender, &c);
	if (errno)
		ec_die("pthread_create");
	usleep(200000);
	ec_mark(o, 0);
	for (long i = 0; i < o->loops; i++)
		maps[i][0] = 1;
	ec_mark(o, 1);
	atomic_store(&c.stop, 1);
	pthread_join(contender, NULL);
	close(fd);
	printf("cow_writes=%ld\nmprotects=%ld\n", o->loops, c.flips);
	ec_report(o);
	return 0;
}

/* --- dropsite ---------------------------------------------------------------- */

/*
 * Each round reaches one place where the fault drops its lock, on a
 * freshly opened --file (its readahead state new) made cold:
 *   readahead     a touch of page 0: no folio, readahead reads it
 *   sync_read     the same on a MADV_RANDOM mapping: no readahead, a
 *                 synchronous read (page_not_uptodate)
 *   locked_folio  POSIX_FADV_WILLNEED on the first 4 MiB starts their
 *                 read, a touch of the last page finds its folio locked
 *                 for that I/O (queued behind the others on the
 *                 throttled disk; on a fast one it may be read already)
 *   uptodate      read() of page 0 reads ahead and marks a later folio
 *                 PG_readahead; once it is read, a touch of it starts the
 *                 next readahead (the data was there)
 *   swap_io       an anonymous page swapped out (MADV_PAGEOUT, then
 *                 memory.reclaim of the root cgroup for what writeback
 *                 left in the swap cache) and touched: do_swap_page()
 *                 starts the swap-in
 *   swap_locked_folio  4 MiB swapped out, MADV_WILLNEED starts its
 *                 swap-in, a touch of the last page finds its swap-cache
 *                 folio locked (queued behind the others)
 * The swap sites need swap on.  Prints rounds= and what the touches read.
 */
#define EC_RA_MARK_PAGES	4	/* read()'s first window: pages 0..3 */
#define EC_WILLNEED_PAGES	1024	/* locked_folio: 4 MiB of 4 KiB pages */
#define EC_SWAP_PAGES		1024	/* swap_locked_folio: 4 MiB */
#define EC_RECLAIM		"/sys/fs/cgroup/memory.reclaim"

enum ec_site {
	EC_READAHEAD, EC_SYNC_READ, EC_LOCKED_FOLIO, EC_UPTODATE, EC_SWAP_IO,
	EC_SWAP_LOCKED_FOLIO, EC_NR_SITES
};

static const char * const ec_sites[EC_NR_SITES] = {
	[EC_READAHEAD] = "readahead", [EC_SYNC_READ] = "sync_read",
	[EC_LOCKED_FOLIO] = "locked_folio", [EC_UPTODATE] = "uptodate",
	[EC_SWAP_IO] = "swap_io", [EC_SWAP_LOCKED_FOLIO] = "swap_locked_folio",
};

/* posix_fadvise() returns the error number; madvise() sets errno. */
static void ec_fadvise(int fd, off_t off, off_t len, int advice, const char *what)
{
	errno = posix_fadvise(fd, off, len, advice);
	if (errno)
		ec_die(what);
}

static void ec_madvise(volatile const void *p, size_t len, int advice, const char *what)
{
	if (madvise((void *)p, len, advice))
		ec_die(what);
}

static long ec_file_round(const struct ec_opts *o, enum ec_site site)
{
	volatile const char *map;
	char buf[64];
	long pages = site == EC_LOCKED_FOLIO ? EC_WILLNEED_PAGES : EC_RA_MARK_PAGES;
	size_t size = (size_t)pages * ec_page;
	long sum = 0;
	int fd = open(o->file, O_RDONLY);

	if (fd < 0)
		ec_die(o->file);
	if (lseek(fd, 0, SEEK_END) < (off_t)size) {
		fprintf(stderr, "rs-edgecase: %s: shorter than %ld pages\n", o->file, pages);
		exit(1);
	}
	ec_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED, "posix_fadvise(DONTNEED)");
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		ec_die("mmap");
	switch (site) {
	case EC_READAHEAD:
		sum += map[0];
		break;
	case EC_SYNC_READ:
		ec_madvise(map, size, MADV_RANDOM, "madvise(MADV_RANDOM)");
		sum += map[0];
		break;
	case EC_LOCKED_FOLIO:
		ec_fadvise(fd, 0, size, POSIX_FADV_WILLNEED, "posix_fadvise(WILLNEED)");
		sum += map[size - ec_page];
		break;
	case EC_UPTODATE:
		if (pread(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
			ec_die("pread");
		/* the rest of the window in, its marker left on */
		usleep(50000);
		for (int i = 1; i < EC_RA_MARK_PAGES; i++)
			sum += map[i * ec_page];
		break;
	default:
		break;
	}
	munmap((void *)map, size);
	close(fd);
	return sum;
}

/* Push the @n pages at @p out of memory and out of the swap cache. */
static void ec_swap_out(volatile char *p, size_t n)
{
	unsigned char vec[EC_SWAP_PAGES];
	size_t resident = n;

	ec_madvise(p, n * ec_page, MADV_PAGEOUT, "madvise(MADV_PAGEOUT)");
	for (int i = 0; i < 100; i++) {
		int fd;

		if (mincore((void *)p, n * ec_page, vec))
			ec_die("mincore");
		resident = 0;
		for (size_t k = 0; k < n; k++)
			resident += vec[k] & 1;
		if (!resident)
			return;
		usleep(20000);
		fd = open(EC_RECLAIM, O_WRONLY);
		if (fd < 0)
			ec_die(EC_RECLAIM);
		/* EAGAIN: less than asked was reclaimed; mincore tells */
		if (write(fd, "4M", 2) < 0 && errno != EAGAIN)
			ec_die(EC_RECLAIM);
		close(fd);
	}
	fprintf(stderr, "rs-edgecase: %zu of %zu pages stayed resident after MADV_PAGEOUT and "
		"100 writes to %s (is swap on?)\n", resident, n, EC_RECLAIM);
	exit(1);
}

static long ec_swap_round(enum ec_site site)
{
	size_t n = site == EC_SWAP_LOCKED_FOLIO ? EC_SWAP_PAGES : 1;
	volatile char *p = mmap(NULL, n * ec_page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long sum;

	if (p == MAP_FAILED)
		ec_die("mmap");
	for (size_t k = 0; k < n; k++)
		p[k * ec_page] = 1;
	ec_swap_out(p, n);
	if (site == EC_SWAP_LOCKED_FOLIO)
		ec_madvise(p, n * ec_page, MADV_WILLNEED, "madvise(MADV_WILLNEED)");
	sum = p[(n - 1) * ec_page];
	munmap((void *)p, n * ec_page);
	return sum;
}

static int ec_dropsite_run(const struct ec_opts *o)
{
	enum ec_site site = EC_NR_SITES;
	long sum = 0;

	for (int i = 0; i < EC_NR_SITES; i++)
		if (o->site && !strcmp(o->site, ec_sites[i]))
			site = i;
	if (site == EC_NR_SITES) {
		fprintf(stderr, "rs-edgecase: dropsite needs --site, one of:");
		for (int i = 0; i < EC_NR_SITES; i++)
			fprintf(stderr, " %s", ec_sites[i]);
		fputc('\n', stderr);
		return 2;
	}
	ec_mark(o, 0);
	for (long r = 0; r < o->loops; r++)
		sum += site < EC_SWAP_IO ? ec_file_round(o, site) : ec_swap_round(site);
	ec_mark(o, 1);
	printf("rounds=%ld\nsite=%s\nsum=%ld\n", o->loops, ec_sites[site], sum);
	ec_report(o);
	return 0;
}

/* --- vmawrite -------------------------------------------------------------- */

#define EC_VMW_PAGES		4	/* the mapping a round faults */
/* Read ahead of the fault, so that its read queues behind a throttled disk's */
#define EC_VMW_FLOOD_OFF	(1L << 20)
#define EC_VMW_FLOOD_LEN	(16L << 20)
#define EC_VMW_D_WAIT_US	2000000	/* at most, for the reader to sleep in I/O */

enum ec_vmw_op { EC_VMW_MPROTECT, EC_VMW_FORK, EC_NR_VMW_OPS };

static const char * const ec_vmw_ops[EC_NR_VMW_OPS] = {
	[EC_VMW_MPROTECT] = "mprotect", [EC_VMW_FORK] = "fork",
};

struct ec_vmw {
	volatile const char *map;
	atomic_int tid;		/* the reader's, once it runs */
	atomic_int done;
	long sum;
};

static void *ec_vmw_reader(void *arg)
{
	struct ec_vmw *v = arg;

	atomic_store(&v->tid, (int)syscall(SYS_gettid));
	v->sum += v->map[0];
	atomic_store(&v->done, 1);
	return NULL;
}

/* Whether thread @tid of this process is in uninterruptible sleep (D). */
static int ec_task_in_d(int tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the state follows the comm */
	return p && p[1] == ' ' && p[2] == 'D';
}

/* Until the reader sleeps in its fault's I/O (1) or its fault is over (0). */
static int ec_vmw_wait_io(struct ec_vmw *v)
{
	struct timespec t0;
	int tid;

	while (!(tid = atomic_load(&v->tid)))
		;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!atomic_load(&v->done) && ec_elapsed_us(&t0) < EC_VMW_D_WAIT_US)
		if (ec_task_in_d(tid))
			return !atomic_load(&v->done);
	return 0;
}

/* The write-locking call of @op on the VMA at @p; the child of fork() exits. */
static void ec_vmw_op(enum ec_vmw_op op, volatile const char *p, size_t size)
{
	pid_t pid;

	if (op == EC_VMW_MPROTECT) {
		/* PROT_READ to read-write: a change, so the VMA is write-locked */
		if (mprotect((void *)p, size, PROT_READ | PROT_WRITE))
			ec_die("mprotect");
		return;
	}
	pid = fork();
	if (pid < 0)
		ec_die("fork");
	if (!pid)
		_exit(0);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * One round: a reader thread touches the first page of a cold private
 * PROT_READ mapping (MADV_RANDOM: a synchronous read), queued behind the
 * reads of 16 MiB of readahead started just before (a throttled disk takes
 * a while: the read is long enough to be seen); once it sleeps in that
 * read (state D), this thread write-locks the VMA with @op.  Returns
 * whether it did so while the reader was in the read.
 */
static int ec_vmw_round(const struct ec_opts *o, enum ec_vmw_op op)
{
	size_t size = (size_t)EC_VMW_PAGES * ec_page;
	struct ec_vmw v = { .tid = 0 };
	pthread_t tid;
	int fd = open(o->file, O_RDONLY), in_io;

	if (fd < 0)
		ec_die(o->file);
	ec_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED, "posix_fadvise(DONTNEED)");
	if (lseek(fd, 0, SEEK_END) < EC_VMW_FLOOD_OFF + EC_VMW_FLOOD_LEN) {
		fprintf(stderr, "rs-edgecase: %s: shorter than %ld MiB\n", o->file,
			(EC_VMW_FLOOD_OFF + EC_VMW_FLOOD_LEN) >> 20);
		exit(1);
	}
	v.map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (v.map == MAP_FAILED)
		ec_die("mmap");
	ec_madvise(v.map, size, MADV_RANDOM, "madvise(MADV_RANDOM)");
	ec_fadvise(fd, EC_VMW_FLOOD_OFF, EC_VMW_FLOOD_LEN, POSIX_FADV_WILLNEED,
		   "posix_fadvise(WILLNEED)");
	errno = pthread_create(&tid, NULL, ec_vmw_reader, &v);
	if (errno)
		ec_die("pthread_create");
	in_io = ec_vmw_wait_io(&v);
	ec_vmw_op(op, v.map, size);
	pthread_join(tid, NULL);
	munmap((void *)v.map, size);
	close(fd);
	return in_io;
}

static int ec_vmawrite_run(const struct ec_opts *o)
{
	long rounds[EC_NR_VMW_OPS] = { 0 }, in_io[EC_NR_VMW_OPS] = { 0 };

	ec_mark(o, 0);
	for (long r = 0; r < o->loops; r++) {
		enum ec_vmw_op op = r % EC_NR_VMW_OPS;

		rounds[op]++;
		in_io[op] += ec_vmw_round(o, op);
	}
	ec_mark(o, 1);
	for (int i = 0; i < EC_NR_VMW_OPS; i++)
		printf("rounds_%s=%ld\nin_io_%s=%ld\n", ec_vmw_ops[i], rounds[i],
		       ec_vmw_ops[i], in_io[i]);
	ec_report(o);
	return 0;
}

/* --- samepage --------------------------------------------------------------- */

/*
 * --loops rounds in which --threads threads touch the same cold page of a
 * MADV_RANDOM mapping of the writable --file (readahead off) at once.
 * filemap_fault() of a thread that found no folio creates one and reads
 * it (page_not_uptodate); a second thread that also found none meets the
 * first's folio, waits for its lock and returns VM_FAULT_MAJOR too, from
 * lock_folio_maybe_drop_mmap()'s drop: the locked_folio site, on a call
 * that looks like sync_read.  To make both miss, a puncher thread
 * punches the file's last page over and over (ext4 takes the mapping's
 * invalidate_lock for write), so the readers queue on the invalidate
 * lock between their miss and the folio's creation.  Prints rounds=.
 */
struct ec_same {
	volatile char *map;
	int fd;
	off_t last;		/* the puncher's page */
	long rounds;
	pthread_barrier_t go, done;
	atomic_int stop;
	long punches;
};

static void *ec_same_reader(void *arg)
{
	struct ec_pool_arg *a = arg;
	struct ec_same *s = a->ctx;

	for (long r = 0; r < s->rounds; r++) {
		pthread_barrier_wait(&s->go);
		(void)s->map[(r % (s->last / ec_page)) * ec_page];
		pthread_barrier_wait(&s->done);
	}
	return NULL;
}

static void *ec_same_puncher(void *arg)
{
	struct ec_same *s = arg;

	while (!atomic_load(&s->stop)) {
		if (fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      s->last, ec_page))
			ec_die("fallocate(PUNCH_HOLE)");
		s->punches++;
	}
	return NULL;
}

static int ec_samepage_run(const struct ec_opts *o)
{
	struct ec_same s = { .rounds = o->loops };
	struct ec_pool pool;
	pthread_t puncher;
	off_t end;

	s.fd = open(o->file, O_RDWR);
	if (s.fd < 0)
		ec_die(o->file);
	end = lseek(s.fd, 0, SEEK_END);
	if (end < 2 * ec_page)
		ec_die("samepage: the file is shorter than 2 pages");
	/* clean pages, which POSIX_FADV_DONTNEED can drop */
	if (fsync(s.fd))
		ec_die("fsync");
	s.last = (end / ec_page - 1) * ec_page;
	s.map = mmap(NULL, s.last, PROT_READ, MAP_SHARED, s.fd, 0);
	if (s.map == MAP_FAILED)
		ec_die("mmap");
	if (madvise((void *)s.map, s.last, MADV_RANDOM))
		ec_die("madvise(MADV_RANDOM)");
	if (pthread_barrier_init(&s.go, NULL, o->threads + 1) ||
	    pthread_barrier_init(&s.done, NULL, o->threads + 1))
		ec_die("pthread_barrier_init");
	ec_pool_start(&pool, o->threads, ec_same_reader, &s);
	errno = pthread_create(&puncher, NULL, ec_same_puncher, &s);
	if (errno)
		ec_die("pthread_create");
	ec_mark(o, 0);
	for (long r = 0; r < s.rounds; r++) {
		off_t off = (r % (s.last / ec_page)) * ec_page;

		/* the page cold: its PTEs zapped, then its folio dropped */
		madvise((void *)(s.map + off), ec_page, MADV_DONTNEED);
		posix_fadvise(s.fd, off, ec_page, POSIX_FADV_DONTNEED);
		pthread_barrier_wait(&s.go);
		pthread_barrier_wait(&s.done);
	}
	ec_mark(o, 1);
	atomic_store(&s.stop, 1);
	pthread_join(puncher, NULL);
	ec_pool_join(&pool);
	printf("rounds=%ld\npunches=%ld\n", s.rounds, s.punches);
	ec_report(o);
	return 0;
}

/* --- thrash ------------------------------------------------------------------ */

/*
 * --threads threads each map their own 8 MiB slice of --file, read one
 * byte of every page and unmap it, --loops rounds each.  Run in a memory
 * cgroup smaller than the slices' sum (tests/vm/counts.sh does), the page
 * cache is reclaimed under the readers: a page read by a fault's first
 * attempt can be gone when its retry comes (filemap_retry_miss), and that
 * retry reads it again.  Prints rounds=.
 */
#define EC_THRASH_SLICE	(8L << 20)

struct ec_thrash {
	int fd;
	long rounds;
};

static void *ec_thrash_reader(void *arg)
{
	struct ec_pool_arg *a = arg;
	struct ec_thrash *t = a->ctx;

	for (long r = 0; r < t->rounds; r++) {
		volatile char *p = mmap(NULL, EC_THRASH_SLICE, PROT_READ, MAP_SHARED,
					t->fd, a->index * EC_THRASH_SLICE);

		if (p == MAP_FAILED)
			ec_die("mmap");
		for (long off = 0; off < EC_THRASH_SLICE; off += ec_page)
			(void)p[off];
		munmap((void *)p, EC_THRASH_SLICE);
	}
	return NULL;
}

static int ec_thrash_run(const struct ec_opts *o)
{
	struct ec_thrash t = { .rounds = o->loops };
	struct ec_pool pool;

	t.fd = open(o->file, O_RDONLY);
	if (t.fd < 0)
		ec_die(o->file);
	if (lseek(t.fd, 0, SEEK_END) < o->threads * EC_THRASH_SLICE) {
		fprintf(stderr, "rs-edgecase: thrash: %s is shorter than --threads x 8 MiB\n",
			o->file);
		return 2;
	}
	posix_fadvise(t.fd, 0, 0, POSIX_FADV_DONTNEED);
	ec_mark(o, 0);
	ec_pool_start(&pool, o->threads, ec_thrash_reader, &t);
	ec_pool_join(&pool);
	ec_mark(o, 1);
	printf("rounds=%ld\n", t.rounds * o->threads);
	ec_report(o);
	return 0;
}

/* --- command line ---------------------------------------------------------- */

static const struct ec_case {
	const char *name;
	int (*run)(const struct ec_opts *o);
	const char *help;
} ec_cases[] = {
	{ "threads", ec_threads_run,
	  "--threads threads alive at once each fault one page of the cold --file" },
	{ "signal", ec_signal_run,
	  "one thread reads --pages cold pages of --file, SIGUSR1 every --interval-us" },
	{ "efault", ec_efault_run,
	  "read() into an unmapped page (EFAULT), then --loops mmap/munmap" },
	{ "truncate", ec_truncate_run,
	  "--loops rounds: a cold read of a writable --file truncated under it (SIGBUS)" },
	{ "reset", ec_reset_run,
	  "--threads fault the cold --file; --write after --at-ms (.mid snapshots)" },
	{ "uffd", ec_uffd_run,
	  "read --pages anonymous pages that a userfaultfd thread fills (exit 4: no uffd)" },
	{ "cowfirst", ec_cowfirst_run,
	  "first write to --loops private maps of --file's cached page, mmap_lock contended" },
	{ "samepage", ec_samepage_run,
	  "--loops rounds: --threads touch one cold page of writable --file at once" },
	{ "thrash", ec_thrash_run,
	  "--threads read their own 8 MiB slices of --file, --loops rounds each" },
	{ "dropsite", ec_dropsite_run,
	  "--loops rounds that reach where a fault drops its lock (--site)" },
	{ "vmawrite", ec_vmawrite_run,
	  "--loops rounds: mprotect() or fork() while a fault sleeps in the VMA's read" },
};

static void ec_usage(FILE *f)
{
	fprintf(f, "usage: rs-edgecase CASE [options] [--snap SRC=DST]...\n\n"
		   "The workloads of the module's edge-case tests.  The interval from\n"
		   "just before to just after the case's work is bracketed by copies of\n"
		   "each SRC to DST.before and DST.after, and the process's fault counts\n"
		   "over it (getrusage) are printed as key=value lines.\n\nCases:\n");
	for (size_t i = 0; i < sizeof(ec_cases) / sizeof(ec_cases[0]); i++)
		fprintf(f, "  %-8s %s\n", ec_cases[i].name, ec_cases[i].help);
	fprintf(f, "\nOptions:\n"
		   "  --file PATH        the file to map (default /mnt/disk/data.bin)\n"
		   "  --threads N        threads, samepage: readers; 1..100000 (default 10000)\n"
		   "  --pages N          signal, uffd: pages to read (default 2000)\n"
		   "  --interval-us N    signal: between signals, 1..1000000 (default 100)\n"
		   "  --loops N          efault: mmap/munmap cycles; truncate: rounds;\n"
		   "                     cowfirst: mappings written; samepage: rounds;\n"
		   "                     thrash: rounds per thread;\n"
		   "                     vmawrite: rounds, mprotect and fork in turn\n"
		   "                     (default 1000)\n"
		   "  --write PATH=VALUE reset: write VALUE to PATH (%%p: the pid), between\n"
		   "                     the .before and .mid snapshots\n"
		   "  --at-ms N          reset: after N ms of faulting, then as long\n"
		   "                     again before stopping (default 1000)\n"
		   "  --site NAME        dropsite: readahead, sync_read, locked_folio,\n"
		   "                     uptodate, swap_io, swap_locked_folio\n"
		   "  --snap SRC=DST     copy SRC at both ends of the interval (up to %d)\n"
		   "  --marker PATH      write 'rs-edgecase begin' and '... end' to PATH\n"
		   "                     just inside the interval (a tracefs trace_marker)\n"
		   "  -h, --help\n\nExamples:\n"
		   "  rs-edgecase threads --threads 10000 --snap /proc/vmstat=/tmp/vmstat\n"
		   "  rs-edgecase signal --interval-us 100\n"
		   "  rs-edgecase efault --loops 1000 --snap /sys/kernel/debug/retryscope/stats=/tmp/s\n"
		   "  rs-edgecase reset --threads 64 --write /sys/kernel/debug/retryscope/reset=1\n"
		   "  rs-edgecase uffd --pages 500\n"
		   "  rs-edgecase cowfirst --loops 2000 --file /mnt/disk/data.bin\n"
		   "  rs-edgecase dropsite --site locked_folio --loops 50\n"
		   "  rs-edgecase samepage --threads 4 --loops 64 --file /mnt/scratch/sp.bin\n"
		   "  rs-edgecase thrash --threads 8 --loops 4\n"
		   "  rs-edgecase vmawrite --loops 40\n",
		EC_MAX_SNAPS);
}

/* A whole number in [min, max], else exit 2 naming the option. */
static long ec_num(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "rs-edgecase: --%s takes a whole number from %ld to %ld, not '%s'\n",
			opt, min, max, s);
		exit(2);
	}
	return v;
}

static void ec_parse(int argc, char **argv, struct ec_opts *o)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 't' },
		{ "pages", required_argument, NULL, 'p' },
		{ "interval-us", required_argument, NULL, 'i' },
		{ "loops", required_argument, NULL, 'l' },
		{ "snap", required_argument, NULL, 's' },
		{ "marker", required_argument, NULL, 'm' },
		{ "write", required_argument, NULL, 'w' },
		{ "at-ms", required_argument, NULL, 'a' },
		{ "site", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		const char *name = "";
		char *eq;

		for (const struct option *l = longopts; l->name; l++)
			if (l->val == c)
				name = l->name;
		switch (c) {
		case 'f': o->file = optarg; break;
		case 't': o->threads = ec_num(name, optarg, 1, 100000); break;
		case 'p': o->pages = ec_num(name, optarg, 1, 1L << 30); break;
		case 'i': o->interval_us = ec_num(name, optarg, 1, 1000000); break;
		case 'l': o->loops = ec_num(name, optarg, 0, 1L << 30); break;
		case 's':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1] || o->nsnaps == EC_MAX_SNAPS) {
				fprintf(stderr, "rs-edgecase: --snap takes SRC=DST, at most %d times\n",
					EC_MAX_SNAPS);
				exit(2);
			}
			*eq = '\0';
			o->snaps[o->nsnaps].src = optarg;
			o->snaps[o->nsnaps++].dst = eq + 1;
			break;
		case 'a': o->at_ms = ec_num(name, optarg, 1, 600000); break;
		case 'S': o->site = optarg; break;
		case 'w':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg) {
				fprintf(stderr, "rs-edgecase: --write takes PATH=VALUE\n");
				exit(2);
			}
			*eq = '\0';
			o->write_path = optarg;
			o->write_value = eq + 1;
			break;
		case 'm':
			o->marker = open(optarg, O_WRONLY);
			if (o->marker < 0)
				ec_die(optarg);
			break;
		case 'h': ec_usage(stdout); exit(0);
		default: ec_usage(stderr); exit(2);
		}
	}
}

int main(int argc, char **argv)
{
	static struct ec_snap snaps[EC_MAX_SNAPS];
	struct ec_opts o = { .file = "/mnt/disk/data.bin", .threads = 10000,
			     .pages = 2000, .interval_us = 100, .loops = 1000,
			     .snaps = snaps, .marker = -1, .at_ms = 1000 };
	const struct ec_case *ec = NULL;

	ec_page = sysconf(_SC_PAGESIZE);
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof(ec_cases) / sizeof(ec_cases[0]); i++)
			if (!strcmp(argv[1], ec_cases[i].name))
				ec = &ec_cases[i];
		if (!ec) {
			fprintf(stderr, "rs-edgecase: no case '%s' (--help lists them)\n", argv[1]);
			return 2;
		}
		argv++;
		argc--;
	}
	ec_parse(argc, argv, &o);
	if (!ec) {
		ec_usage(stderr);
		return 2;
	}
	if (optind != argc) {
		fprintf(stderr, "rs-edgecase: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	/* The snapshot buffers are faulted in and locked before the interval. */
	if (mlockall(MCL_CURRENT))
		ec_die("mlockall");
	return ec->run(&o);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rs-archboot: the init of scripts/boot-arches' guests (issue 32), built
 * static against the kernel's own nolibc (tools/include/nolibc) with only a
 * cross compiler:
 *
 *   CC -std=c11 -Wall -Wextra -Werror -static -nostdlib -nostdinc \
 *      -isystem SYSROOT/include -include nolibc.h rs-archboot.c -lgcc
 *
 * It mounts proc and devtmpfs, finds the two virtio disks (the data disk,
 * whose every 512-byte sector begins "rs-sector %08d\n", and the swap
 * disk), and runs three workloads, each between two reads of /proc/vmstat:
 *
 *   readahead  an mmap of the raw data disk read one page after another:
 *              filemap_fault() with readahead, faults that wait for I/O;
 *   random     another part of the disk read with MADV_RANDOM: each fault
 *              reads its page synchronously (filemap_fault()'s
 *              page_not_uptodate path);
 *   swap       an anonymous region 1.5 times the guest's memory written,
 *              pushed out (memory pressure and MADV_PAGEOUT) to swap on the
 *              swap disk, and read back: swap-in faults (do_swap_page()).
 *
 * For each access it reads /proc/vmstat again where the phase samples every
 * access (readahead, random, the swap phase's first pages), so the largest
 * vma_lock_retry step of one access ("maxretry") is the most times a single
 * fault retried under the VMA lock.  It checks that every page reads back
 * what the host (data disk) or the process (swap) wrote, prints a result
 * block ("rs-archboot: begin" ... "rs-archboot: end") and powers off.
 *
 * With /retryscope.ko in the initramfs (scripts/boot-arches --module) it
 * then loads the module once per backend (auto, kprobe, fprobe: a backend
 * the kernel has not is refused at load, and says so), runs the three
 * phases again each time (the data disk's page cache dropped first, with
 * BLKFLSBUF) and prints, for each, the module's counters
 * (/sys/kernel/retryscope/counters) and the process's getrusage() faults
 * over the same interval as the /proc/vmstat deltas: phase=NAME@BACKEND
 * lines.  Beside them the mmap_lock tracepoint counted by tracefs itself:
 * mmap_lock_acquire_returned events with success, the init's own (pid 1,
 * the guest's one process: the module counts a task's requests on its own
 * mm) filtered to read acquisitions in the top buffer and to write ones in
 * the instance "w", and every other task's in the instance "o" (a kernel
 * thread's on init_mm, say); each buffer's entries over the phase
 * (tp_read, tp_write, tp_other; and their overruns, which must be 0).  The kernel's retryscope lines of each load,
 * and its warnings, are printed as "klog" lines.
 */
#include <linux/fs.h>
#include <linux/reboot.h>

#define MADV_RANDOM_ 1
#define MADV_PAGEOUT_ 21
#define SWAP_FLAG_PREFER_ 0x8000

#define DATA_MIB 64
#define RA_OFF_MIB 0	/* readahead: MiB 0..16 of the data disk */
#define RA_MIB 16
#define RND_OFF_MIB 32	/* random: MiB 32..48 */
#define RND_MIB 16
#define NTP 3		/* tracefs buffers (tp_dir) */
#define SWAP_SAMPLED 2048 /* swap: the first pages read back, sampled one by one */

static char vmbuf[65536];
static long psz;

enum { C_PGFAULT, C_PGMAJFAULT, C_SUCCESS, C_ABORT, C_RETRY, C_MISS, C_PSWPIN, C_PSWPOUT, NC };
static const char *const cname[NC] = {
	"pgfault", "pgmajfault", "vma_lock_success", "vma_lock_abort",
	"vma_lock_retry", "vma_lock_miss", "pswpin", "pswpout",
};

struct snap {
	unsigned long v[NC];
	int have[NC];
};

/* the module's counters read around each phase (module/names.h) */
enum {
	M_SUCCESS, M_ABORT, M_RETRY, M_USER, M_ABANDONED, M_MAJOR, M_FRETRY,
	M_FRETRY_FILE, M_FRETRY_SWAP, M_KEPT, M_FALLBACK, M_FB_FILE, M_FB_SWAP,
	M_READ_ACQ, M_READ_TRY, M_WRITE_ACQ, M_WRITE_TRY, M_NMISSED, M_TABLE_FULL, NM
};
static const char *const mname[NM] = {
	"vma_lock_success", "vma_lock_abort", "vma_lock_retry", "user_faults",
	"faults_abandoned", "major_faults", "fault_retry", "fault_retry_file_io",
	"fault_retry_swap_io", "retry_kept_vma_lock", "mmap_lock_fallback",
	"fallback_after_file_io", "fallback_after_swap_io",
	"mmap_lock_read_acquire", "mmap_lock_read_trylock", "mmap_lock_write_acquire",
	"mmap_lock_write_trylock", "probe_nmissed", "state_table_full",
};

struct msnap {
	unsigned long v[NM];
	int have[NM];
	unsigned long minflt, majflt;
	unsigned long tp[NTP], tp_overrun[NTP];	/* tracefs: read, write, other */
};

static int with_module;	/* the phases read the module's counters too */
static int swap_on;
static int have_tracefs;	/* tracefs counts the mmap_lock events */

#define TRACEFS "/sys/kernel/tracing"
/* the buffers: the init's read acquisitions (top), its write ones
 * (instance "w"), other tasks' (instance "o") */
static const char *const tp_dir[NTP] = {
	TRACEFS, TRACEFS "/instances/w", TRACEFS "/instances/o"
};

/* write S to the file PATH; 0 or -1 */
static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* the file PATH into BUF (SIZE bytes with the NUL); 0, or -1 if empty */
static int slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* tracefs mounted, both buffers filtered and on; prints why not */
static void tracefs_setup(void)
{
	static const char *const filter[NTP] = {
		"write==0 && success==1 && common_pid==1",
		"write==1 && success==1 && common_pid==1",
		"success==1 && common_pid!=1",
	};
	char path[128];
	int i;

	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL) ||
	    (mkdir(tp_dir[1], 0755) && errno != EEXIST) ||
	    (mkdir(tp_dir[2], 0755) && errno != EEXIST)) {
		printf("rs-archboot: tracefs: not available (errno %d)\n", errno);
		return;
	}
	for (i = 0; i < NTP; i++) {
		snprintf(path, sizeof(path), "%s/buffer_size_kb", tp_dir[i]);
		if (put(path, "4096"))
			goto fail;
		snprintf(path, sizeof(path), "%s/events/mmap_lock/mmap_lock_acquire_returned/filter", tp_dir[i]);
		if (put(path, filter[i]))
			goto fail;
		snprintf(path, sizeof(path), "%s/events/mmap_lock/mmap_lock_acquire_returned/enable", tp_dir[i]);
		if (put(path, "1"))
			goto fail;
	}
	have_tracefs = 1;
	return;
fail:
	printf("rs-archboot: tracefs: cannot set up %s (errno %d)\n", path, errno);
}

/* empty both buffers */
static void tracefs_clear(void)
{
	char path[128];
	int i;

	for (i = 0; i < NTP; i++) {
		snprintf(path, sizeof(path), "%s/trace", tp_dir[i]);
		put(path, "");
	}
}

/* buffer I's entries and overruns, summed over the CPUs' stats files */
static void tracefs_count(int i, unsigned long *entries, unsigned long *overrun)
{
	char path[128], buf[512], *p;
	int cpu;

	*entries = *overrun = 0;
	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tp_dir[i], cpu);
		if (slurp(path, buf, sizeof(buf)))
			continue;
		p = strstr(buf, "entries: ");
		if (p)
			*entries += strtoul(p + 9, NULL, 10);
		p = strstr(buf, "overrun: ");
		if (p)
			*overrun += strtoul(p + 9, NULL, 10);
	}
}

static void say(const char *s)
{
	write(1, s, strlen(s));
}

static void fatal(const char *what)
{
	printf("rs-archboot: error: %s (errno %d)\n", what, errno);
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	exit(1);
}

static int take(struct snap *s)
{
	int fd = open("/proc/vmstat", O_RDONLY);
	ssize_t n, len = 0;
	char *p, *line;
	int i;

	if (fd < 0)
		return -1;
	while ((n = read(fd, vmbuf + len, sizeof(vmbuf) - 1 - len)) > 0)
		len += n;
	close(fd);
	vmbuf[len] = 0;
	for (i = 0; i < NC; i++)
		s->have[i] = 0;
	for (line = vmbuf; line && *line; line = p) {
		p = strchr(line, '\n');
		if (p)
			*p++ = 0;
		for (i = 0; i < NC; i++) {
			size_t l = strlen(cname[i]);

			if (!strncmp(line, cname[i], l) && line[l] == ' ') {
				s->v[i] = strtoul(line + l + 1, NULL, 10);
				s->have[i] = 1;
			}
		}
	}
	return 0;
}

/* the module's counters and the process's faults; the counter files are
 * read before the rusage going in, after it coming out, so that nothing
 * but /proc and sysfs reads lies between them and /proc/vmstat's */
static void mtake(struct msnap *m, int out)
{
	char path[96], buf[32];
	struct rusage ru;
	int i;

	if (out)
		syscall(__NR_getrusage, RUSAGE_SELF, &ru);
	for (i = 0; i < NM; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/retryscope/counters/%s", mname[i]);
		m->have[i] = 0;
		if (slurp(path, buf, sizeof(buf)))
			continue;
		m->v[i] = strtoul(buf, NULL, 10);
		m->have[i] = 1;
	}
	if (!out)
		syscall(__NR_getrusage, RUSAGE_SELF, &ru);
	m->minflt = ru.ru_minflt;
	m->majflt = ru.ru_majflt;
}

struct phase {
	char name[32];
	struct snap a, b;
	struct msnap ma, mb;
	unsigned long pages, bad, maxretry, sampled;
	unsigned long hist[4]; /* accesses with 0, 1, 2, 3+ VMA-lock retries */
};

/* the phase's interval: the module's counters outside /proc/vmstat's */
static void phase_start(struct phase *ph)
{
	if (with_module && have_tracefs)
		tracefs_clear();
	if (with_module)
		mtake(&ph->ma, 0);
	take(&ph->a);
}

static void phase_end(struct phase *ph)
{
	int i;

	take(&ph->b);
	if (with_module)
		mtake(&ph->mb, 1);
	for (i = 0; with_module && have_tracefs && i < NTP; i++)
		tracefs_count(i, &ph->mb.tp[i], &ph->mb.tp_overrun[i]);
}

/* one access sampled on its own: the step of vma_lock_retry it made */
static void sample(struct phase *ph, struct snap *prev)
{
	struct snap now;
	unsigned long d;

	take(&now);
	d = now.v[C_RETRY] - prev->v[C_RETRY];
	if (d > ph->maxretry)
		ph->maxretry = d;
	ph->hist[d > 3 ? 3 : d]++;
	ph->sampled++;
	*prev = now;
}

static void report(struct phase *ph)
{
	int i;

	printf("rs-archboot: phase=%s pages=%lu bad=%lu sampled=%lu maxretry=%lu retries_hist=%lu,%lu,%lu,%lu",
	       ph->name, ph->pages, ph->bad, ph->sampled, ph->maxretry,
	       ph->hist[0], ph->hist[1], ph->hist[2], ph->hist[3]);
	for (i = 0; i < NC; i++) {
		if (ph->a.have[i] && ph->b.have[i])
			printf(" %s=%lu", cname[i], ph->b.v[i] - ph->a.v[i]);
		else
			printf(" %s=-", cname[i]);
	}
	if (with_module) {
		printf(" minflt=%lu majflt=%lu", ph->mb.minflt - ph->ma.minflt,
		       ph->mb.majflt - ph->ma.majflt);
		for (i = 0; i < NM; i++) {
			if (ph->ma.have[i] && ph->mb.have[i])
				printf(" m.%s=%lu", mname[i], ph->mb.v[i] - ph->ma.v[i]);
			else
				printf(" m.%s=-", mname[i]);
		}
		if (have_tracefs)
			printf(" tp_read=%lu tp_write=%lu tp_other=%lu tp_overrun=%lu",
			       ph->mb.tp[0], ph->mb.tp[1], ph->mb.tp[2],
			       ph->mb.tp_overrun[0] + ph->mb.tp_overrun[1] + ph->mb.tp_overrun[2]);
		else
			printf(" tp_read=- tp_write=- tp_other=- tp_overrun=-");
	}
	printf("\n");
}

/* the 16 bytes that begin the sector at byte offset off of the data disk */
static int sector_ok(const volatile char *p, unsigned long off)
{
	char want[32];
	int i;

	snprintf(want, sizeof(want), "rs-sector %08lu\n", off / 512);
	for (i = 0; i < 19; i++)
		if (p[i] != want[i])
			return 0;
	return 1;
}

static void file_phase(struct phase *ph, const char *dev, unsigned long off_mib,
		       unsigned long mib, int random)
{
	unsigned long len = mib << 20, off = off_mib << 20, i;
	struct snap prev;
	volatile char *m;
	int fd;

	fd = open(dev, O_RDONLY);
	if (fd < 0)
		fatal("open data disk");
	/* the disk's page cache dropped: every phase starts cold */
	if (ioctl(fd, BLKFLSBUF, 0))
		fatal("ioctl(BLKFLSBUF) on the data disk");
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	if (m == MAP_FAILED)
		fatal("mmap data disk");
	if (random && syscall(__NR_madvise, (void *)m, len, MADV_RANDOM_))
		fatal("madvise(MADV_RANDOM)");
	phase_start(ph);
	prev = ph->a;
	for (i = 0; i < len; i += psz) {
		if (!sector_ok(m + i, off + i))
			ph->bad++;
		ph->pages++;
		sample(ph, &prev);
	}
	phase_end(ph);
	munmap((void *)m, len);
	close(fd);
}

static unsigned long word(unsigned long page, unsigned long w)
{
	return (page * 2654435761UL) ^ (w * 40503UL) ^ 0x5a5a5a5aUL;
}

static unsigned long meminfo_kb(const char *key)
{
	char *p;

	if (slurp("/proc/meminfo", vmbuf, sizeof(vmbuf)))
		return 0;
	p = strstr(vmbuf, key);
	if (!p)
		return 0;
	p += strlen(key);
	while (*p == ' ' || *p == ':')
		p++;
	return strtoul(p, NULL, 10);
}

/* a version-1 swap header for this page size on the whole disk */
static void mkswap(const char *dev, unsigned long bytes)
{
	static char hdr[65536];
	unsigned int *info = (unsigned int *)(hdr + 1024);
	int fd;

	memset(hdr, 0, psz);
	info[0] = 1;				/* version */
	info[1] = bytes / psz - 1;		/* last_page */
	memcpy(hdr + psz - 10, "SWAPSPACE2", 10);
	fd = open(dev, O_WRONLY);
	if (fd < 0 || write(fd, hdr, psz) != psz || fsync(fd))
		fatal("write swap header");
	close(fd);
}

static void swap_phase(struct phase *ph, const char *dev, unsigned long devbytes)
{
	unsigned long total = meminfo_kb("MemTotal") << 10, len, np, i, w, nw = psz / sizeof(long);
	struct snap prev;
	unsigned long *m;

	if (!swap_on) {
		mkswap(dev, devbytes);
		if (syscall(__NR_swapon, dev, 0))
			fatal("swapon");
		swap_on = 1;
	}
	len = (total + total / 2) / psz * psz;
	np = len / psz;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		fatal("mmap anonymous");
	for (i = 0; i < np; i++)
		for (w = 0; w < nw; w++)
			m[i * nw + w] = word(i, w);
	if (syscall(__NR_madvise, m, len, MADV_PAGEOUT_))
		printf("rs-archboot: madvise(MADV_PAGEOUT) failed (errno %d): memory pressure only\n", errno);
	phase_start(ph);
	prev = ph->a;
	for (i = 0; i < np; i++) {
		int ok = 1;

		for (w = 0; w < nw; w++)
			if (m[i * nw + w] != word(i, w))
				ok = 0;
		ph->bad += !ok;
		ph->pages++;
		if (i < SWAP_SAMPLED)
			sample(ph, &prev);
	}
	phase_end(ph);
	munmap(m, len);
}

/* the virtio disks: vda.. in /dev; the data disk is the one whose first
 * sector is the pattern's (virtio-mmio enumerates in reverse order) */
static void find_disks(char *data, char *swap, unsigned long *swapbytes)
{
	char dev[16], buf[32];
	int c, fd, found = 0;

	for (c = 'a'; c <= 'd'; c++) {
		snprintf(dev, sizeof(dev), "/dev/vd%c", c);
		fd = open(dev, O_RDONLY);
		if (fd < 0)
			continue;
		if (read(fd, buf, 19) == 19 && sector_ok(buf, 0)) {
			strcpy(data, dev);
			found |= 1;
		} else {
			strcpy(swap, dev);
			*swapbytes = lseek(fd, 0, SEEK_END);
			found |= 2;
		}
		close(fd);
	}
	if (found != 3)
		fatal("need two virtio disks, the data disk and the swap disk");
}

/*
 * The kernel log since the last call, then cleared: its retryscope lines and
 * every warning or worse (a WARN's splat is KERN_WARNING), for the result
 * block.  The console itself shows errors and worse only during the module
 * runs: a printk that reaches the console while the init writes a line
 * splits the line.
 */
static void klog(void)
{
	char *line, *p;
	long n;

	n = syscall(__NR_syslog, 4 /* SYSLOG_ACTION_READ_CLEAR */, vmbuf, sizeof(vmbuf) - 1);
	if (n < 0) {
		printf("rs-archboot: klog: syslog() failed (errno %d)\n", errno);
		return;
	}
	vmbuf[n] = 0;
	for (line = vmbuf; *line; line = p) {
		p = strchr(line, '\n');
		if (p)
			*p++ = 0;
		else
			p = line + strlen(line);
		if (strstr(line, "retryscope:") || strstr(line, "[retryscope]") ||
		    (line[0] == '<' && line[1] >= '0' && line[1] <= '4' && line[2] == '>'))
			printf("rs-archboot: klog %s\n", line);
	}
}

/* the three phases, named NAME@SUFFIX when SUFFIX, and their lines */
static void phases(const char *suffix, const char *data, const char *swap,
		   unsigned long swapbytes)
{
	static struct phase ph[3];
	static const char *const names[3] = { "readahead", "random", "swap" };
	int i;

	for (i = 0; i < 3; i++) {
		memset(&ph[i], 0, sizeof(ph[i]));
		snprintf(ph[i].name, sizeof(ph[i].name), "%s%s%s", names[i],
			 suffix ? "@" : "", suffix ? suffix : "");
	}
	file_phase(&ph[0], data, RA_OFF_MIB, RA_MIB, 0);
	file_phase(&ph[1], data, RND_OFF_MIB, RND_MIB, 1);
	swap_phase(&ph[2], swap, swapbytes);
	for (i = 0; i < 3; i++)
		report(&ph[i]);
}

/* retryscope.ko loaded with each backend in turn, the phases run under it */
static void module_runs(const char *data, const char *swap, unsigned long swapbytes)
{
	static const char *const backends[] = { "auto", "kprobe", "fprobe" };
	char params[32];
	unsigned int b;
	int fd;

	syscall(__NR_syslog, 8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 4);
	tracefs_setup();
	klog();
	for (b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
		fd = open("/retryscope.ko", O_RDONLY);
		if (fd < 0)
			fatal("open /retryscope.ko");
		snprintf(params, sizeof(params), "backend=%s", backends[b]);
		if (syscall(__NR_finit_module, fd, params, 0)) {
			printf("rs-archboot: module backend=%s refused errno=%d\n", backends[b], errno);
			close(fd);
			klog();
			continue;
		}
		close(fd);
		printf("rs-archboot: module backend=%s loaded\n", backends[b]);
		klog();
		with_module = 1;
		phases(backends[b], data, swap, swapbytes);
		with_module = 0;
		if (syscall(__NR_delete_module, "retryscope", O_NONBLOCK))
			fatal("delete_module(retryscope)");
		klog();
	}
}

int main(void)
{
	char data[16], swap[16];
	unsigned long swapbytes = 0, sp;
	struct utsname u;
	struct snap s;
	int ko;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		fatal("mount devtmpfs");
	psz = getpagesize();
	/*
	 * The buffer that read() fills and this stack stay resident: under
	 * the swap phase's memory pressure a copy_to_user() into a swapped-out
	 * page would be a kernel-mode fault, which every arch handles under
	 * mmap_lock, and would count as a fallback of the workload.  Every
	 * other page mapped now stays too (MCL_CURRENT, not the phases'
	 * mappings): no fault of the init's own between a phase's counter
	 * reads.
	 */
	sp = (unsigned long)&u;
	if (syscall(__NR_mlock, vmbuf, sizeof(vmbuf)) ||
	    syscall(__NR_mlock, (sp - 32768) & ~(psz - 1), ((sp + psz) & ~(psz - 1)) - ((sp - 32768) & ~(psz - 1))) ||
	    syscall(__NR_mlockall, MCL_CURRENT))
		fatal("mlock (the stack's 32 KiB below main(), the /proc buffer, then mlockall)");
	if (take(&s) || !s.have[C_RETRY])
		fatal("no vma_lock_retry in /proc/vmstat (CONFIG_PER_VMA_LOCK_STATS)");
	find_disks(data, swap, &swapbytes);
	uname(&u);
	ko = open("/retryscope.ko", O_RDONLY);
	if (ko >= 0)
		close(ko);
	say("rs-archboot: start\n");
	say("rs-archboot: begin\n");
	printf("rs-archboot: phase=boot kernel=%s machine=%s pagesize=%ld memtotal_kb=%lu data=%s swap=%s module=%s\n",
	       u.release, u.machine, psz, meminfo_kb("MemTotal"), data, swap,
	       ko >= 0 ? "yes" : "no");
	phases(NULL, data, swap, swapbytes);
	if (ko >= 0)
		module_runs(data, swap, swapbytes);
	say("rs-archboot: end\n");
	syscall(__NR_sync);
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rs-kselftest: the init of scripts/arch-selftests' guests (issue 32): it
 * runs the kernel's mm selftests (static binaries from scripts/build-selftests
 * --arch) one at a time on a scripts/boot-arches kernel, which has no shell
 * or libc of its own.  Built like rs-archboot, against the kernel's nolibc:
 *
 *   CC -std=c11 -Wall -Wextra -Werror -static -nostdlib -nostdinc \
 *      -isystem SYSROOT/include -include nolibc.h rs-kselftest.c -lgcc
 *
 * The initramfs holds the tests in /t and /t/list, one line per test in the
 * order to run: "NAME[ ARG...]" (the arguments run_vmtests.sh gives).  The
 * kernel command line's rs.from=N starts at the list's Nth test (0: the
 * first): the host boots again after a guest that died in a test.  The init
 * mounts proc, sysfs, devtmpfs (and tmpfs, debugfs, hugetlbfs where the
 * kernel has them), turns on swap on the virtio disk (/dev/vda, written with
 * a swap header) and for each test:
 *
 *   - prints "rs-kselftest: run N NAME";
 *   - runs /t/NAME in its own process group from a fresh directory
 *     /tmp/ks/NAME (a link to the binary in it, as run_vmtests.sh runs them
 *     from their directory), stdin /dev/null, output to a file; SIGTERM to
 *     the group after TIMEOUT seconds (rs.timeout=, default 120), SIGKILL 10
 *     s later (busybox timeout -k 10, as scripts/guest/selftests.sh);
 *     on-fault-limit runs as nobody (it skips as root);
 *   - kills what is left of the group and reaps every child;
 *   - prints the output between "rs-kselftest: log-begin NAME" and
 *     "rs-kselftest: log-end NAME", the kernel log the test caused (read
 *     from /dev/kmsg) as "rs-kselftest: dmesg ..." lines, and
 *     "rs-kselftest: result NAME rc=RC secs=S timedout=0|1"
 *     (RC: the exit code, 128+N for signal N);
 *   - or, for a test that is not one or whose setup is missing (as
 *     scripts/guest/selftests.sh's notrun()),
 *     "rs-kselftest: notrun NAME: WHY".
 *
 * Then "rs-kselftest: done" and it powers off.
 */
#include <linux/reboot.h>

#define LOG_MAX_LINES 3000

static char list[8192];
static char logbuf[1 << 20];
static int kmsg = -1;

static void say(const char *s)
{
	write(1, s, strlen(s));
}

static void power_off(void)
{
	syscall(__NR_sync);
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	exit(0);
}

static void fatal(const char *what)
{
	printf("rs-kselftest: error: %s (errno %d)\n", what, errno);
	power_off();
}

/* read a small file into buf; its length, or -1 */
static long slurp(const char *path, char *to, long size)
{
	long len = 0, n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, to + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	to[len] = 0;
	return len;
}

static void put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		write(fd, s, strlen(s));
		close(fd);
	}
}

/* the value of KEY= on the kernel command line, or def */
static long cmdline_num(const char *key, long def)
{
	static char cl[4096];
	char *p;

	if (slurp("/proc/cmdline", cl, sizeof(cl)) < 0)
		return def;
	p = strstr(cl, key);
	if (!p)
		return def;
	return strtol(p + strlen(key), NULL, 10);
}

/* a version-1 swap header on the whole disk, and swapon */
static void swap_on(const char *dev)
{
	static char hdr[65536];
	unsigned int *info = (unsigned int *)(hdr + 1024);
	long psz = getpagesize();
	off_t bytes;
	int fd;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		printf("rs-kselftest: no swap (%s: errno %d)\n", dev, errno);
		return;
	}
	bytes = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	memset(hdr, 0, psz);
	info[0] = 1;
	info[1] = bytes / psz - 1;
	memcpy(hdr + psz - 10, "SWAPSPACE2", 10);
	if (write(fd, hdr, psz) != psz || fsync(fd))
		printf("rs-kselftest: cannot write the swap header (errno %d)\n", errno);
	close(fd);
	if (syscall(__NR_swapon, dev, 0))
		printf("rs-kselftest: swapon %s failed (errno %d)\n", dev, errno);
	else
		printf("rs-kselftest: swap on %s, %ld MiB\n", dev, (long)(bytes >> 20));
}

/* what scripts/guest/selftests.sh sets up before its tests, where the
 * kernel has it: every step may fail, and the tests that need it skip */
static void setup(void)
{
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		fatal("mount devtmpfs");
	mkdir("/tmp", 01777);
	if (mount("tmpfs", "/tmp", "tmpfs", 0, NULL))
		say("rs-kselftest: no tmpfs: the tests run on the initramfs (ramfs)\n");
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mkdir("/dev/hugepages", 0755);
	mount("none", "/dev/hugepages", "hugetlbfs", 0, NULL);
	put("/proc/sys/vm/nr_hugepages", "64\n");
	put("/proc/sys/kernel/panic_on_oops", "0\n");
	mkdir("/tmp/ks", 0755);
	chmod("/", 0755);
	swap_on("/dev/vda");
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
}

/* why NAME is not run here, or NULL (scripts/guest/selftests.sh's notrun) */
static const char *notrun(const char *name)
{
	struct stat st;

	if (!strcmp(name, "write_to_hugetlbfs"))
		return "a helper of charge_reserved_hugetlb.sh, not a test";
	if (!strcmp(name, "hmm-tests") && stat("/dev/hmm_dmirror0", &st))
		return "no /dev/hmm_dmirror0: needs the test_hmm module (CONFIG_TEST_HMM), as test_hmm.sh does";
	if (!strcmp(name, "memory-failure") && stat("/sys/kernel/debug/hwpoison", &st))
		return "no /sys/kernel/debug/hwpoison (CONFIG_HWPOISON_INJECT), as run_vmtests.sh skips it";
	return NULL;
}

/* the kernel log since the last call, as "rs-kselftest: dmesg" lines */
static void dmesg(void)
{
	static char rec[2048];
	ssize_t n;
	char *msg;

	if (kmsg < 0)
		return;
	for (;;) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (rec[n - 1] == '\n')
			rec[n - 1] = 0;
		printf("rs-kselftest: dmesg %s\n", msg);
	}
}

/* the test's output, at most LOG_MAX_LINES lines */
static void print_log(const char *name, const char *path)
{
	long len = slurp(path, logbuf, sizeof(logbuf)), lines = 0, i, start = 0;

	printf("rs-kselftest: log-begin %s\n", name);
	for (i = 0; i < len && lines < LOG_MAX_LINES; i++) {
		if (logbuf[i] != '\n')
			continue;
		write(1, logbuf + start, i + 1 - start);
		start = i + 1;
		lines++;
	}
	if (lines < LOG_MAX_LINES && start < len) {
		write(1, logbuf + start, len - start);
		say("\n");
	}
	if (lines >= LOG_MAX_LINES)
		printf("rs-kselftest: log cut after %d lines\n", LOG_MAX_LINES);
	if (len == (long)sizeof(logbuf) - 1)
		printf("rs-kselftest: log cut after %ld bytes\n", len);
	printf("rs-kselftest: log-end %s\n", name);
}

static void child(const char *name, char **argv, const char *cwd, const char *log)
{
	static char *envp[] = { "PATH=/t:/bin", "HOME=/", "TERM=dumb", NULL };
	int fd;

	setpgid(0, 0);
	if (chdir(cwd))
		_exit(126);
	fd = open("/dev/null", O_RDONLY);
	dup2(fd, 0);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	dup2(fd, 2);
	if (!strcmp(name, "on-fault-limit")) {
		/* it tests RLIMIT_MEMLOCK and skips as root */
		syscall(__NR_setgid, 65534);
		syscall(__NR_setuid, 65534);
	}
	execve(argv[0], argv, envp);
	printf("rs-kselftest: exec %s: errno %d\n", argv[0], errno);
	_exit(127);
}

/* run one test; its exit code (128+N for signal N) */
static int run(const char *name, char **argv, long tmo, long *secs, int *timedout)
{
	char cwd[256], log[300], link[300];
	time_t t0 = time(NULL), el;
	int st = 0, sent = 0;
	pid_t pid, w;

	snprintf(cwd, sizeof(cwd), "/tmp/ks/%s", name);
	snprintf(log, sizeof(log), "/tmp/ks/%s.log", name);
	snprintf(link, sizeof(link), "%s/%s", cwd, name);
	mkdir(cwd, 0777);
	chmod(cwd, 0777);
	symlink(argv[0], link);
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (pid == 0)
		child(name, argv, cwd, log);
	setpgid(pid, pid);
	*timedout = 0;
	for (;;) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		el = time(NULL) - t0;
		if (!sent && el >= tmo) {
			kill(-pid, SIGTERM);
			sent = 1;
			*timedout = 1;
		} else if (sent == 1 && el >= tmo + 10) {
			kill(-pid, SIGKILL);
			sent = 2;
		}
		usleep(100000);
	}
	*secs = time(NULL) - t0;
	kill(-pid, SIGKILL);	/* what it left running */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	print_log(name, log);
	unlink(log);
	unlink(link);
	return (st & 0x7f) ? 128 + (st & 0x7f) : (st >> 8) & 0xff;
}

/* split a list line into argv ("/t/NAME", ARG...) */
static int split(char *line, char **argv, int max, char *path, size_t psize)
{
	int n = 0;
	char *p = line;

	while (*p && n < max - 1) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		argv[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	argv[n] = NULL;
	if (!n)
		return 0;
	snprintf(path, psize, "/t/%s", argv[0]);
	argv[0] = path;
	return n;
}

int main(void)
{
	long from, tmo, secs, i = 0;
	char *line, *next, *argv[16], path[256];
	const char *why, *name;
	int rc, timedout;
	struct utsname u;

	setup();
	from = cmdline_num("rs.from=", 0);
	tmo = cmdline_num("rs.timeout=", 120);
	uname(&u);
	printf("rs-kselftest: start kernel=%s machine=%s pagesize=%d from=%ld timeout=%ld\n",
	       u.release, u.machine, getpagesize(), from, tmo);
	if (slurp("/t/list", list, sizeof(list)) < 0)
		fatal("no /t/list");
	for (line = list; line && *line; line = next, i++) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (!split(line, argv, 16, path, sizeof(path)) || i < from)
			continue;
		name = path + 3;
		dmesg();	/* what came between two tests: before the next */
		printf("rs-kselftest: run %ld %s\n", i, name);
		why = notrun(name);
		if (why) {
			printf("rs-kselftest: notrun %s: %s\n", name, why);
			continue;
		}
		rc = run(name, argv, tmo, &secs, &timedout);
		dmesg();
		printf("rs-kselftest: result %s rc=%d secs=%ld timedout=%d\n", name, rc, secs, timedout);
	}
	say("rs-kselftest: done\n");
	power_off();
	return 0;
}

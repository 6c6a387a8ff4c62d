// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - option table, --help/--list text, parsing and validation.
 *
 * One table (optdefs[]) drives getopt_long(), the help text and the check
 * that an option applies to the chosen scenario.  Every error is one line
 * on stderr and exit status 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opts.h"
#include "parse.h"
#include "util.h"

#define DEFAULT_FILE	"/mnt/disk/data.bin"
#define MAX_THREADS	1024
#define MAX_DURATION	3600.0
#define MAX_SIZE	(64ull << 30)
#define MAX_PASSES	1000000ull

enum opt_id {
	O_THREADS, O_DURATION, O_PASSES, O_FILE, O_SIZE, O_SWAP_SIZE,
	O_SWAP_THREADS, O_JSON, O_SEED, O_DROP, O_NO_DROP, O_MADV, O_ORDER,
	O_KIND, O_FORK_INTERVAL, O_HI_PAGES, O_HI_INTERVAL, O_WRITER_SIZE,
	O_WRITER_PAUSE, O_CPU_THREADS, O_IDLE_THREADS, O_VMAS, O_READ_AHEAD_KB, O_MEMCG_MAX, O_MEMCG_SWAP_MAX, O_QUIET, O_HELP, O_LIST,
	O_COUNT
};

#define GIVEN(o, id)	(((o)->given >> (id)) & 1)

#define S_FILEIO	(SC_BIT(SC_FILE_MAJOR) | SC_BIT(SC_CONTENDED) | \
			 SC_BIT(SC_UI_INVERSION) | SC_BIT(SC_SAME_PAGES) | \
			 SC_BIT(SC_FORK_DURING_IO) | SC_BIT(SC_THRASH) | \
			 SC_BIT(SC_FORK_AT_SCALE) | SC_BIT(SC_VMA_CHURN) | \
			 SC_BIT(SC_APP_START))
#define S_PASSES	(SC_BIT(SC_FILE_MAJOR) | SC_BIT(SC_SWAP_IN) | \
			 SC_BIT(SC_CONTENDED) | SC_BIT(SC_SAME_PAGES) | \
			 SC_BIT(SC_MINOR) | SC_BIT(SC_THRASH) | SC_BIT(SC_VMA_CHURN) | \
			 SC_BIT(SC_APP_START))
#define S_WRITER	(SC_BIT(SC_CONTENDED) | SC_BIT(SC_UI_INVERSION) | \
			 SC_BIT(SC_VMA_CHURN) | SC_BIT(SC_SWAP_WRITEBACK))
#define S_SWAP		(SC_BIT(SC_CONTENDED) | SC_BIT(SC_UI_INVERSION) | \
			 SC_BIT(SC_FORK_AT_SCALE))
#define S_FORK		(SC_BIT(SC_FORK_DURING_IO) | SC_BIT(SC_FORK_AT_SCALE))
#define S_NONE		0u

static const struct optdef {
	const char *name;
	const char *arg;	/* NULL: a flag */
	unsigned int scenarios;	/* where it applies */
	const char *help;
} optdefs[O_COUNT] = {
	[O_THREADS] = { "threads", "N", SC_ALL,
		"threads of the scenario's main class (fl-io,\n"
		"fl-swap, fl-same or fl-minor), 1..1024" },
	[O_DURATION] = { "duration", "SEC", SC_ALL,
		"length of the measured phase, fractions allowed,\n"
		"max 3600; a cap when --passes is given too;\n"
		"--passes alone lifts the default to 3600" },
	[O_PASSES] = { "passes", "N", S_PASSES,
		"passes over the pages per thread (minor: mmap\n"
		"cycles), then stop; pages are made cold again\n"
		"between passes (default: until --duration)" },
	[O_FILE] = { "file", "PATH", S_FILEIO | SC_BIT(SC_MINOR),
		"the pre-made file to map (minor: --kind file)\n"
		"(default " DEFAULT_FILE ")" },
	[O_SIZE] = { "size", "BYTES", SC_ALL,
		"bytes to map and touch, K/M/G suffix allowed:\n"
		"the first BYTES of --file (default clamped to\n"
		"the file), swap-in/minor anon: anonymous memory" },
	[O_SWAP_SIZE] = { "swap-size", "BYTES", S_SWAP,
		"anonymous memory pushed to swap (default 32M)" },
	[O_SWAP_THREADS] = { "swap-threads", "N", S_SWAP,
		"fl-swap threads (default 2; 0: no swap part)" },
	[O_JSON] = { "json", "PATH", SC_ALL,
		"write the JSON result to PATH (default -: stdout)" },
	[O_SEED] = { "seed", "N", SC_ALL,
		"seed of --order random and of the swap page\n"
		"contents (default 1)" },
	[O_DROP] = { "drop-caches", NULL, S_FILEIO,
		"cold page cache (default): write 3 to\n"
		"/proc/sys/vm/drop_caches (needs root; else a\n"
		"warning) and posix_fadvise(DONTNEED) the file" },
	[O_NO_DROP] = { "no-drop-caches", NULL, S_FILEIO,
		"leave the page cache alone, between passes too\n"
		"(PTEs are still zapped: touches fault, minor)" },
	[O_MADV] = { "madv", "ADV", S_FILEIO | SC_BIT(SC_MINOR),
		"madvise() of the file mapping: normal (default,\n"
		"readahead on), random or sequential" },
	[O_ORDER] = { "order", "seq|random", SC_ALL & ~SC_BIT(SC_MINOR),
		"page order in a thread's range (default seq);\n"
		"random: a --seed shuffle (same-pages: shared)" },
	[O_KIND] = { "kind", "anon|file", SC_BIT(SC_MINOR),
		"anonymous memory (default) or cached file pages" },
	[O_FORK_INTERVAL] = { "fork-interval", "MS", S_FORK,
		"milliseconds between fork() calls (default 50)" },
	[O_HI_PAGES] = { "hi-pages", "N", SC_BIT(SC_UI_INVERSION) | SC_BIT(SC_APP_START),
		"pages fl-hi maps fresh and touches per frame\n"
		"(default 16)" },
	[O_HI_INTERVAL] = { "hi-interval", "MS", SC_BIT(SC_UI_INVERSION) | SC_BIT(SC_APP_START),
		"fl-hi sleep between frames, ms (default 4)" },
	[O_WRITER_SIZE] = { "writer-size", "BYTES", S_WRITER,
		"size of the fl-writer's VMA (default 64K;\n"
		"ui-inversion: the part it mprotect()s)" },
	[O_WRITER_PAUSE] = { "writer-pause", "MS", S_WRITER,
		"fl-writer sleep between cycles, ms (default 0)" },
	[O_CPU_THREADS] = { "cpu-threads", "N", SC_BIT(SC_UI_INVERSION),
		"fl-cpu spinners at nice 0 (default: one per\n"
		"online CPU; 0: none)" },
	[O_IDLE_THREADS] = { "idle-threads", "N", SC_BIT(SC_FORK_AT_SCALE),
		"fl-idle threads that only sleep, as most of\n"
		"a large app's do (default 240)" },
	[O_VMAS] = { "vmas", "N", SC_BIT(SC_FORK_AT_SCALE),
		"extra one-page VMAs, unmergeable, 0..60000\n"
		"(default 4000; vm.max_map_count bounds it)" },
	[O_READ_AHEAD_KB] = { "read-ahead-kb", "KB", S_FILEIO,
		"read_ahead_kb of --file's block device for the\n"
		"run, restored after (phones: 128-512; default:\n"
		"left as it is); JSON setup.read_ahead_kb" },
	[O_MEMCG_MAX] = { "memcg-max", "BYTES", SC_ALL,
		"run in a child cgroup v2 with this memory.max\n"
		"(memory pressure: pages reclaimed mid-run)" },
	[O_MEMCG_SWAP_MAX] = { "memcg-swap-max", "BYTES", SC_ALL,
		"that cgroup's memory.swap.max (0: nothing of\n"
		"it is swapped, page cache alone is reclaimed);\n"
		"needs --memcg-max" },
	[O_QUIET] = { "quiet", NULL, SC_ALL,
		"no summary lines on stderr" },
	[O_HELP] = { "help", NULL, S_NONE, "this text" },
	[O_LIST] = { "list", NULL, S_NONE, "the scenarios, one per line" },
};

static void print_help(FILE *f)
{
	const struct fl_scenario *sc;
	char buf[64];
	const char *p, *nl, *sep;
	int i, j;

	fprintf(f,
		"usage: " FL_NAME " SCENARIO [options]\n"
		"       " FL_NAME " --help | --list\n"
		"\n"
		"Generates page faults that must wait for I/O (file readahead,\n"
		"swap-in) so that VM_FAULT_RETRY and its fallback to mmap_lock\n"
		"can be measured, and writes per-class latency histograms and\n"
		"fault counts as JSON.  Exit status: 0 ok, 1 the run failed,\n"
		"2 bad usage.\n\nScenarios (defaults: threads, size, duration):\n");
	for (i = 0; (sc = fl_scenarios[i]); i++) {
		fprintf(f, "\n%s: %s\n", sc->name, sc->summary);
		fprintf(f, "%s", sc->help);
		fprintf(f, "  defaults: --threads %u --size %lluM --duration %g",
			sc->def.threads,
			(unsigned long long)(sc->def.size >> 20),
			sc->def.duration);
		if (sc->def.passes)
			fprintf(f, " --passes %llu",
				(unsigned long long)sc->def.passes);
		fprintf(f, "\n");
	}
	fprintf(f, "\nOptions:\n");
	for (i = 0; i < O_COUNT; i++) {
		const struct optdef *d = &optdefs[i];

		snprintf(buf, sizeof(buf), "--%s%s%s", d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(f, "  %-22s ", buf);
		for (p = d->help; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			fprintf(f, "%*s%.*s\n", p == d->help ? 0 : 25, "",
				nl ? (int)(nl - p) : (int)strlen(p), p);
		}
		if (d->scenarios == SC_ALL || d->scenarios == S_NONE)
			continue;
		fprintf(f, "%*s[", 25, "");
		for (j = 0, sep = ""; (sc = fl_scenarios[j]); j++) {
			if (!(d->scenarios & SC_BIT(sc->id)))
				continue;
			fprintf(f, "%s%s", sep, sc->name);
			sep = " ";
		}
		fprintf(f, "]\n");
	}
	fprintf(f,
		"\nThreads are named fl-io, fl-swap, fl-same, fl-minor, fl-hi,\n"
		"fl-writer, fl-cpu and fl-main (the main thread, which forks).\n");
}

static void print_list(FILE *f)
{
	int i;

	for (i = 0; fl_scenarios[i]; i++)
		fprintf(f, "%-16s %s\n", fl_scenarios[i]->name,
			fl_scenarios[i]->summary);
}

/* Each check prints its one line and returns FL_EXIT_USAGE. */
static int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_err(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", FL_NAME, buf);
	return FL_EXIT_USAGE;
}

static int get_uint(int id, const char *s, uint64_t lo, uint64_t hi,
		    uint64_t *out)
{
	if (fl_parse_u64(s, out))
		return usage_err("--%s: '%s' is not a whole number",
				 optdefs[id].name, s);
	if (*out < lo || *out > hi)
		return usage_err("--%s: must be between %llu and %llu, got %s",
				 optdefs[id].name, (unsigned long long)lo,
				 (unsigned long long)hi, s);
	return 0;
}

static int get_size(int id, const char *s, uint64_t *out)
{
	size_t psz = fl_page_size();

	if (fl_parse_size(s, out))
		return usage_err("--%s: '%s' is not a size (bytes with an optional K, M or G suffix)",
				 optdefs[id].name, s);
	if (*out < psz || *out > MAX_SIZE)
		return usage_err("--%s: must be between %zu bytes (a page) and 64G, got %s",
				 optdefs[id].name, psz, s);
	*out -= *out % psz;
	return 0;
}

/* --memcg-swap-max: 0 is the value that matters, so no get_size() floor. */
static int get_swap_max(const char *s, int64_t *out)
{
	uint64_t v;

	if (fl_parse_size(s, &v) || v > MAX_SIZE)
		return usage_err("--memcg-swap-max: '%s' is not a size from 0 to 64G (bytes with an optional K, M or G suffix)",
				 s);
	*out = (int64_t)v;
	return 0;
}

/* lo_open: whether lo itself is excluded (a positive number). */
static int get_double(int id, const char *s, double lo, int lo_open,
		      double hi, double *out)
{
	if (fl_parse_double(s, out))
		return usage_err("--%s: '%s' is not a number", optdefs[id].name, s);
	if (*out < lo || (lo_open && *out == lo) || *out > hi)
		return usage_err("--%s: must be %s %g and at most %g, got %s",
				 optdefs[id].name, lo_open ? "more than" : "at least",
				 lo, hi, s);
	return 0;
}

/* The options whose value is one of a few words. */
static int set_word(struct fl_opts *o, int id, const char *arg)
{
	switch (id) {
	case O_MADV:
		if (!strcmp(arg, "normal"))
			o->madv = MADV_NORMAL;
		else if (!strcmp(arg, "random"))
			o->madv = MADV_RANDOM;
		else if (!strcmp(arg, "sequential"))
			o->madv = MADV_SEQUENTIAL;
		else
			return usage_err("--madv: '%s' is not one of normal, random, sequential", arg);
		o->madv_name = arg;
		return 0;
	case O_ORDER:
		if (!strcmp(arg, "seq"))
			o->order = FL_ORDER_SEQ;
		else if (!strcmp(arg, "random"))
			o->order = FL_ORDER_RANDOM;
		else
			return usage_err("--order: '%s' is not one of seq, random", arg);
		return 0;
	case O_KIND:
		if (!strcmp(arg, "anon"))
			o->kind = FL_KIND_ANON;
		else if (!strcmp(arg, "file"))
			o->kind = FL_KIND_FILE;
		else
			return usage_err("--kind: '%s' is not one of anon, file", arg);
		return 0;
	}
	return usage_err("internal error: option id %d", id);
}

/* The options that are a count of threads, pages or VMAs. */
static int set_count(struct fl_opts *o, int id, const char *arg)
{
	static const struct {
		size_t off;
		uint64_t lo, hi;
	} counts[O_COUNT] = {
		[O_THREADS] = { offsetof(struct fl_opts, threads), 1, MAX_THREADS },
		[O_SWAP_THREADS] = { offsetof(struct fl_opts, swap_threads), 0, MAX_THREADS },
		[O_HI_PAGES] = { offsetof(struct fl_opts, hi_pages), 1, 65536 },
		[O_CPU_THREADS] = { offsetof(struct fl_opts, cpu_threads), 0, MAX_THREADS },
		[O_IDLE_THREADS] = { offsetof(struct fl_opts, idle_threads), 0, MAX_THREADS },
		[O_VMAS] = { offsetof(struct fl_opts, vmas), 0, 60000 },
	};
	uint64_t v;
	int ret = get_uint(id, arg, counts[id].lo, counts[id].hi, &v);

	if (!ret)
		*(unsigned int *)((char *)o + counts[id].off) = (unsigned int)v;
	return ret;
}

static int set_value(struct fl_opts *o, int id, const char *arg)
{
	uint64_t v;
	int ret;

	switch (id) {
	case O_DURATION:
		return get_double(id, arg, 0, 1, MAX_DURATION, &o->duration);
	case O_PASSES:
		return get_uint(id, arg, 1, MAX_PASSES, &o->passes);
	case O_FILE:
		if (!*arg)
			return usage_err("--file: empty path");
		o->file = arg;
		return 0;
	case O_SIZE:
		o->size_arg = arg;
		return get_size(id, arg, &o->size);
	case O_SWAP_SIZE:
		return get_size(id, arg, &o->swap_size);
	case O_JSON:
		if (!*arg)
			return usage_err("--json: empty path");
		o->json = arg;
		return 0;
	case O_SEED:
		return get_uint(id, arg, 0, UINT64_MAX, &o->seed);
	case O_DROP:
		o->drop_caches = 1;
		return 0;
	case O_NO_DROP:
		o->drop_caches = 0;
		return 0;
	case O_MADV:
	case O_ORDER:
	case O_KIND:
		return set_word(o, id, arg);
	case O_FORK_INTERVAL:
		return get_double(id, arg, 0, 1, 60000, &o->fork_interval_ms);
	case O_HI_INTERVAL:
		return get_double(id, arg, 0, 1, 10000, &o->hi_interval_ms);
	case O_MEMCG_MAX:
		ret = get_size(id, arg, &o->memcg_max);
		if (!ret && o->memcg_max < (1ull << 20))
			return usage_err("--memcg-max: at least 1M (the process itself needs it), got %s", arg);
		return ret;
	case O_MEMCG_SWAP_MAX:
		return get_swap_max(arg, &o->memcg_swap_max);
	case O_WRITER_SIZE:
		ret = get_size(id, arg, &o->writer_size);
		if (!ret && o->writer_size > (1ull << 30))
			return usage_err("--writer-size: must be between a page and 1G, got %s", arg);
		return ret;
	case O_WRITER_PAUSE:
		return get_double(id, arg, 0, 0, 10000, &o->writer_pause_ms);
	case O_THREADS:
	case O_SWAP_THREADS:
	case O_HI_PAGES:
	case O_CPU_THREADS:
	case O_IDLE_THREADS:
	case O_VMAS:
		return set_count(o, id, arg);
	case O_READ_AHEAD_KB:
		ret = get_uint(id, arg, 0, 1u << 20, &v);
		o->read_ahead_kb = (long)v;
		return ret;
	case O_QUIET:
		o->quiet = 1;
		return 0;
	}
	return usage_err("internal error: option id %d", id);
}

int fl_opt_applies(const struct fl_opts *o, const char *name)
{
	int i;

	for (i = 0; i < O_COUNT; i++) {
		if (strcmp(optdefs[i].name, name))
			continue;
		if (!(optdefs[i].scenarios & SC_BIT(o->sc->id)))
			return 0;
		if (o->sc->id == SC_MINOR && o->kind != FL_KIND_FILE &&
		    (i == O_FILE || i == O_MADV))
			return 0;
		return 1;
	}
	return 0;
}

static void set_defaults(struct fl_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->duration = 0;
	o->file = DEFAULT_FILE;
	o->swap_size = 32ull << 20;
	o->swap_threads = 2;
	o->memcg_swap_max = -1;
	o->json = "-";
	o->seed = 1;
	o->drop_caches = 1;
	o->madv = MADV_NORMAL;
	o->madv_name = "normal";
	o->order = FL_ORDER_SEQ;
	o->kind = FL_KIND_ANON;
	o->fork_interval_ms = 50;
	o->hi_pages = 16;
	o->hi_interval_ms = 4;
	o->writer_size = 64ull << 10;
	o->writer_pause_ms = 0;
	o->idle_threads = 240;
	o->vmas = 4000;
	o->read_ahead_kb = -1;
	o->fd = -1;
}

/* Open --file, check it and fit --size to it. */
static int open_file(struct fl_opts *o)
{
	struct stat st;
	size_t psz = fl_page_size();

	o->fd = open(o->file, O_RDONLY | O_CLOEXEC);
	if (o->fd < 0)
		return usage_err("--file %s: %s", o->file, strerror(errno));
	if (fstat(o->fd, &st))
		return usage_err("--file %s: fstat: %s", o->file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return usage_err("--file %s: not a regular file", o->file);
	o->file_size = (uint64_t)st.st_size;
	if (o->file_size < psz)
		return usage_err("--file %s: %llu bytes, less than one page",
				 o->file, (unsigned long long)o->file_size);
	if (o->size > o->file_size) {
		if (GIVEN(o, O_SIZE))
			return usage_err("--size %s is larger than --file %s (%llu bytes)",
					 o->size_arg, o->file,
					 (unsigned long long)o->file_size);
		o->size = o->file_size - o->file_size % psz;
	}
	return 0;
}

static int check_slices(const char *what, uint64_t size, const char *twhat,
			unsigned int threads)
{
	uint64_t pages = size / fl_page_size();

	if (threads && pages < threads)
		return usage_err("%s gives %llu pages, fewer than %s %u: every thread needs a page",
				 what, (unsigned long long)pages, twhat, threads);
	return 0;
}

/*
 * The getopt loop: sets every option given and *scname; --help and --list
 * print and set *exit_now.  0, or FL_EXIT_USAGE after a message.
 */
static int read_args(struct fl_opts *o, int argc, char **argv,
		     const char **scname, int *exit_now)
{
	struct option lopts[O_COUNT + 1];
	int i, c, ret;

	for (i = 0; i < O_COUNT; i++) {
		lopts[i] = (struct option){ optdefs[i].name,
			optdefs[i].arg ? required_argument : no_argument,
			NULL, 256 + i };
	}
	lopts[O_COUNT] = (struct option){ 0 };

	opterr = 0;
	optind = 1;
	/* "-" first: non-options come back in order, as 1 */
	while ((c = getopt_long(argc, argv, "-:h", lopts, NULL)) != -1) {
		if (c == 1) {
			if (*scname)
				return usage_err("unexpected argument '%s' (one scenario only; see " FL_NAME " --help)",
						 optarg);
			*scname = optarg;
			continue;
		}
		if (c == 'h')
			c = 256 + O_HELP;
		if (c == ':')
			return usage_err("option '%s' needs a value (see " FL_NAME " --help)",
					 argv[optind - 1]);
		if (c == '?' || c < 256 || c >= 256 + O_COUNT)
			return usage_err("unknown option '%s' (see " FL_NAME " --help)",
					 argv[optind - 1]);
		c -= 256;
		if (c == O_HELP) {
			print_help(stdout);
			*exit_now = 1;
			return 0;
		}
		if (c == O_LIST) {
			print_list(stdout);
			*exit_now = 1;
			return 0;
		}
		o->given |= 1ull << c;
		ret = set_value(o, c, optarg);
		if (ret)
			return ret;
	}
	return 0;
}

/* Options given that the scenario does not take; then its defaults. */
static int apply_scenario(struct fl_opts *o)
{
	int i;

	for (i = 0; i < O_COUNT; i++) {
		if (!GIVEN(o, i) || fl_opt_applies(o, optdefs[i].name))
			continue;
		if (o->sc->id == SC_MINOR && (i == O_FILE || i == O_MADV))
			return usage_err("--%s applies to minor only with --kind file",
					 optdefs[i].name);
		return usage_err("--%s does not apply to scenario %s",
				 optdefs[i].name, o->sc->name);
	}

	if (!GIVEN(o, O_THREADS))
		o->threads = o->sc->def.threads;
	if (!GIVEN(o, O_SIZE))
		o->size = o->sc->def.size;
	if (!GIVEN(o, O_PASSES))
		o->passes = o->sc->def.passes;
	if (!GIVEN(o, O_DURATION))
		o->duration = GIVEN(o, O_PASSES) ? MAX_DURATION : o->sc->def.duration;
	if (!(o->sc->flags & SCF_DROP))
		o->drop_caches = 0;
	if (!GIVEN(o, O_CPU_THREADS) && fl_opt_applies(o, "cpu-threads")) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		o->cpu_threads = n > 0 && n <= MAX_THREADS ? (unsigned int)n : 1;
	}
	return 0;
}

int fl_opts_parse(struct fl_opts *o, int argc, char **argv, int *exit_now)
{
	const char *scname = NULL;
	int ret;

	set_defaults(o);
	*exit_now = 0;
	ret = read_args(o, argc, argv, &scname, exit_now);
	if (ret || *exit_now)
		return ret;
	if (!scname)
		return usage_err("no scenario given (see " FL_NAME " --help or --list)");
	o->sc = fl_scenario_find(scname);
	if (!o->sc)
		return usage_err("unknown scenario '%s' (" FL_NAME " --list shows them)",
				 scname);
	ret = apply_scenario(o);
	if (ret)
		return ret;

	if (fl_opt_applies(o, "file")) {
		ret = open_file(o);
		if (ret)
			return ret;
	}
	if (GIVEN(o, O_MEMCG_SWAP_MAX) && !o->memcg_max)
		return usage_err("--memcg-swap-max applies to the cgroup of --memcg-max: give both");
	if (o->sc->id == SC_SAME_PAGES || o->sc->id == SC_MINOR)
		ret = 0;	/* every thread touches the whole range */
	else
		ret = check_slices("--size", o->size, "--threads", o->threads);
	if (!ret && fl_opt_applies(o, "swap-threads"))
		ret = check_slices("--swap-size", o->swap_size, "--swap-threads",
				   o->swap_threads);
	if (ret)
		return ret;

	if (strcmp(o->json, "-")) {
		o->json_out = fopen(o->json, "we");
		if (!o->json_out)
			return usage_err("--json %s: %s", o->json, strerror(errno));
	} else {
		o->json_out = stdout;
	}
	return 0;
}

void fl_opts_close(struct fl_opts *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->json_out && o->json_out != stdout)
		fclose(o->json_out);
	o->json_out = NULL;
}

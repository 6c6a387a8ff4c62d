/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - command line options of faultload.
 *
 * fl_opts_parse() fills struct fl_opts with every value resolved (the
 * scenario's defaults applied, sizes rounded down to whole pages) and
 * opens what the options name (--file, --json), so that a bad option is
 * reported before anything is measured.  All of it is read-only afterwards.
 */
#ifndef FL_OPTS_H
#define FL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "scenario.h"

enum fl_order { FL_ORDER_SEQ, FL_ORDER_RANDOM };
enum fl_kind { FL_KIND_ANON, FL_KIND_FILE };

struct fl_opts {
	const struct fl_scenario *sc;
	unsigned int threads;		/* threads of the scenario's main class */
	double duration;		/* seconds, cap on the measured phase */
	uint64_t passes;		/* 0: repeat until the duration ends */
	const char *file;
	uint64_t size;			/* bytes, a multiple of the page size */
	const char *size_arg;		/* --size as given, for messages */
	uint64_t swap_size;		/* contended, ui-inversion, fork-at-scale: the swap part */
	unsigned int swap_threads;	/* ... its threads; 0 leaves it out */
	const char *json;		/* "-": stdout */
	uint64_t seed;
	int drop_caches;
	int madv;			/* MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL */
	const char *madv_name;
	enum fl_order order;
	enum fl_kind kind;		/* minor */
	double fork_interval_ms;
	unsigned int hi_pages;
	double hi_interval_ms;
	unsigned int cpu_threads;	/* ui-inversion; set to the online CPUs unless given */
	unsigned int idle_threads;	/* fork-at-scale: sleeping threads */
	unsigned int vmas;		/* fork-at-scale: extra one-page VMAs */
	long read_ahead_kb;		/* -1: left as it is */
	uint64_t writer_size;
	double writer_pause_ms;
	uint64_t memcg_max;		/* 0: no cgroup of our own */
	int64_t memcg_swap_max;		/* its memory.swap.max; -1: left alone */
	int quiet;
	unsigned long long given;	/* bit per option id given on the command line */

	/* resources opened by fl_opts_parse() */
	int fd;				/* --file, O_RDONLY, or -1 */
	uint64_t file_size;
	FILE *json_out;
};

/*
 * Parse argv.  Returns 0 to go on, or an exit status: 0 after --help or
 * --list was printed, FL_EXIT_USAGE after one line on stderr.  *exit_now
 * tells the two apart from "go on".
 */
int fl_opts_parse(struct fl_opts *o, int argc, char **argv, int *exit_now);
void fl_opts_close(struct fl_opts *o);

/* Whether option NAME (without "--") applies to the scenario in o. */
int fl_opt_applies(const struct fl_opts *o, const char *name);

#endif /* FL_OPTS_H */

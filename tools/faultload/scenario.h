/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario.h - the scenario table.  Each scenario lives in its own
 * sc_*.c file, documented in a comment block at its top and in the help
 * text it registers here.
 */
#ifndef FL_SCENARIO_H
#define FL_SCENARIO_H

#include <stdint.h>

struct fl_opts;
struct fl_result;

enum fl_scenario_id {
	SC_FILE_MAJOR,
	SC_SWAP_IN,
	SC_CONTENDED,
	SC_UI_INVERSION,
	SC_SAME_PAGES,
	SC_FORK_DURING_IO,
	SC_MINOR,
	SC_THRASH,
	SC_FORK_AT_SCALE,
	SC_VMA_CHURN,
	SC_SWAP_WRITEBACK,
	SC_APP_START,
	SC_COUNT
};

#define SC_BIT(id)	(1u << (id))
#define SC_ALL		(SC_BIT(SC_COUNT) - 1)

/* fl_scenario.flags */
#define SCF_FILE	0x1	/* maps --file (minor: only with --kind file) */
#define SCF_DROP	0x2	/* --drop-caches applies and defaults to on */

struct fl_scenario {
	enum fl_scenario_id id;
	const char *name;
	const char *summary;	/* one line, for --list */
	const char *help;	/* a paragraph for --help, lines indented by 2 */
	unsigned int flags;
	/*
	 * Defaults sized for a 2-vCPU TCG guest with 2 GiB of RAM, written
	 * { threads, size, duration, passes }.
	 */
	struct {
		unsigned int threads;
		uint64_t size;
		double duration;	/* seconds: the cap on the run */
		uint64_t passes;	/* 0: until the duration ends */
	} def;
	/*
	 * Describes the run in a struct fl_plan and calls fl_run_plan()
	 * (run.h): 0 on success, FL_EXIT_FAIL after printing why.
	 */
	int (*run)(const struct fl_opts *o, struct fl_result *res);
};

extern const struct fl_scenario fl_sc_file_major, fl_sc_swap_in,
	fl_sc_contended, fl_sc_ui_inversion, fl_sc_same_pages,
	fl_sc_fork_during_io, fl_sc_minor, fl_sc_thrash,
	fl_sc_fork_at_scale, fl_sc_vma_churn, fl_sc_swap_writeback,
	fl_sc_app_start;

/* NULL-terminated, in enum fl_scenario_id order. */
extern const struct fl_scenario *const fl_scenarios[];

const struct fl_scenario *fl_scenario_find(const char *name);

#endif /* FL_SCENARIO_H */

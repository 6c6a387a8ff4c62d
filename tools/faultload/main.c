// SPDX-License-Identifier: GPL-2.0
/*
 * faultload - workload generator for retryscope.
 *
 *   faultload SCENARIO [options]      faultload --help | --list
 *
 * Runs one scenario of page faults that wait for I/O inside the per-VMA
 * lock (see the sc_*.c files), measures per-thread latency histograms and
 * rusage fault counts, and writes one JSON document (report.h).  Exit
 * status: 0 ok, 1 the run failed (setup, corrupt data), 2 bad usage.
 *
 * main.c only dispatches: opts.c parses, scenarios run, report.c writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "memcg.h"
#include "opts.h"
#include "readahead.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct fl_memcg memcg = { .path = "" };
	struct fl_readahead ra = { .was = -1 };
	struct fl_result *res;
	long ra_kb = -1;
	struct fl_opts o;
	int ret, exit_now;

	fl_set_thread_name("fl-main");
	ret = fl_opts_parse(&o, argc, argv, &exit_now);
	if (ret || exit_now) {
		fl_opts_close(&o);
		return ret;
	}
	fl_install_signal_handlers();

	res = malloc(sizeof(*res));
	if (!res) {
		fl_err("out of memory");
		fl_opts_close(&o);
		return FL_EXIT_FAIL;
	}
	fl_result_init(res);
	/* Before any scenario thread exists: cgroup.procs moves them all. */
	if (o.memcg_max && fl_memcg_enter(&memcg, o.memcg_max, o.memcg_swap_max)) {
		free(res);
		fl_opts_close(&o);
		return FL_EXIT_FAIL;
	}
	/* File scenarios: the readahead the run had (setup.read_ahead_kb). */
	if (fl_opt_applies(&o, "read-ahead-kb")) {
		ra_kb = fl_readahead_set(&ra, o.file, o.fd, o.read_ahead_kb);
		if (ra_kb >= 0)
			fl_result_setup_int(res, "read_ahead_kb", ra_kb);
	}
	ret = ra_kb == -2 ? FL_EXIT_FAIL : o.sc->run(&o, res);
	fl_readahead_restore(&ra);
	fl_memcg_leave(&memcg);
	if (!ret) {
		if (!o.quiet)
			fl_report_summary(stderr, &o, res);
		if (fl_report_json(o.json_out, o.json, &o, res))
			ret = FL_EXIT_FAIL;
		if (res->failed)
			ret = FL_EXIT_FAIL;
	} else if (o.json_out != stdout) {
		unlink(o.json);		/* no half-written result */
	}
	free(res);
	fl_opts_close(&o);
	return ret;
}

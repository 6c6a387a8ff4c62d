/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 4 (probes): the probe table (probes.c): which mechanism hooks each
 * symbol of the fault path, attach and detach, skip= and why a probe is
 * off.
 */
#ifndef RETRYSCOPE_PROBES_H
#define RETRYSCOPE_PROBES_H

#include <linux/types.h>

struct seq_file;

enum rs_backend_choice {
	RS_BACKEND_AUTO,	/* entry model, cheapest hook that attaches */
	RS_BACKEND_KPROBE,	/* return model, kprobes and kretprobes only */
	RS_BACKEND_FPROBE,	/* return model, fprobes only */
	RS_BACKEND_FTRACE,	/* entry model, entry hooks on ftrace_ops only */
};

bool rs_fprobe_available(void);
bool rs_ftrace_available(void);
int rs_probes_check_skip(const char *skip);
/*
 * opt_in: attach the probes that are off by default (fault_around=1);
 * light: leave off every probe on the common fault path (light=1)
 */
int rs_probes_attach(enum rs_backend_choice backend, const char *skip,
		     bool opt_in, bool light, int maxactive,
		     unsigned int *attached, unsigned int *wanted);
void rs_probes_detach(void);
const char *rs_probes_backend(void);
void rs_probes_show(struct seq_file *m);
u64 rs_probes_nmissed(void);

/* skip= word for both mmap_lock tracepoints (tracepoints.c) */
#define RS_SKIP_LOCKWAIT "mmap_lock"
bool rs_probe_skipped(const char *skip, const char *symbol);
/* Why a probe is off, for its error: "not found (...)", "left off ...". */
const char *rs_probe_why(int err);

#endif /* RETRYSCOPE_PROBES_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RETRYSCOPE_PROBES_H
#define RETRYSCOPE_PROBES_H

#include <linux/seq_file.h>

enum rs_backend_choice {
	RS_BACKEND_AUTO,	/* entry model, cheapest hook that attaches */
	RS_BACKEND_KPROBE,	/* return model, kprobes and kretprobes only */
	RS_BACKEND_FPROBE,	/* return model, fprobes only */
	RS_BACKEND_FTRACE,	/* entry model, entry hooks on ftrace_ops only */
};

bool rs_fprobe_available(void);
bool rs_ftrace_available(void);
int rs_probes_check_skip(const char *skip);
int rs_probes_attach(enum rs_backend_choice backend, const char *skip,
		     int maxactive, unsigned int *attached,
		     unsigned int *wanted);
void rs_probes_detach(void);
const char *rs_probes_backend(void);
const char *rs_probes_model(void);
void rs_probes_show(struct seq_file *m);
u64 rs_probes_nmissed(void);

/* skip= word for both mmap_lock tracepoints (module/lockwait.c) */
#define RS_SKIP_LOCKWAIT "mmap_lock"
bool rs_probe_skipped(const char *skip, const char *symbol);
const char *rs_probe_why(int err);
int rs_lockwait_attach(const char *skip, unsigned int *attached);
void rs_lockwait_detach(void);
void rs_lockwait_show(struct seq_file *m);

#endif /* RETRYSCOPE_PROBES_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 4 (probes): the kernel tracepoints (tracepoints.c): mmap_lock's
 * and sched_process_free.
 */
#ifndef RETRYSCOPE_TRACEPOINTS_H
#define RETRYSCOPE_TRACEPOINTS_H

struct seq_file;

/*
 * Attach sched_process_free, and both mmap_lock tracepoints unless skip=
 * names RS_SKIP_LOCKWAIT; returns how many of the two mmap_lock ones.
 */
unsigned int rs_tracepoints_attach(const char *skip);
void rs_tracepoints_detach(void);
/* Their lines of the debugfs "probes" file. */
void rs_tracepoints_show(struct seq_file *m);

#endif /* RETRYSCOPE_TRACEPOINTS_H */

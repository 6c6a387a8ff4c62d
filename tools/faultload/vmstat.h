/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmstat.h - the /proc/vmstat counters worth a delta over a run:
 * system-wide fault, swap and per-VMA lock counts (vma_lock_* exist with
 * CONFIG_PER_VMA_LOCK_STATS; vma_lock_retry counts faults that fell back
 * to mmap_lock after VM_FAULT_RETRY).
 */
#ifndef FL_VMSTAT_H
#define FL_VMSTAT_H

#define FL_VMSTAT_N	8

struct fl_vmstat {
	long long v[FL_VMSTAT_N];
	unsigned char have[FL_VMSTAT_N];	/* the kernel has the counter */
};

const char *fl_vmstat_name(unsigned int i);
/* Read /proc/vmstat; counters it lacks stay !have.  0 or -errno. */
int fl_vmstat_read(struct fl_vmstat *vs);
/* d = b - a, for counters present in both. */
void fl_vmstat_delta(struct fl_vmstat *d, const struct fl_vmstat *a,
		     const struct fl_vmstat *b);

#endif /* FL_VMSTAT_H */

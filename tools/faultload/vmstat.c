// SPDX-License-Identifier: GPL-2.0
/*
 * vmstat.c - /proc/vmstat snapshots, see vmstat.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vmstat.h"

static const char *const names[FL_VMSTAT_N] = {
	"pgfault", "pgmajfault", "pswpin", "pswpout",
	"vma_lock_success", "vma_lock_abort", "vma_lock_retry",
	"vma_lock_miss",
};

const char *fl_vmstat_name(unsigned int i)
{
	return i < FL_VMSTAT_N ? names[i] : NULL;
}

int fl_vmstat_read(struct fl_vmstat *vs)
{
	char key[64];
	long long val;
	unsigned int i;
	FILE *f;

	memset(vs, 0, sizeof(*vs));
	f = fopen("/proc/vmstat", "re");
	if (!f)
		return -errno;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		for (i = 0; i < FL_VMSTAT_N; i++) {
			if (!strcmp(key, names[i])) {
				vs->v[i] = val;
				vs->have[i] = 1;
			}
		}
	}
	fclose(f);
	return 0;
}

void fl_vmstat_delta(struct fl_vmstat *d, const struct fl_vmstat *a,
		     const struct fl_vmstat *b)
{
	unsigned int i;

	for (i = 0; i < FL_VMSTAT_N; i++) {
		d->have[i] = a->have[i] && b->have[i];
		d->v[i] = d->have[i] ? b->v[i] - a->v[i] : 0;
	}
}

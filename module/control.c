// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 5 (interface): the commands behind the "reset" and "filter" files
 * of debugfs and sysfs, so that both take the same words.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "control.h"
#include "filter.h"
#include "latency.h"
#include "stats.h"
#include "task_state.h"

/*
 * Zero every counter.  Faults in flight are followed on and counted by the
 * kernel's rule from here (a retry as a retry, nothing of their start
 * taken back): see rs_epoch in task_state.h.
 */
int rs_control_reset(const char *cmd)
{
	if (strcmp(cmd, "1"))
		return -EINVAL;
	rs_state_new_epoch();
	rs_stats_reset();
	rs_lat_reset();
	return 0;
}

int rs_control_filter(const char *cmd)
{
	s32 tgid;
	int err;

	if (!strcmp(cmd, "none")) {
		rs_filter_clear();
		return 0;
	}
	if (!strncmp(cmd, "tgid ", 5)) {
		err = kstrtos32(cmd + 5, 10, &tgid);
		return err ? err : rs_filter_set_tgid(tgid);
	}
	if (!strncmp(cmd, "comm ", 5) && !strpbrk(cmd + 5, " \t"))
		return rs_filter_set_comm(cmd + 5);
	return -EINVAL;
}

int rs_control_line(char *buf, size_t size, const char *src, size_t count)
{
	if (!count || count >= size)
		return -EINVAL;
	memcpy(buf, src, count);
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[--count] = '\0';
	return count ? 0 : -EINVAL;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 5 (interface): the commands every interface takes (control.c):
 * the same words through debugfs and sysfs.
 */
#ifndef RETRYSCOPE_CONTROL_H
#define RETRYSCOPE_CONTROL_H

#include <linux/types.h>

/* "1": zero every counter and the per-task state; else -EINVAL. */
int rs_control_reset(const char *cmd);
/* "none", "tgid N" (N >= 0) or "comm PREFIX" (1-15 chars); else -EINVAL. */
int rs_control_filter(const char *cmd);
/*
 * A write's text without its trailing newline, into buf: 0, or -EINVAL
 * when it is empty or does not fit.
 */
int rs_control_line(char *buf, size_t size, const char *src, size_t count);

#endif /* RETRYSCOPE_CONTROL_H */

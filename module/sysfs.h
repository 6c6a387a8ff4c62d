/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 5 (interface): /sys/kernel/retryscope/ (sysfs.c), for kernels
 * whose debugfs is not mounted (Android's user builds).
 */
#ifndef RETRYSCOPE_SYSFS_H
#define RETRYSCOPE_SYSFS_H

int rs_sysfs_init(void);
void rs_sysfs_exit(void);

#endif /* RETRYSCOPE_SYSFS_H */

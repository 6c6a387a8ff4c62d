/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 5 (interface): the debugfs directory (debugfs.c).
 */
#ifndef RETRYSCOPE_DEBUGFS_H
#define RETRYSCOPE_DEBUGFS_H

int rs_debugfs_init(void);
void rs_debugfs_exit(void);

#endif /* RETRYSCOPE_DEBUGFS_H */

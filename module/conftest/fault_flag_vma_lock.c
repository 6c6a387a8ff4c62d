// SPDX-License-Identifier: GPL-2.0
/* Faults can run under a per-VMA lock (Linux 6.4 and later). */
#include <linux/mm_types.h>

int rs_conftest(void);
int rs_conftest(void)
{
	return FAULT_FLAG_VMA_LOCK;
}

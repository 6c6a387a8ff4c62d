// SPDX-License-Identifier: GPL-2.0
/* Must compile on every kernel: proves the compile tests themselves work. */
#include <linux/mm_types.h>

int rs_conftest(void);
int rs_conftest(void)
{
	return (__force int)VM_FAULT_RETRY;
}

// SPDX-License-Identifier: GPL-2.0
/* The VM_FAULT_RETRY_HARD draft is applied. */
#include <linux/mm_types.h>

int rs_conftest(void);
int rs_conftest(void)
{
	return (__force int)VM_FAULT_RETRY_HARD;
}

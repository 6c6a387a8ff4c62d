// SPDX-License-Identifier: GPL-2.0
/* The per-VMA lock counts its readers in vm_area_struct's vm_refcnt. */
#include <linux/mm_types.h>
#include <linux/refcount.h>

int rs_conftest(struct vm_area_struct *vma);
int rs_conftest(struct vm_area_struct *vma)
{
	return refcount_read(&vma->vm_refcnt);
}

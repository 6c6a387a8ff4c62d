// SPDX-License-Identifier: GPL-2.0
/*
 * The per-VMA lock counts its readers in vm_area_struct's vm_refcnt, and
 * __vma_start_write() has the prototype the probe reads (7.3: it returns
 * -EINTR for a killable wait that a fatal signal ended).
 */
#include <linux/mm.h>
#include <linux/refcount.h>

int rs_conftest(struct vm_area_struct *vma);
int rs_conftest(struct vm_area_struct *vma)
{
	int (*start_write)(struct vm_area_struct *, int) = __vma_start_write;

	return refcount_read(&vma->vm_refcnt) + !!start_write;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 0 (kernel features): what the kernel we are built against has.  RS_HAVE_* come from the
 * compile tests in conftest/ (run by Kbuild): VM_FAULT_RETRY_VMA,
 * VM_FAULT_RETRY_HARD and FAULT_FLAG_VMA_LOCK are enum constants, which
 * #ifdef cannot see, and
 * vm_area_struct's vm_refcnt (the per-VMA lock's reader count since 6.15) a
 * struct member.
 */
#ifndef RETRYSCOPE_FEATURES_H
#define RETRYSCOPE_FEATURES_H

#include <linux/mm_types.h>

#ifdef RS_HAVE_VM_FAULT_RETRY_VMA
#define RS_VM_FAULT_RETRY_VMA_BITS ((__force unsigned int)VM_FAULT_RETRY_VMA)
#else
#define RS_VM_FAULT_RETRY_VMA_BITS 0U
#endif

/*
 * VM_FAULT_RETRY_VMA as filemap_fault() returns it: 0 where its source
 * does not set the bit (anon-only, or no kernel source at build time:
 * Kbuild), and the file sites are then read as on stock (io_fault.c).
 */
#if defined(RS_HAVE_VM_FAULT_RETRY_VMA) && defined(RS_HAVE_FILEMAP_RETRY_VMA)
#define RS_FILEMAP_RETRY_VMA_BITS RS_VM_FAULT_RETRY_VMA_BITS
#else
#define RS_FILEMAP_RETRY_VMA_BITS 0U
#endif

#ifdef RS_HAVE_VM_FAULT_RETRY_HARD
#define RS_VM_FAULT_RETRY_HARD_BITS ((__force unsigned int)VM_FAULT_RETRY_HARD)
#else
#define RS_VM_FAULT_RETRY_HARD_BITS 0U
#endif

#ifdef RS_HAVE_FAULT_FLAG_VMA_LOCK
#define RS_FAULT_FLAG_VMA_LOCK ((unsigned int)FAULT_FLAG_VMA_LOCK)
#else
#define RS_FAULT_FLAG_VMA_LOCK 0U
#endif

#if defined(CONFIG_PER_VMA_LOCK) && defined(RS_HAVE_FAULT_FLAG_VMA_LOCK)
#define RS_HAVE_PER_VMA_LOCK 1
#else
#define RS_HAVE_PER_VMA_LOCK 0
#endif

/*
 * Whether readers hold @vma's per-VMA lock, on kernels that count them in
 * vm_refcnt (7.3: 1 while attached, plus one per reader).  Only called where
 * RS_HAVE_VMA_REFCNT let the __vma_start_write() probe attach (probes.c).
 */
#ifdef RS_HAVE_VMA_REFCNT
#include <linux/refcount.h>

static __always_inline bool rs_vma_has_readers(struct vm_area_struct *vma)
{
	return refcount_read(&vma->vm_refcnt) > 1;
}
#else
static __always_inline bool rs_vma_has_readers(struct vm_area_struct *vma)
{
	return false;
}
#endif

/*
 * Whether the arch handler tries the per-VMA lock again after a ->fault
 * returned @ret with VM_FAULT_RETRY: the series flags such a retry with
 * VM_FAULT_RETRY_VMA; the VM_FAULT_RETRY_HARD draft retries every one not
 * flagged VM_FAULT_RETRY_HARD.  The return model sees that call of
 * lock_vma_under_rcu() itself; the entry model, which does not probe it,
 * needs this to tell an abort of that call from a fallback.
 */
static __always_inline bool rs_retry_tries_vma_lock(unsigned int ret)
{
	if (ret & RS_VM_FAULT_RETRY_VMA_BITS)
		return true;
#ifdef RS_HAVE_VM_FAULT_RETRY_HARD
	return !(ret & RS_VM_FAULT_RETRY_HARD_BITS);
#else
	return false;
#endif
}

/* The bits of a vm_fault_t, to test against an unsigned int return value. */
static __always_inline unsigned int rs_fault_bits(vm_fault_t ret)
{
	return (__force unsigned int)ret;
}

#endif /* RETRYSCOPE_FEATURES_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): the filemap_fault(), do_swap_page() and shmem_fault()
 * return probes.  They count the calls and what each returned, time the
 * fault (latency.c: filemap_fault and do_swap_page), and pass a
 * VM_FAULT_RETRY or VM_FAULT_MAJOR on to the model: the return model
 * notes the retry's cause in the task's slot for handle_mm_fault()'s
 * return; the entry model moves its counts (rs_em_io_return()).
 *
 * Each VM_FAULT_RETRY is attributed to the place the function dropped the
 * lock at (filemap_retry_<site>, swap_retry_<site>), and a call that
 * waited for I/O or a folio lock while holding the VMA lock (no-drop, or
 * a synchronous swap device) is counted and timed (io_wait_vma_lock_*).
 * filemap_fault()'s site is read from what it will find, at its entry:
 * the page cache entry of vmf->pgoff and whether readahead is off for the
 * mapping; do_swap_page()'s from VM_FAULT_MAJOR, which it sets when it
 * started the swap-in I/O itself.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>

#include "count.h"
#include "entry_model.h"
#include "features.h"
#include "filter.h"
#include "io_fault.h"
#include "latency.h"
#include "return_model.h"
#include "stats.h"
#include "task_state.h"

/* The counters of one ->fault: filemap_fault_* or swap_fault_*. */
struct rs_vmf_counters {
	enum rs_counter calls, vma_locked, tried, nowait;
	enum rs_counter retry, retry_vma, major, error, retry_other;
};

static const struct rs_vmf_counters rs_filemap_counters = {
	.calls = RS_filemap_fault_calls,
	.vma_locked = RS_filemap_fault_vma_locked,
	.tried = RS_filemap_fault_tried,
	.nowait = RS_filemap_fault_nowait,
	.retry = RS_filemap_fault_retry,
	.retry_vma = RS_filemap_fault_retry_vma,
	.major = RS_filemap_fault_major,
	.error = RS_filemap_fault_error,
	.retry_other = RS_filemap_retry_other,
};

static const struct rs_vmf_counters rs_swap_counters = {
	.calls = RS_swap_fault_calls,
	.vma_locked = RS_swap_fault_vma_locked,
	.tried = RS_swap_fault_tried,
	.nowait = RS_swap_fault_nowait,
	.retry = RS_swap_fault_retry,
	.retry_vma = RS_swap_fault_retry_vma,
	.major = RS_swap_fault_major,
	.error = RS_swap_fault_error,
	.retry_other = RS_swap_retry_other,
};

/*
 * The filter is applied at the return, not at the entry: a task the filter
 * takes in while it sleeps in I/O must have that I/O's return seen (else
 * its fallback reads as an abort).  So the entry only notes the call.
 */
static __always_inline void rs_vmf_entry_note(struct vm_fault *vmf,
					      struct rs_vmf_data *d)
{
	d->address = vmf->address;
	d->flags = READ_ONCE(vmf->flags);
}

static __always_inline void rs_vmf_call_count(const struct rs_vmf_data *d,
					      const struct rs_vmf_counters *c)
{
	rs_inc(c->calls);
	if (d->flags & RS_FAULT_FLAG_VMA_LOCK)
		rs_inc(c->vma_locked);
	if (d->flags & FAULT_FLAG_TRIED)
		rs_inc(c->tried);
	if (d->flags & FAULT_FLAG_RETRY_NOWAIT)
		rs_inc(c->nowait);
}

static __always_inline void rs_vmf_ret_count(unsigned int ret,
					     struct rs_vmf_data *d,
					     const struct rs_vmf_counters *c,
					     enum rs_state state,
					     enum rs_drop_site site)
{
	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		rs_inc(c->retry);
		rs_inc(site == RS_SITE_other ? c->retry_other :
		       rs_site_counters[site].retry);
		if (ret & RS_VM_FAULT_RETRY_VMA_BITS)
			rs_inc(c->retry_vma);
		if (!rs_entry_model)
			rs_rm_io_retry(d->address, d->flags, ret, state, site);
	}
	if (rs_entry_model)
		rs_em_io_return(d->address, d->flags, ret, state, site);
	if (ret & rs_fault_bits(VM_FAULT_MAJOR))
		rs_inc(c->major);
	if (ret & rs_fault_bits(VM_FAULT_ERROR))
		rs_inc(c->error);
}

/*
 * do_sync_mmap_readahead()'s test (mm/filemap.c of 7.3), read before the
 * call: true when a fault that finds no folio reads it synchronously
 * (page_not_uptodate) instead of starting readahead.  Readahead is off for
 * MADV_RANDOM (unless VM_EXEC, or a VM_HUGEPAGE mapping of a file with
 * large folios), with read_ahead_kb 0, and, unless VM_SEQ_READ or VM_EXEC,
 * once the file's mmap misses pass MMAP_LOTSAMISS (a private constant of
 * mm/filemap.c, 100 since 2.6; the fault adds one before the test).  6.12
 * differs for VM_EXEC and VM_HUGEPAGE mappings (docs/counters.md).
 */
#define RS_MMAP_LOTSAMISS 100

static __always_inline bool rs_filemap_no_readahead(const struct vm_area_struct *vma,
						    const struct file *file)
{
	vm_flags_t vm_flags = vma->vm_flags;
	bool force = IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE) &&
		     (vm_flags & VM_HUGEPAGE) &&
		     mapping_large_folio_support(file->f_mapping);

	if (!force) {
		if ((vm_flags & (VM_RAND_READ | VM_EXEC)) == VM_RAND_READ)
			return true;
		if (!READ_ONCE(file->f_ra.ra_pages))
			return true;
		if (vm_flags & VM_SEQ_READ)
			return false;
	}
	if (vm_flags & (VM_SEQ_READ | VM_EXEC))
		return false;
	return READ_ONCE(file->f_ra.mmap_miss) >= RS_MMAP_LOTSAMISS;
}

/* What filemap_fault() will find at vmf->pgoff, looked up at its entry. */
enum {
	RS_FOLIO_NONE,		/* no folio (or a shadow entry) */
	RS_FOLIO_LOCKED,	/* someone else's I/O or lock */
	RS_FOLIO_UPTODATE,	/* uptodate, unlocked, no mark */
	RS_FOLIO_RA_MARK,	/* uptodate, marked: do_async_mmap_readahead() drops for it */
	RS_FOLIO_STALE,		/* not uptodate, unlocked */
};

/*
 * The page cache entry under RCU; the folio's flags word is read raw and
 * without a reference (the struct page array is always mapped, so a folio
 * freed or reused in between is read harmlessly, and attributed by what
 * the module saw).  No folio_test_*(): their checks of a folio that is
 * now a tail page would BUG on CONFIG_DEBUG_VM_PGFLAGS kernels.
 *
 * An uptodate folio is RS_FOLIO_RA_MARK when the kernel's
 * do_async_mmap_readahead() will drop the lock for it: PG_readahead set,
 * readahead not off for the VMA (VM_RAND_READ, ra_pages 0) and a first
 * attempt (allow_retry_first(), checked at the return).  PG_readahead is
 * PG_reclaim's bit; the kernel's folio_test_readahead() does not look at
 * PG_writeback either, and drops the lock before page_cache_async_ra()
 * returns early for a folio under writeback: the module tests what the
 * kernel tests.  An uptodate folio without the mark that another fault
 * or filemap_map_pages() locks before the kernel's folio_trylock() is
 * plain lock contention (locked_folio), the drop v2's patch 5 removes.
 */
static __always_inline u8 rs_filemap_folio_state(const struct vm_fault *vmf)
{
	const struct vm_area_struct *vma = vmf->vma;
	struct file *file = vma->vm_file;
	unsigned long fl = 0;
	struct folio *folio;
	void *e;

	rcu_read_lock();
	e = xa_load(&file->f_mapping->i_pages, vmf->pgoff);
	if (e && !xa_is_value(e)) {
		folio = e;
		fl = READ_ONCE(*(const unsigned long *)&folio->flags);
	}
	rcu_read_unlock();
	if (!e || xa_is_value(e))
		return RS_FOLIO_NONE;
	/* the mark first: the kernel drops for it before any folio lock */
	if ((fl & (BIT(PG_uptodate) | BIT(PG_readahead))) ==
	    (BIT(PG_uptodate) | BIT(PG_readahead)) &&
	    !(vma->vm_flags & VM_RAND_READ) && READ_ONCE(file->f_ra.ra_pages))
		return RS_FOLIO_RA_MARK;
	if (fl & BIT(PG_locked))
		return RS_FOLIO_LOCKED;
	return fl & BIT(PG_uptodate) ? RS_FOLIO_UPTODATE : RS_FOLIO_STALE;
}

/*
 * Where filemap_fault() dropped the lock, for a VM_FAULT_RETRY:
 *   it found no folio (VM_FAULT_MAJOR)   readahead, or sync_read when
 *                                        readahead is off
 *   a folio locked                       locked_folio (someone else's I/O
 *                                        or lock: lock_folio_maybe_drop_mmap())
 *   uptodate, PG_readahead (locked or    uptodate (do_async_mmap_readahead()
 *   not)                                 dropped it for the mark; the data
 *                                        was there)
 *   uptodate, unlocked, no mark          locked_folio (locked meanwhile)
 *   not uptodate, unlocked               sync_read (page_not_uptodate)
 *   FAULT_FLAG_RETRY_NOWAIT, an attempt  other: no drop for I/O (the lock
 *   that may not drop the lock, or a     is kept, or the wait was cut
 *   fatal signal pending                 short and the fault is abandoned)
 * A folio that came or went between the module's look and the function's
 * is attributed by VM_FAULT_MAJOR: no folio found means it read one.
 *
 * Where filemap_fault() returns VM_FAULT_RETRY_VMA (rfc, v2) and the
 * attempt held the VMA lock, the kernel's own answer corrects that look:
 * the bit comes only from the "if (fpin)" exit with the folio locked and
 * uptodate, never from page_not_uptodate.  Without it the call read the
 * folio itself (sync_read), also after a readahead that did not create
 * the target folio or an mmap_miss count that crossed 100 between the
 * two looks (and, rarely, a folio allocation that failed after the
 * readahead drop: VM_FAULT_MAJOR | VM_FAULT_RETRY with nothing read).
 * With it the call waited for a folio lock: a cold fault with readahead
 * off whose folio another thread created and locked first is
 * locked_folio, not sync_read.
 */
static __always_inline enum rs_drop_site
rs_filemap_retry_site(const struct rs_vmf_data *d, unsigned int ret)
{
	bool major = ret & rs_fault_bits(VM_FAULT_MAJOR);

	if (!(ret & rs_fault_bits(VM_FAULT_RETRY)))
		return RS_SITE_none;	/* no drop: nothing below is read */
	if ((d->flags & FAULT_FLAG_RETRY_NOWAIT) ||
	    !fault_flag_allow_retry_first(d->flags) ||
	    fatal_signal_pending(current))
		return RS_SITE_other;
	if (RS_FILEMAP_RETRY_VMA_BITS && (d->flags & RS_FAULT_FLAG_VMA_LOCK)) {
		if (!(ret & RS_FILEMAP_RETRY_VMA_BITS))
			return RS_SITE_filemap_sync_read;
		if (major)
			return d->no_readahead ? RS_SITE_filemap_locked_folio :
				RS_SITE_filemap_readahead;
		return d->folio == RS_FOLIO_RA_MARK ? RS_SITE_filemap_uptodate :
			RS_SITE_filemap_locked_folio;
	}
	if (major)
		return d->no_readahead ? RS_SITE_filemap_sync_read :
			RS_SITE_filemap_readahead;
	switch (d->folio) {
	case RS_FOLIO_RA_MARK:
		return RS_SITE_filemap_uptodate;
	case RS_FOLIO_STALE:
		return RS_SITE_filemap_sync_read;
	default:		/* locked, locked meanwhile, or made meanwhile */
		return RS_SITE_filemap_locked_folio;
	}
}

/*
 * do_swap_page()'s: with VM_FAULT_MAJOR it found no folio in the swap cache
 * and started the swap-in itself; without it the folio was there, locked
 * by someone else's swap-in (or, rarely, the retry of a device-private
 * entry or of a uffd-wp marker: docs/counters.md).
 */
static __always_inline enum rs_drop_site
rs_swap_retry_site(const struct rs_vmf_data *d, unsigned int ret)
{
	if ((d->flags & FAULT_FLAG_RETRY_NOWAIT) ||
	    !fault_flag_allow_retry_first(d->flags))
		return RS_SITE_other;
	return ret & rs_fault_bits(VM_FAULT_MAJOR) ? RS_SITE_swap_io :
		RS_SITE_swap_locked_folio;
}

/*
 * A call made under the VMA lock that did not drop it but waited for I/O
 * or a folio lock: the cost of not dropping (the no-drop variant; on
 * every kernel, a synchronous swap device such as zram).  @waited: it read
 * the page (VM_FAULT_MAJOR), or found its folio locked or not uptodate.
 */
static __always_inline void rs_vmf_wait_count(const struct rs_vmf_data *d,
					      unsigned int ret, bool waited,
					      enum rs_counter count,
					      enum rs_counter ns)
{
	if (!(d->flags & RS_FAULT_FLAG_VMA_LOCK) || !waited ||
	    (ret & rs_fault_bits(VM_FAULT_RETRY | VM_FAULT_ERROR | VM_FAULT_NOPAGE)))
		return;
	rs_inc(count);
	rs_add(ns, ktime_get_mono_fast_ns() - d->t0);
}

int rs_filemap_fault_enter(void *data, unsigned long arg0, unsigned long unused1,
			   unsigned long unused2)
{
	struct vm_fault *vmf = (struct vm_fault *)arg0;
	struct rs_vmf_data *d = data;

	rs_vmf_entry_note(vmf, d);
	d->t0 = ktime_get_mono_fast_ns();
	d->random = vmf->vma->vm_flags & VM_RAND_READ;
	d->folio = rs_filemap_folio_state(vmf);
	d->no_readahead = rs_filemap_no_readahead(vmf->vma, vmf->vma->vm_file);
	return 0;
}

void rs_filemap_fault_exit(void *data, unsigned long retval)
{
	struct rs_vmf_data *d = data;

	if (!rs_filter_match())
		return;
	rs_vmf_call_count(d, &rs_filemap_counters);
	if (d->random)
		rs_inc(RS_filemap_fault_random);
	rs_vmf_ret_count(retval, d, &rs_filemap_counters, RS_ST_RETRY_FILE_IO,
			 rs_filemap_retry_site(d, retval));
	if (d->random && (retval & rs_fault_bits(VM_FAULT_RETRY)))
		rs_inc(RS_filemap_fault_retry_random);
	/*
	 * The retry of an attempt that read the page (the arch handler adds
	 * FAULT_FLAG_TRIED after VM_FAULT_MAJOR) found no folio: reclaimed
	 * between that I/O and this retry (the v2 thread's RETRY_IO_MISS).
	 */
	if ((d->flags & FAULT_FLAG_TRIED) && d->folio == RS_FOLIO_NONE)
		rs_inc(RS_filemap_retry_miss);
	rs_vmf_wait_count(d, retval,
			  (retval & rs_fault_bits(VM_FAULT_MAJOR)) ||
			  d->folio == RS_FOLIO_LOCKED || d->folio == RS_FOLIO_STALE,
			  RS_io_wait_vma_lock_file, RS_io_wait_vma_lock_file_ns);
	rs_lat_io_return(d->address, d->flags, d->t0, retval,
			 RS_LAT_CAUSE_file_io);
}

int rs_do_swap_page_enter(void *data, unsigned long arg0, unsigned long unused1,
			  unsigned long unused2)
{
	struct rs_vmf_data *d = data;

	rs_vmf_entry_note((struct vm_fault *)arg0, d);
	d->t0 = ktime_get_mono_fast_ns();
	return 0;
}

void rs_do_swap_page_exit(void *data, unsigned long retval)
{
	struct rs_vmf_data *d = data;

	if (!rs_filter_match())
		return;
	rs_vmf_call_count(d, &rs_swap_counters);
	rs_vmf_ret_count(retval, d, &rs_swap_counters, RS_ST_RETRY_SWAP_IO,
			 rs_swap_retry_site(d, retval));
	rs_vmf_wait_count(d, retval, retval & rs_fault_bits(VM_FAULT_MAJOR),
			  RS_io_wait_vma_lock_swap, RS_io_wait_vma_lock_swap_ns);
	rs_lat_io_return(d->address, d->flags, d->t0, retval,
			 RS_LAT_CAUSE_swap_io);
}

/*
 * filemap_map_pages(vmf, start_pgoff, end_pgoff), the fault-around of a
 * read fault: only the end of a retried fault being timed (latency.c);
 * no exit otherwise.
 */
int rs_map_pages_enter(void *data, unsigned long arg0, unsigned long unused1,
		       unsigned long unused2)
{
	struct vm_fault *vmf = (struct vm_fault *)arg0;

	if (!rs_filter_match() || !rs_lat_pending(vmf->address))
		return 1;
	rs_vmf_entry_note(vmf, data);
	return 0;
}

void rs_map_pages_exit(void *data, unsigned long retval)
{
	struct rs_vmf_data *d = data;

	rs_lat_map_pages_return(d->address, d->flags, retval);
}

/*
 * shmem_fault(vmf), for the entry model alone: the return model reads
 * VM_FAULT_MAJOR from handle_mm_fault(); the entry model needs it from
 * the ->fault that sets it, and shmem sets it when it reads a folio back
 * from swap (tmpfs, memfd, shared anonymous memory).  A VM_FAULT_RETRY
 * (waiting for a hole punch) is an "other" retry.
 */
int rs_shmem_fault_enter(void *data, unsigned long arg0, unsigned long unused1,
			 unsigned long unused2)
{
	rs_vmf_entry_note((struct vm_fault *)arg0, data);
	return 0;
}

void rs_shmem_fault_exit(void *data, unsigned long retval)
{
	struct rs_vmf_data *d = data;

	if (!rs_filter_match())
		return;
	rs_em_io_return(d->address, d->flags, retval, RS_ST_RETRY_OTHER,
			RS_SITE_none);
}

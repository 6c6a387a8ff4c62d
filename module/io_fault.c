// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): the filemap_fault(), do_swap_page() and shmem_fault()
 * return probes.  They count the calls and what each returned, time the
 * fault (latency.c: filemap_fault and do_swap_page), and pass a
 * VM_FAULT_RETRY or VM_FAULT_MAJOR on to the model: the return model
 * notes the retry's cause in the task's slot for handle_mm_fault()'s
 * return; the entry model moves its counts (rs_em_io_return()).
 *
 * filemap_fault() drops the lock in three places: readahead started I/O
 * (the only one where the RFC series sets VM_FAULT_RETRY_VMA), the folio
 * was locked by someone else's I/O, or a VM_RAND_READ mapping read the
 * folio synchronously (page_not_uptodate).  The last one is told apart by
 * the VMA flag: filemap_fault_retry_random.
 */
#include <linux/mm.h>
#include <linux/timekeeping.h>

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
	enum rs_counter retry, retry_vma, major, error;
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
					     enum rs_state state)
{
	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		rs_inc(c->retry);
		if (ret & RS_VM_FAULT_RETRY_VMA_BITS)
			rs_inc(c->retry_vma);
		if (!rs_entry_model)
			rs_rm_io_retry(d->address, d->flags, ret, state);
	}
	if (rs_entry_model)
		rs_em_io_return(d->address, d->flags, ret, state);
	if (ret & rs_fault_bits(VM_FAULT_MAJOR))
		rs_inc(c->major);
	if (ret & rs_fault_bits(VM_FAULT_ERROR))
		rs_inc(c->error);
}

int rs_filemap_fault_enter(void *data, unsigned long arg0, unsigned long unused1,
			   unsigned long unused2)
{
	struct vm_fault *vmf = (struct vm_fault *)arg0;
	struct rs_vmf_data *d = data;

	rs_vmf_entry_note(vmf, d);
	d->t0 = ktime_get_mono_fast_ns();
	d->random = vmf->vma->vm_flags & VM_RAND_READ;
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
	rs_vmf_ret_count(retval, d, &rs_filemap_counters, RS_ST_RETRY_FILE_IO);
	if (d->random && (retval & rs_fault_bits(VM_FAULT_RETRY)))
		rs_inc(RS_filemap_fault_retry_random);
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
	rs_vmf_ret_count(retval, d, &rs_swap_counters, RS_ST_RETRY_SWAP_IO);
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
	if (!rs_filter_match() || !rs_lat_pending())
		return 1;
	rs_vmf_entry_note((struct vm_fault *)arg0, data);
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
	rs_em_io_return(d->address, d->flags, retval, RS_ST_RETRY_OTHER);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 3 (models): per-fault latency, from the ->fault return probes
 * both models have (io_fault.c): a fault is timed from the entry of its
 * first attempt's filemap_fault() or do_swap_page() to the return of the
 * one that finished it, so the time a retry spent waiting for mmap_lock or
 * the VMA lock between two attempts is in it.  Not in it: the page-table
 * walk before the first ->fault and the PTE update after the last (both
 * without I/O).  Faults that go through neither (anonymous, shmem) are not
 * timed: that needs a return hook on handle_mm_fault(), which the default
 * model does not have (docs/overhead.md).  User faults only.
 *
 * The outcome is read off the finishing ->fault's flags: first attempt,
 * or a retry that finished under the VMA lock or under mmap_lock.  The
 * cause is the ->fault of the first attempt.  A fault that ends in
 * VM_FAULT_ERROR is not timed, nor is one whose first attempt retried
 * before reaching either ->fault (its start is unknown).
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>

#include "count.h"
#include "features.h"
#include "latency.h"
#include "task_state.h"
#include "trace.h"

/* A latency cause as the trace events' cause (names.h: the same names) */
static const unsigned int rs_lat_trace_cause[RS_NR_LAT_CAUSES] = {
	[RS_LAT_CAUSE_file_io] = RS_CAUSE_file_io,
	[RS_LAT_CAUSE_swap_io] = RS_CAUSE_swap_io,
};

#define RS_LAT_OUTCOME(name) __stringify(name),
const char * const rs_lat_outcome_names[RS_NR_LAT_OUTCOMES] = {
	RS_LAT_OUTCOME_LIST
};

#undef RS_LAT_OUTCOME

#define RS_LAT_CAUSE(name) __stringify(name),
const char * const rs_lat_cause_names[RS_NR_LAT_CAUSES] = {
	RS_LAT_CAUSE_LIST
};

#undef RS_LAT_CAUSE

/* Allocated before the probes attach, freed after they are gone. */
static struct rs_lat_hist __percpu *rs_lat_hist;

static unsigned int rs_lat_bucket(u64 ns)
{
	unsigned int k;

	if (ns < 8)
		return ns;
	k = fls64(ns);		/* ns < 2^k, k >= 4 */
	return min((k - 2) * 4 + (unsigned int)((ns >> (k - 3)) & 3),
		   RS_LAT_BUCKETS - 1U);
}

void rs_lat_bucket_range(unsigned int b, u64 *lo, u64 *hi)
{
	unsigned int k = b / 4 + 2;

	if (b < 8) {
		*lo = b;
		*hi = b + 1;
		return;
	}
	*lo = (u64)(4 + b % 4) << (k - 3);
	*hi = b == RS_LAT_BUCKETS - 1 ? U64_MAX : *lo + (1ULL << (k - 3));
}

/*
 * The start @fs holds, if it is the start of the fault now at @address:
 * no fault of the task finished since it was written, and it is about
 * the same page (struct rs_fault_start).  0 otherwise.
 */
static __always_inline u64 rs_lat_start_of(const struct rs_fault_start *fs,
					   unsigned long address)
{
	u64 start = READ_ONCE(fs->start);

	if (start && READ_ONCE(fs->flt) == rs_task_flt() &&
	    READ_ONCE(fs->page) == (u32)rs_tag(address))
		return start;
	return 0;
}

/*
 * A ->fault or map_pages call (@address, vmf->flags @flags) returned @ret.
 * @t0: the call's entry for a ->fault, whose fault finished on its first
 * attempt is timed from there; 0 for map_pages, which times only retried
 * faults.
 */
static void rs_lat_end(unsigned long address, unsigned int flags, u64 t0,
		       unsigned int ret, enum rs_lat_cause cause)
{
	enum rs_lat_outcome outcome = RS_LAT_first;
	struct rs_task_state ts;
	struct rs_fault_start *fs;
	u64 start = 0, now;
	bool later;

	if (!(flags & FAULT_FLAG_USER) || !rs_state_get(&ts, address))
		return;
	fs = rs_slot_fault_start(ts.slot);
	/* a later attempt of the fault the slot follows: its start, if timed */
	later = rs_state_same_page(&ts, address) && ts.attempt > 1;
	if (later)
		start = rs_lat_start_of(fs, address);
	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		/*
		 * The first attempt's ->fault is where the fault starts.  A
		 * fault whose first attempt retried elsewhere (anon_vma,
		 * userfaultfd, or in flight when the module loaded) has no
		 * start: it is not timed.  The fault has not finished, so
		 * the task's count is the one it will have at its end.
		 */
		if (!later && t0) {
			WRITE_ONCE(fs->flt, rs_task_flt());
			WRITE_ONCE(fs->page, (u32)rs_tag(address));
			WRITE_ONCE(fs->start, (t0 & ~1ULL) | cause);
		}
		return;
	}
	WRITE_ONCE(fs->start, 0);
	if ((ret & rs_fault_bits(VM_FAULT_ERROR)) || (later && !start) ||
	    (!later && !t0))
		return;
	now = ktime_get_mono_fast_ns();
	if (start) {
		outcome = flags & RS_FAULT_FLAG_VMA_LOCK ? RS_LAT_vma_lock :
							   RS_LAT_mmap_lock;
		cause = start & 1;
		start &= ~1ULL;
	} else {
		start = t0;
	}
	trace_retryscope_fault_done(address, rs_lat_trace_cause[cause], outcome,
				    now - start);
	this_cpu_inc(rs_lat_hist->n[outcome][cause][rs_lat_bucket(now - start)]);
}

void rs_lat_io_return(unsigned long address, unsigned int flags, u64 t0,
		      unsigned int ret, enum rs_lat_cause cause)
{
	rs_lat_end(address, flags, t0, ret, cause);
}

bool rs_lat_pending(unsigned long address)
{
	struct rs_slot *slot = rs_slot_find((unsigned long)current);

	return slot && rs_lat_start_of(rs_slot_fault_start(slot), address);
}

void rs_lat_map_pages_return(unsigned long address, unsigned int flags,
			     unsigned int ret)
{
	/* VM_FAULT_NOPAGE: the faulting page is mapped, the fault done */
	if (ret)
		rs_lat_end(address, flags, 0, ret, RS_LAT_CAUSE_file_io);
}

void rs_lat_read(struct rs_lat_hist *sum)
{
	unsigned int o, c, b;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct rs_lat_hist *h = per_cpu_ptr(rs_lat_hist, cpu);

		for (o = 0; o < RS_NR_LAT_OUTCOMES; o++)
			for (c = 0; c < RS_NR_LAT_CAUSES; c++)
				for (b = 0; b < RS_LAT_BUCKETS; b++)
					sum->n[o][c][b] += READ_ONCE(h->n[o][c][b]);
	}
}

void rs_lat_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(rs_lat_hist, cpu), 0, sizeof(*rs_lat_hist));
}

int rs_lat_init(void)
{
	BUILD_BUG_ON(RS_TRACE_LAT_OUTCOMES_EXPORTED != RS_NR_LAT_OUTCOMES);
	rs_lat_hist = alloc_percpu(struct rs_lat_hist);
	return rs_lat_hist ? 0 : -ENOMEM;
}

void rs_lat_exit(void)
{
	free_percpu(rs_lat_hist);
	rs_lat_hist = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 (per-task state): the slot table of task_state.h, claimed by a
 * task on its first probe hit and released when the task is freed.
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/mm.h>

#include <asm/barrier.h>

#include "stats.h"
#include "task_state.h"

struct rs_slot rs_slots[RS_NR_SLOTS];
struct rs_fault_start rs_fault_start[RS_NR_SLOTS];

/*
 * Out of line: once per task.  The first empty or released slot on
 * @owner's probe chain becomes its own; the caller found none that was.
 */
struct rs_slot *rs_slot_claim(unsigned long owner)
{
	unsigned int i = hash_long(owner, RS_SLOT_BITS), n;

	for (n = 0; n < RS_PROBE_MAX; n++, i = (i + 1) & RS_SLOT_MASK) {
		struct rs_slot *slot = &rs_slots[i];
		unsigned long o = READ_ONCE(slot->owner);

		if (o != 0 && o != RS_OWNER_FREE)
			continue;
		if (cmpxchg(&slot->owner, o, owner) != o)
			continue;	/* another task took it */
		WRITE_ONCE(slot->word, 0);
		WRITE_ONCE(slot->lock_start, 0);
		WRITE_ONCE(rs_slot_fault_start(slot)->start, 0);
		return slot;
	}
	rs_inc(RS_state_table_full);
	return NULL;
}

/*
 * sched_process_free: @owner will not run again, and its task_struct is
 * not reused before this returns.
 */
void rs_slot_release(unsigned long owner)
{
	struct rs_slot *slot = rs_slot_find(owner);

	if (!slot)
		return;
	WRITE_ONCE(slot->word, 0);
	WRITE_ONCE(slot->lock_start, 0);
	/*
	 * The stores above before the owner's: a task that finds the slot
	 * free and claims it must not have its own state overwritten by
	 * them later (arm64 reorders plain stores).
	 */
	smp_store_release(&slot->owner, RS_OWNER_FREE);
}

/*
 * lock_mm_and_find_vma() returned: with a VMA the arch handler holds
 * mmap_lock and calls handle_mm_fault() next; without one (no VMA, or a
 * fatal signal while waiting) the fault ends here.  Either way the lock
 * acquisitions that follow are no longer the fallback's.
 */
void rs_state_lock_mm_returned(bool vma)
{
	struct rs_task_state ts;

	if (!rs_state_get(&ts, 0) || !ts.mine ||
	    ts.state != RS_ST_MMAP_LOCKED)
		return;
	ts.state = vma ? RS_ST_MMAP_HELD : RS_ST_NONE;
	if (!vma)
		ts.attempt = 0;
	rs_state_set(&ts);
}

u32 rs_epoch;

/*
 * A reset: see rs_epoch.  Faults in flight keep their state (clearing it
 * would make a retry's fallback an abort).  Called before the counters'
 * new zero is taken: a handler between the two may leave one provisional
 * count to be taken back below the zero (microseconds, once).
 */
void rs_state_new_epoch(void)
{
	WRITE_ONCE(rs_epoch, rs_epoch + 1);
}

enum rs_cause rs_state_fallback_cause(const struct rs_task_state *ts,
				      unsigned long address)
{
	if (!ts->mine || ts->tag != rs_tag(address))
		return RS_CAUSE_no_vma_lock;
	if (ts->state == RS_ST_VMA_ABORT)
		return RS_CAUSE_vma_abort;
	if (rs_state_is_retry(ts))
		return rs_retry_cause(ts->state);
	return RS_CAUSE_no_vma_lock;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 2 (per-task state): the slots of task_state.h, and the start time
 * of each task's pending mmap_lock request for the lock-wait model.
 */
#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/mm.h>

#include "stats.h"
#include "task_state.h"

struct rs_slot rs_slots[RS_NR_SLOTS];
static u64 rs_lock_start_ts[RS_NR_SLOTS];
static u32 rs_lock_start_pid[RS_NR_SLOTS];

/* Out of line: rare, and it keeps the inline slot writes small. */
void rs_state_collision(void)
{
	rs_inc(RS_state_collisions);
}

void rs_state_clear_all(void)
{
	unsigned int i;

	for (i = 0; i < RS_NR_SLOTS; i++) {
		WRITE_ONCE(rs_slots[i].word, 0);
		WRITE_ONCE(rs_lock_start_pid[i], 0);
	}
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

void rs_lock_start_set(u64 now)
{
	u32 pid = current->pid;
	unsigned int i = hash_32(pid, RS_SLOT_BITS);

	WRITE_ONCE(rs_lock_start_pid[i], pid);
	WRITE_ONCE(rs_lock_start_ts[i], now);
}

/* The start time of this task's pending mmap_lock request, or 0. */
u64 rs_lock_start_take(void)
{
	u32 pid = current->pid;
	unsigned int i = hash_32(pid, RS_SLOT_BITS);
	u64 ts;

	if (READ_ONCE(rs_lock_start_pid[i]) != pid)
		return 0;
	ts = READ_ONCE(rs_lock_start_ts[i]);
	WRITE_ONCE(rs_lock_start_pid[i], 0);
	return ts;
}

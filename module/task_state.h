/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 2 (per-task state): what the probes saw of a task's fault, and
 * the cause of a retry or of an mmap_lock fallback derived from it.
 *
 * A fault is a chain of probe hits on one task: lock_vma_under_rcu(),
 * handle_mm_fault() (with filemap_fault()/do_swap_page() inside), and on
 * fallback lock_mm_and_find_vma().  The probes leave what they saw in a slot
 * of a small hash table indexed by pid; a later probe on the same task reads
 * it.  A slot's state is one u64, written and read with WRITE_ONCE/READ_ONCE:
 *
 *   63..32 pid   31..28 state   27..24 flags   23..16 attempt
 *   15..0 page tag of the address (the page number's low 16 bits)
 *
 * Two live tasks that hash to the same slot overwrite each other's state;
 * that is counted in state_collisions and costs at most a misattributed
 * cause, never a crash.
 */
#ifndef RETRYSCOPE_TASK_STATE_H
#define RETRYSCOPE_TASK_STATE_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "stats.h"

/* What the last probe hit on a task left behind. */
enum rs_state {
	RS_ST_NONE,		/* no fault in progress */
	RS_ST_VMA_ABORT,	/* lock_vma_under_rcu() failed */
	RS_ST_IN_FAULT,		/* inside handle_mm_fault() */
	RS_ST_RETRY_FILE_IO,	/* retry wanted after file I/O */
	RS_ST_RETRY_SWAP_IO,	/* retry wanted after swap I/O */
	RS_ST_RETRY_OTHER,	/* retry wanted, other reason */
	RS_ST_MMAP_LOCKED,	/* in the mmap_lock path of the arch handler */
	RS_ST_ABANDONED,	/* entry model: a retry the arch handler drops */
};

/*
 * Flags, used by the entry model (backend=auto, ftrace), which sees no
 * return value of handle_mm_fault(): what the pending attempt was.
 */
#define RS_TF_VMA	0x1	/* the pending attempt had FAULT_FLAG_VMA_LOCK */
#define RS_TF_USER	0x2	/* ... and FAULT_FLAG_USER */
#define RS_TF_MAJOR	0x4	/* this fault is already counted as major */
/* its retry had VM_FAULT_RETRY_VMA: the arch goes back to lock_vma_under_rcu() */
#define RS_TF_RETRY_VMA	0x8

#define RS_SLOT_BITS	12
#define RS_NR_SLOTS	BIT(RS_SLOT_BITS)

#define RS_TAG_BITS	16
#define RS_TAG_MASK	((1U << RS_TAG_BITS) - 1)
#define RS_ATTEMPT_SHIFT RS_TAG_BITS
#define RS_ATTEMPT_MAX	255U
#define RS_FLAGS_SHIFT	24
#define RS_STATE_SHIFT	28

/*
 * One task's slot: the state word above and, for the entry model, the
 * task's finished-fault count when its pending attempt started.  Kept
 * together so that a hook touches one cache line.
 */
struct rs_slot {
	u64 word;
	u32 flt;
};

extern struct rs_slot rs_slots[RS_NR_SLOTS];

struct rs_task_state {
	struct rs_slot *slot;	/* the task's slot (by pid) */
	u32 pid;
	unsigned int state;
	unsigned int flags;	/* RS_TF_* */
	unsigned int attempt;
	unsigned int tag;
	bool mine;		/* the slot held this task's state */
};

/*
 * The slot helpers are inline: every fault runs them, from handlers that
 * have been kept to one call into the module (README, Overhead).
 */
static __always_inline unsigned int rs_tag(unsigned long address)
{
	return (address >> PAGE_SHIFT) & RS_TAG_MASK;
}

static __always_inline struct rs_slot *rs_slot_of(u32 pid)
{
	return &rs_slots[hash_32(pid, RS_SLOT_BITS)];
}

static __always_inline unsigned int rs_word_state(u64 v)
{
	return (v >> RS_STATE_SHIFT) & 0xf;
}

static __always_inline u64 rs_word(u32 pid, unsigned int state,
				   unsigned int flags, unsigned int attempt,
				   unsigned int tag)
{
	return (u64)pid << 32 | (u64)(state & 0xf) << RS_STATE_SHIFT |
	       (u64)(flags & 0xf) << RS_FLAGS_SHIFT |
	       (u64)min(attempt, RS_ATTEMPT_MAX) << RS_ATTEMPT_SHIFT |
	       (tag & RS_TAG_MASK);
}

static __always_inline void rs_state_get(struct rs_task_state *ts,
					 unsigned long address)
{
	u32 pid = current->pid;
	struct rs_slot *slot = rs_slot_of(pid);
	u64 v = READ_ONCE(slot->word);

	ts->slot = slot;
	ts->pid = pid;
	ts->mine = (u32)(v >> 32) == pid;
	if (ts->mine) {
		ts->state = rs_word_state(v);
		ts->flags = (v >> RS_FLAGS_SHIFT) & 0xf;
		ts->attempt = (v >> RS_ATTEMPT_SHIFT) & RS_ATTEMPT_MAX;
		ts->tag = v & RS_TAG_MASK;
	} else {
		ts->state = RS_ST_NONE;
		ts->flags = 0;
		ts->attempt = 0;
		ts->tag = rs_tag(address);
	}
}

void rs_state_collision(void);

/*
 * Write @word to @slot, pid's, which held @old: a live state of another
 * task is a collision.
 */
static __always_inline void rs_slot_write(struct rs_slot *slot, u32 pid,
					  u64 old, u64 word)
{
	if (unlikely((u32)(old >> 32) != pid &&
		     rs_word_state(old) != RS_ST_NONE))
		rs_state_collision();
	WRITE_ONCE(slot->word, word);
}

static __always_inline void rs_state_set(const struct rs_task_state *ts)
{
	rs_slot_write(ts->slot, ts->pid, READ_ONCE(ts->slot->word),
		      rs_word(ts->pid, ts->state, ts->flags, ts->attempt,
			      ts->tag));
}

/* Does @state wait for a retry of the fault (file, swap or other)? */
static __always_inline bool rs_retry_state(unsigned int state)
{
	return state == RS_ST_RETRY_FILE_IO || state == RS_ST_RETRY_SWAP_IO ||
	       state == RS_ST_RETRY_OTHER;
}

/* The cause of a retry in retry state @state: file I/O, swap I/O, other. */
static __always_inline enum rs_cause rs_retry_cause(unsigned int state)
{
	return state == RS_ST_RETRY_FILE_IO ? RS_CAUSE_file_io :
	       state == RS_ST_RETRY_SWAP_IO ? RS_CAUSE_swap_io :
	       RS_CAUSE_other_retry;
}

static __always_inline bool rs_state_is_retry(const struct rs_task_state *ts)
{
	return rs_retry_state(ts->state);
}

/* Is the state about the page of @address (whatever it says)? */
static __always_inline bool rs_state_same_page(const struct rs_task_state *ts,
					       unsigned long address)
{
	return ts->mine && ts->tag == rs_tag(address);
}

/* Does the state describe an unfinished fault on the page of @address? */
static __always_inline bool rs_state_same_fault(const struct rs_task_state *ts,
						unsigned long address)
{
	return ts->mine && ts->state != RS_ST_NONE && ts->attempt > 0 &&
	       ts->tag == rs_tag(address);
}

/*
 * The task's count of finished faults: mm_account_fault() adds one to
 * maj_flt or min_flt for every handle_mm_fault() that returned neither
 * VM_FAULT_RETRY nor an error, and nothing else in the kernel does.
 */
static __always_inline u32 rs_task_flt(void)
{
	return (u32)(current->maj_flt + current->min_flt);
}

/* Entry model: note the count as an attempt starts (slot of @ts)... */
static __always_inline void rs_flt_mark(const struct rs_task_state *ts)
{
	WRITE_ONCE(ts->slot->flt, rs_task_flt());
}

/* ...and whether it is the same now: the attempt did not finish. */
static __always_inline bool rs_flt_unchanged(const struct rs_task_state *ts)
{
	return READ_ONCE(ts->slot->flt) == rs_task_flt();
}

void rs_state_clear_all(void);
enum rs_cause rs_state_fallback_cause(const struct rs_task_state *ts,
				      unsigned long address);

/* mmap_lock wait start, per task, for the tracepoint probes. */
void rs_lock_start_set(u64 now);
u64 rs_lock_start_take(void);

#endif /* RETRYSCOPE_TASK_STATE_H */

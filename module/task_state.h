/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 2 (per-task state): what the probes saw of a task's fault, and
 * the cause of a retry or of an mmap_lock fallback derived from it.
 *
 * A fault is a chain of probe hits on one task: lock_vma_under_rcu(),
 * handle_mm_fault() (with filemap_fault()/do_swap_page() inside), and on
 * fallback lock_mm_and_find_vma().  The probes leave what they saw in the
 * task's slot; a later probe on the same task reads it.  A slot's state is
 * one u64, written and read with WRITE_ONCE/READ_ONCE:
 *
 *   19..12 flags (RS_TF_*, the drop site in 19..17)
 *   11..8 state   7..0 attempt (saturates at 255)
 *
 * and beside it the page number of the fault's address, whole (s390x's
 * user addresses go up to 2^64 - 4 KiB: 52 bits of page number, more than
 * the word has room for).  0 is no state.  On a 32-bit arch the u64 is
 * read and written in two halves; that is safe because only the task
 * itself reads and writes its word and page, from probes that do not
 * nest, and its release runs after its end.
 *
 * A slot belongs to one task from its first probe hit to its end: the
 * table is open-addressed by the task_struct pointer, which no two live
 * tasks share (a pid may be reused, a task_struct is not freed before
 * sched_process_free, whose probe releases the slot).  Only the task
 * itself claims a slot for itself (cmpxchg on an empty or released one)
 * and only its own probes and its release write it, so a task never reads
 * another's state.  A released slot stays on the probe chains that pass
 * through it (it is never emptied while the module is loaded), so a
 * lookup that stops at an empty slot misses no claimed one.  When no slot
 * is free within RS_PROBE_MAX of the task's hash, its probe hits count
 * nothing but state_table_full.
 */
#ifndef RETRYSCOPE_TASK_STATE_H
#define RETRYSCOPE_TASK_STATE_H

#include <linux/bits.h>
#include <linux/build_bug.h>
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
	RS_ST_MMAP_LOCKED,	/* in lock_mm_and_find_vma() (taking mmap_lock) */
	RS_ST_MMAP_HELD,	/* lock_mm_and_find_vma() returned a VMA */
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
/* this attempt's start was counted (vma_lock_success, attempts_N) */
#define RS_TF_COUNTED	0x10
/* bits 7..5: where its ->fault dropped the lock (enum rs_drop_site) */
#define RS_TF_SITE_SHIFT	5
#define RS_TF_SITE_MASK		(0x7U << RS_TF_SITE_SHIFT)

static __always_inline unsigned int rs_tf_with_site(unsigned int flags,
						    enum rs_drop_site site)
{
	/* every site fits the 3 bits, so rs_tf_site() indexes rs_site_counters */
	BUILD_BUG_ON(RS_NR_SITES > (RS_TF_SITE_MASK >> RS_TF_SITE_SHIFT) + 1);
	return (flags & ~RS_TF_SITE_MASK) | (unsigned int)site << RS_TF_SITE_SHIFT;
}

static __always_inline enum rs_drop_site rs_tf_site(unsigned int flags)
{
	return (flags & RS_TF_SITE_MASK) >> RS_TF_SITE_SHIFT;
}

/*
 * 32,768 slots: on a kernel whose pid_max is 32,768 (Android's default),
 * more tasks than that cannot be alive at once.
 */
#define RS_SLOT_BITS	15
#define RS_NR_SLOTS	BIT(RS_SLOT_BITS)
#define RS_SLOT_MASK	(RS_NR_SLOTS - 1)
#define RS_PROBE_MAX	64
/* The owner of a slot a task released; 0 is a slot never claimed. */
#define RS_OWNER_FREE	1UL

#define RS_ATTEMPT_MAX	255U
#define RS_STATE_SHIFT	8
#define RS_FLAGS_SHIFT	12
#define RS_FLAGS_MASK	0xffU

/*
 * One task's slot: its owner, the state word above and its page number,
 * for the entry model the task's finished-fault count when its pending
 * attempt started, the counting epoch in which the word was written, and
 * for the lock-wait model the start of its pending mmap_lock request (0:
 * none).  Kept together (40 bytes on a 64-bit arch): a hook touches one
 * cache line, or two.
 */
struct rs_slot {
	unsigned long owner;	/* the task_struct, 0, or RS_OWNER_FREE */
	unsigned long page;	/* the word's page number (rs_tag()) */
	u64 word;
	u64 lock_start;
	u32 flt;
	u32 epoch;
};

extern struct rs_slot rs_slots[RS_NR_SLOTS];

/*
 * The start of a timed fault that retried (latency.c), beside the table:
 * only the ->fault probes touch it, never a minor fault's hooks.  Indexed
 * like rs_slots.  @start: ktime_get_mono_fast_ns() with the cause in bit
 * 0 (0: none).  The start is the fault's only while @flt is the task's
 * count of finished faults (rs_task_flt()) and @page the low 32 bits of
 * its page number: a retried fault usually finishes in the fault-around
 * (filemap_map_pages(), not probed by default) or is abandoned, and
 * leaves its start here; the next fault to finish moves the count on.
 */
struct rs_fault_start {
	u64 start;
	u32 flt;
	u32 page;
};

extern struct rs_fault_start rs_fault_start[RS_NR_SLOTS];

static __always_inline struct rs_fault_start *
rs_slot_fault_start(const struct rs_slot *slot)
{
	return &rs_fault_start[slot - rs_slots];
}

/*
 * The counting epoch: a reset starts a new one.  The counts a state's
 * fault made in an earlier epoch are gone, so nothing may be taken back
 * from them: rs_state_get() drops the flags that say what was counted
 * (RS_TF_COUNTED, RS_TF_MAJOR).  The fault itself is followed on: a retry
 * in flight at a reset is counted as a retry after it.  (A filter change
 * zeroes nothing and needs no epoch: a task taken in mid-fault has counted
 * nothing to take back, its state says so.)
 */
extern u32 rs_epoch;

struct rs_task_state {
	struct rs_slot *slot;	/* the task's slot */
	unsigned int state;
	unsigned int flags;	/* RS_TF_* */
	unsigned int attempt;
	unsigned long tag;	/* the page number the state is about */
	bool mine;		/* the slot held a state of this task */
};

/*
 * The slot helpers are inline: every fault runs them, from handlers that
 * have been kept to one call into the module (docs/overhead.md).
 */
static __always_inline unsigned long rs_tag(unsigned long address)
{
	return address >> PAGE_SHIFT;
}

/* @owner's slot, or NULL if it has none. */
static __always_inline struct rs_slot *rs_slot_find(unsigned long owner)
{
	unsigned int i = hash_long(owner, RS_SLOT_BITS), n;

	for (n = 0; n < RS_PROBE_MAX; n++, i = (i + 1) & RS_SLOT_MASK) {
		unsigned long o = READ_ONCE(rs_slots[i].owner);

		if (o == owner)
			return &rs_slots[i];
		if (!o)
			return NULL;
	}
	return NULL;
}

struct rs_slot *rs_slot_claim(unsigned long owner);

/*
 * The current task's slot, claimed on its first probe hit; NULL when the
 * table has no room for it (counted in state_table_full).
 */
static __always_inline struct rs_slot *rs_slot_current(void)
{
	unsigned long owner = (unsigned long)current;
	struct rs_slot *slot = rs_slot_find(owner);

	return likely(slot) ? slot : rs_slot_claim(owner);
}

static __always_inline unsigned int rs_word_state(u64 v)
{
	return (v >> RS_STATE_SHIFT) & 0xf;
}

static __always_inline u64 rs_word(unsigned int state, unsigned int flags,
				   unsigned int attempt)
{
	return (u64)(flags & RS_FLAGS_MASK) << RS_FLAGS_SHIFT |
	       (u64)(state & 0xf) << RS_STATE_SHIFT |
	       min(attempt, RS_ATTEMPT_MAX);
}

/*
 * Read the current task's state into @ts.  False when the task has no
 * slot: the caller counts nothing.
 */
static __always_inline bool rs_state_get(struct rs_task_state *ts,
					 unsigned long address)
{
	struct rs_slot *slot = rs_slot_current();
	u64 v;

	if (unlikely(!slot))
		return false;
	v = READ_ONCE(slot->word);
	ts->slot = slot;
	ts->mine = v != 0;
	if (ts->mine) {
		ts->state = rs_word_state(v);
		ts->flags = (v >> RS_FLAGS_SHIFT) & RS_FLAGS_MASK;
		ts->attempt = v & RS_ATTEMPT_MAX;
		ts->tag = READ_ONCE(slot->page);
		if (unlikely(READ_ONCE(slot->epoch) != READ_ONCE(rs_epoch)))
			ts->flags &= ~(RS_TF_COUNTED | RS_TF_MAJOR);
	} else {
		ts->state = RS_ST_NONE;
		ts->flags = 0;
		ts->attempt = 0;
		ts->tag = rs_tag(address);
	}
	return true;
}

static __always_inline void rs_state_set(const struct rs_task_state *ts)
{
	WRITE_ONCE(ts->slot->page, ts->tag);
	WRITE_ONCE(ts->slot->word, rs_word(ts->state, ts->flags, ts->attempt));
	WRITE_ONCE(ts->slot->epoch, READ_ONCE(rs_epoch));
}

/* Is the task in the arch handler's mmap_lock path (@state)? */
static __always_inline bool rs_mmap_state(unsigned int state)
{
	return state == RS_ST_MMAP_LOCKED || state == RS_ST_MMAP_HELD;
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

void rs_state_new_epoch(void);
void rs_slot_release(unsigned long owner);
void rs_state_lock_mm_returned(bool vma);
enum rs_cause rs_state_fallback_cause(const struct rs_task_state *ts,
				      unsigned long address);

#endif /* RETRYSCOPE_TASK_STATE_H */

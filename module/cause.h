/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task fault state, and the cause of a retry or of an mmap_lock
 * fallback derived from it.
 *
 * A fault is a chain of probe hits on one task: lock_vma_under_rcu(),
 * handle_mm_fault() (with filemap_fault()/do_swap_page() inside), and on
 * fallback lock_mm_and_find_vma().  The probes leave what they saw in a slot
 * of a small hash table indexed by pid; a later probe on the same task reads
 * it.  A slot is one u64, written and read with WRITE_ONCE/READ_ONCE:
 *
 *   63..32 pid   31..28 state   27..24 flags   23..16 attempt
 *   15..0 page tag of the address (the page number's low 16 bits)
 *
 * Two live tasks that hash to the same slot overwrite each other's state;
 * that is counted in state_collisions and costs at most a misattributed
 * cause, never a crash.
 */
#ifndef RETRYSCOPE_CAUSE_H
#define RETRYSCOPE_CAUSE_H

#include <linux/types.h>

/* Causes, as carried by the trace events and used in counter names. */
enum rs_cause {
	RS_CAUSE_NONE,
	RS_CAUSE_VMA_ABORT,	/* lock_vma_under_rcu() returned NULL */
	RS_CAUSE_FILE_IO,	/* filemap_fault() returned VM_FAULT_RETRY */
	RS_CAUSE_SWAP_IO,	/* do_swap_page() returned VM_FAULT_RETRY */
	RS_CAUSE_OTHER_RETRY,	/* any other VM_FAULT_RETRY */
	RS_CAUSE_NO_VMA_LOCK,	/* no per-VMA lock attempt preceded it */
};

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

struct rs_task_state {
	u32 pid;
	unsigned int state;
	unsigned int flags;	/* RS_TF_* */
	unsigned int attempt;
	unsigned int tag;
	bool mine;		/* the slot held this task's state */
};

void rs_state_get(struct rs_task_state *ts, unsigned long address);
void rs_state_set(const struct rs_task_state *ts);
void rs_state_clear_all(void);
bool rs_state_is_retry(const struct rs_task_state *ts);
bool rs_state_same_page(const struct rs_task_state *ts, unsigned long address);
bool rs_state_same_fault(const struct rs_task_state *ts, unsigned long address);
enum rs_cause rs_state_fallback_cause(const struct rs_task_state *ts,
				      unsigned long address);

/* mmap_lock wait start, per task, for the tracepoint probes. */
void rs_count_retry_kept(const struct rs_task_state *ts, unsigned long address);
void rs_flt_mark(const struct rs_task_state *ts);
bool rs_flt_unchanged(const struct rs_task_state *ts);
void rs_lock_start_set(u64 now);
u64 rs_lock_start_take(void);

/* Counting filter (module parameters and debugfs "filter"). */
bool rs_filter_match(void);
int rs_filter_set_tgid(s32 tgid);
int rs_filter_set_comm(const char *comm);
void rs_filter_clear(void);
int rs_filter_show(char *buf, size_t size);

const char *rs_cause_name(enum rs_cause c);

#endif /* RETRYSCOPE_CAUSE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task fault state and the counting filter.  See cause.h.
 */
#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/mm.h>

#include "cause.h"
#include "stats.h"
#include "trace.h"

#define RS_SLOT_BITS	12
#define RS_NR_SLOTS	BIT(RS_SLOT_BITS)

#define RS_TAG_BITS	16
#define RS_TAG_MASK	((1U << RS_TAG_BITS) - 1)
#define RS_ATTEMPT_SHIFT RS_TAG_BITS
#define RS_ATTEMPT_MAX	255U
#define RS_FLAGS_SHIFT	24
#define RS_STATE_SHIFT	28

static u64 rs_slots[RS_NR_SLOTS];
static u32 rs_slot_flt[RS_NR_SLOTS];
static u64 rs_lock_start_ts[RS_NR_SLOTS];
static u32 rs_lock_start_pid[RS_NR_SLOTS];

static inline unsigned int rs_slot(u32 pid)
{
	return hash_32(pid, RS_SLOT_BITS);
}

static inline unsigned int rs_tag(unsigned long address)
{
	return (address >> PAGE_SHIFT) & RS_TAG_MASK;
}

void rs_state_get(struct rs_task_state *ts, unsigned long address)
{
	u32 pid = current->pid;
	u64 v = READ_ONCE(rs_slots[rs_slot(pid)]);

	ts->pid = pid;
	ts->mine = (u32)(v >> 32) == pid;
	if (ts->mine) {
		ts->state = (v >> RS_STATE_SHIFT) & 0xf;
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

void rs_state_set(const struct rs_task_state *ts)
{
	u64 *slot = &rs_slots[rs_slot(ts->pid)];
	u64 old = READ_ONCE(*slot);
	unsigned int attempt = min(ts->attempt, RS_ATTEMPT_MAX);

	if ((u32)(old >> 32) != ts->pid &&
	    ((old >> RS_STATE_SHIFT) & 0xf) != RS_ST_NONE)
		rs_inc(RS_state_collisions);
	WRITE_ONCE(*slot, (u64)ts->pid << 32 |
		   (u64)(ts->state & 0xf) << RS_STATE_SHIFT |
		   (u64)(ts->flags & 0xf) << RS_FLAGS_SHIFT |
		   (u64)attempt << RS_ATTEMPT_SHIFT |
		   (ts->tag & RS_TAG_MASK));
}

void rs_state_clear_all(void)
{
	unsigned int i;

	for (i = 0; i < RS_NR_SLOTS; i++) {
		WRITE_ONCE(rs_slots[i], 0);
		WRITE_ONCE(rs_lock_start_pid[i], 0);
	}
}

bool rs_state_is_retry(const struct rs_task_state *ts)
{
	return ts->state == RS_ST_RETRY_FILE_IO ||
	       ts->state == RS_ST_RETRY_SWAP_IO ||
	       ts->state == RS_ST_RETRY_OTHER;
}

/* Is the state about the page of @address (whatever it says)? */
bool rs_state_same_page(const struct rs_task_state *ts, unsigned long address)
{
	return ts->mine && ts->tag == rs_tag(address);
}

/* Does the state describe an unfinished fault on the page of @address? */
bool rs_state_same_fault(const struct rs_task_state *ts, unsigned long address)
{
	return ts->mine && ts->state != RS_ST_NONE && ts->attempt > 0 &&
	       ts->tag == rs_tag(address);
}

enum rs_cause rs_state_fallback_cause(const struct rs_task_state *ts,
				      unsigned long address)
{
	if (!ts->mine || ts->tag != rs_tag(address))
		return RS_CAUSE_NO_VMA_LOCK;
	switch (ts->state) {
	case RS_ST_VMA_ABORT:
		return RS_CAUSE_VMA_ABORT;
	case RS_ST_RETRY_FILE_IO:
		return RS_CAUSE_FILE_IO;
	case RS_ST_RETRY_SWAP_IO:
		return RS_CAUSE_SWAP_IO;
	case RS_ST_RETRY_OTHER:
		return RS_CAUSE_OTHER_RETRY;
	default:
		return RS_CAUSE_NO_VMA_LOCK;
	}
}

/*
 * The task's count of finished faults: mm_account_fault() adds one to
 * maj_flt or min_flt for every handle_mm_fault() that returned neither
 * VM_FAULT_RETRY nor an error, and nothing else in the kernel does.
 */
static inline u32 rs_task_flt(void)
{
	return (u32)(current->maj_flt + current->min_flt);
}

/* Entry model: note the count as an attempt starts (slot of @ts). */
void rs_flt_mark(const struct rs_task_state *ts)
{
	WRITE_ONCE(rs_slot_flt[rs_slot(ts->pid)], rs_task_flt());
}

/* ...and whether it is the same now: the attempt did not finish. */
bool rs_flt_unchanged(const struct rs_task_state *ts)
{
	return READ_ONCE(rs_slot_flt[rs_slot(ts->pid)]) == rs_task_flt();
}

/*
 * The pending retry in @ts came back to the VMA lock (the series) instead
 * of mmap_lock: count it by the cause of the retry.  Both models.
 */
void rs_count_retry_kept(const struct rs_task_state *ts, unsigned long address)
{
	enum rs_cause cause = rs_state_fallback_cause(ts, address);

	rs_inc(RS_retry_kept_vma_lock);
	if (cause == RS_CAUSE_FILE_IO)
		rs_inc(RS_retry_kept_after_file_io);
	else if (cause == RS_CAUSE_SWAP_IO)
		rs_inc(RS_retry_kept_after_swap_io);
	else
		rs_inc(RS_retry_kept_after_other_retry);
	trace_retryscope_retry_kept(address, cause, ts->attempt);
}

void rs_lock_start_set(u64 now)
{
	u32 pid = current->pid;
	unsigned int i = rs_slot(pid);

	WRITE_ONCE(rs_lock_start_pid[i], pid);
	WRITE_ONCE(rs_lock_start_ts[i], now);
}

/* The start time of this task's pending mmap_lock request, or 0. */
u64 rs_lock_start_take(void)
{
	u32 pid = current->pid;
	unsigned int i = rs_slot(pid);
	u64 ts;

	if (READ_ONCE(rs_lock_start_pid[i]) != pid)
		return 0;
	ts = READ_ONCE(rs_lock_start_ts[i]);
	WRITE_ONCE(rs_lock_start_pid[i], 0);
	return ts;
}

/*
 * The filter.  Handlers read it without a lock: a change made while a fault
 * is being counted may count that one fault under the old filter.
 */
static s32 rs_filter_tgid;
static char rs_filter_comm[TASK_COMM_LEN];
static unsigned int rs_filter_comm_len;

bool rs_filter_match(void)
{
	s32 tgid = READ_ONCE(rs_filter_tgid);
	unsigned int len = READ_ONCE(rs_filter_comm_len);

	if (tgid && current->tgid != tgid)
		return false;
	if (len && strncmp(current->comm, rs_filter_comm, len))
		return false;
	return true;
}

int rs_filter_set_tgid(s32 tgid)
{
	if (tgid < 0)
		return -EINVAL;
	WRITE_ONCE(rs_filter_comm_len, 0);
	WRITE_ONCE(rs_filter_tgid, tgid);
	return 0;
}

/* @comm is a prefix of the task's comm, e.g. "fl-" for every faultload thread. */
int rs_filter_set_comm(const char *comm)
{
	size_t len = strlen(comm);

	if (!len || len >= TASK_COMM_LEN)
		return -EINVAL;
	WRITE_ONCE(rs_filter_tgid, 0);
	WRITE_ONCE(rs_filter_comm_len, 0);
	/* Readers see len 0 (no filter) before the prefix changes... */
	smp_wmb();
	memset(rs_filter_comm, 0, sizeof(rs_filter_comm));
	memcpy(rs_filter_comm, comm, len);
	/* ...and the whole new prefix before its length. */
	smp_wmb();
	WRITE_ONCE(rs_filter_comm_len, len);
	return 0;
}

void rs_filter_clear(void)
{
	WRITE_ONCE(rs_filter_tgid, 0);
	WRITE_ONCE(rs_filter_comm_len, 0);
}

int rs_filter_show(char *buf, size_t size)
{
	s32 tgid = READ_ONCE(rs_filter_tgid);

	if (tgid)
		return scnprintf(buf, size, "tgid %d\n", tgid);
	if (READ_ONCE(rs_filter_comm_len))
		return scnprintf(buf, size, "comm %s\n", rs_filter_comm);
	return scnprintf(buf, size, "none\n");
}

const char *rs_cause_name(enum rs_cause c)
{
	static const char * const names[] = {
		[RS_CAUSE_NONE] = "none",
		[RS_CAUSE_VMA_ABORT] = "vma_abort",
		[RS_CAUSE_FILE_IO] = "file_io",
		[RS_CAUSE_SWAP_IO] = "swap_io",
		[RS_CAUSE_OTHER_RETRY] = "other_retry",
		[RS_CAUSE_NO_VMA_LOCK] = "no_vma_lock",
	};

	return c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

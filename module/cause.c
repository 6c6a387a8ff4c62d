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

struct rs_slot rs_slots[RS_NR_SLOTS];
static u64 rs_lock_start_ts[RS_NR_SLOTS];
static u32 rs_lock_start_pid[RS_NR_SLOTS];

/* Out of line: rare, and rs_inc() is not visible in cause.h. */
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

/*
 * The filter.  Handlers read it without a lock: a change made while a fault
 * is being counted may count that one fault under the old filter.
 */
s32 rs_filter_tgid;
static char rs_filter_comm[TASK_COMM_LEN];
unsigned int rs_filter_comm_len;

bool rs_filter_comm_match(unsigned int len)
{
	return !strncmp(current->comm, rs_filter_comm, len);
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

/* chains: who a long mmap_lock wait waited for, rebuilt from a trace.
 *
 * Fed, in time order, every task's mmap_lock events (start_locking,
 * acquire_returned, released), sched_switch and the module's
 * retryscope_mmap_fallback, it keeps per mm a window of recent holds and
 * waits and per task its recent off-CPU intervals.  When an acquisition
 * waited threshold_ns or longer, its chain is the tasks that, during that
 * wait [start, acquire), held the same mm's lock (role "held") or waited
 * for it and got it first (role "queued": an rwsem waiter ahead, e.g. a
 * writer that makes later readers queue behind it, or a reader that a
 * wakeup granted the lock but that has not run yet: the trace says it
 * acquired only when it runs).
 * For each: its comm, priority (sched_switch's prio: < 100 real-time,
 * 120 + nice otherwise; -1 unknown), read or write, why it held the lock
 * (a fault's fallback after file I/O, swap I/O, ... as the module's
 * fallback event said just before; else a write acquisition, i.e. a
 * syscall such as mmap/munmap/mprotect, or a read outside a fault
 * fallback), how long its hold or wait overlapped the chain's wait, and
 * how much of that overlap it was off CPU: preempted (switched out
 * runnable; for a queued reader, granted the lock but not running) or
 * sleeping.
 *
 * Kept: the CH_KEEP longest chains in full, and totals by (waiter class,
 * member class, role, reason), where a class is the comm without its
 * thread number.  A chain whose window reaches back past what the
 * history still holds is marked truncated.
 */
#ifndef RS_CHAINS_H
#define RS_CHAINS_H

#include <stddef.h>
#include <stdint.h>

#define CH_KEEP 8          /* longest chains kept in full */
#define CH_MAX_MEMBERS 16  /* members written per chain */
#define CH_COMM 16

enum ch_role { CH_HELD, CH_QUEUED };

/* Why a member held or wanted the lock. */
enum ch_reason {
	CH_R_FALLBACK,  /* a fault's fallback; cause in ch_member.cause */
	CH_R_WRITE,     /* a write acquisition: mmap, munmap, mprotect, ... */
	CH_R_READ,      /* a read acquisition that was no fault fallback */
	CH_NREASONS
};

struct ch_member {
	int pid, prio, write;
	char comm[CH_COMM];
	enum ch_role role;
	enum ch_reason reason;
	int cause;             /* CH_R_FALLBACK: the module's cause number */
	uint64_t overlap_ns;   /* of its hold (or wait) with the chain's wait */
	uint64_t preempted_ns; /* off CPU runnable during the overlap */
	uint64_t sleeping_ns;  /* off CPU sleeping during the overlap */
};

struct ch_chain {
	int pid, prio, write;
	char comm[CH_COMM];
	uint64_t start_ns, wait_ns;
	uint64_t uncovered_ns; /* of the wait, when no member held or was ahead:
				* the lock was free, the waiter not yet running */
	size_t n;        /* members (at most CH_MAX_MEMBERS written) */
	size_t n_all;    /* members found */
	int truncated;
	struct ch_member m[CH_MAX_MEMBERS];
};

struct ch_total {
	char waiter[CH_COMM], member[CH_COMM];
	enum ch_role role;
	enum ch_reason reason;
	int cause;
	uint64_t chains;        /* chains with such a member */
	uint64_t wait_ns;       /* those chains' waits */
	uint64_t overlap_ns, preempted_ns, sleeping_ns;
};

struct ch_result {
	uint64_t threshold_ns;
	uint64_t waits;          /* acquisitions that waited >= threshold */
	uint64_t waits_1ms;      /* of which >= 1 ms */
	uint64_t truncated;      /* chains marked truncated */
	uint64_t wait_ns, uncovered_ns; /* summed over the chains */
	struct ch_chain longest[CH_KEEP]; /* longest first */
	size_t nlongest;
	struct ch_total *totals;
	size_t ntotals;
};

struct ch_ctx;

/* A hold or a wait that ended, for ch_set_sink(). */
struct ch_span {
	int pid, write, hold; /* hold: 1 a hold, 0 a wait */
	uint64_t mm, start, end;
	enum ch_reason reason;
	int cause;
};
typedef void (*ch_sink_fn)(void *arg, const struct ch_span *s);

struct ch_ctx *ch_new(uint64_t threshold_ns);
/* Call fn with every hold and wait as it ends (rs-trace --perfetto). */
void ch_set_sink(struct ch_ctx *c, ch_sink_fn fn, void *arg);
/* A task's last known prio (sched_switch), -1 if none. */
int ch_task_prio(struct ch_ctx *c, int pid);
void ch_free(struct ch_ctx *c);

/* The events.  comm may be NULL (unknown).  runnable: sched_switch's
 * prev_state had no sleeping state (preempted, or yielded).  ch_fallback:
 * the module said the task's fault goes on under mmap_lock (its fallback
 * event, or a retry that did not keep the VMA lock); its next successful
 * read acquisition is that fault's. */
void ch_switch(struct ch_ctx *c, uint64_t ts, int prev_pid, int prev_prio, int runnable,
	       int next_pid, int next_prio);
void ch_fallback(struct ch_ctx *c, uint64_t ts, int pid, int cause);
void ch_start(struct ch_ctx *c, uint64_t ts, int pid, const char *comm, uint64_t mm,
	      int write);
void ch_acquire(struct ch_ctx *c, uint64_t ts, int pid, const char *comm, uint64_t mm,
		int write, int success);
void ch_release(struct ch_ctx *c, uint64_t ts, int pid, uint64_t mm, int write);

/* What was found; valid until ch_free().  -1 from ch_new/ch_* never: an
 * allocation failure sets oom and stops the analysis. */
const struct ch_result *ch_result(struct ch_ctx *c);
int ch_oom(const struct ch_ctx *c);

/* The class of a comm: without a trailing thread number, so that fl-io-3,
 * fl-io3 and fl-io are all fl-io. */
void ch_comm_class(const char *comm, char *out, size_t outsz);

const char *ch_role_name(enum ch_role r);
const char *ch_reason_name(enum ch_reason r);

#endif

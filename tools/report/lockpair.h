/* lockpair: pair mmap_lock trace events into acquisitions and waits.
 *
 * Linux 7.3 (include/linux/mmap_lock.h) emits, per task:
 *   mmap_read_lock / mmap_write_lock / *_killable / mmap_read_trylock:
 *       mmap_lock_start_locking(write)  then  mmap_lock_acquire_returned(write, success)
 *   mmap_write_downgrade:
 *       mmap_lock_acquire_returned(write=false, success=true) with no start
 *   a killable lock that was interrupted, or a trylock that failed:
 *       acquire_returned with success=false
 *
 * Rules (per pid and per mode, read=0 / write=1):
 *   start            sets the pending start timestamp; if one was already
 *                    pending (an acquire_returned was lost) the old one is
 *                    replaced and counted as unpaired_start.
 *   acquire success  with a pending start: a blocking acquisition,
 *                    wait = ts(acquire) - ts(start); without one: "trylock"
 *                    (an acquisition that did not go through start_locking:
 *                    in 7.3 that is mmap_write_downgrade, or a lock whose
 *                    start fell before the trace began), no wait.
 *   acquire failure  counted as failed (not an acquisition); clears the
 *                    pending start.
 */
#ifndef RS_LOCKPAIR_H
#define RS_LOCKPAIR_H

#include <stdint.h>

#define LP_NBUCKETS 8 /* [0,1) [1,10) ... [100000,1000000) [1000000,+) us */

enum lp_mode { LP_READ = 0, LP_WRITE = 1 };

struct lp_mode_stats {
	uint64_t acquire;        /* blocking acquisitions (start + success) */
	uint64_t trylock;        /* successful acquire_returned without a start */
	uint64_t failed;         /* acquire_returned with success == 0 */
	uint64_t unpaired_start; /* start replaced by a later start */
	uint64_t wait_ns_total;
	uint64_t wait_ns_max;
	uint64_t wait_us_hist[LP_NBUCKETS];
};

struct lp_stats {
	struct lp_mode_stats mode[2];
};

enum lp_kind { LP_ACQUIRE, LP_TRYLOCK, LP_FAILED, LP_UNPAIRED_START, LP_NONE };

struct lp_outcome {
	enum lp_kind kind;
	enum lp_mode mode;
	uint64_t wait_ns; /* LP_ACQUIRE only */
};

struct lp_tracker;

struct lp_tracker *lp_new(void);
void lp_free(struct lp_tracker *t);

/* Feed one event; returns what it meant (LP_NONE for a start that just
 * became pending). */
struct lp_outcome lp_start(struct lp_tracker *t, int pid, int write, uint64_t ts);
struct lp_outcome lp_acquire(struct lp_tracker *t, int pid, int write, int success,
			     uint64_t ts);

/* Add an outcome to a stats block. */
void lp_account(struct lp_stats *s, const struct lp_outcome *o);

/* Decade bucket of a wait in ns: 0 for < 1 us ... 7 for >= 1 s. */
int lp_bucket(uint64_t wait_ns);

/* Number of starts still pending (e.g. at the end of a trace). */
uint64_t lp_pending(const struct lp_tracker *t);

#endif

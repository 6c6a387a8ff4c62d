/* Unit tests of lockpair.c. */
#include "lockpair.h"
#include "tap.h"

static struct lp_stats st;

static void start(struct lp_tracker *t, int pid, int w, uint64_t ts)
{
	struct lp_outcome o = lp_start(t, pid, w, ts);
	lp_account(&st, &o);
}

static void acq(struct lp_tracker *t, int pid, int w, int ok, uint64_t ts)
{
	struct lp_outcome o = lp_acquire(t, pid, w, ok, ts);
	lp_account(&st, &o);
}

static void reset(struct lp_tracker **t)
{
	lp_free(*t);
	*t = lp_new();
	st = (struct lp_stats){ 0 };
}

int main(void)
{
	struct lp_tracker *t = lp_new();
	struct lp_mode_stats *r = &st.mode[LP_READ], *w = &st.mode[LP_WRITE];

	/* plain lock: start at 1000, acquired at 3500 -> 2.5 us wait */
	start(t, 10, 0, 1000);
	acq(t, 10, 0, 1, 3500);
	CHECK(r->acquire == 1 && r->trylock == 0, "plain lock is one acquisition");
	CHECK(r->wait_ns_total == 2500 && r->wait_ns_max == 2500, "plain lock wait 2500 ns");
	CHECK(r->wait_us_hist[1] == 1, "2.5 us in bucket [1,10)");
	CHECK(lp_pending(t) == 0, "nothing pending after the pair");

	/* trylock: acquire_returned without a start */
	reset(&t);
	acq(t, 10, 0, 1, 5000);
	CHECK(r->trylock == 1 && r->acquire == 0 && r->wait_ns_total == 0,
	      "acquire without start counts as trylock, no wait");
	/* a start left over from before is consumed, the next one is a trylock */
	start(t, 10, 0, 6000);
	acq(t, 10, 0, 1, 6100);
	acq(t, 10, 0, 1, 7000);
	CHECK(r->acquire == 1 && r->trylock == 2, "start is consumed by one acquire");

	/* failed killable lock: start then success=0 */
	reset(&t);
	start(t, 11, 1, 100);
	acq(t, 11, 1, 0, 20000000);
	CHECK(w->failed == 1 && w->acquire == 0, "failed killable lock is failed");
	CHECK(w->wait_ns_total == 0, "failed lock adds no wait");
	acq(t, 11, 1, 1, 20000100);
	CHECK(w->trylock == 1, "failure cleared the pending start");

	/* double start: the first is lost */
	reset(&t);
	start(t, 12, 0, 1000);
	start(t, 12, 0, 5000);
	acq(t, 12, 0, 1, 5500);
	CHECK(r->unpaired_start == 1, "double start counted as unpaired_start");
	CHECK(r->acquire == 1 && r->wait_ns_total == 500, "wait from the second start");

	/* interleaved tasks */
	reset(&t);
	start(t, 1, 0, 0);
	start(t, 2, 0, 100);
	acq(t, 2, 0, 1, 200);    /* pid 2 waits 100 */
	acq(t, 1, 0, 1, 50000);  /* pid 1 waits 50000 */
	CHECK(r->acquire == 2 && r->wait_ns_total == 50100, "interleaved tasks pair by pid");
	CHECK(r->wait_ns_max == 50000, "max wait 50 us");
	CHECK(r->wait_us_hist[0] == 1 && r->wait_us_hist[2] == 1, "buckets [0,1) and [10,100)");

	/* read vs write on one task */
	reset(&t);
	start(t, 3, 1, 0);
	start(t, 3, 0, 10);
	acq(t, 3, 0, 1, 1010);      /* read: 1000 ns */
	acq(t, 3, 1, 1, 2000000);   /* write: 2 ms */
	CHECK(r->acquire == 1 && r->wait_ns_total == 1000, "read pairs with read");
	CHECK(w->acquire == 1 && w->wait_ns_total == 2000000, "write pairs with write");
	CHECK(w->wait_us_hist[4] == 1, "2 ms in [1000,10000) us");
	CHECK(r->unpaired_start == 0 && w->unpaired_start == 0, "modes do not collide");

	/* buckets at their edges */
	CHECK(lp_bucket(999) == 0 && lp_bucket(1000) == 1, "1 us edge");
	CHECK(lp_bucket(999999999) == 6 && lp_bucket(1000000000) == 7, "1 s edge");
	CHECK(lp_bucket(UINT64_MAX) == 7, "huge wait in last bucket");

	/* many tasks: the table grows and keeps them apart */
	reset(&t);
	for (int p = 1; p <= 5000; p++)
		start(t, p, 0, (uint64_t)p);
	CHECK(lp_pending(t) == 5000, "5000 pending starts after growth");
	for (int p = 1; p <= 5000; p++)
		acq(t, p, 0, 1, (uint64_t)p + 10);
	CHECK(r->acquire == 5000 && r->wait_ns_total == 50000, "5000 tasks paired");
	lp_free(t);
	return tap_done();
}

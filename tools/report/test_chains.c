/* Unit tests of chains.c on hand-made traces: the two chains issue 16
 * names (a writer queued behind a preempted reader; a reader queued behind
 * a waiting writer), and what must not be a chain. */
#include "chains.h"
#include "tap.h"

#include <string.h>

#define MM 0xff11000000001000ull
#define OTHER_MM 0xff11000000002000ull
#define US 1000ull
#define MS 1000000ull
#define FILE_IO 2 /* a cause number, as the module's fallback event gives it */

static const struct ch_member *member(const struct ch_chain *ch, int pid, enum ch_role role,
				      int write)
{
	for (size_t i = 0; i < ch->n; i++)
		if (ch->m[i].pid == pid && ch->m[i].role == role && ch->m[i].write == write)
			return &ch->m[i];
	return NULL;
}

static const struct ch_total *total(const struct ch_result *r, const char *waiter,
				    const char *mem, enum ch_role role, enum ch_reason reason)
{
	for (size_t i = 0; i < r->ntotals; i++) {
		const struct ch_total *t = &r->totals[i];
		if (!strcmp(t->waiter, waiter) && !strcmp(t->member, mem) && t->role == role &&
		    t->reason == reason)
			return t;
	}
	return NULL;
}

/* fl-io-1 (pid 11, nice 19) holds mmap_lock for read after a file I/O
 * fallback and is preempted by fl-cpu-1 (pid 30, nice 0); fl-writer (pid 20)
 * queues for write behind it for 5 ms. */
static void writer_behind_preempted_reader(void)
{
	struct ch_ctx *c = ch_new(100 * US);
	ch_switch(c, 50, 0, 120, 1, 11, 139);
	ch_fallback(c, 90, 11, FILE_IO);
	ch_start(c, 100, 11, "fl-io-1", MM, 0);
	ch_acquire(c, 110, 11, "fl-io-1", MM, 0, 1);
	ch_switch(c, 200, 11, 139, 1, 30, 120);     /* preempted while holding */
	ch_start(c, 300, 20, "fl-writer", MM, 1);   /* the writer queues */
	ch_start(c, 400, 40, "fl-hi", OTHER_MM, 0); /* another mm: no part of it */
	ch_acquire(c, 500, 40, "fl-hi", OTHER_MM, 0, 1);
	ch_switch(c, 5 * MS + 200, 30, 120, 1, 11, 139);
	ch_release(c, 5 * MS + 300, 11, MM, 0);
	ch_acquire(c, 5 * MS + 310, 20, "fl-writer", MM, 1, 1);
	ch_release(c, 5 * MS + 400, 20, MM, 1);

	const struct ch_result *r = ch_result(c);
	CHECK(r->waits == 1 && r->waits_1ms == 1 && r->nlongest == 1,
	      "one chain (the writer's 5 ms wait); the 100 ns waits are none");
	const struct ch_chain *ch = &r->longest[0];
	CHECK(ch->pid == 20 && ch->write == 1 && ch->wait_ns == 5 * MS + 10 &&
		      !strcmp(ch->comm, "fl-writer"),
	      "the chain's waiter: fl-writer, write, 5,000,010 ns");
	CHECK(ch->n == 1 && !ch->truncated, "one member, not truncated (got %zu)", ch->n);
	CHECK(ch->uncovered_ns == 10, "10 ns of the wait with nobody ahead (%llu)",
	      (unsigned long long)ch->uncovered_ns);
	const struct ch_member *m = member(ch, 11, CH_HELD, 0);
	CHECK(m && m->reason == CH_R_FALLBACK && m->cause == FILE_IO && m->prio == 139,
	      "member: fl-io-1 held it for read, a fault fallback after file I/O, prio 139");
	CHECK(m && m->overlap_ns == 5 * MS && m->preempted_ns == 5 * MS - 100 &&
		      m->sleeping_ns == 0,
	      "held 5 ms of the wait, preempted 4,999,900 ns of it, never sleeping");
	const struct ch_total *t = total(r, "fl-writer", "fl-io", CH_HELD, CH_R_FALLBACK);
	CHECK(t && t->chains == 1 && t->wait_ns == 5 * MS + 10 && t->preempted_ns == 5 * MS - 100,
	      "total fl-writer <- fl-io (held, fault fallback): 1 chain, its preemption");
	CHECK(r->ntotals == 1, "no other total (%zu)", r->ntotals);
	ch_free(c);
}

/* fl-io-1 (pid 11) holds read and sleeps 1 ms; fl-writer (pid 20) queues
 * for write; then fl-hi (pid 40, SCHED_FIFO 10: prio 89) queues for read
 * behind the waiting writer. */
static void reader_behind_waiting_writer(void)
{
	struct ch_ctx *c = ch_new(100 * US);
	ch_switch(c, 10, 0, 120, 1, 40, 89);
	ch_switch(c, 20, 40, 89, 0, 11, 139);
	ch_acquire(c, 1000, 11, "fl-io-1", MM, 0, 1); /* a trylock: no start */
	ch_start(c, 2000, 20, "fl-writer", MM, 1);
	ch_start(c, 3000, 40, "fl-hi", MM, 0);
	ch_switch(c, 3500, 11, 139, 0, 0, 120); /* sleeps holding it */
	ch_switch(c, MS + 3500, 0, 120, 1, 11, 139);
	ch_release(c, MS + 4000, 11, MM, 0);
	ch_acquire(c, MS + 4010, 20, "fl-writer", MM, 1, 1);
	ch_release(c, MS + 4100, 20, MM, 1);
	ch_acquire(c, MS + 4110, 40, "fl-hi", MM, 0, 1);
	ch_release(c, MS + 4200, 40, MM, 0);

	const struct ch_result *r = ch_result(c);
	CHECK(r->waits == 2 && r->nlongest == 2, "two chains: the writer's and fl-hi's");
	const struct ch_chain *w = &r->longest[0], *h = &r->longest[1];
	CHECK(w->pid == 20 && w->wait_ns == MS + 2010 && h->pid == 40 && h->wait_ns == MS + 1110,
	      "longest first: writer 1,002,010 ns, fl-hi 1,001,110 ns");
	CHECK(h->prio == 89, "fl-hi's prio 89 (SCHED_FIFO 10)");
	const struct ch_member *q = member(h, 20, CH_QUEUED, 1);
	CHECK(q && q->reason == CH_R_WRITE && q->overlap_ns == MS + 1010,
	      "fl-hi: fl-writer queued ahead (write) for 1,001,010 ns of its wait");
	const struct ch_member *hw = member(h, 20, CH_HELD, 1);
	CHECK(hw && hw->overlap_ns == 90, "fl-hi: then fl-writer held it 90 ns");
	const struct ch_member *rd = member(h, 11, CH_HELD, 0);
	CHECK(rd && rd->reason == CH_R_READ && rd->sleeping_ns == MS && rd->preempted_ns == 0 &&
		      rd->overlap_ns == MS + 1000,
	      "fl-hi: fl-io-1 held read (no fallback) 1,001,000 ns, asleep 1 ms of it");
	CHECK(h->n == 3, "fl-hi's chain has 3 members (%zu)", h->n);
	CHECK(h->uncovered_ns == 10, "fl-hi: 10 ns with nobody ahead (the overlaps unioned: %llu)",
	      (unsigned long long)h->uncovered_ns);
	CHECK(r->wait_ns == 2 * MS + 3120 && r->uncovered_ns == 10 + 10,
	      "sums over the chains: waits 2,003,120 ns, uncovered 20 ns");
	CHECK(!member(w, 40, CH_QUEUED, 0), "fl-hi queued after the writer: not in its chain");
	CHECK(member(w, 11, CH_HELD, 0) != NULL, "the writer's chain: fl-io-1 held");
	const struct ch_total *t = total(r, "fl-hi", "fl-writer", CH_QUEUED, CH_R_WRITE);
	CHECK(t && t->chains == 1 && t->wait_ns == MS + 1110,
	      "total fl-hi <- fl-writer (queued, write): 1 chain of 1,001,110 ns");
	ch_free(c);
}

/* The rwsem is not FIFO: fl-io-2 (pid 12) queues after fl-hi (pid 40,
 * write) but a wakeup grants it the read lock; it is preempted before it
 * runs, so its acquire_returned comes 500 us later, and fl-hi waits. */
static void granted_reader_preempted(void)
{
	struct ch_ctx *c = ch_new(100 * US);
	ch_start(c, 100, 40, "fl-hi", MM, 1);
	ch_start(c, 200, 12, "fl-io-2", MM, 0);
	ch_switch(c, 300, 12, 139, 1, 30, 120); /* woken, granted, preempted */
	ch_switch(c, 800 * US, 30, 120, 1, 12, 139);
	ch_acquire(c, 800 * US, 12, "fl-io-2", MM, 0, 1);
	ch_release(c, 810 * US, 12, MM, 0);
	ch_acquire(c, 820 * US, 40, "fl-hi", MM, 1, 1);

	const struct ch_result *r = ch_result(c);
	const struct ch_chain *h = &r->longest[0];
	const struct ch_member *q = member(h, 12, CH_QUEUED, 0);
	CHECK(r->waits == 2 && h->pid == 40 && q && q->overlap_ns == 800 * US - 200 &&
		      q->preempted_ns == 800 * US - 300,
	      "fl-io-2 queued after fl-hi but got it first: a member, preempted 799.7 us");
	const struct ch_member *hd = member(h, 12, CH_HELD, 0);
	CHECK(hd && hd->overlap_ns == 10 * US, "then held it 10 us");
	CHECK(h->uncovered_ns == 100 + 10 * US, "uncovered: before it queued, after it released");
	ch_free(c);
}

/* A write downgraded to read keeps its reason; a wait on another mm, a
 * failed (killable) lock and a trylock make no chain. */
static void not_chains(void)
{
	struct ch_ctx *c = ch_new(100 * US);
	ch_start(c, 0, 20, "fl-writer", MM, 1);
	ch_acquire(c, 10, 20, "fl-writer", MM, 1, 1);
	ch_acquire(c, 20, 20, "fl-writer", MM, 0, 1); /* mmap_write_downgrade */
	ch_start(c, 30, 50, "fl-main", MM, 1);
	ch_acquire(c, 500 * US, 50, "fl-main", MM, 1, 0); /* interrupted: failed */
	ch_start(c, 40, 51, "fl-x", OTHER_MM, 1);
	ch_acquire(c, 600 * US, 51, "fl-x", OTHER_MM, 1, 1); /* alone on its mm */
	ch_start(c, 600 * US, 52, "fl-y", MM, 0);
	ch_release(c, 700 * US, 20, MM, 0);
	ch_acquire(c, 800 * US, 52, "fl-y", MM, 0, 1);

	const struct ch_result *r = ch_result(c);
	CHECK(r->waits == 2, "the failed lock is no wait; 2 waits >= 100 us (%llu)",
	      (unsigned long long)r->waits);
	const struct ch_chain *y = r->longest[0].pid == 52 ? &r->longest[0] : &r->longest[1];
	const struct ch_member *m = member(y, 20, CH_HELD, 0);
	CHECK(y->pid == 52 && m && m->reason == CH_R_WRITE && m->overlap_ns == 100 * US,
	      "fl-y waited on the downgraded hold, still a write's reason, 100 us");
	const struct ch_chain *x = r->longest[0].pid == 51 ? &r->longest[0] : &r->longest[1];
	CHECK(x->pid == 51 && x->n == 0 && x->uncovered_ns == x->wait_ns,
	      "fl-x's wait on the other mm has no member: all of it uncovered");
	/* a fallback, a failed trylock, then the lock: still the fallback's */
	ch_fallback(c, 900 * US, 53, FILE_IO);
	ch_start(c, 901 * US, 53, "fl-z", MM, 0);
	ch_acquire(c, 902 * US, 53, "fl-z", MM, 0, 0);
	ch_start(c, 903 * US, 53, "fl-z", MM, 0);
	ch_acquire(c, 904 * US, 53, "fl-z", MM, 0, 1);
	ch_start(c, 905 * US, 54, "fl-w", MM, 1);
	ch_release(c, 1200 * US, 53, MM, 0);
	ch_release(c, 1200 * US, 52, MM, 0);
	ch_acquire(c, 1201 * US, 54, "fl-w", MM, 1, 1);
	const struct ch_chain *z = NULL;
	for (size_t i = 0; i < r->nlongest; i++)
		if (r->longest[i].pid == 54)
			z = &r->longest[i];
	const struct ch_member *zm = z ? member(z, 53, CH_HELD, 0) : NULL;
	CHECK(z && zm && zm->reason == CH_R_FALLBACK && zm->cause == FILE_IO,
	      "a failed trylock leaves the fallback to the lock that follows");
	char cls[CH_COMM];
	ch_comm_class("fl-io-12", cls, sizeof(cls));
	CHECK(!strcmp(cls, "fl-io"), "class of fl-io-12 is fl-io");
	ch_free(c);
}

int main(void)
{
	writer_behind_preempted_reader();
	reader_behind_waiting_writer();
	granted_reader_preempted();
	not_chains();
	return tap_done();
}

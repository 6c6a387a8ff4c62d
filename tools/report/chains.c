/* chains.c: mmap_lock wait chains from a trace's events; see chains.h.
 *
 * Holds and waits are records: open while they last (a small array), then
 * appended, in the order they end, to a ring of closed records.  A chain's
 * window [start, acquire) therefore meets the open records and the closed
 * ones that ended after start, found by walking the ring back from its
 * newest entry.  Each task keeps its last CH_IV off-CPU intervals the same
 * way.  What fell out of a ring is remembered as the latest end it had:
 * a window starting before that is truncated.
 */
#include "chains.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CH_RING 65536 /* closed records */
#define CH_IV 64      /* off-CPU intervals per task */

enum rec_kind { REC_HOLD, REC_WAIT };

struct rec {
	uint64_t mm, start, end;
	int pid, write;
	enum rec_kind kind;
	enum ch_reason reason;
	int cause;
};

struct offiv {
	uint64_t start, end;
	int runnable;
};

struct task {
	int pid; /* 0: free slot */
	int prio;
	char comm[CH_COMM];
	int off, off_runnable;
	uint64_t off_since;
	struct offiv iv[CH_IV];
	uint64_t niv, iv_lost_end; /* intervals ever; latest end that fell out */
	int fb_pending, fb_cause;  /* a fallback event not yet matched */
	int open[2][2];            /* [kind][write]: index + 1 in ctx->open */
};

struct ch_ctx {
	uint64_t threshold;
	struct task *t;
	size_t tcap, tn;
	struct rec *open;
	size_t nopen, capopen;
	struct rec *ring;
	uint64_t nring, ring_lost_end;
	struct ch_result res;
	size_t captot;
	ch_sink_fn sink;
	void *sink_arg;
	int oom;
};

struct ch_ctx *ch_new(uint64_t threshold_ns)
{
	struct ch_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->threshold = threshold_ns;
	c->res.threshold_ns = threshold_ns;
	c->tcap = 1024;
	c->t = calloc(c->tcap, sizeof(*c->t));
	c->ring = calloc(CH_RING, sizeof(*c->ring));
	if (!c->t || !c->ring) {
		ch_free(c);
		return NULL;
	}
	return c;
}

void ch_free(struct ch_ctx *c)
{
	if (!c)
		return;
	free(c->t);
	free(c->open);
	free(c->ring);
	free(c->res.totals);
	free(c);
}

void ch_set_sink(struct ch_ctx *c, ch_sink_fn fn, void *arg)
{
	c->sink = fn;
	c->sink_arg = arg;
}

int ch_oom(const struct ch_ctx *c)
{
	return c->oom;
}

const struct ch_result *ch_result(struct ch_ctx *c)
{
	return &c->res;
}

const char *ch_role_name(enum ch_role r)
{
	return r == CH_HELD ? "held" : "queued";
}

const char *ch_reason_name(enum ch_reason r)
{
	static const char *const n[CH_NREASONS] = { "fault fallback", "write", "read" };
	return r < CH_NREASONS ? n[r] : "?";
}

void ch_comm_class(const char *comm, char *out, size_t outsz)
{
	size_t n = strlen(comm);
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, comm, n);
	out[n] = 0;
	size_t k = n;
	while (k > 0 && out[k - 1] >= '0' && out[k - 1] <= '9')
		k--;
	if (k < n && k > 0 && strchr("-_./:", out[k - 1]))
		k--;
	if (k > 0)
		out[k] = 0;
}

/* ---- tasks: open addressing on pid ---- */

static size_t slot_of(const struct ch_ctx *c, int pid)
{
	size_t i = ((size_t)(unsigned int)pid * 2654435761u) & (c->tcap - 1);
	while (c->t[i].pid && c->t[i].pid != pid)
		i = (i + 1) & (c->tcap - 1);
	return i;
}

static struct task *task(struct ch_ctx *c, int pid)
{
	if (pid <= 0 || c->oom)
		return NULL;
	size_t i = slot_of(c, pid);
	if (c->t[i].pid)
		return &c->t[i];
	if (2 * (c->tn + 1) > c->tcap) {
		struct task *old = c->t;
		size_t ocap = c->tcap;
		c->tcap *= 2;
		c->t = calloc(c->tcap, sizeof(*c->t));
		if (!c->t) {
			c->t = old;
			c->tcap = ocap;
			c->oom = 1;
			return NULL;
		}
		for (size_t j = 0; j < ocap; j++)
			if (old[j].pid)
				c->t[slot_of(c, old[j].pid)] = old[j];
		free(old);
		i = slot_of(c, pid);
	}
	struct task *t = &c->t[i];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->prio = -1;
	c->tn++;
	return t;
}

static void set_comm(struct task *t, const char *comm)
{
	if (comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/* ---- records ---- */

static void open_rec(struct ch_ctx *c, struct task *t, enum rec_kind kind, uint64_t mm,
		     int write, uint64_t ts, enum ch_reason reason, int cause)
{
	if (t->open[kind][write])
		return; /* already open: a lost event; keep the first */
	if (c->nopen == c->capopen) {
		size_t n = c->capopen ? 2 * c->capopen : 64;
		struct rec *o = realloc(c->open, n * sizeof(*o));
		if (!o) {
			c->oom = 1;
			return;
		}
		c->open = o;
		c->capopen = n;
	}
	c->open[c->nopen] = (struct rec){ .mm = mm, .start = ts, .end = 0, .pid = t->pid,
					  .write = write, .kind = kind, .reason = reason,
					  .cause = cause };
	t->open[kind][write] = (int)++c->nopen;
}

/* Close t's open record of (kind, write) at ts into the ring; *out gets it. */
static int close_rec(struct ch_ctx *c, struct task *t, enum rec_kind kind, int write,
		     uint64_t ts, struct rec *out)
{
	int i = t->open[kind][write] - 1;
	if (i < 0)
		return -1;
	struct rec r = c->open[i];
	r.end = ts;
	t->open[kind][write] = 0;
	/* move the last open record into the hole */
	if ((size_t)i != c->nopen - 1) {
		struct rec *last = &c->open[c->nopen - 1];
		struct task *lt = task(c, last->pid);
		c->open[i] = *last;
		if (lt)
			lt->open[last->kind][last->write] = i + 1;
	}
	c->nopen--;
	struct rec *slot = &c->ring[c->nring % CH_RING];
	if (c->nring >= CH_RING && slot->end > c->ring_lost_end)
		c->ring_lost_end = slot->end;
	*slot = r;
	c->nring++;
	if (out)
		*out = r;
	if (c->sink) {
		struct ch_span sp = { r.pid, r.write, r.kind == REC_HOLD, r.mm, r.start, r.end,
				      r.reason, r.cause };
		c->sink(c->sink_arg, &sp);
	}
	return 0;
}

/* ---- off CPU ---- */

static void push_iv(struct task *t, uint64_t start, uint64_t end, int runnable)
{
	struct offiv *v = &t->iv[t->niv % CH_IV];
	if (t->niv >= CH_IV && v->end > t->iv_lost_end)
		t->iv_lost_end = v->end;
	*v = (struct offiv){ start, end, runnable };
	t->niv++;
}

/* t's off-CPU time within [a, b): *pre runnable, *slp sleeping; 1 when
 * the intervals that fell out may have overlapped it. */
static int off_cpu(const struct task *t, uint64_t a, uint64_t b, uint64_t *pre, uint64_t *slp)
{
	uint64_t n = t->niv < CH_IV ? t->niv : CH_IV;
	*pre = *slp = 0;
	for (uint64_t k = 0; k <= n; k++) {
		struct offiv v;
		if (k < n)
			v = t->iv[k];
		else if (t->off)
			v = (struct offiv){ t->off_since, b, t->off_runnable };
		else
			break;
		uint64_t s = v.start > a ? v.start : a, e = v.end < b ? v.end : b;
		if (e > s)
			*(v.runnable ? pre : slp) += e - s;
	}
	return t->iv_lost_end > a;
}

int ch_task_prio(struct ch_ctx *c, int pid)
{
	struct task *t = pid > 0 && !c->oom ? &c->t[slot_of(c, pid)] : NULL;
	return t && t->pid == pid ? t->prio : -1;
}

void ch_switch(struct ch_ctx *c, uint64_t ts, int prev_pid, int prev_prio, int runnable,
	       int next_pid, int next_prio)
{
	struct task *p = task(c, prev_pid);
	if (p) {
		p->prio = prev_prio;
		p->off = 1;
		p->off_since = ts;
		p->off_runnable = runnable;
	}
	struct task *n = task(c, next_pid);
	if (n) {
		n->prio = next_prio;
		if (n->off)
			push_iv(n, n->off_since, ts, n->off_runnable);
		n->off = 0;
	}
}

void ch_fallback(struct ch_ctx *c, uint64_t ts, int pid, int cause)
{
	struct task *t = task(c, pid);
	(void)ts;
	if (!t)
		return;
	t->fb_pending = 1;
	t->fb_cause = cause;
}

/* Why t takes the lock now: a fallback event not yet matched by a
 * successful acquisition makes a read a fault fallback (a failed trylock
 * or killable lock leaves it for the next attempt). */
static enum ch_reason reason_of(const struct task *t, int write, int *cause)
{
	*cause = -1;
	if (!write && t->fb_pending) {
		*cause = t->fb_cause;
		return CH_R_FALLBACK;
	}
	return write ? CH_R_WRITE : CH_R_READ;
}

void ch_start(struct ch_ctx *c, uint64_t ts, int pid, const char *comm, uint64_t mm, int write)
{
	struct task *t = task(c, pid);
	if (!t)
		return;
	set_comm(t, comm);
	int cause;
	enum ch_reason r = reason_of(t, write, &cause);
	open_rec(c, t, REC_WAIT, mm, write, ts, r, cause);
}

/* ---- a chain ---- */

static void add_total(struct ch_ctx *c, const struct ch_chain *ch, const struct ch_member *m,
		      const char *mcls)
{
	char wcls[CH_COMM];
	ch_comm_class(ch->comm, wcls, sizeof(wcls));
	struct ch_result *res = &c->res;
	struct ch_total *tt = NULL;
	for (size_t i = 0; i < res->ntotals && !tt; i++) {
		struct ch_total *x = &res->totals[i];
		if (!strcmp(x->waiter, wcls) && !strcmp(x->member, mcls) && x->role == m->role &&
		    x->reason == m->reason && x->cause == m->cause)
			tt = x;
	}
	if (!tt) {
		if (res->ntotals == c->captot) {
			size_t n = c->captot ? 2 * c->captot : 16;
			struct ch_total *v = realloc(res->totals, n * sizeof(*v));
			if (!v) {
				c->oom = 1;
				return;
			}
			res->totals = v;
			c->captot = n;
		}
		tt = &res->totals[res->ntotals++];
		memset(tt, 0, sizeof(*tt));
		snprintf(tt->waiter, sizeof(tt->waiter), "%s", wcls);
		snprintf(tt->member, sizeof(tt->member), "%s", mcls);
		tt->role = m->role;
		tt->reason = m->reason;
		tt->cause = m->cause;
	}
	tt->chains++;
	tt->wait_ns += ch->wait_ns;
	tt->overlap_ns += m->overlap_ns;
	tt->preempted_ns += m->preempted_ns;
	tt->sleeping_ns += m->sleeping_ns;
}

struct span {
	uint64_t s, e;
};

#define CH_SPANS 1024

/* Record r as a member of the chain of the wait [a, b) (if it is one);
 * its part of the wait goes to sp[] for the uncovered time. */
static void consider(struct ch_ctx *c, struct ch_chain *ch, struct ch_member *all, size_t *n,
		     const struct rec *r, uint64_t mm, uint64_t a, uint64_t b, struct span *sp,
		     size_t *nsp)
{
	uint64_t end = r->end ? r->end : b;
	if (r->mm != mm || r->pid == ch->pid || r->start >= b || end <= a)
		return;
	/* A wait was ahead of ours if it ended first (the rwsem is not FIFO:
	 * readers granted the lock by a wakeup hold it from then on, but say
	 * so only when they run: their acquire_returned). */
	if (r->kind == REC_WAIT && (!r->end || r->end > b))
		return;
	enum ch_role role = r->kind == REC_HOLD ? CH_HELD : CH_QUEUED;
	uint64_t s = r->start > a ? r->start : a, e = end < b ? end : b, pre = 0, slp = 0;
	struct task *t = task(c, r->pid);
	if (*nsp < CH_SPANS)
		sp[(*nsp)++] = (struct span){ s, e };
	else
		ch->truncated = 1;
	if (t && off_cpu(t, s, e, &pre, &slp))
		ch->truncated = 1;
	for (size_t i = 0; i < *n; i++) {
		struct ch_member *m = &all[i];
		if (m->pid == r->pid && m->role == role && m->write == r->write &&
		    m->reason == r->reason && m->cause == r->cause) {
			m->overlap_ns += e - s;
			m->preempted_ns += pre;
			m->sleeping_ns += slp;
			return;
		}
	}
	if (*n == 4 * CH_MAX_MEMBERS)
		return;
	struct ch_member *m = &all[(*n)++];
	memset(m, 0, sizeof(*m));
	m->pid = r->pid;
	m->prio = t ? t->prio : -1;
	m->write = r->write;
	if (t)
		snprintf(m->comm, sizeof(m->comm), "%s", t->comm);
	m->role = role;
	m->reason = r->reason;
	m->cause = r->cause;
	m->overlap_ns = e - s;
	m->preempted_ns = pre;
	m->sleeping_ns = slp;
}

static int by_start(const void *x, const void *y)
{
	const struct span *a = x, *b = y;
	return a->s < b->s ? -1 : a->s > b->s ? 1 : 0;
}

/* b - a minus the union of the spans (all within [a, b)). */
static uint64_t uncovered(struct span *sp, size_t n, uint64_t a, uint64_t b)
{
	uint64_t covered = 0, cur_s = 0, cur_e = 0;
	int open = 0;
	qsort(sp, n, sizeof(*sp), by_start);
	for (size_t i = 0; i < n; i++) {
		if (open && sp[i].s <= cur_e) {
			if (sp[i].e > cur_e)
				cur_e = sp[i].e;
			continue;
		}
		if (open)
			covered += cur_e - cur_s;
		cur_s = sp[i].s;
		cur_e = sp[i].e;
		open = 1;
	}
	if (open)
		covered += cur_e - cur_s;
	return b - a - covered;
}

static int by_overlap(const void *x, const void *y)
{
	const struct ch_member *a = x, *b = y;
	return a->overlap_ns < b->overlap_ns ? 1 : a->overlap_ns > b->overlap_ns ? -1 : 0;
}

static void chain(struct ch_ctx *c, struct task *w, uint64_t mm, int write, uint64_t a,
		  uint64_t b)
{
	struct ch_chain ch = { .pid = w->pid, .prio = w->prio, .write = write, .start_ns = a,
			       .wait_ns = b - a };
	struct ch_member all[4 * CH_MAX_MEMBERS];
	struct span sp[CH_SPANS];
	size_t n = 0, nsp = 0;
	snprintf(ch.comm, sizeof(ch.comm), "%s", w->comm);
	for (size_t i = 0; i < c->nopen; i++)
		consider(c, &ch, all, &n, &c->open[i], mm, a, b, sp, &nsp);
	uint64_t have = c->nring < CH_RING ? c->nring : CH_RING;
	for (uint64_t k = 1; k <= have; k++) {
		const struct rec *r = &c->ring[(c->nring - k) % CH_RING];
		if (r->end <= a)
			break; /* closed in end order: the rest ended earlier */
		consider(c, &ch, all, &n, r, mm, a, b, sp, &nsp);
	}
	if (c->ring_lost_end > a)
		ch.truncated = 1;
	ch.uncovered_ns = uncovered(sp, nsp, a, b);
	qsort(all, n, sizeof(*all), by_overlap);
	ch.n_all = n;
	ch.n = n < CH_MAX_MEMBERS ? n : CH_MAX_MEMBERS;
	memcpy(ch.m, all, ch.n * sizeof(*all));

	struct ch_result *res = &c->res;
	res->waits++;
	res->waits_1ms += ch.wait_ns >= 1000000;
	res->truncated += ch.truncated;
	res->wait_ns += ch.wait_ns;
	res->uncovered_ns += ch.uncovered_ns;
	for (size_t i = 0; i < n; i++) {
		char mcls[CH_COMM];
		ch_comm_class(all[i].comm, mcls, sizeof(mcls));
		add_total(c, &ch, &all[i], mcls);
	}
	/* keep the CH_KEEP longest, longest first */
	size_t pos = res->nlongest;
	while (pos > 0 && res->longest[pos - 1].wait_ns < ch.wait_ns)
		pos--;
	if (pos >= CH_KEEP)
		return;
	size_t keep = res->nlongest < CH_KEEP ? res->nlongest : CH_KEEP - 1;
	memmove(&res->longest[pos + 1], &res->longest[pos], (keep - pos) * sizeof(ch));
	res->longest[pos] = ch;
	if (res->nlongest < CH_KEEP)
		res->nlongest++;
}

void ch_acquire(struct ch_ctx *c, uint64_t ts, int pid, const char *comm, uint64_t mm,
		int write, int success)
{
	struct task *t = task(c, pid);
	if (!t)
		return;
	set_comm(t, comm);
	struct rec w;
	int waited = close_rec(c, t, REC_WAIT, write, ts, &w) == 0;
	if (!success)
		return;
	enum ch_reason reason;
	int cause;
	if (waited) {
		reason = w.reason;
		cause = w.cause;
	} else if (!write && t->open[REC_HOLD][1]) {
		/* mmap_write_downgrade: the write hold goes on as a read hold */
		struct rec h;
		close_rec(c, t, REC_HOLD, 1, ts, &h);
		reason = h.reason;
		cause = h.cause;
	} else {
		reason = reason_of(t, write, &cause); /* a trylock */
	}
	if (reason == CH_R_FALLBACK)
		t->fb_pending = 0; /* used up */
	open_rec(c, t, REC_HOLD, mm, write, ts, reason, cause);
	if (waited && ts - w.start >= c->threshold && !c->oom)
		chain(c, t, mm, write, w.start, ts);
}

void ch_release(struct ch_ctx *c, uint64_t ts, int pid, uint64_t mm, int write)
{
	struct task *t = task(c, pid);
	(void)mm;
	if (t)
		close_rec(c, t, REC_HOLD, write, ts, NULL);
}

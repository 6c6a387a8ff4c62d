/* lockpair.c: pairs mmap_lock events, per pid and mode, into acquisitions
 * and waits; the rules are in lockpair.h. */
#include "lockpair.h"

#include <stdlib.h>
#include <string.h>

struct lp_slot {
	int pid;
	unsigned char used;
	unsigned char pending[2];
	uint64_t start_ts[2];
};

struct lp_tracker {
	struct lp_slot *slots;
	size_t cap; /* power of two */
	size_t used;
};

struct lp_tracker *lp_new(void)
{
	struct lp_tracker *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cap = 1024;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void lp_free(struct lp_tracker *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

static size_t lp_hash(int pid, size_t cap)
{
	uint32_t h = (uint32_t)pid * 2654435761u;
	return (size_t)h & (cap - 1);
}

static int lp_grow(struct lp_tracker *t)
{
	size_t ncap = t->cap * 2;
	struct lp_slot *ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].used)
			continue;
		size_t j = lp_hash(t->slots[i].pid, ncap);
		while (ns[j].used)
			j = (j + 1) & (ncap - 1);
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

/* Find (or, if create, insert) the slot of pid; NULL if absent or OOM. */
static struct lp_slot *lp_slot(struct lp_tracker *t, int pid, int create)
{
	size_t i = lp_hash(pid, t->cap);
	while (t->slots[i].used) {
		if (t->slots[i].pid == pid)
			return &t->slots[i];
		i = (i + 1) & (t->cap - 1);
	}
	if (!create)
		return NULL;
	if ((t->used + 1) * 2 > t->cap) {
		if (lp_grow(t))
			return NULL;
		return lp_slot(t, pid, create);
	}
	t->slots[i].used = 1;
	t->slots[i].pid = pid;
	t->used++;
	return &t->slots[i];
}

struct lp_outcome lp_start(struct lp_tracker *t, int pid, int write, uint64_t ts)
{
	struct lp_outcome o = { LP_NONE, write ? LP_WRITE : LP_READ, 0 };
	struct lp_slot *s = lp_slot(t, pid, 1);
	if (!s)
		return o;
	if (s->pending[o.mode])
		o.kind = LP_UNPAIRED_START;
	s->pending[o.mode] = 1;
	s->start_ts[o.mode] = ts;
	return o;
}

struct lp_outcome lp_acquire(struct lp_tracker *t, int pid, int write, int success,
			     uint64_t ts)
{
	struct lp_outcome o = { LP_NONE, write ? LP_WRITE : LP_READ, 0 };
	struct lp_slot *s = lp_slot(t, pid, 0);
	int had_start = s && s->pending[o.mode];

	if (had_start)
		s->pending[o.mode] = 0;
	if (!success) {
		o.kind = LP_FAILED;
	} else if (had_start) {
		o.kind = LP_ACQUIRE;
		/* Events are merged in timestamp order; guard against a
		 * clock step anyway. */
		o.wait_ns = ts >= s->start_ts[o.mode] ? ts - s->start_ts[o.mode] : 0;
	} else {
		o.kind = LP_TRYLOCK;
	}
	return o;
}

int lp_bucket(uint64_t wait_ns)
{
	uint64_t lim = 1000; /* 1 us */
	for (int b = 0; b < LP_NBUCKETS - 1; b++) {
		if (wait_ns < lim)
			return b;
		lim *= 10;
	}
	return LP_NBUCKETS - 1;
}

void lp_account(struct lp_stats *st, const struct lp_outcome *o)
{
	struct lp_mode_stats *m = &st->mode[o->mode];
	switch (o->kind) {
	case LP_ACQUIRE:
		m->acquire++;
		m->wait_ns_total += o->wait_ns;
		if (o->wait_ns > m->wait_ns_max)
			m->wait_ns_max = o->wait_ns;
		m->wait_us_hist[lp_bucket(o->wait_ns)]++;
		break;
	case LP_TRYLOCK:
		m->trylock++;
		break;
	case LP_FAILED:
		m->failed++;
		break;
	case LP_UNPAIRED_START:
		m->unpaired_start++;
		break;
	case LP_NONE:
		break;
	}
}

uint64_t lp_pending(const struct lp_tracker *t)
{
	uint64_t n = 0;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			n += t->slots[i].pending[0] + t->slots[i].pending[1];
	return n;
}

/* rs-trace: read a trace-cmd trace.dat (libtracecmd + libtraceevent) and
 * write what retryscope needs from it as JSON (json-c).
 *
 *   rs-trace TRACE.DAT [--comm-prefix PREFIX] [-o trace.json]   (see --help)
 *
 * mmap_lock events are paired into acquisitions and waits by lockpair.c;
 * retryscope:retryscope_fault_retry / retryscope_mmap_fallback are counted
 * by cause; every other event is counted by name.  Fields are read by name
 * (tep_find_field + tep_read_number_field); an event or field missing from
 * the trace's formats is reported as null, not as zero.
 */
#include "chains.h"
#include "cli.h"
#include "lockpair.h"
#include "perfetto.h"
#include "rsnames.h"

#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

/* The causes of names.h (the trace events' numbers), then "unknown" for a
 * number past them or a missing field. */
#define NCAUSE (RS_NCAUSES + 1)
#define CAUSE_UNKNOWN RS_NCAUSES
static const char *cause_name(size_t i)
{
	return i < RS_NCAUSES ? rs_cause_name[i] : "unknown";
}

enum ev {
	EV_START, EV_ACQUIRE, EV_RELEASED, EV_RETRY, EV_FALLBACK, EV_KEPT, EV_SWITCH, EV_DONE, EV_N
};
static const char *const ev_sys[EV_N] = {
	"mmap_lock", "mmap_lock", "mmap_lock", "retryscope", "retryscope", "retryscope", "sched",
	"retryscope",
};
static const char *const ev_name[EV_N] = {
	"mmap_lock_start_locking", "mmap_lock_acquire_returned", "mmap_lock_released",
	"retryscope_fault_retry", "retryscope_mmap_fallback", "retryscope_retry_kept",
	"sched_switch", "retryscope_fault_done",
};

enum fld {
	F_WRITE, F_SUCCESS, F_ADDRESS, F_CAUSE, F_FLAGS, F_RET, F_ATTEMPT, F_KEPT, F_MM,
	F_PREV_PID, F_PREV_PRIO, F_PREV_STATE, F_NEXT_PID, F_NEXT_PRIO, F_TGID, F_OUTCOME,
	F_LATENCY, F_N
};
static const char *const fld_name[F_N] = {
	"write", "success", "address", "cause", "flags", "ret", "attempt", "kept_vma_lock", "mm",
	"prev_pid", "prev_prio", "prev_state", "next_pid", "next_prio", "tgid", "outcome",
	"latency_ns",
};

struct retry_stats {
	uint64_t retries, kept, retry_cause[NCAUSE];
	uint64_t fallbacks, fallback_cause[NCAUSE];
	uint64_t kept_events, kept_cause[NCAUSE];
	uint64_t max_attempt;
};

struct comm_stats {
	char name[32];
	struct lp_stats s;
};

struct ctx {
	struct tep_handle *tep;
	struct lp_tracker *lp;
	const char *prefix;
	size_t prefix_len;
	struct tep_event *ev[EV_N];
	struct tep_format_field *f[EV_N][F_N];
	int pair_ok; /* start/acquire have the write field */
	uint64_t *count;   /* by event id */
	int max_id;
	uint64_t events_total, unknown_events;
	uint64_t lost_events;
	int lost_unknown;
	struct lp_stats all, workload;
	struct comm_stats *comms;
	size_t ncomms, capcomms;
	struct retry_stats r_work, r_all;
	struct ch_ctx *ch; /* wait chains; NULL when the trace cannot give them */
	struct pf *pf;     /* --perfetto; NULL without */
	int oom;
};

static int is_workload(const struct ctx *c, const char *comm)
{
	return comm && strncmp(comm, c->prefix, c->prefix_len) == 0;
}

static struct lp_stats *comm_stats(struct ctx *c, const char *comm)
{
	char cls[32];
	ch_comm_class(comm, cls, sizeof(cls));
	for (size_t i = 0; i < c->ncomms; i++)
		if (strcmp(c->comms[i].name, cls) == 0)
			return &c->comms[i].s;
	if (c->ncomms == c->capcomms) {
		size_t nc = c->capcomms ? c->capcomms * 2 : 16;
		struct comm_stats *n = realloc(c->comms, nc * sizeof(*n));
		if (!n) {
			c->oom = 1;
			return NULL;
		}
		c->comms = n;
		c->capcomms = nc;
	}
	struct comm_stats *cs = &c->comms[c->ncomms++];
	memset(cs, 0, sizeof(*cs));
	snprintf(cs->name, sizeof(cs->name), "%s", cls);
	return &cs->s;
}

/* Read field f of event e; returns 0 and sets *v, or -1 if absent. */
static int rd(struct ctx *c, int e, int f, struct tep_record *rec, unsigned long long *v)
{
	struct tep_format_field *fld = c->f[e][f];
	if (!fld)
		return -1;
	return tep_read_number_field(fld, rec->data, v) ? -1 : 0;
}

static void do_lock(struct ctx *c, int e, struct tep_record *rec, int pid, const char *comm)
{
	unsigned long long w = 0, ok = 1;
	if (!c->pair_ok || rd(c, e, F_WRITE, rec, &w))
		return;
	struct lp_outcome o;
	unsigned long long mm = 0;
	rd(c, e, F_MM, rec, &mm);
	if (e == EV_START) {
		o = lp_start(c->lp, pid, w != 0, rec->ts);
		if (c->ch)
			ch_start(c->ch, rec->ts, pid, comm, mm, w != 0);
	} else if (e == EV_RELEASED) {
		if (c->ch)
			ch_release(c->ch, rec->ts, pid, mm, w != 0);
		return;
	} else {
		if (c->f[e][F_SUCCESS])
			rd(c, e, F_SUCCESS, rec, &ok);
		o = lp_acquire(c->lp, pid, w != 0, ok != 0, rec->ts);
		if (c->ch)
			ch_acquire(c->ch, rec->ts, pid, comm, mm, w != 0, ok != 0);
	}
	lp_account(&c->all, &o);
	if (is_workload(c, comm)) {
		lp_account(&c->workload, &o);
		struct lp_stats *cs = comm_stats(c, comm);
		if (cs)
			lp_account(cs, &o);
	}
}

/* --perfetto: the module's event as an instant on its thread's track. */
static void pf_retry(struct ctx *c, int e, struct tep_record *rec, size_t ci, long long attempt,
		     int kept)
{
	static const char *const what[EV_N] = {
		[EV_RETRY] = "retry", [EV_FALLBACK] = "fallback to mmap_lock",
		[EV_KEPT] = "retry kept on the VMA lock",
	};
	unsigned long long addr = 0, tgid = 0;
	int pid = tep_data_pid(c->tep, rec);
	char name[96], args[160];
	snprintf(name, sizeof(name), "%s (%s)", what[e], cause_name(ci));
	rd(c, e, F_ADDRESS, rec, &addr);
	snprintf(args, sizeof(args), "{\"address\": \"%#llx\", \"attempt\": %lld%s}", addr,
		 attempt, kept < 0 ? "" : kept ? ", \"kept_vma_lock\": 1" : ", \"kept_vma_lock\": 0");
	pf_instant(c->pf, pid, rec->ts, name, args);
	if (!rd(c, e, F_TGID, rec, &tgid))
		pf_tgid(c->pf, pid, (int)tgid);
}

static void do_retry(struct ctx *c, int e, struct tep_record *rec, const char *comm)
{
	unsigned long long cause = 0, attempt = 0, kept = 0;
	int have_cause = rd(c, e, F_CAUSE, rec, &cause) == 0;
	int have_attempt = rd(c, e, F_ATTEMPT, rec, &attempt) == 0;
	int have_kept = e == EV_RETRY && rd(c, e, F_KEPT, rec, &kept) == 0;
	size_t ci = have_cause && cause < CAUSE_UNKNOWN ? (size_t)cause : CAUSE_UNKNOWN;
	struct retry_stats *rs[2] = { &c->r_all, is_workload(c, comm) ? &c->r_work : NULL };

	/* the fault goes on under mmap_lock: after a fallback, and after a
	 * retry that did not keep the VMA lock (a retry under mmap_lock) */
	if (c->ch && (e == EV_FALLBACK || (e == EV_RETRY && have_kept && !kept)))
		ch_fallback(c->ch, rec->ts, tep_data_pid(c->tep, rec), (int)ci);
	if (c->pf)
		pf_retry(c, e, rec, ci, have_attempt ? (long long)attempt : -1,
			 have_kept ? (int)kept : -1);

	for (int i = 0; i < 2; i++) {
		struct retry_stats *r = rs[i];
		if (!r)
			continue;
		if (e == EV_RETRY) {
			r->retries++;
			r->retry_cause[ci]++;
			if (have_kept && kept)
				r->kept++;
		} else if (e == EV_FALLBACK) {
			r->fallbacks++;
			r->fallback_cause[ci]++;
		} else {
			r->kept_events++;
			r->kept_cause[ci]++;
		}
		if (have_attempt && attempt > r->max_attempt)
			r->max_attempt = attempt;
	}
}

/* --perfetto: a fault the module timed (retryscope_fault_done, at its end)
 * as a slice on its thread's fault track, named by outcome and cause. */
static void do_done(struct ctx *c, struct tep_record *rec)
{
	unsigned long long lat, outcome, cause = CAUSE_UNKNOWN, addr = 0, tgid = 0;
	int pid = tep_data_pid(c->tep, rec);
	char name[128], args[96];
	if (!c->pf || rd(c, EV_DONE, F_LATENCY, rec, &lat) ||
	    rd(c, EV_DONE, F_OUTCOME, rec, &outcome) || lat > rec->ts)
		return;
	rd(c, EV_DONE, F_CAUSE, rec, &cause);
	rd(c, EV_DONE, F_ADDRESS, rec, &addr);
	snprintf(name, sizeof(name), "fault %s (%s)",
		 outcome < RS_NLAT_OUTCOMES ? rs_lat_outcome_name[outcome] : "unknown",
		 cause_name(cause < CAUSE_UNKNOWN ? (size_t)cause : CAUSE_UNKNOWN));
	snprintf(args, sizeof(args), "{\"address\": \"%#llx\"}", addr);
	pf_fault(c->pf, pid, rec->ts - lat, lat, name, args);
	if (!rd(c, EV_DONE, F_TGID, rec, &tgid))
		pf_tgid(c->pf, pid, (int)tgid);
}

/* sched_switch, for the chains: who went off CPU, runnable or asleep.
 * prev_state without a sleeping state (the low byte: S D T t X Z P I) is
 * a preemption (R, or R+ where the kernel sets TASK_REPORT_MAX). */
static void do_switch(struct ctx *c, struct tep_record *rec)
{
	unsigned long long pp, ppr, ps, np, npr;
	if (!c->ch || rd(c, EV_SWITCH, F_PREV_PID, rec, &pp) ||
	    rd(c, EV_SWITCH, F_PREV_STATE, rec, &ps) || rd(c, EV_SWITCH, F_NEXT_PID, rec, &np))
		return;
	if (rd(c, EV_SWITCH, F_PREV_PRIO, rec, &ppr))
		ppr = (unsigned long long)-1;
	if (rd(c, EV_SWITCH, F_NEXT_PRIO, rec, &npr))
		npr = (unsigned long long)-1;
	ch_switch(c->ch, rec->ts, (int)pp, (int)ppr, (ps & 0xff) == 0, (int)np, (int)npr);
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct ctx *c = data;
	(void)h;
	(void)cpu;
	c->events_total++;
	if (rec->missed_events > 0)
		c->lost_events += (uint64_t)rec->missed_events;
	else if (rec->missed_events < 0)
		c->lost_unknown = 1;

	int id = tep_data_type(c->tep, rec);
	if (id < 0 || id > c->max_id) {
		c->unknown_events++;
		return 0;
	}
	c->count[id]++;

	int e;
	for (e = 0; e < EV_N; e++)
		if (c->ev[e] && c->ev[e]->id == id)
			break;
	if (e == EV_N)
		return 0;
	if (e == EV_SWITCH) {
		do_switch(c, rec);
		return 0;
	}
	if (e == EV_DONE) {
		do_done(c, rec);
		return 0;
	}
	int pid = tep_data_pid(c->tep, rec);
	const char *comm = tep_data_comm_from_pid(c->tep, pid);
	if (e == EV_START || e == EV_ACQUIRE || e == EV_RELEASED)
		do_lock(c, e, rec, pid, comm);
	else
		do_retry(c, e, rec, comm);
	return 0;
}

/* ---- JSON ---- */

static json_object *j_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static json_object *j_mode(const struct lp_mode_stats *m)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "acquire", j_u64(m->acquire));
	json_object_object_add(o, "trylock", j_u64(m->trylock));
	json_object_object_add(o, "failed", j_u64(m->failed));
	json_object_object_add(o, "unpaired_start", j_u64(m->unpaired_start));
	json_object_object_add(o, "wait_ns_total", j_u64(m->wait_ns_total));
	json_object_object_add(o, "wait_ns_max", j_u64(m->wait_ns_max));
	json_object *h = json_object_new_array();
	for (int i = 0; i < LP_NBUCKETS; i++)
		json_object_array_add(h, j_u64(m->wait_us_hist[i]));
	json_object_object_add(o, "wait_us_hist", h);
	return o;
}

static json_object *j_lp(const struct lp_stats *s)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "read", j_mode(&s->mode[LP_READ]));
	json_object_object_add(o, "write", j_mode(&s->mode[LP_WRITE]));
	return o;
}

/* The named causes always; "none" and "unknown" when they occurred. */
static json_object *j_causes(const uint64_t *v)
{
	json_object *o = json_object_new_object();
	int none = rs_cause_index("none");
	for (int i = 0; i < RS_NCAUSES; i++)
		if (i != none)
			json_object_object_add(o, cause_name((size_t)i), j_u64(v[i]));
	if (none >= 0 && v[none])
		json_object_object_add(o, cause_name((size_t)none), j_u64(v[none]));
	if (v[CAUSE_UNKNOWN])
		json_object_object_add(o, cause_name(CAUSE_UNKNOWN), j_u64(v[CAUSE_UNKNOWN]));
	return o;
}

static void j_retry(const struct ctx *c, const struct retry_stats *r, json_object *dst)
{
	if (c->ev[EV_FALLBACK] && c->f[EV_FALLBACK][F_CAUSE])
		json_object_object_add(dst, "fallbacks_by_cause", j_causes(r->fallback_cause));
	else
		json_object_object_add(dst, "fallbacks_by_cause", NULL);
	if (c->ev[EV_RETRY]) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "total", j_u64(r->retries));
		json_object_object_add(o, "kept_vma_lock",
				       c->f[EV_RETRY][F_KEPT] ? j_u64(r->kept) : NULL);
		json_object_object_add(o, "by_cause",
				       c->f[EV_RETRY][F_CAUSE] ? j_causes(r->retry_cause) : NULL);
		json_object_object_add(dst, "retries", o);
	} else {
		json_object_object_add(dst, "retries", NULL);
	}
	if (c->ev[EV_KEPT]) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "total", j_u64(r->kept_events));
		json_object_object_add(o, "by_cause",
				       c->f[EV_KEPT][F_CAUSE] ? j_causes(r->kept_cause) : NULL);
		json_object_object_add(dst, "retry_kept_events", o);
	} else {
		json_object_object_add(dst, "retry_kept_events", NULL);
	}
	int have_attempt = (c->ev[EV_RETRY] && c->f[EV_RETRY][F_ATTEMPT]) ||
			   (c->ev[EV_FALLBACK] && c->f[EV_FALLBACK][F_ATTEMPT]) ||
			   (c->ev[EV_KEPT] && c->f[EV_KEPT][F_ATTEMPT]);
	json_object_object_add(dst, "max_attempt", have_attempt ? j_u64(r->max_attempt) : NULL);
}

static int cmp_comm(const void *a, const void *b)
{
	return strcmp(((const struct comm_stats *)a)->name, ((const struct comm_stats *)b)->name);
}

static json_object *j_cause(const struct ch_member *m)
{
	return m->reason == CH_R_FALLBACK ? json_object_new_string(cause_name((size_t)m->cause))
					  : NULL;
}

/* One member of a chain, or (m == NULL) the chain's waiter. */
static json_object *j_task(int pid, const char *comm, int prio, int write)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "pid", json_object_new_int(pid));
	json_object_object_add(o, "comm", json_object_new_string(comm));
	json_object_object_add(o, "prio", json_object_new_int(prio));
	json_object_object_add(o, "mode", json_object_new_string(write ? "write" : "read"));
	return o;
}

static json_object *j_chain(const struct ctx *c, const struct ch_chain *ch)
{
	json_object *o = j_task(ch->pid, ch->comm, ch->prio, ch->write);
	json_object_object_add(o, "start_ns", j_u64(ch->start_ns));
	json_object_object_add(o, "wait_ns", j_u64(ch->wait_ns));
	json_object_object_add(o, "uncovered_ns", j_u64(ch->uncovered_ns));
	json_object_object_add(o, "truncated", json_object_new_boolean(ch->truncated));
	json_object_object_add(o, "members_found", j_u64(ch->n_all));
	json_object *ms = json_object_new_array();
	for (size_t i = 0; i < ch->n; i++) {
		const struct ch_member *m = &ch->m[i];
		json_object *j = j_task(m->pid, m->comm, m->prio, m->write);
		json_object_object_add(j, "role", json_object_new_string(ch_role_name(m->role)));
		json_object_object_add(j, "reason", json_object_new_string(ch_reason_name(m->reason)));
		json_object_object_add(j, "cause", j_cause(m));
		json_object_object_add(j, "overlap_ns", j_u64(m->overlap_ns));
		json_object_object_add(j, "preempted_ns",
				       c->ev[EV_SWITCH] ? j_u64(m->preempted_ns) : NULL);
		json_object_object_add(j, "sleeping_ns",
				       c->ev[EV_SWITCH] ? j_u64(m->sleeping_ns) : NULL);
		json_object_array_add(ms, j);
	}
	json_object_object_add(o, "members", ms);
	return o;
}

/* wait_chains: see chains.h; preempted/sleeping are null without
 * sched_switch in the trace. */
static json_object *j_chains(const struct ctx *c)
{
	const struct ch_result *r = ch_result(c->ch);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "threshold_ns", j_u64(r->threshold_ns));
	json_object_object_add(o, "have_sched_switch", json_object_new_boolean(c->ev[EV_SWITCH] != NULL));
	json_object_object_add(o, "waits", j_u64(r->waits));
	json_object_object_add(o, "waits_1ms", j_u64(r->waits_1ms));
	json_object_object_add(o, "truncated", j_u64(r->truncated));
	json_object_object_add(o, "wait_ns", j_u64(r->wait_ns));
	json_object_object_add(o, "uncovered_ns", j_u64(r->uncovered_ns));
	json_object *tot = json_object_new_array();
	for (size_t i = 0; i < r->ntotals; i++) {
		const struct ch_total *t = &r->totals[i];
		json_object *j = json_object_new_object();
		struct ch_member m = { .reason = t->reason, .cause = t->cause };
		json_object_object_add(j, "waiter", json_object_new_string(t->waiter));
		json_object_object_add(j, "member", json_object_new_string(t->member));
		json_object_object_add(j, "role", json_object_new_string(ch_role_name(t->role)));
		json_object_object_add(j, "reason", json_object_new_string(ch_reason_name(t->reason)));
		json_object_object_add(j, "cause", j_cause(&m));
		json_object_object_add(j, "chains", j_u64(t->chains));
		json_object_object_add(j, "wait_ns", j_u64(t->wait_ns));
		json_object_object_add(j, "overlap_ns", j_u64(t->overlap_ns));
		json_object_object_add(j, "preempted_ns",
				       c->ev[EV_SWITCH] ? j_u64(t->preempted_ns) : NULL);
		json_object_object_add(j, "sleeping_ns",
				       c->ev[EV_SWITCH] ? j_u64(t->sleeping_ns) : NULL);
		json_object_array_add(tot, j);
	}
	json_object_object_add(o, "totals", tot);
	json_object *lg = json_object_new_array();
	for (size_t i = 0; i < r->nlongest; i++)
		json_object_array_add(lg, j_chain(c, &r->longest[i]));
	json_object_object_add(o, "longest", lg);
	return o;
}

static json_object *build_json(struct ctx *c, const char *path, int cpus)
{
	json_object *root = json_object_new_object();
	json_object_object_add(root, "tool", json_object_new_string("rs-trace"));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "trace", json_object_new_string(path));
	json_object_object_add(root, "cpus", json_object_new_int(cpus));
	json_object_object_add(root, "comm_prefix", json_object_new_string(c->prefix));
	json_object_object_add(root, "events_total", j_u64(c->events_total));
	json_object_object_add(root, "lost_events", j_u64(c->lost_events));
	json_object_object_add(root, "lost_events_unknown", json_object_new_boolean(c->lost_unknown));

	/* events: every event that occurred, plus the events of interest
	 * (null when the trace does not know them, 0 when none occurred). */
	json_object *ev = json_object_new_object();
	for (int e = 0; e < EV_N; e++) {
		char name[128];
		snprintf(name, sizeof(name), "%s:%s", ev_sys[e], ev_name[e]);
		json_object_object_add(ev, name, c->ev[e] ? j_u64(c->count[c->ev[e]->id]) : NULL);
	}
	int n = tep_get_events_count(c->tep);
	for (int i = 0; i < n; i++) {
		struct tep_event *te = tep_get_event(c->tep, i);
		if (!te || te->id < 0 || te->id > c->max_id || !c->count[te->id])
			continue;
		char name[256];
		snprintf(name, sizeof(name), "%s:%s", te->system, te->name);
		if (!json_object_object_get_ex(ev, name, NULL))
			json_object_object_add(ev, name, j_u64(c->count[te->id]));
	}
	json_object_object_add(root, "events", ev);

	if (c->ev[EV_ACQUIRE] && c->pair_ok) {
		json_object *ml = json_object_new_object();
		json_object_object_add(ml, "workload", j_lp(&c->workload));
		json_object_object_add(ml, "all", j_lp(&c->all));
		qsort(c->comms, c->ncomms, sizeof(*c->comms), cmp_comm);
		json_object *bc = json_object_new_object();
		for (size_t i = 0; i < c->ncomms; i++)
			json_object_object_add(bc, c->comms[i].name, j_lp(&c->comms[i].s));
		json_object_object_add(ml, "by_comm", bc);
		json_object_object_add(ml, "pending_start_at_end", j_u64(lp_pending(c->lp)));
		json_object_object_add(ml, "have_start_locking",
				       json_object_new_boolean(c->ev[EV_START] != NULL));
		json_object_object_add(root, "mmap_lock", ml);
	} else {
		json_object_object_add(root, "mmap_lock", NULL);
	}

	json_object_object_add(root, "wait_chains", c->ch ? j_chains(c) : NULL);
	j_retry(c, &c->r_work, root);
	json_object *all = json_object_new_object();
	j_retry(c, &c->r_all, all);
	json_object_object_add(root, "retryscope_all", all);
	return root;
}

/* ---- options, main ---- */

enum { OPT_COMM_PREFIX, OPT_OUTPUT, OPT_CHAIN_US, OPT_PERFETTO, OPT_HELP, NOPTS };

static const struct cli_opt options[NOPTS] = {
	[OPT_COMM_PREFIX] = { "comm-prefix", 0, "PREFIX",
			      "the workload's tasks: comm starts with PREFIX\n"
			      "(default " RS_COMM_PREFIX "; empty: every task)" },
	[OPT_OUTPUT] = { "output", 'o', "FILE",
			 "write the JSON to FILE (default -: stdout)" },
	[OPT_CHAIN_US] = { "chain-threshold", 0, "US",
			   "wait chains of mmap_lock waits of US microseconds\n"
			   "or longer (default 100)" },
	[OPT_PERFETTO] = { "perfetto", 0, "FILE",
			   "also write FILE in the JSON Trace Event Format for\n"
			   "ui.perfetto.dev or chrome://tracing: mmap_lock\n"
			   "waits and holds as slices per thread, the module's\n"
			   "retries and fallbacks and the longest wait chains\n"
			   "as instant events" },
	[OPT_HELP] = CLI_OPT_HELP,
};

static const struct cli cli = {
	.prog = "rs-trace",
	.operand = "TRACE.DAT",
	.about = "Reads a trace-cmd trace.dat (all CPUs, in timestamp order) and writes JSON:\n"
		 "mmap_lock acquisitions and waits of the workload's tasks (paired from\n"
		 "mmap_lock_start_locking and mmap_lock_acquire_returned), retryscope's\n"
		 "retries and fallbacks by cause, and every event's count.  An event or\n"
		 "field the trace does not know is null, not 0.  Exit status: 0 ok, 1 the\n"
		 "file is missing or not a trace.dat, 2 bad usage.\n",
	.opts = options,
	.nopts = NOPTS,
	.examples = "  rs-trace RUN/trace.dat -o RUN/trace.json\n"
		    "      # what scripts/capture does for every run\n"
		    "  rs-trace trace.dat --comm-prefix=fl-io | less\n"
		    "      # only the fl-io threads count as the workload\n"
		    "  rs-trace RUN/trace.dat -o /dev/null --perfetto RUN/trace.perfetto.json\n"
		    "      # open it at ui.perfetto.dev (Open trace file)\n",
};

struct opts {
	const char *in, *out, *prefix, *perfetto;
	uint64_t chain_ns;
};

static void set_option(void *ctx, int opt, const char *value)
{
	struct opts *o = ctx;
	if (opt == OPT_COMM_PREFIX) {
		o->prefix = value;
	} else if (opt == OPT_OUTPUT) {
		cli_need_value(&cli, opt, value);
		o->out = value;
	} else if (opt == OPT_PERFETTO) {
		cli_need_value(&cli, opt, value);
		o->perfetto = value;
	} else if (opt == OPT_CHAIN_US) {
		char *end;
		cli_need_value(&cli, opt, value);
		errno = 0;
		unsigned long long us = strtoull(value, &end, 10);
		if (errno || end == value || *end || value[0] == '-' || us > 3600000000ull)
			cli_usage_error(&cli, "--chain-threshold: '%s' is not a number of "
					      "microseconds (0 to 3600000000)", value);
		o->chain_ns = us * 1000;
	}
}

/* Find the events and fields of interest; warn about missing fields. */
static void find_events(struct ctx *c, const char *in)
{
	int n = tep_get_events_count(c->tep);
	c->max_id = 0;
	for (int i = 0; i < n; i++) {
		struct tep_event *te = tep_get_event(c->tep, i);
		if (te && te->id > c->max_id)
			c->max_id = te->id;
	}
	for (int e = 0; e < EV_N; e++) {
		c->ev[e] = tep_find_event_by_name(c->tep, ev_sys[e], ev_name[e]);
		if (!c->ev[e])
			continue;
		for (int f = 0; f < F_N; f++)
			c->f[e][f] = tep_find_field(c->ev[e], fld_name[f]);
	}
	c->pair_ok = c->ev[EV_ACQUIRE] && c->f[EV_ACQUIRE][F_WRITE] &&
		     (!c->ev[EV_START] || c->f[EV_START][F_WRITE]);
	if (c->ev[EV_ACQUIRE] && !c->pair_ok)
		fprintf(stderr, "rs-trace: %s: mmap_lock events lack the 'write' field; "
				"mmap_lock statistics not computed\n", in);
	if (c->ev[EV_ACQUIRE] && !c->f[EV_ACQUIRE][F_SUCCESS])
		fprintf(stderr, "rs-trace: %s: mmap_lock_acquire_returned has no 'success' field; "
				"every acquire counts as successful\n", in);
}

static void pf_sink(void *arg, const struct ch_span *s)
{
	struct ctx *c = arg;
	pf_span(c->pf, s, s->reason == CH_R_FALLBACK ? cause_name((size_t)s->cause) : NULL);
}

static const char *pf_comm(void *arg, int pid)
{
	struct ctx *c = arg;
	return tep_data_comm_from_pid(c->tep, pid);
}

static int pf_prio(void *arg, int pid)
{
	struct ctx *c = arg;
	return c->ch ? ch_task_prio(c->ch, pid) : -1;
}

/* --perfetto: the longest chains as instants where their waits end, then
 * the file; 0, or 1 after a message. */
static int write_perfetto(struct ctx *c, const char *path)
{
	const struct ch_result *r = c->ch ? ch_result(c->ch) : NULL;
	for (size_t i = 0; r && i < r->nlongest; i++) {
		const struct ch_chain *ch = &r->longest[i];
		json_object *j = j_chain(c, ch);
		char name[64];
		snprintf(name, sizeof(name), "wait chain: %.2f ms", ch->wait_ns / 1e6);
		pf_instant(c->pf, ch->pid, ch->start_ns + ch->wait_ns, name,
			   json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
		json_object_put(j);
	}
	if (pf_write(c->pf, path, pf_comm, pf_prio, c)) {
		fprintf(stderr, "rs-trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* Read every record of the trace into c; 0, or 1 after a message. */
static int read_trace(struct ctx *c, struct tracecmd_input *h, const char *in,
		      uint64_t chain_ns)
{
	c->tep = tracecmd_get_tep(h);
	c->lp = lp_new();
	find_events(c, in);
	c->count = calloc((size_t)c->max_id + 1, sizeof(*c->count));
	/* chains need the holds to end: released events, and paired locks */
	if (c->pair_ok && c->ev[EV_START] && c->ev[EV_RELEASED] && c->f[EV_START][F_MM] &&
	    (c->ch = ch_new(chain_ns)) == NULL)
		c->oom = 1;
	if (c->ch && c->pf)
		ch_set_sink(c->ch, pf_sink, c);
	if (!c->lp || !c->count || c->oom) {
		fprintf(stderr, "rs-trace: out of memory\n");
		return 1;
	}
	if (tracecmd_iterate_events(h, NULL, 0, on_record, c) < 0) {
		fprintf(stderr, "rs-trace: %s: error while reading events\n", in);
		return 1;
	}
	if (c->oom || (c->ch && ch_oom(c->ch))) {
		fprintf(stderr, "rs-trace: out of memory\n");
		return 1;
	}
	return 0;
}

/* The JSON to out (stdout when NULL or "-"); 0, or 1 after a message. */
static int write_json(json_object *root, const char *out)
{
	FILE *of = stdout;
	if (out && strcmp(out, "-")) {
		of = fopen(out, "w");
		if (!of) {
			fprintf(stderr, "rs-trace: %s: %s\n", out, strerror(errno));
			return 1;
		}
	}
	fprintf(of, "%s\n",
		json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	if (of != stdout && fclose(of)) {
		fprintf(stderr, "rs-trace: %s: %s\n", out, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { NULL, NULL, RS_COMM_PREFIX, NULL, 100000 };
	o.in = cli_parse(&cli, argc, argv, set_option, &o);
	FILE *probe = fopen(o.in, "r");
	if (!probe) {
		fprintf(stderr, "rs-trace: %s: %s\n", o.in, strerror(errno));
		return 1;
	}
	fclose(probe);

	tracecmd_set_loglevel(TEP_LOG_ERROR);
	struct tracecmd_input *h = tracecmd_open(o.in, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "rs-trace: %s: not a readable trace-cmd trace.dat\n", o.in);
		return 1;
	}
	struct ctx c = { 0 };
	c.prefix = o.prefix;
	c.prefix_len = strlen(o.prefix);
	if (o.perfetto && !(c.pf = pf_new())) {
		fprintf(stderr, "rs-trace: out of memory\n");
		return 1;
	}
	int rc = read_trace(&c, h, o.in, o.chain_ns);
	if (!rc) {
		json_object *root = build_json(&c, o.in, tep_get_cpus(c.tep));
		rc = write_json(root, o.out);
		json_object_put(root);
	}
	if (!rc && c.pf)
		rc = write_perfetto(&c, o.perfetto);
	pf_free(c.pf);
	free(c.count);
	free(c.comms);
	lp_free(c.lp);
	ch_free(c.ch);
	tracecmd_close(h);
	return rc;
}

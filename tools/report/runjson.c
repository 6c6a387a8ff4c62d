/* runjson.c: a run's JSON files, workload.json (faultload) and trace.json
 * (rs-trace), read with json-c; see runjson.h. */
#include "runjson.h"
#include "util.h"

#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_object *load_json(const char *path, int *present)
{
	size_t len;
	char *buf = read_file(path, &len);
	*present = 0;
	if (!buf) {
		if (errno == ENOENT)
			return NULL;
		fatal("%s: %s", path, strerror(errno));
	}
	json_tokener *tok = json_tokener_new();
	if (!tok)
		fatal("out of memory");
	json_object *o = json_tokener_parse_ex(tok, buf, (int)len + 1);
	enum json_tokener_error err = json_tokener_get_error(tok);
	if (!o || err != json_tokener_success) {
		size_t end = json_tokener_get_parse_end(tok);
		int line = 1;
		for (size_t i = 0; i < end && i < len; i++)
			if (buf[i] == '\n')
				line++;
		fatal("%s:%d: malformed JSON: %s", path, line,
		      err != json_tokener_success ? json_tokener_error_desc(err) : "empty document");
	}
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	for (size_t i = end; i < len; i++) {
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r' || !buf[i])
			continue;
		int line = 1;
		for (size_t j = 0; j < i; j++)
			if (buf[j] == '\n')
				line++;
		fatal("%s:%d: malformed JSON: data after the top-level value", path, line);
	}
	free(buf);
	if (!json_object_is_type(o, json_type_object))
		fatal("%s: malformed JSON: the top level is not an object", path);
	*present = 1;
	return o;
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v; /* NULL for JSON null too */
}

/* A number field; NaN when absent or null; fatal if of another type. */
static double jnum(json_object *o, const char *key, const char *path, const char *where)
{
	json_object *v = jget(o, key);
	if (!v)
		return NAN;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		fatal("%s: malformed JSON: %s%s\"%s\" is not a number", path, where ? where : "",
		      where ? "." : "", key);
	return json_object_get_double(v);
}

static json_object *jobj(json_object *o, const char *key, const char *path, const char *where)
{
	json_object *v = jget(o, key);
	if (v && !json_object_is_type(v, json_type_object))
		fatal("%s: malformed JSON: %s%s\"%s\" is not an object", path, where ? where : "",
		      where ? "." : "", key);
	return v;
}

static void load_latency(struct latency *lat, json_object *l, const char *path,
			 const char *where)
{
	if (!l)
		return;
	if (!json_object_is_type(l, json_type_object))
		fatal("%s: malformed JSON: %s.latency_ns is not an object", path, where);
	double count = jnum(l, "count", path, where), mn = jnum(l, "min", path, where),
	       mx = jnum(l, "max", path, where);
	if (!lat->present) {
		lat->present = 1;
		lat->count = count;
		lat->min = mn;
		lat->max = mx;
		lat->mean = jnum(l, "mean", path, where);
		lat->p50 = jnum(l, "p50", path, where);
		lat->p90 = jnum(l, "p90", path, where);
		lat->p99 = jnum(l, "p99", path, where);
		lat->p999 = jnum(l, "p999", path, where);
	} else { /* merging another thread: the reported quantiles no longer apply */
		lat->count = (isnan(lat->count) ? 0 : lat->count) + (isnan(count) ? 0 : count);
		if (!isnan(mn) && (isnan(lat->min) || mn < lat->min))
			lat->min = mn;
		if (!isnan(mx) && (isnan(lat->max) || mx > lat->max))
			lat->max = mx;
		lat->mean = lat->p50 = lat->p90 = lat->p99 = lat->p999 = NAN;
	}
	json_object *b = jget(l, "buckets");
	if (!b)
		return;
	if (!json_object_is_type(b, json_type_array))
		fatal("%s: malformed JSON: %s.latency_ns.buckets is not an array", path, where);
	size_t n = json_object_array_length(b);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(b, i);
		if (!e || !json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 3)
			fatal("%s: malformed JSON: %s.latency_ns.buckets[%zu] is not "
			      "[lower_ns, upper_ns, count]",
			      path, where, i);
		json_object *lo = json_object_array_get_idx(e, 0), *hi = json_object_array_get_idx(e, 1),
			    *cn = json_object_array_get_idx(e, 2);
		if (!lo || !cn)
			fatal("%s: malformed JSON: %s.latency_ns.buckets[%zu] has a null bound or count",
			      path, where, i);
		double dlo = json_object_get_double(lo);
		double dhi = hi ? json_object_get_double(hi) : dlo; /* null upper: open-ended */
		double dc = json_object_get_double(cn);
		if (dc < 0)
			fatal("%s: malformed JSON: %s.latency_ns.buckets[%zu] has a negative count", path,
			      where, i);
		if (st_hist_add(&lat->hist, dlo, dhi, (uint64_t)dc))
			fatal("out of memory");
	}
}

void load_workload(struct workload *w, const char *path)
{
	json_object *o = load_json(path, &w->present);
	if (!o)
		return;
	json_object *sc = jget(o, "scenario");
	if (sc && json_object_is_type(sc, json_type_string))
		w->scenario = xstrdup(json_object_get_string(sc));
	w->wall_s = jnum(o, "wall_s", path, NULL);
	w->throughput = jnum(o, "throughput_ops_s", path, NULL);
	w->faults_per_s = jnum(o, "faults_per_s", path, NULL);
	json_object *cl = jobj(o, "classes", path, NULL);
	if (cl) {
		w->c = xcalloc((size_t)json_object_object_length(cl), sizeof(*w->c));
		json_object_object_foreach(cl, key, val)
		{
			char *where = xasprintf("classes.%s", key);
			if (!val || !json_object_is_type(val, json_type_object))
				fatal("%s: malformed JSON: %s is not an object", path, where);
			struct wclass *c = &w->c[w->n++];
			c->name = xstrdup(key);
			st_hist_init(&c->lat.hist);
			c->ops = jnum(val, "ops", path, where);
			c->minflt = jnum(val, "minflt", path, where);
			c->majflt = jnum(val, "majflt", path, where);
			c->errors = jnum(val, "errors", path, where);
			json_object *th = jget(val, "threads");
			if (th && json_object_is_type(th, json_type_array)) {
				/* per-thread objects: merge their histograms */
				size_t nt = json_object_array_length(th);
				c->threads = (double)nt;
				for (size_t i = 0; i < nt; i++) {
					char *tw = xasprintf("%s.threads[%zu]", where, i);
					load_latency(&c->lat, jget(json_object_array_get_idx(th, i),
								   "latency_ns"),
						     path, tw);
					free(tw);
				}
			} else {
				c->threads = jnum(val, "threads", path, where);
				load_latency(&c->lat, jget(val, "latency_ns"), path, where);
			}
			free(where);
		}
	}
	json_object_put(o);
}

/* The read and write figures of one task set (mmap_lock.<what>). */
static void load_modes(struct trace_mode tm[2], json_object *set, const char *path,
		       const char *what)
{
	static const char *const mode[2] = { "read", "write" };
	for (int m = 0; m < 2; m++) {
		json_object *x = jobj(set, mode[m], path, what);
		char *where = xasprintf("%s.%s", what, mode[m]);
		tm[m].acquire = jnum(x, "acquire", path, where);
		tm[m].trylock = jnum(x, "trylock", path, where);
		tm[m].failed = jnum(x, "failed", path, where);
		tm[m].wait_ns_total = jnum(x, "wait_ns_total", path, where);
		tm[m].wait_ns_max = jnum(x, "wait_ns_max", path, where);
		json_object *h = jget(x, "wait_us_hist");
		if (h && !json_object_is_type(h, json_type_array))
			fatal("%s: malformed JSON: %s.wait_us_hist is not an array", path, where);
		for (int i = 0; i < 8; i++) {
			json_object *e = h ? json_object_array_get_idx(h, (size_t)i) : NULL;
			tm[m].hist[i] = e ? json_object_get_double(e) : NAN;
		}
		free(where);
	}
}

static const char *jstr(json_object *o, const char *key, const char *path, const char *where)
{
	json_object *v = jget(o, key);
	if (!v)
		return "";
	if (!json_object_is_type(v, json_type_string))
		fatal("%s: malformed JSON: %s.%s is not a string", path, where, key);
	return json_object_get_string(v);
}

/* "fl-io (prio 139, read, held, fault fallback after file_io) 4.20 ms,
 * preempted 3.90 ms" */
static void member_text(struct sbuf *b, json_object *m, const char *path)
{
	const char *cause = jstr(m, "cause", path, "wait_chains.longest.members");
	double pre = jnum(m, "preempted_ns", path, "wait_chains.longest.members");
	double slp = jnum(m, "sleeping_ns", path, "wait_chains.longest.members");
	sb_printf(b, "%s (prio %.0f, %s, %s, %s%s%s) %.2f ms",
		  jstr(m, "comm", path, "wait_chains.longest.members"),
		  jnum(m, "prio", path, "wait_chains.longest.members"),
		  jstr(m, "mode", path, "wait_chains.longest.members"),
		  jstr(m, "role", path, "wait_chains.longest.members"),
		  jstr(m, "reason", path, "wait_chains.longest.members"), *cause ? " after " : "",
		  cause, jnum(m, "overlap_ns", path, "wait_chains.longest.members") / 1e6);
	if (pre > 0)
		sb_printf(b, ", preempted %.2f ms", pre / 1e6);
	if (slp > 0)
		sb_printf(b, ", asleep %.2f ms", slp / 1e6);
}

static void load_chains(struct trace_sum *t, json_object *wc, const char *path)
{
	const char *w = "wait_chains";
	t->have_chains = 1;
	t->chain_threshold_ns = jnum(wc, "threshold_ns", path, w);
	t->chain_waits = jnum(wc, "waits", path, w);
	t->chain_waits_1ms = jnum(wc, "waits_1ms", path, w);
	t->chain_wait_ns = jnum(wc, "wait_ns", path, w);
	t->chain_uncovered_ns = jnum(wc, "uncovered_ns", path, w);
	json_object *tot = jget(wc, "totals"), *lg = jget(wc, "longest");
	if ((tot && !json_object_is_type(tot, json_type_array)) ||
	    (lg && !json_object_is_type(lg, json_type_array)))
		fatal("%s: malformed JSON: wait_chains.totals or .longest is not an array", path);
	t->nct = tot ? json_object_array_length(tot) : 0;
	t->ct = xcalloc(t->nct ? t->nct : 1, sizeof(*t->ct));
	for (size_t i = 0; i < t->nct; i++) {
		json_object *o = json_object_array_get_idx(tot, i);
		struct chain_total *c = &t->ct[i];
		c->waiter = xstrdup(jstr(o, "waiter", path, "wait_chains.totals"));
		c->member = xstrdup(jstr(o, "member", path, "wait_chains.totals"));
		c->role = xstrdup(jstr(o, "role", path, "wait_chains.totals"));
		c->reason = xstrdup(jstr(o, "reason", path, "wait_chains.totals"));
		c->cause = xstrdup(jstr(o, "cause", path, "wait_chains.totals"));
		c->chains = jnum(o, "chains", path, "wait_chains.totals");
		c->wait_ns = jnum(o, "wait_ns", path, "wait_chains.totals");
		c->overlap_ns = jnum(o, "overlap_ns", path, "wait_chains.totals");
		c->preempted_ns = jnum(o, "preempted_ns", path, "wait_chains.totals");
		c->sleeping_ns = jnum(o, "sleeping_ns", path, "wait_chains.totals");
	}
	t->ncl = lg ? json_object_array_length(lg) : 0;
	t->cl = xcalloc(t->ncl ? t->ncl : 1, sizeof(*t->cl));
	for (size_t i = 0; i < t->ncl; i++) {
		json_object *o = json_object_array_get_idx(lg, i), *ms = jget(o, "members");
		struct sbuf b = { 0 };
		t->cl[i].wait_ns = jnum(o, "wait_ns", path, "wait_chains.longest");
		sb_printf(&b, "%s (prio %.0f, %s) waited %.2f ms (%.2f ms with nobody ahead)%s",
			  jstr(o, "comm", path, w), jnum(o, "prio", path, w),
			  jstr(o, "mode", path, w), t->cl[i].wait_ns / 1e6,
			  jnum(o, "uncovered_ns", path, w) / 1e6,
			  json_object_get_boolean(jget(o, "truncated")) ? " (history cut short)" : "");
		size_t nm = ms && json_object_is_type(ms, json_type_array) ?
				    json_object_array_length(ms) : 0;
		for (size_t j = 0; j < nm && j < 4; j++) {
			sb_printf(&b, j ? "; " : ": ");
			member_text(&b, json_object_array_get_idx(ms, j), path);
		}
		if (nm > 4)
			sb_printf(&b, "; %zu more", nm - 4);
		t->cl[i].text = b.s ? b.s : xstrdup("");
	}
}

void load_trace(struct trace_sum *t, const char *path)
{
	json_object *o = load_json(path, &t->present);
	if (!o)
		return;
	t->lost_events = jnum(o, "lost_events", path, NULL);
	json_object *ml = jget(o, "mmap_lock");
	json_object *wk = ml ? jobj(ml, "workload", path, "mmap_lock") : NULL;
	if (wk) {
		t->have_mmap_lock = 1;
		load_modes(t->mode, wk, path, "mmap_lock.workload");
	}
	json_object *bc = ml ? jget(ml, "by_comm") : NULL;
	if (bc) {
		if (!json_object_is_type(bc, json_type_object))
			fatal("%s: malformed JSON: mmap_lock.by_comm is not an object", path);
		t->have_by_comm = 1;
		json_object *hi = jobj(bc, "fl-hi", path, "mmap_lock.by_comm");
		if (hi)
			load_modes(t->hi, hi, path, "mmap_lock.by_comm.fl-hi");
		json_object *fm = jobj(bc, "fl-main", path, "mmap_lock.by_comm");
		if (fm)
			load_modes(t->forker, fm, path, "mmap_lock.by_comm.fl-main");
	}
	json_object *wc = jobj(o, "wait_chains", path, NULL);
	if (wc)
		load_chains(t, wc, path);
	json_object_put(o);
}


/* runs.c: see runs.h. */
#include "runs.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dir (not starting with '.'). */
static char **subdirs(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t cnt = 0, cap = 0;
	*n = 0;
	if (!d)
		return NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		int ok = is_dir(p);
		free(p);
		if (!ok)
			continue;
		if (cnt == cap)
			v = xrealloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
		v[cnt++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*n = cnt;
	return v;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- counters ("name value" lines) ---- */

static struct counter *counter_find(const struct counters *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

static struct counter *counter_get(struct counters *c, const char *name)
{
	struct counter *k = counter_find(c, name);
	if (k)
		return k;
	if (c->n == c->cap)
		c->v = xrealloc(c->v, (c->cap = c->cap ? c->cap * 2 : 64) * sizeof(*c->v));
	k = &c->v[c->n++];
	k->name = xstrdup(name);
	k->before = k->after = NAN;
	return k;
}

/* Parse one counters file into the before (which=0) or after (1) slot. */
static int load_counters(struct counters *c, const char *path, int which)
{
	size_t len;
	char *buf = read_file(path, &len);
	if (!buf) {
		if (errno == ENOENT)
			return 0;
		fatal("%s: %s", path, strerror(errno));
	}
	char *save = NULL;
	int lineno = 0;
	char *p = buf;
	/* manual line split so that line numbers stay right on blank lines */
	while (p && *p) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		char *line = p;
		p = nl ? nl + 1 : NULL;
		size_t l = strlen(line);
		if (l && line[l - 1] == '\r')
			line[--l] = 0;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		char *name = strtok_r(s, " \t", &save);
		char *val = strtok_r(NULL, " \t", &save);
		char *extra = strtok_r(NULL, " \t", &save);
		char *end = NULL;
		double v = val ? strtod(val, &end) : NAN;
		if (!name || !val || extra || !end || *end || isnan(v))
			fatal("%s:%d: malformed counter line (want \"name value\"): \"%s\"", path,
			      lineno, line);
		/* the module named it kretprobe_nmissed before the fprobe backend */
		if (!strcmp(name, "kretprobe_nmissed"))
			name = "probe_nmissed";
		struct counter *k = counter_get(c, name);
		double *slot = which ? &k->after : &k->before;
		if (!isnan(*slot))
			fatal("%s:%d: counter \"%s\" appears twice", path, lineno, name);
		*slot = v;
	}
	free(buf);
	if (which)
		c->have_after = 1;
	else
		c->have_before = 1;
	return 1;
}

double counter_delta(const struct counters *c, const char *name)
{
	const struct counter *k = counter_find(c, name);
	if (!k || isnan(k->before) || isnan(k->after))
		return NAN;
	return k->after - k->before;
}

double counter_after(const struct counters *c, const char *name)
{
	const struct counter *k = counter_find(c, name);
	return k ? k->after : NAN;
}

static void free_counters(struct counters *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
}

/* ---- JSON ---- */

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

static void load_workload(struct workload *w, const char *path)
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

static void load_trace(struct trace_sum *t, const char *path)
{
	json_object *o = load_json(path, &t->present);
	if (!o)
		return;
	t->lost_events = jnum(o, "lost_events", path, NULL);
	json_object *ml = jget(o, "mmap_lock");
	json_object *wk = ml ? jobj(ml, "workload", path, "mmap_lock") : NULL;
	if (wk) {
		t->have_mmap_lock = 1;
		static const char *const mode[2] = { "read", "write" };
		for (int m = 0; m < 2; m++) {
			json_object *x = jobj(wk, mode[m], path, "mmap_lock.workload");
			struct trace_mode *tm = &t->mode[m];
			char *where = xasprintf("mmap_lock.workload.%s", mode[m]);
			tm->acquire = jnum(x, "acquire", path, where);
			tm->trylock = jnum(x, "trylock", path, where);
			tm->failed = jnum(x, "failed", path, where);
			tm->wait_ns_total = jnum(x, "wait_ns_total", path, where);
			tm->wait_ns_max = jnum(x, "wait_ns_max", path, where);
			json_object *h = jget(x, "wait_us_hist");
			for (int i = 0; i < 8; i++) {
				json_object *e = h ? json_object_array_get_idx(h, (size_t)i) : NULL;
				if (h && !json_object_is_type(h, json_type_array))
					fatal("%s: malformed JSON: %s.wait_us_hist is not an array", path,
					      where);
				tm->hist[i] = e ? json_object_get_double(e) : NAN;
			}
			free(where);
		}
	}
	json_object_put(o);
}

/* ---- meta, status ---- */

static void load_meta(struct run *r, const char *path)
{
	char *buf = read_file(path, NULL);
	if (!buf) {
		if (errno == ENOENT)
			return;
		fatal("%s: %s", path, strerror(errno));
	}
	int lineno = 0;
	char *p = buf;
	while (p && *p) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		char *line = p;
		p = nl ? nl + 1 : NULL;
		size_t l = strlen(line);
		if (l && line[l - 1] == '\r')
			line[--l] = 0;
		if (!*line || *line == '#')
			continue;
		char *eq = strchr(line, '=');
		if (!eq || eq == line)
			fatal("%s:%d: malformed meta line (want key=value): \"%s\"", path, lineno, line);
		*eq = 0;
		r->meta = xrealloc(r->meta, (r->nmeta + 1) * sizeof(*r->meta));
		r->meta[r->nmeta].key = xstrdup(line);
		r->meta[r->nmeta].value = xstrdup(eq + 1);
		r->nmeta++;
	}
	free(buf);
}

static void load_status(struct run *r, const char *path)
{
	char *buf = read_file(path, NULL);
	if (!buf) {
		if (errno != ENOENT)
			fatal("%s: %s", path, strerror(errno));
		warn("%s: missing, run counted as failed", path);
		r->status = RUN_FAILED;
		r->reason = xstrdup("no status file");
		return;
	}
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	size_t l = strlen(buf);
	while (l && (buf[l - 1] == '\r' || buf[l - 1] == ' '))
		buf[--l] = 0;
	const char *rest = NULL;
	if (!strcmp(buf, "ok")) {
		r->status = RUN_OK;
		rest = "";
	} else if (!strncmp(buf, "lossy", 5) && (buf[5] == ':' || !buf[5])) {
		r->status = RUN_LOSSY;
		rest = buf + 5;
	} else if (!strncmp(buf, "failed", 6) && (buf[6] == ':' || !buf[6])) {
		r->status = RUN_FAILED;
		rest = buf + 6;
	} else {
		fatal("%s:1: malformed status (want \"ok\", \"lossy: <reason>\" or "
		      "\"failed: <reason>\"): \"%s\"",
		      path, buf);
	}
	if (*rest == ':')
		rest++;
	while (*rest == ' ')
		rest++;
	r->reason = xstrdup(*rest || r->status == RUN_OK ? rest : "no reason given");
	free(buf);
}

const char *meta_get(const struct run *r, const char *key)
{
	for (size_t i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].value;
	return NULL;
}

const struct wclass *workload_class(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->c[i].name, name))
			return &w->c[i];
	return NULL;
}

static void add_name(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void load_run(struct run *r, const char *dir)
{
	char *p;
#define F(name) (free(p), p = xasprintf("%s/%s", dir, name))
	p = NULL;
	F("status");
	load_status(r, p);
	F("meta");
	load_meta(r, p);
	F("stats.before");
	load_counters(&r->stats, p, 0);
	F("stats.after");
	load_counters(&r->stats, p, 1);
	F("vmstat.before");
	load_counters(&r->vmstat, p, 0);
	F("vmstat.after");
	load_counters(&r->vmstat, p, 1);
	F("workload.json");
	load_workload(&r->wl, p);
	F("trace.json");
	load_trace(&r->tr, p);
	free(p);
#undef F
	if (r->status != RUN_FAILED && !r->wl.present)
		warn("%s: no workload.json", dir);
	if (r->status != RUN_FAILED && (!r->stats.have_before || !r->stats.have_after))
		warn("%s: no stats.before/stats.after: module counters are n/a", dir);
}

void results_load(struct results *res, const char *dir)
{
	memset(res, 0, sizeof(*res));
	if (!is_dir(dir))
		fatal("%s: %s", dir, errno == ENOENT ? "no such directory" : "not a directory");
	res->dir = xstrdup(dir);
	size_t nk;
	char **kernels = subdirs(dir, &nk);
	size_t cap = 0;
	for (size_t k = 0; k < nk; k++) {
		char *kd = xasprintf("%s/%s", dir, kernels[k]);
		size_t ns;
		char **scen = subdirs(kd, &ns);
		for (size_t s = 0; s < ns; s++) {
			char *sd = xasprintf("%s/%s", kd, scen[s]);
			size_t nr;
			char **runs = subdirs(sd, &nr);
			for (size_t i = 0; i < nr; i++) {
				if (res->n == cap)
					res->r = xrealloc(res->r, (cap = cap ? cap * 2 : 32) *
								     sizeof(*res->r));
				struct run *r = &res->r[res->n++];
				memset(r, 0, sizeof(*r));
				r->kernel = xstrdup(kernels[k]);
				r->scenario = xstrdup(scen[s]);
				r->name = xstrdup(runs[i]);
				r->dir = xasprintf("%s/%s", sd, runs[i]);
				load_run(r, r->dir);
				add_name(&res->kernels, &res->nk, r->kernel);
				add_name(&res->scenarios, &res->ns, r->scenario);
			}
			free_strv(runs, nr);
			free(sd);
		}
		free_strv(scen, ns);
		free(kd);
	}
	free_strv(kernels, nk);
	if (res->n == 0)
		fatal("%s: no runs found (want %s/<kernel>/<scenario>/<n>/)", dir, dir);
	qsort(res->kernels, res->nk, sizeof(char *), cmp_str);
	qsort(res->scenarios, res->ns, sizeof(char *), cmp_str);
}

int results_baseline_first(struct results *res, const char *baseline)
{
	for (size_t i = 0; i < res->nk; i++) {
		if (strcmp(res->kernels[i], baseline))
			continue;
		char *b = res->kernels[i];
		memmove(&res->kernels[1], &res->kernels[0], i * sizeof(char *));
		res->kernels[0] = b;
		return 0;
	}
	return -1;
}

int results_order(struct results *res, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	size_t next = 0;
	int rc = 0;

	for (char *k = strtok_r(copy, " ,", &save); k; k = strtok_r(NULL, " ,", &save)) {
		size_t i;
		for (i = next; i < res->nk && strcmp(res->kernels[i], k); i++)
			;
		if (i == res->nk) {
			/* listed twice, or no runs */
			for (i = 0; i < next && strcmp(res->kernels[i], k); i++)
				;
			if (i == next) {
				warn("%s: kernel \"%s\" has no runs", res->dir, k);
				rc = -1;
			}
			continue;
		}
		char *b = res->kernels[i];
		memmove(&res->kernels[next + 1], &res->kernels[next], (i - next) * sizeof(char *));
		res->kernels[next++] = b;
	}
	free(copy);
	return rc;
}

void results_free(struct results *res)
{
	for (size_t i = 0; i < res->n; i++) {
		struct run *r = &res->r[i];
		free(r->kernel);
		free(r->scenario);
		free(r->name);
		free(r->dir);
		free(r->reason);
		free_counters(&r->stats);
		free_counters(&r->vmstat);
		for (size_t c = 0; c < r->wl.n; c++) {
			free(r->wl.c[c].name);
			st_hist_free(&r->wl.c[c].lat.hist);
		}
		free(r->wl.c);
		free(r->wl.scenario);
		for (size_t m = 0; m < r->nmeta; m++) {
			free(r->meta[m].key);
			free(r->meta[m].value);
		}
		free(r->meta);
	}
	free(res->r);
	free_strv(res->kernels, res->nk);
	free_strv(res->scenarios, res->ns);
	free(res->dir);
	memset(res, 0, sizeof(*res));
}

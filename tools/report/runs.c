/* runs.c: the run directories of RESULTS_DIR and their text files
 * (status, meta, meta.host, counters); the JSON files are runjson.c's.
 * See runs.h. */
#include "runs.h"
#include "runjson.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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
	char *save = NULL, *p = buf, *line;
	int lineno = 0;
	while ((line = next_line(&p, &lineno))) {
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

/* debugfs "latency": "# ..." then "outcome cause lo_ns hi_ns faults". */
static void load_fault_lat(struct fault_lat *fl, const char *path)
{
	size_t len;
	char *buf = read_file(path, &len);
	for (int o = 0; o < RS_NLAT_OUTCOMES; o++)
		for (int c = 0; c < RS_NLAT_CAUSES; c++)
			st_hist_init(&fl->h[o][c]);
	if (!buf) {
		if (errno == ENOENT)
			return;
		fatal("%s: %s", path, strerror(errno));
	}
	char *p = buf, *line;
	int lineno = 0;
	while ((line = next_line(&p, &lineno))) {
		char on[32], cn[32], extra[2];
		unsigned long long lo, hi, n;
		if (!*line || *line == '#')
			continue;
		if (sscanf(line, "%31s %31s %llu %llu %llu %1s", on, cn, &lo, &hi, &n, extra) != 5)
			fatal("%s:%d: malformed latency line (want \"outcome cause lo_ns hi_ns faults\"): \"%s\"",
			      path, lineno, line);
		int o = rs_name_index(rs_lat_outcome_name, RS_NLAT_OUTCOMES, on);
		int c = rs_name_index(rs_lat_cause_name, RS_NLAT_CAUSES, cn);
		if (o < 0 || c < 0)
			fatal("%s:%d: unknown %s \"%s\" (module/names.h)", path, lineno,
			      o < 0 ? "outcome" : "cause", o < 0 ? on : cn);
		if (hi <= lo && hi != 0)
			fatal("%s:%d: bucket [%llu, %llu) is empty", path, lineno, lo, hi);
		/* the last bucket's hi is U64_MAX: open-ended */
		if (st_hist_add(&fl->h[o][c], (double)lo, hi == UINT64_MAX ? 0 : (double)hi, n))
			fatal("out of memory");
	}
	free(buf);
	fl->present = 1;
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

/* ---- meta, status: key=value files ---- */

/* Append the key=value lines of path to *v (blank lines and # comments
 * skipped); 0 when the file is absent, 1 when read.  what names the file
 * in the error of a line without "=". */
static int load_kv(const char *path, const char *what, struct kv **v, size_t *n)
{
	char *buf = read_file(path, NULL), *p = buf, *line;
	int lineno = 0;
	if (!buf) {
		if (errno == ENOENT)
			return 0;
		fatal("%s: %s", path, strerror(errno));
	}
	while ((line = next_line(&p, &lineno))) {
		if (!*line || *line == '#')
			continue;
		char *eq = strchr(line, '=');
		if (!eq || eq == line)
			fatal("%s:%d: malformed %s line (want key=value): \"%s\"", path, lineno, what,
			      line);
		*eq = 0;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[*n] = (struct kv){ xstrdup(line), xstrdup(eq + 1), lineno };
		(*n)++;
	}
	free(buf);
	return 1;
}

static void free_kv(struct kv *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

static const struct kv *kv_find(const struct kv *v, size_t n, const char *key,
				const char *path)
{
	const struct kv *found = NULL;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].key, key))
			continue;
		if (found)
			fatal("%s:%d: \"%s\" given twice (first on line %d)", path, v[i].line, key,
			      found->line);
		found = &v[i];
	}
	return found;
}

/* The old status form: its first line "ok", "lossy: <why>" or "failed:
 * <why>"; the crash is guessed from a failed run's reason, as rs-report
 * did before.  0 when line is not of that form. */
static int status_line(struct run *r, char *line)
{
	size_t l = strlen(line);
	while (l && (line[l - 1] == '\r' || line[l - 1] == ' '))
		line[--l] = 0;
	const char *rest = NULL;
	if (!strcmp(line, "ok")) {
		r->status = RUN_OK;
		rest = "";
	} else if (!strncmp(line, "lossy", 5) && (line[5] == ':' || !line[5])) {
		r->status = RUN_LOSSY;
		rest = line + 5;
	} else if (!strncmp(line, "failed", 6) && (line[6] == ':' || !line[6])) {
		r->status = RUN_FAILED;
		rest = line + 6;
	} else {
		return 0;
	}
	rest += *rest == ':';
	rest += strspn(rest, " ");
	r->reason = xstrdup(*rest || r->status == RUN_OK ? rest : "no reason given");
	r->status_keys = 0;
	if (r->status == RUN_FAILED && (strstr(rest, "panic") || strstr(rest, "oops") ||
					strstr(rest, "Oops") || strstr(rest, "BUG")))
		r->crash = xstrdup(strstr(rest, "panic") ? "panic" : "oops");
	return 1;
}

/* The key form: result=ok|lossy|failed, reason=, crash=none|panic|oops|
 * hang|...; other keys are ignored. */
static void status_keys(struct run *r, const char *path)
{
	static const char *const results[] = { [RUN_OK] = "ok", [RUN_LOSSY] = "lossy",
					       [RUN_FAILED] = "failed" };
	struct kv *v = NULL;
	size_t n = 0;
	load_kv(path, "status", &v, &n);
	const struct kv *res = kv_find(v, n, "result", path);
	const struct kv *why = kv_find(v, n, "reason", path);
	const struct kv *crash = kv_find(v, n, "crash", path);
	if (!res)
		fatal("%s: no result= line (want result=ok, lossy or failed)", path);
	size_t i = 0;
	while (i < 3 && strcmp(res->value, results[i]))
		i++;
	if (i == 3)
		fatal("%s:%d: malformed status: result=\"%s\" (want ok, lossy or failed)", path,
		      res->line, res->value);
	r->status = (enum run_status)i;
	r->status_keys = 1;
	r->reason = xstrdup(why && *why->value ? why->value :
			    r->status == RUN_OK ? "" : "no reason given");
	if (crash && *crash->value && strcmp(crash->value, "none"))
		r->crash = xstrdup(crash->value);
	free_kv(v, n);
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
	buf[strcspn(buf, "\n")] = 0;
	if (!status_line(r, buf)) {
		if (!strchr(buf, '='))
			fatal("%s:1: malformed status (want key=value lines with result=ok, lossy or "
			      "failed; or the old first line \"ok\", \"lossy: <reason>\" or "
			      "\"failed: <reason>\"): \"%s\"",
			      path, buf);
		status_keys(r, path);
	}
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
	F("meta.host"); /* first: the host's value of a key wins */
	load_kv(p, "meta", &r->meta, &r->nmeta);
	F("meta");
	load_kv(p, "meta", &r->meta, &r->nmeta);
	F("stats.before");
	load_counters(&r->stats, p, 0);
	F("stats.after");
	load_counters(&r->stats, p, 1);
	F("vmstat.before");
	load_counters(&r->vmstat, p, 0);
	F("vmstat.after");
	load_counters(&r->vmstat, p, 1);
	F("latency");
	load_fault_lat(&r->flat, p);
	/*
	 * A failed run's numbers are not used, and a guest that died in it
	 * left its JSON files cut short: they are not read.
	 */
	if (r->status != RUN_FAILED) {
		F("workload.json");
		load_workload(&r->wl, p);
		F("trace.json");
		load_trace(&r->tr, p);
	}
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
		for (int o = 0; o < RS_NLAT_OUTCOMES; o++)
			for (int c = 0; c < RS_NLAT_CAUSES; c++)
				st_hist_free(&r->flat.h[o][c]);
		free_kv(r->meta, r->nmeta);
		free(r->crash);
		for (size_t c = 0; c < r->tr.nct; c++) {
			struct chain_total *t = &r->tr.ct[c];
			free(t->waiter);
			free(t->member);
			free(t->role);
			free(t->reason);
			free(t->cause);
		}
		free(r->tr.ct);
		for (size_t c = 0; c < r->tr.ncl; c++)
			free(r->tr.cl[c].text);
		free(r->tr.cl);
	}
	free(res->r);
	free_strv(res->kernels, res->nk);
	free_strv(res->scenarios, res->ns);
	free(res->dir);
	memset(res, 0, sizeof(*res));
}

int run_counted(const struct run *r)
{
	return r->status == RUN_OK && !(r->tr.lost_events > 0);
}

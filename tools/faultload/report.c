// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the run result as JSON (json-c) and as summary lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <sys/resource.h>

#include <json-c/json.h>

#include "report.h"
#include "util.h"

void fl_result_init(struct fl_result *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < FL_NCLASSES; i++)
		fl_classstat_init(&r->cls[i]);
}

static struct fl_setup_item *setup_slot(struct fl_result *r, const char *key)
{
	unsigned int i;

	for (i = 0; i < r->nsetup; i++)
		if (!strcmp(r->setup[i].key, key))
			return &r->setup[i];
	if (r->nsetup == FL_MAX_SETUP) {
		fl_warn("too many setup items, dropping %s", key);
		return NULL;
	}
	r->setup[r->nsetup].key = key;
	return &r->setup[r->nsetup++];
}

void fl_result_setup_int(struct fl_result *r, const char *key, long long v)
{
	struct fl_setup_item *s = setup_slot(r, key);

	if (s) {
		s->sval = NULL;
		s->ival = v;
	}
}

void fl_result_setup_str(struct fl_result *r, const char *key, const char *v)
{
	struct fl_setup_item *s = setup_slot(r, key);

	if (s)
		s->sval = v;
}

/* A double printed with a fixed number of decimals, not %.17g. */
static struct json_object *jdouble(double v, int decimals)
{
	char buf[64];

	if (!isfinite(v))
		v = 0;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *juint(uint64_t v)
{
	return json_object_new_uint64(v);
}

static void add(struct json_object *obj, const char *key, struct json_object *v)
{
	json_object_object_add(obj, key, v);
}

static struct json_object *latency_json(const struct hist *h)
{
	struct json_object *lat = json_object_new_object();
	struct json_object *buckets = json_object_new_array();
	uint64_t lo, hi;
	unsigned int i;

	add(lat, "count", juint(h->count));
	add(lat, "min", juint(h->count ? h->min : 0));
	add(lat, "max", juint(h->max));
	add(lat, "mean", jdouble(hist_mean(h), 1));
	add(lat, "p50", juint(hist_quantile(h, 0.50)));
	add(lat, "p90", juint(hist_quantile(h, 0.90)));
	add(lat, "p99", juint(hist_quantile(h, 0.99)));
	add(lat, "p999", juint(hist_quantile(h, 0.999)));
	for (i = 0; i < HIST_NBUCKETS; i++) {
		struct json_object *b;

		if (!h->bucket[i])
			continue;
		hist_bucket_bounds(i, &lo, &hi);
		if (i == HIST_NBUCKETS - 1)
			hi = h->max;	/* open-ended overflow bucket: say where it ends */
		b = json_object_new_array();
		json_object_array_add(b, juint(lo));
		json_object_array_add(b, juint(hi));
		json_object_array_add(b, juint(h->bucket[i]));
		json_object_array_add(buckets, b);
	}
	add(lat, "buckets", buckets);
	return lat;
}

static struct json_object *class_json(const struct fl_classstat *cs)
{
	struct json_object *c = json_object_new_object();

	add(c, "threads", juint(cs->threads));
	add(c, "ops", juint(cs->ops));
	add(c, "minflt", juint(cs->minflt));
	add(c, "majflt", juint(cs->majflt));
	add(c, "errors", juint(cs->errors));
	add(c, "latency_ns", latency_json(&cs->lat));
	return c;
}

static const char *order_name(enum fl_order order)
{
	return order == FL_ORDER_RANDOM ? "random" : "seq";
}

/* Every option that applies to the scenario, with its effective value. */
static struct json_object *options_json(const struct fl_opts *o)
{
	struct json_object *j = json_object_new_object();

#define OPT(name, key, val) \
	do { if (fl_opt_applies(o, name)) add(j, key, val); } while (0)
	OPT("threads", "threads", juint(o->threads));
	OPT("duration", "duration", jdouble(o->duration, 3));
	OPT("passes", "passes", juint(o->passes));
	OPT("file", "file", json_object_new_string(o->file));
	OPT("size", "size", juint(o->size));
	OPT("swap-size", "swap_size", juint(o->swap_size));
	OPT("swap-threads", "swap_threads", juint(o->swap_threads));
	OPT("json", "json", json_object_new_string(o->json));
	OPT("seed", "seed", juint(o->seed));
	OPT("drop-caches", "drop_caches", json_object_new_boolean(o->drop_caches));
	OPT("madv", "madv", json_object_new_string(o->madv_name));
	OPT("order", "order", json_object_new_string(order_name(o->order)));
	OPT("kind", "kind", json_object_new_string(o->kind == FL_KIND_FILE ?
						     "file" : "anon"));
	OPT("fork-interval", "fork_interval_ms", jdouble(o->fork_interval_ms, 3));
	OPT("hi-pages", "hi_pages", juint(o->hi_pages));
	OPT("hi-interval", "hi_interval_ms", jdouble(o->hi_interval_ms, 3));
	OPT("writer-size", "writer_size", juint(o->writer_size));
	OPT("memcg-max", "memcg_max", juint(o->memcg_max));
	if (o->memcg_swap_max >= 0)
		OPT("memcg-swap-max", "memcg_swap_max", juint((uint64_t)o->memcg_swap_max));
	OPT("writer-pause", "writer_pause_ms", jdouble(o->writer_pause_ms, 3));
	OPT("cpu-threads", "cpu_threads", juint(o->cpu_threads));
	OPT("idle-threads", "idle_threads", juint(o->idle_threads));
	OPT("vmas", "vmas", juint(o->vmas));
	if (o->read_ahead_kb >= 0)
		OPT("read-ahead-kb", "read_ahead_kb", juint((uint64_t)o->read_ahead_kb));
#undef OPT
	return j;
}

static void totals(const struct fl_result *r, uint64_t *touches, uint64_t *faults)
{
	int i;

	*touches = *faults = 0;
	for (i = 0; i < FL_NCLASSES; i++) {
		if (fl_class_touches_pages(i))
			*touches += r->cls[i].ops;
		*faults += r->cls[i].minflt + r->cls[i].majflt;
	}
}

/*
 * The whole process's fault counts (all threads, setup included), for
 * comparing with the module's counters for the same tgid.
 */
static struct json_object *rusage_self_json(void)
{
	struct json_object *o = json_object_new_object();
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return o;
	add(o, "minflt", json_object_new_int64(ru.ru_minflt));
	add(o, "majflt", json_object_new_int64(ru.ru_majflt));
	return o;
}

int fl_report_json(FILE *out, const char *path, const struct fl_opts *o,
		   const struct fl_result *r)
{
	struct json_object *root = json_object_new_object();
	struct json_object *classes = json_object_new_object();
	struct json_object *setup = json_object_new_object();
	struct json_object *vmstat;
	uint64_t touches, faults;
	const char *text;
	unsigned int i;
	int ret = 0;

	add(root, "tool", json_object_new_string(FL_NAME));
	add(root, "version", json_object_new_int(1));
	add(root, "scenario", json_object_new_string(o->sc->name));
	add(root, "options", options_json(o));
	add(setup, "setup_s", jdouble(r->setup_s, 6));
	for (i = 0; i < r->nsetup; i++)
		add(setup, r->setup[i].key, r->setup[i].sval ?
		    json_object_new_string(r->setup[i].sval) :
		    json_object_new_int64(r->setup[i].ival));
	add(root, "setup", setup);
	add(root, "wall_s", jdouble(r->wall_s, 6));
	if (r->hi_policy)
		add(root, "hi_policy", json_object_new_string(r->hi_policy));
	for (i = 0; i < FL_NCLASSES; i++)
		if (r->cls[i].threads)
			add(classes, fl_class_name(i), class_json(&r->cls[i]));
	add(root, "classes", classes);
	totals(r, &touches, &faults);
	add(root, "throughput_ops_s",
	    jdouble(r->wall_s > 0 ? (double)touches / r->wall_s : 0, 1));
	add(root, "faults_per_s",
	    jdouble(r->wall_s > 0 ? (double)faults / r->wall_s : 0, 1));

	vmstat = json_object_new_object();
	for (i = 0; i < FL_VMSTAT_N; i++)
		if (r->vmstat.have[i])
			add(vmstat, fl_vmstat_name(i),
			    json_object_new_int64(r->vmstat.v[i]));
	add(root, "vmstat", vmstat);
	add(root, "rusage_self", rusage_self_json());

	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) == EOF || fputc('\n', out) == EOF ||
	    fflush(out) == EOF) {
		fl_err("writing the JSON to %s: %s", path, strerror(errno));
		ret = -1;
	}
	json_object_put(root);
	return ret;
}

static void ns_str(char *buf, size_t len, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 10000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 10000000000ull)
		snprintf(buf, len, "%.1fms", ns / 1e6);
	else
		snprintf(buf, len, "%.1fs", ns / 1e9);
}

void fl_report_summary(FILE *out, const struct fl_opts *o,
		       const struct fl_result *r)
{
	char p50[32], p99[32], max[32];
	uint64_t touches, faults;
	int i;

	totals(r, &touches, &faults);
	fprintf(out, "%s: %s: %.2f s, %.0f touches/s, %.0f faults/s%s%s\n",
		FL_NAME, o->sc->name, r->wall_s,
		r->wall_s > 0 ? touches / r->wall_s : 0,
		r->wall_s > 0 ? faults / r->wall_s : 0,
		r->hi_policy ? ", hi thread " : "",
		r->hi_policy ? r->hi_policy : "");
	for (i = 0; i < FL_NCLASSES; i++) {
		const struct fl_classstat *cs = &r->cls[i];

		if (!cs->threads)
			continue;
		ns_str(p50, sizeof(p50), hist_quantile(&cs->lat, 0.5));
		ns_str(p99, sizeof(p99), hist_quantile(&cs->lat, 0.99));
		ns_str(max, sizeof(max), cs->lat.max);
		fprintf(out, "%s:   %-6s x%-3u ops %-9" PRIu64 " majflt %-7" PRIu64
			" minflt %-8" PRIu64 " p50 %s p99 %s max %s",
			FL_NAME, fl_class_name(i), cs->threads, cs->ops,
			cs->majflt, cs->minflt, p50, p99, max);
		if (cs->errors)
			fprintf(out, " errors %" PRIu64, cs->errors);
		fprintf(out, "\n");
	}
}

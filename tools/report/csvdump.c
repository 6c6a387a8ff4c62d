/* csvdump.c: report.csv; see csvdump.h. */
#include "csvdump.h"
#include "decision.h"
#include "rsnames.h"

#include <math.h>
#include <stdio.h>

static const char *const status_name[] = { "ok", "lossy", "failed" };

static void line(FILE *f, const struct run *r, const char *src, const char *name,
		 const char *name2, double v)
{
	if (isnan(v))
		return;
	/* a run the report leaves out is never "ok" here */
	const char *st = r->status == RUN_OK && !run_counted(r) ? "lossy" : status_name[r->status];

	fprintf(f, "%s,%s,%s,%s,%s,%s%s%s,%.17g\n", r->kernel, r->scenario, r->name, st, src,
		name, name2 ? "." : "", name2 ? name2 : "", v);
}

static void counters(FILE *f, const struct run *r, const struct counters *c, const char *src)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct counter *x = &c->v[i];
		/* /proc/vmstat has some 180 fields: the ones that moved */
		if (!isnan(x->before) && (c == &r->stats || x->after != x->before))
			line(f, r, src, x->name, NULL, x->after - x->before);
		else if (c == &r->stats)
			line(f, r, "module_after", x->name, NULL, x->after);
	}
}

static void trace(FILE *f, const struct run *r)
{
	static const char *const mode[2] = { "read", "write" };
	if (!r->tr.have_mmap_lock)
		return;
	for (int m = 0; m < 2; m++) {
		const struct trace_mode *t = &r->tr.mode[m];
		char n[64];
		snprintf(n, sizeof(n), "mmap_lock_%s", mode[m]);
		line(f, r, "trace", n, "acquire", t->acquire);
		line(f, r, "trace", n, "trylock", t->trylock);
		line(f, r, "trace", n, "failed", t->failed);
		line(f, r, "trace", n, "wait_ns_total", t->wait_ns_total);
		line(f, r, "trace", n, "wait_ns_max", t->wait_ns_max);
		for (int b = 0; b < RS_NWAIT_BUCKETS; b++) {
			char w[32];
			snprintf(w, sizeof(w), "wait_%s", rs_wait_bucket_name[b]);
			line(f, r, "trace", n, w, t->hist[b]);
		}
	}
}

static void workload(FILE *f, const struct run *r)
{
	const struct workload *w = &r->wl;
	if (!w->present)
		return;
	line(f, r, "workload", "throughput_ops_s", NULL, w->throughput);
	line(f, r, "workload", "faults_per_s", NULL, w->faults_per_s);
	line(f, r, "workload", "wall_s", NULL, w->wall_s);
	for (size_t i = 0; i < w->n; i++) {
		const struct wclass *c = &w->c[i];
		line(f, r, "workload", c->name, "threads", c->threads);
		line(f, r, "workload", c->name, "ops", c->ops);
		line(f, r, "workload", c->name, "minflt", c->minflt);
		line(f, r, "workload", c->name, "majflt", c->majflt);
		line(f, r, "workload", c->name, "errors", c->errors);
		line(f, r, "workload", c->name, "latency_p50_ns", c->lat.p50);
		line(f, r, "workload", c->name, "latency_p99_ns", c->lat.p99);
		line(f, r, "workload", c->name, "latency_p999_ns", c->lat.p999);
		line(f, r, "workload", c->name, "latency_max_ns", c->lat.max);
	}
}

int write_csv(const struct results *res, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "kernel,scenario,run,status,source,name,value\n");
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		counters(f, r, &r->stats, "module");
		counters(f, r, &r->vmstat, "vmstat");
		trace(f, r);
		workload(f, r);
		for (size_t p = 0; p < primary_count(); p++)
			line(f, r, "primary", primary_key(p), NULL, primary_value(p, r));
	}
	return fclose(f);
}

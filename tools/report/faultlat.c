/* faultlat.c: the "Per-fault latency" section; see faultlat.h. */
#include "faultlat.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How the report names an outcome and a cause of module/names.h. */
static const char *outcome_text(int o)
{
	static const char *const t[] = { "first attempt", "retried, finished under the VMA lock",
					 "retried, finished under mmap_lock" };
	return o < (int)(sizeof(t) / sizeof(*t)) ? t[o] : rs_lat_outcome_name[o];
}

static const char *cause_text(int c)
{
	return !strcmp(rs_lat_cause_name[c], "file_io") ? "file" :
	       !strcmp(rs_lat_cause_name[c], "swap_io") ? "swap" :
							  rs_lat_cause_name[c];
}

/* The pooled histogram of kernel's runs of scen (not failed), for one
 * outcome and cause; returns the runs that had a latency file. */
static size_t fault_lat_pool(const struct results *res, const char *kernel,
			     const char *scen, int outcome, int cause,
			     struct st_hist *out)
{
	size_t runs = 0;
	st_hist_init(out);
	for (size_t i = 0; i < res->n; i++) {
		const struct run *r = &res->r[i];
		if (strcmp(r->kernel, kernel) || strcmp(r->scenario, scen) ||
		    !run_counted(r) || !r->flat.present)
			continue;
		if (st_hist_merge(out, &r->flat.h[outcome][cause]))
			fatal("out of memory");
		runs++;
	}
	return runs;
}

/* "n: p50 / p99 / max" in µs, or "0", or "n/a" (no latency file); the
 * p99 is "—" over fewer than 100 faults (it would only be the max). */
static void fmt_lat(const struct st_hist *h, size_t runs, char *buf, size_t n)
{
	char a[32], b[32], c[32], d[32];
	uint64_t total = st_hist_total(h);
	if (!runs) {
		snprintf(buf, n, "n/a");
		return;
	}
	if (!total) {
		snprintf(buf, n, "0");
		return;
	}
	if (total >= 100)
		fmt_num(st_hist_quantile(h, 0.99) / 1000.0, c, sizeof(c));
	else
		snprintf(c, sizeof(c), "—");
	snprintf(buf, n, "%s: %s / %s / %s", fmt_num((double)total, a, sizeof(a)),
		 fmt_num(st_hist_quantile(h, 0.5) / 1000.0, b, sizeof(b)), c,
		 fmt_num(st_hist_quantile(h, 1.0) / 1000.0, d, sizeof(d)));
}

void write_fault_latency(FILE *f, const struct results *res)
{
	int any = 0;
	for (size_t i = 0; i < res->n && !any; i++)
		any = res->r[i].flat.present;
	if (!any)
		return;
	fprintf(f, "\n## Per-fault latency\n\n"
		   "Faults that went through `filemap_fault()` (file) or `do_swap_page()` (swap), "
		   "timed by the module from the first attempt's `->fault` to the return of the "
		   "call that finished the fault (`->fault`, or the fault-around's "
		   "`filemap_map_pages()`), the wait between attempts included; pooled over "
		   "the runs. Each cell: faults: p50 / p99 / max in µs (bucket precision 25%%; "
		   "no p99, —, over fewer than 100 faults). "
		   "Anonymous and shmem faults are not timed.\n\n");
	md_head(f, "| scenario | fault |", "|---|---|", res->kernels, res->nk, "---:|");
	struct st_hist *h = xmalloc(res->nk * sizeof(*h));
	size_t *runs = xmalloc(res->nk * sizeof(*runs));
	for (size_t s = 0; s < res->ns; s++)
		for (int c = 0; c < RS_NLAT_CAUSES; c++)
			for (int o = 0; o < RS_NLAT_OUTCOMES; o++) {
				uint64_t sum = 0;
				for (size_t k = 0; k < res->nk; k++) {
					runs[k] = fault_lat_pool(res, res->kernels[k], res->scenarios[s],
								 o, c, &h[k]);
					sum += st_hist_total(&h[k]);
				}
				if (sum) {
					fprintf(f, "| %s | %s, %s |", res->scenarios[s], cause_text(c),
						outcome_text(o));
					for (size_t k = 0; k < res->nk; k++) {
						char cell[128];
						fmt_lat(&h[k], runs[k], cell, sizeof(cell));
						fprintf(f, " %s |", cell);
					}
					fprintf(f, "\n");
				}
				for (size_t k = 0; k < res->nk; k++)
					st_hist_free(&h[k]);
			}
	free(h);
	free(runs);
}

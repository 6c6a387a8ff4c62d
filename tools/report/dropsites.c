/* dropsites.c: the report's "Where the lock was dropped" section; see
 * dropsites.h.  Which sites each kernel keeps on the VMA lock: a site's
 * retries minus its fallbacks. */
#include "dropsites.h"
#include "measures.h"

#include <math.h>

static const struct site {
	const char *label, *retry, *fallback;
} sites[] = {
	{ "file: readahead I/O started", "filemap_retry_readahead",
	  "fallback_site_filemap_readahead" },
	{ "file: folio locked by another's I/O", "filemap_retry_locked_folio",
	  "fallback_site_filemap_locked_folio" },
	{ "file: uptodate folio (async readahead)", "filemap_retry_uptodate",
	  "fallback_site_filemap_uptodate" },
	{ "file: synchronous read (page_not_uptodate)", "filemap_retry_sync_read",
	  "fallback_site_filemap_sync_read" },
	{ "swap: swap-in I/O started", "swap_retry_io", "fallback_site_swap_io" },
	{ "swap: swap-cache folio locked", "swap_retry_locked_folio",
	  "fallback_site_swap_locked_folio" },
};

void write_drop_sites(FILE *f, const struct results *res)
{
	int any = 0;
	for (size_t k = 0; k < res->nk && !any; k++)
		any = !isnan(counter_sum_medians(res, res->kernels[k], sites[0].retry));
	if (!any)
		return;
	fprintf(f, "\n## Where the lock was dropped\n\nThe file and swap retries by the place "
		   "`filemap_fault()` or `do_swap_page()` dropped the lock, and how many of them "
		   "then fell back to `mmap_lock`: retries / fell back, medians per run summed "
		   "over the scenarios. The rest were kept on the VMA lock (docs/counters.md, "
		   "\"Where the lock was dropped\").\n\n");
	kernel_table_head(f, res, "| site |", "|---|");
	for (size_t i = 0; i < sizeof(sites) / sizeof(*sites); i++) {
		fprintf(f, "| %s |", sites[i].label);
		for (size_t k = 0; k < res->nk; k++) {
			double r = counter_sum_medians(res, res->kernels[k], sites[i].retry);
			double fb = counter_sum_medians(res, res->kernels[k], sites[i].fallback);
			if (isnan(r) || isnan(fb))
				fprintf(f, " n/a |");
			else
				fprintf(f, " %.0f / %.0f |", r, fb);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "| file: retry found the folio gone (`filemap_retry_miss`) |");
	for (size_t k = 0; k < res->nk; k++) {
		double m = counter_sum_medians(res, res->kernels[k], "filemap_retry_miss");
		if (isnan(m))
			fprintf(f, " n/a |");
		else
			fprintf(f, " %.0f |", m);
	}
	fprintf(f, "\n");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * swap.c - anonymous memory in swap, and the swap worker thread.
 *
 * MADV_PAGEOUT alone is not enough on a block-device swap: it starts the
 * writeback and unmaps the pages, but a folio under writeback stays in
 * the swap cache, and touching it is a minor fault that never waits for
 * I/O.  So after MADV_PAGEOUT we ask memory.reclaim of our cgroup
 * (cgroup v2) to reclaim that many pages, anon first, until (almost)
 * none of the range is resident.  Without memory.reclaim we warn and
 * report how much stayed resident ("swap_resident_after_evict").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fileio.h"
#include "memcg.h"
#include "opts.h"
#include "order.h"
#include "report.h"
#include "run.h"
#include "swap.h"
#include "util.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#define EVICT_TRIES	100	/* up to ~5 s for writeback to end */
#define EVICT_WAIT_NS	(50 * NSEC_PER_MSEC)

/* reclaim_mode: the memory.reclaim syntax this kernel takes */
enum {
	RECLAIM_SWAPPINESS_MAX,	/* "N swappiness=max" (anon only) */
	RECLAIM_SWAPPINESS_200,	/* "N swappiness=200" */
	RECLAIM_PLAIN,		/* "N" */
	RECLAIM_NONE,		/* no usable memory.reclaim */
};

/* Word w of page p: distinct per word and page, never a same-filled page. */
static inline uint64_t pattern_base(uint64_t seed, size_t page)
{
	return fl_mix64(seed ^ ((uint64_t)page << 20) ^ 0x5a5a5a5a5a5a5a5aull);
}

#define PATTERN_STEP	0x9e3779b97f4a7c15ull

static void fill_page(uint64_t *w, size_t nwords, uint64_t base)
{
	size_t i;

	for (i = 0; i < nwords; i++)
		w[i] = base + i * PATTERN_STEP;
}

/* Index of the first wrong word, or -1. */
static long check_page(const uint64_t *w, size_t nwords, uint64_t base)
{
	size_t i;

	for (i = 0; i < nwords; i++)
		if (w[i] != base + i * PATTERN_STEP)
			return (long)i;
	return -1;
}

/* Free swap in bytes from /proc/swaps, or -1 with a message. */
static long long swap_free_bytes(int *nswaps)
{
	char line[512];
	long long total = 0, size, used;
	FILE *f;

	*nswaps = 0;
	f = fopen("/proc/swaps", "re");
	if (!f) {
		fl_err("swap: cannot read /proc/swaps: %s", strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f)) {	/* the header */
		fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %lld %lld", &size, &used) != 2)
			continue;
		total += (size - used) * 1024;
		(*nswaps)++;
	}
	fclose(f);
	return total;
}

static int zswap_enabled(void)
{
	FILE *f = fopen("/sys/module/zswap/parameters/enabled", "re");
	int c = 0;

	if (f) {
		c = fgetc(f);
		fclose(f);
	}
	return c == 'Y' || c == '1';
}

/* memory.reclaim of the cgroup v2 we are in, if we may write it. */
static void find_reclaim(struct fl_swap *s)
{
	char dir[sizeof(s->reclaim_path) - sizeof("/memory.reclaim")];

	s->reclaim_path[0] = '\0';
	s->reclaim_mode = RECLAIM_NONE;
	if (fl_cgroup_dir(dir, sizeof(dir)))
		snprintf(dir, sizeof(dir), CGROUP_ROOT);
	snprintf(s->reclaim_path, sizeof(s->reclaim_path), "%s/memory.reclaim", dir);
	if (access(s->reclaim_path, W_OK) == 0)
		s->reclaim_mode = RECLAIM_SWAPPINESS_MAX;
}

/*
 * Ask memory.reclaim for bytes: 0 (EAGAIN, a partial success, included),
 * -ENOSYS once it proved unusable (after one warning), or -errno.
 */
static int reclaim(struct fl_swap *s, uint64_t bytes)
{
	static const char *const suffix[] = {
		[RECLAIM_SWAPPINESS_MAX] = " swappiness=max",
		[RECLAIM_SWAPPINESS_200] = " swappiness=200",
		[RECLAIM_PLAIN] = "",
	};
	char buf[64];
	int err = -ENOSYS;

	pthread_mutex_lock(&s->reclaim_lock);
	while (s->reclaim_mode != RECLAIM_NONE) {
		snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)bytes,
			 suffix[s->reclaim_mode]);
		err = fl_write_file(s->reclaim_path, buf);
		if (err == -EAGAIN || err == -EBUSY)
			err = 0;
		if (err != -EINVAL || s->reclaim_mode == RECLAIM_PLAIN)
			break;
		s->reclaim_mode++;	/* try the older syntax */
	}
	if (err && err != -ENOSYS) {
		fl_warn("swap: writing %s: %s; pages left in the swap cache will not wait for I/O",
			s->reclaim_path, strerror(-err));
		s->reclaim_mode = RECLAIM_NONE;
	}
	pthread_mutex_unlock(&s->reclaim_lock);
	return err;
}

long fl_swap_evict(struct fl_swap *s, size_t first, size_t n)
{
	size_t psz = fl_page_size();
	unsigned char *addr = s->area + first * psz;
	long resident;
	int i;

	if (madvise(addr, n * psz, MADV_PAGEOUT))
		return -errno;
	for (i = 0;; i++) {
		resident = fl_resident_pages(addr, n * psz);
		if (resident <= (long)(n / 100) || i == EVICT_TRIES)
			break;
		if (i)
			fl_sleep_ns(EVICT_WAIT_NS);	/* for writeback to end */
		if (reclaim(s, (uint64_t)resident * psz))
			break;
	}
	return resident;
}

int fl_swap_prepare(struct fl_swap *s, uint64_t len, uint64_t seed,
		    struct fl_result *res)
{
	size_t psz = fl_page_size(), nwords = psz / sizeof(uint64_t), i;
	long long avail;
	long resident;
	int nswaps;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->reclaim_lock, NULL);
	s->len = len;
	s->npages = len / psz;
	s->seed = seed;

	avail = swap_free_bytes(&nswaps);
	if (avail < 0)
		return -1;
	if (!nswaps) {
		fl_err("swap: no swap is active (/proc/swaps lists none): swapon a disk or zram device first");
		return -1;
	}
	if ((uint64_t)avail < len) {
		fl_err("swap: %lld KiB of swap free, %llu KiB needed (use a smaller --size or more swap)",
		       avail / 1024, (unsigned long long)len / 1024);
		return -1;
	}

	if (zswap_enabled()) {
		fl_warn("swap: zswap is enabled: swap-ins are decompressed from RAM, not read from the swap device");
		fl_result_setup_str(res, "zswap", "enabled");
	}

	s->area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->area == MAP_FAILED) {
		s->area = NULL;
		fl_err("swap: mmap of %llu bytes: %s", (unsigned long long)len,
		       strerror(errno));
		return -1;
	}
	/* no THP: a huge page would be split or swapped in as one */
	(void)madvise(s->area, len, MADV_NOHUGEPAGE);
	for (i = 0; i < s->npages; i++)
		fill_page((uint64_t *)(s->area + i * psz), nwords,
			  pattern_base(seed, i));

	find_reclaim(s);
	resident = fl_swap_evict(s, 0, s->npages);
	if (resident < 0) {
		if (resident == -EINVAL)
			fl_err("swap: madvise(MADV_PAGEOUT) is not supported by this kernel (needs Linux 5.4): %s",
			       strerror(EINVAL));
		else
			fl_err("swap: madvise(MADV_PAGEOUT): %s%s",
			       strerror((int)-resident),
			       resident == -ENOSYS ? FL_NO_ADVISE_HINT : "");
		return -1;
	}
	fl_result_setup_int(res, "swap_pages", (long long)s->npages);
	fl_result_setup_str(res, "swap_evict", s->reclaim_mode == RECLAIM_NONE ?
			    "pageout" : "pageout+memory.reclaim");
	fl_result_setup_int(res, "swap_resident_after_evict", resident);
	if (resident > (long)(s->npages / 10))
		fl_warn("swap: %ld of %zu pages still resident after MADV_PAGEOUT%s: their touches are minor faults",
			resident, s->npages, s->reclaim_mode == RECLAIM_NONE ?
			" (no usable memory.reclaim)" : " and memory.reclaim");
	return 0;
}

void fl_swap_destroy(struct fl_swap *s)
{
	if (s->area)
		munmap(s->area, s->len);
	s->area = NULL;
	pthread_mutex_destroy(&s->reclaim_lock);
}

struct swap_priv {
	size_t first, n;
	uint32_t order[];
};

int fl_swap_setup(struct fl_thread *t)
{
	struct fl_swap_ctx *ctx = t->ctx;
	struct swap_priv *p;
	size_t first, n;

	fl_slice(ctx->swap->npages, t->idx, t->nr, &first, &n);
	p = malloc(sizeof(*p) + n * sizeof(p->order[0]));
	if (!p) {
		fl_err("%s: out of memory for %zu pages", fl_class_comm(t->cls), n);
		return -1;
	}
	p->first = first;
	p->n = n;
	fl_order_fill(p->order, n, ctx->o->order == FL_ORDER_RANDOM,
		      ctx->o->seed + 1000 + t->idx);
	t->priv = p;
	if (ctx->nice) {
		int err = fl_set_thread_nice(ctx->nice);

		if (err)
			fl_warn("%s: setpriority(nice %d): %s",
				fl_class_comm(t->cls), ctx->nice, strerror(-err));
	}
	return 0;
}

int fl_swap_check(const struct fl_swap *s, size_t page, const char *who)
{
	size_t psz = fl_page_size(), nwords = psz / sizeof(uint64_t);
	const uint64_t *w = (const uint64_t *)(s->area + page * psz);
	uint64_t base = pattern_base(s->seed, page);
	long bad = check_page(w, nwords, base);

	if (bad < 0)
		return 0;
	fl_err("%s: page %zu (at %p) is corrupt after swap-in: word %ld is %#llx, expected %#llx",
	       who, page, (const void *)w, bad, (unsigned long long)w[bad],
	       (unsigned long long)(base + (uint64_t)bad * PATTERN_STEP));
	return -1;
}

void fl_swap_work(struct fl_thread *t)
{
	struct fl_swap_ctx *ctx = t->ctx;
	struct fl_swap *s = ctx->swap;
	struct swap_priv *p = t->priv;
	size_t psz = fl_page_size(), i, page;
	uint64_t pass;
	long left;

	for (pass = 0; !ctx->passes || pass < ctx->passes; pass++) {
		if (pass) {
			left = fl_swap_evict(s, p->first, p->n);
			if (left < 0) {
				if (!t->st.errors)
					fl_warn("%s: evicting pages between passes: %s",
						fl_class_comm(t->cls), strerror((int)-left));
				t->st.errors++;
			}
		}
		for (i = 0; i < p->n && !fl_stopping(); i++) {
			page = p->first + p->order[i];
			fl_tstat_op(&t->st, fl_touch_read(s->area + page * psz));
			if (fl_swap_check(s, page, "swap")) {
				t->st.errors++;
				t->fatal = 1;
				fl_request_stop();
				return;
			}
		}
		if (fl_stopping())
			break;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * app-start: an app's files faulted in the order an Android app start
 * reads them, by a few loader threads, while a UI thread renders frames.
 *
 * A model, not a trace: the first --size bytes of --file are cut into the
 * files an app start maps, each mapped as its own MAP_PRIVATE PROT_READ
 * VMA, and read the way the code that maps them reads them:
 *   apk   (40%): the zip's central directory at the end, front to back
 *                (what a zip reader reads first), then 200
 *                entries at random offsets, 1-4 pages each (resources,
 *                classes.dex read in place);
 *   lib0-3 (4 x 7.5%): native libraries as the dynamic linker and the
 *                first calls touch them: the ELF header page, the last
 *                8 pages (dynamic section, symbol and string tables),
 *                then a quarter of the pages in random order (relocated
 *                data and the code first called);
 *   odex  (20%): compiled code in method order: runs of 8 pages, each
 *                run followed by a skipped one;
 *   art   (10%): the app image, every page front to back.
 * --threads fl-io loaders share the files (loader i takes files i,
 * i + threads, ...); an op is one touch.  After each pass a loader makes
 * its files cold again (MADV_DONTNEED and POSIX_FADV_DONTNEED), so every
 * pass is a cold start.  One fl-hi thread renders frames (hi.h) the whole
 * time.  The sizes and orders are assumptions (docs/scenarios.md says
 * what they rest on); an app's own trace would replace them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fileio.h"
#include "hi.h"
#include "opts.h"
#include "report.h"
#include "run.h"
#include "scenario.h"
#include "util.h"

enum app_kind { APP_APK, APP_LIB, APP_ODEX, APP_ART };

struct app_file {
	const char *name;
	enum app_kind kind;
	unsigned int permille;	/* share of --size */
	off_t off;		/* in --file */
	size_t npages;
	unsigned char *map;
};

static struct app_file app_files[] = {
	{ "apk", APP_APK, 400, 0, 0, NULL },
	{ "lib0", APP_LIB, 75, 0, 0, NULL },
	{ "lib1", APP_LIB, 75, 0, 0, NULL },
	{ "lib2", APP_LIB, 75, 0, 0, NULL },
	{ "lib3", APP_LIB, 75, 0, 0, NULL },
	{ "odex", APP_ODEX, 200, 0, 0, NULL },
	{ "art", APP_ART, 100, 0, 0, NULL },
};
#define APP_NFILES (sizeof(app_files) / sizeof(app_files[0]))
#define APP_ENTRIES 200

struct app_ctx {
	const struct fl_opts *o;
	struct fl_file *file;
	struct fl_hi_ctx hi;
};

/* Touch page p of f, timed into t's stats. */
static void app_touch(struct fl_thread *t, const struct app_file *f, size_t p)
{
	if (p < f->npages)
		fl_tstat_op(&t->st, fl_touch_read(f->map + p * fl_page_size()));
}

/* One read of f in its kind's order; seed: the loader's generator. */
static void app_read(struct fl_thread *t, const struct app_file *f, uint64_t *seed)
{
	size_t n = f->npages, i, j;

	switch (f->kind) {
	case APP_APK:
		for (i = n - n / 64; i < n && !fl_stopping(); i++)
			app_touch(t, f, i);
		for (i = 0; i < APP_ENTRIES && !fl_stopping(); i++) {
			size_t at = fl_rand(seed) % n, len = 1 + fl_rand(seed) % 4;

			for (j = 0; j < len; j++)
				app_touch(t, f, at + j);
		}
		break;
	case APP_LIB:
		app_touch(t, f, 0);
		for (i = n > 8 ? n - 8 : 0; i < n; i++)
			app_touch(t, f, i);
		for (i = 0; i < n / 4 && !fl_stopping(); i++)
			app_touch(t, f, fl_rand(seed) % n);
		break;
	case APP_ODEX:
		for (i = 0; i < n && !fl_stopping(); i++)
			if (i % 9 != 8)
				app_touch(t, f, i);
		break;
	case APP_ART:
		for (i = 0; i < n && !fl_stopping(); i++)
			app_touch(t, f, i);
		break;
	}
}

/* Make f cold again: its PTEs zapped, its pages out of the page cache. */
static int app_cold(const struct app_ctx *c, const struct app_file *f)
{
	size_t len = f->npages * fl_page_size();
	int err;

	if (madvise(f->map, len, MADV_DONTNEED))
		return -errno;
	if (!c->o->drop_caches)
		return 0;
	err = posix_fadvise(c->file->fd, f->off, (off_t)len, POSIX_FADV_DONTNEED);
	return -err;
}

static void loader_work(struct fl_thread *t)
{
	struct app_ctx *c = t->ctx;
	uint64_t seed = c->o->seed + 7919 * (t->idx + 1), pass;
	size_t i;
	int err;

	for (pass = 0; !c->o->passes || pass < c->o->passes; pass++) {
		for (i = t->idx; i < APP_NFILES && !fl_stopping(); i += t->nr)
			app_read(t, &app_files[i], &seed);
		if (fl_stopping())
			break;
		for (i = t->idx; i < APP_NFILES; i += t->nr) {
			err = app_cold(c, &app_files[i]);
			if (err && !t->st.errors++)
				fl_warn("fl-io: making %s cold: %s", app_files[i].name,
					strerror(-err));
		}
	}
}

/* Each file its own VMA of --file, at its offset. */
static int app_prepare(void *arg, const struct fl_opts *o, struct fl_result *res)
{
	struct app_ctx *c = arg;
	size_t psz = fl_page_size(), total = o->size / psz, at = 0, i;

	(void)res;
	if (o->threads > APP_NFILES) {
		fl_err("app-start: --threads %u: at most %zu loaders, one a file (a loader without a file would spin)",
		       o->threads, APP_NFILES);
		return -1;
	}
	for (i = 0; i < APP_NFILES; i++) {
		struct app_file *f = &app_files[i];

		f->npages = total * f->permille / 1000;
		f->off = (off_t)(at * psz);
		at += f->npages;
		if (f->npages < 16) {
			/* the smallest file is a library, 75 per mille: 16 pages of it */
			size_t need = (16 * 1000 + 74) / 75;

			while (need * 75 / 1000 < 16)
				need++;
			fl_err("app-start: --size %llu leaves %s %zu pages; give at least %zu KiB",
			       (unsigned long long)o->size, f->name, f->npages,
			       need * psz / 1024);
			return -1;
		}
		f->map = mmap(NULL, f->npages * psz, PROT_READ, MAP_PRIVATE, c->file->fd, f->off);
		if (f->map == MAP_FAILED) {
			f->map = NULL;
			fl_err("app-start: mmap of %s (%zu pages at %lld): %s", f->name, f->npages,
			       (long long)f->off, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void app_cleanup(void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < APP_NFILES; i++)
		if (app_files[i].map) {
			munmap(app_files[i].map, app_files[i].npages * fl_page_size());
			app_files[i].map = NULL;
		}
}

static void app_done(void *arg, struct fl_result *res)
{
	struct app_ctx *c = arg;

	res->hi_policy = c->hi.policy;
}

static int app_start_run(const struct fl_opts *o, struct fl_result *res)
{
	struct fl_file file;
	struct app_ctx ctx = { .o = o, .file = &file, .hi = { .o = o } };
	const struct fl_group groups[] = {
		{ FL_CLASS_HI, 1, fl_hi_setup, fl_hi_work, &ctx.hi, 1 },
		{ FL_CLASS_IO, o->threads, NULL, loader_work, &ctx, 0 },
	};
	const struct fl_plan plan = {
		.file = &file, FL_PLAN_GROUPS(groups), .ctx = &ctx,
		.prepare = app_prepare, .done = app_done, .cleanup = app_cleanup,
	};

	return fl_run_plan(&plan, o, res);
}

const struct fl_scenario fl_sc_app_start = {
	.id = SC_APP_START, .name = "app-start", .run = app_start_run,
	.flags = SCF_FILE | SCF_DROP, .def = { 3, 64ull << 20, 8, 0 },
	.summary = "an app's files faulted in an app start's order beside a UI thread",
	.help = "  --file's first --size bytes cut into an app's files, each its own\n"
		"  VMA: apk (central directory, then random entries), four native\n"
		"  libraries (ELF header, symbol tables, a random quarter), odex\n"
		"  (method order), art (all of it); --threads fl-io loaders read\n"
		"  them cold, pass after pass, while fl-hi renders frames (a model:\n"
		"  docs/scenarios.md).\n",
};

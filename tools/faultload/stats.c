// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-thread measurements and per-class aggregation.
 */
#include <string.h>
#include <sys/resource.h>

#include "stats.h"

static const struct {
	const char *name, *comm;
	int touches;
} classes[FL_NCLASSES] = {
	[FL_CLASS_IO]		= { "io",	"fl-io",	1 },
	[FL_CLASS_SWAP]		= { "swap",	"fl-swap",	1 },
	[FL_CLASS_SAME]		= { "same",	"fl-same",	1 },
	[FL_CLASS_MINOR]	= { "minor",	"fl-minor",	1 },
	[FL_CLASS_HI]		= { "hi",	"fl-hi",	0 },
	[FL_CLASS_WRITER]	= { "writer",	"fl-writer",	0 },
	[FL_CLASS_FORK]		= { "fork",	"fl-main",	0 },
	[FL_CLASS_CPU]		= { "cpu",	"fl-cpu",	0 },
	[FL_CLASS_IDLE]		= { "idle",	"fl-idle",	0 },
};

const char *fl_class_name(enum fl_class c)
{
	return classes[c].name;
}

const char *fl_class_comm(enum fl_class c)
{
	return classes[c].comm;
}

int fl_class_touches_pages(enum fl_class c)
{
	return classes[c].touches;
}

void fl_tstat_init(struct fl_tstat *st)
{
	memset(st, 0, sizeof(*st));
	hist_init(&st->lat);
}

void fl_tstat_begin(struct fl_tstat *st)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		st->errors++;
		memset(&ru, 0, sizeof(ru));
	}
	st->ru_minflt0 = ru.ru_minflt;
	st->ru_majflt0 = ru.ru_majflt;
}

void fl_tstat_end(struct fl_tstat *st)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		st->errors++;
		return;
	}
	st->minflt += (uint64_t)(ru.ru_minflt - st->ru_minflt0);
	st->majflt += (uint64_t)(ru.ru_majflt - st->ru_majflt0);
}

void fl_classstat_init(struct fl_classstat *cs)
{
	memset(cs, 0, sizeof(*cs));
	hist_init(&cs->lat);
}

void fl_classstat_add(struct fl_classstat *cs, const struct fl_tstat *st)
{
	cs->threads++;
	cs->ops += st->ops;
	cs->errors += st->errors;
	cs->minflt += st->minflt;
	cs->majflt += st->majflt;
	hist_merge(&cs->lat, &st->lat);
}

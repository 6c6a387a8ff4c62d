/* rsnames.c: module/names.h's lists expanded into string tables; see rsnames.h. */
#include "rsnames.h"

#include <string.h>

#define RS_STR(name) #name,
#define RS_CAUSE_STR(id, name) [id] = name,

const char *const rs_cause_name[RS_NCAUSES] = { RS_CAUSES(RS_CAUSE_STR, RS_CAUSE_STR) };
const char *const rs_wait_bucket_name[RS_NWAIT_BUCKETS] = { RS_WAIT_BUCKETS(RS_STR) };

static const char *const counter_name[] = { RS_COUNTERS(RS_STR) RS_STATS_EXTRA(RS_STR) };

int rs_counter_known(const char *name)
{
	for (size_t i = 0; i < sizeof(counter_name) / sizeof(*counter_name); i++)
		if (!strcmp(counter_name[i], name))
			return 1;
	return 0;
}

/* rsnames.c: module/names.h's lists expanded into string tables; see rsnames.h. */
#include "rsnames.h"

#include <string.h>

#define RS_CAUSE_ENTRY(str) str,
const char *const rs_cause_name[RS_NCAUSES] = { RS_ALL_CAUSES };
#undef RS_CAUSE_ENTRY

#define RS_WAIT_BUCKET_ENTRY(name) #name,
const char *const rs_wait_bucket_name[RS_NWAIT_BUCKETS] = {
	RS_ALL_WAIT_BUCKETS
};
#undef RS_WAIT_BUCKET_ENTRY

#define RS_COUNTER_ENTRY(name) #name,
static const char *const counter_name[] = { RS_ALL_COUNTERS };
#undef RS_COUNTER_ENTRY

int rs_counter_known(const char *name)
{
	for (size_t i = 0; i < sizeof(counter_name) / sizeof(*counter_name); i++)
		if (!strcmp(counter_name[i], name))
			return 1;
	return 0;
}

int rs_cause_index(const char *name)
{
	for (int i = 0; i < RS_NCAUSES; i++)
		if (!strcmp(rs_cause_name[i], name))
			return i;
	return -1;
}

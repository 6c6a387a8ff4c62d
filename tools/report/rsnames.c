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

#define RS_LAT_OUTCOME(name) #name,
const char *const rs_lat_outcome_name[RS_NLAT_OUTCOMES] = { RS_LAT_OUTCOME_LIST };
#undef RS_LAT_OUTCOME
#define RS_LAT_CAUSE(name) #name,
const char *const rs_lat_cause_name[RS_NLAT_CAUSES] = { RS_LAT_CAUSE_LIST };
#undef RS_LAT_CAUSE

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

int rs_name_index(const char *const *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return i;
	return -1;
}

int rs_cause_index(const char *name)
{
	return rs_name_index(rs_cause_name, RS_NCAUSES, name);
}

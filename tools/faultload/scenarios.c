// SPDX-License-Identifier: GPL-2.0
/*
 * scenarios.c - the table of scenarios (constant data, no state).
 */
#include <string.h>

#include "scenario.h"

const struct fl_scenario *const fl_scenarios[] = {
	[SC_FILE_MAJOR]		= &fl_sc_file_major,
	[SC_SWAP_IN]		= &fl_sc_swap_in,
	[SC_CONTENDED]		= &fl_sc_contended,
	[SC_UI_INVERSION]	= &fl_sc_ui_inversion,
	[SC_SAME_PAGES]		= &fl_sc_same_pages,
	[SC_FORK_DURING_IO]	= &fl_sc_fork_during_io,
	[SC_MINOR]		= &fl_sc_minor,
	[SC_THRASH]		= &fl_sc_thrash,
	[SC_FORK_AT_SCALE]	= &fl_sc_fork_at_scale,
	[SC_VMA_CHURN]		= &fl_sc_vma_churn,
	[SC_SWAP_WRITEBACK]	= &fl_sc_swap_writeback,
	[SC_APP_START]		= &fl_sc_app_start,
	[SC_COUNT]		= NULL,
};

const struct fl_scenario *fl_scenario_find(const char *name)
{
	int i;

	for (i = 0; fl_scenarios[i]; i++)
		if (!strcmp(fl_scenarios[i]->name, name))
			return fl_scenarios[i];
	return NULL;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 5 (interface): the periodic retryscope:retryscope_counter events
 * (totals.c).
 */
#ifndef RETRYSCOPE_TOTALS_H
#define RETRYSCOPE_TOTALS_H

/* Every period_ms (0: never) while the event is on; 0 or -ENOMEM. */
int rs_totals_start(unsigned int period_ms);
/* Waits for a period in flight. */
void rs_totals_stop(void);

#endif /* RETRYSCOPE_TOTALS_H */

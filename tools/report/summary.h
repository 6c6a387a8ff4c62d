/* summary: the headline table (exploratory: every scenario's key figures,
 * ratios to the baseline).  The Summary's claims are decision.c's. */
#ifndef RS_SUMMARY_H
#define RS_SUMMARY_H

#include "runs.h"
#include "util.h"

/* The headline table (markdown): per scenario and kernel, the key_rows
 * KEY_FALLBACKS .. KEY_THROUGHPUT with ratios to the baseline. */
void headline(const struct results *res, struct sbuf *b);

#endif

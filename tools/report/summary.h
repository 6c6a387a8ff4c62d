/* summary: the headline table and the Summary section of the report (claims
 * written from the medians, each with its figure). */
#ifndef RS_SUMMARY_H
#define RS_SUMMARY_H

#include "runs.h"
#include "util.h"

/* The headline table (markdown): per scenario and kernel, the key_rows
 * KEY_FALLBACKS .. KEY_THROUGHPUT with ratios to the baseline. */
void headline(const struct results *res, struct sbuf *b);

/* The Summary's claims (markdown list); meant for two kernels or more. */
void summary(const struct results *res, struct sbuf *b);

#endif

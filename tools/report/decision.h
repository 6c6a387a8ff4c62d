/* decision: what the report may conclude (issue 29).
 *
 * The primary metrics are declared up front (primaries[] in decision.c):
 * one figure of one scenario each, with the direction that is better.  The
 * baseline is pooled: the baseline kernel's runs and its A/A copy's.  Per
 * primary metric and kernel: the ratio of medians to the pooled baseline
 * with a percentile-bootstrap 95% CI, and the exact Mann-Whitney p against
 * the pooled baseline, Holm-corrected over every primary test of the
 * report.  A kernel differs on a metric only when the CI excludes 1 and
 * the corrected p is below 0.05.  Everything else the report shows is
 * exploratory.  The decision table, the primary table, the Summary's
 * claims, the power note and the CSV's "primary" rows are written from
 * the one computation here.
 */
#ifndef RS_DECISION_H
#define RS_DECISION_H

#include "runs.h"
#include "util.h"

#include <stdio.h>

#define DECISION_ALPHA 0.05
#define DECISION_NBOOT 4000
/* The change the power note is about: a factor of 1.2 either way. */
#define DECISION_EFFECT 1.2
#define DECISION_POWER 0.8

enum verdict { V_NA, V_SAME, V_BETTER, V_WORSE };

struct test {
	size_t nb, nk;        /* runs with a value: pooled baseline, kernel */
	double mb, mk;        /* medians */
	double ratio, lo, hi; /* mk / mb and its bootstrap 95% CI (NaN: mb = 0) */
	double p, p_holm;     /* exact Mann-Whitney; Holm-corrected (primary only) */
	enum verdict v;
};

struct decision {
	size_t np, nk;        /* primary metrics, kernels */
	int aa;               /* the A/A copy's index, or -1 */
	size_t family;        /* the tests Holm corrects over */
	struct test *t;       /* [p * nk + k]; k = 0 and k = aa: unused */
	struct test *aa_t;    /* [p]: the A/A copy against the baseline alone */
};

/* The primary metrics' count, and each one's key (CSV name) and label. */
size_t primary_count(void);
const char *primary_key(size_t p);
const char *primary_label(size_t p);
/* A run's value of primary metric p (NaN when the run is not of its
 * scenario or lacks it). */
double primary_value(size_t p, const struct run *r);

void decision_compute(const struct results *res, struct decision *d);
void decision_free(struct decision *d);

/* The first screen: one row per option (what it fixes, what it costs, its
 * verdict), then the primary metrics with CI and p, and the power note. */
void write_decision(FILE *f, const struct results *res, const struct decision *d);
/* The Summary's claims: only the primary differences, each with its CI
 * and corrected p, and one line for everything found no different. */
void decision_claims(const struct results *res, const struct decision *d, struct sbuf *b);

#endif

/* selftests: the mm selftest results per kernel (RESULTS/<kernel>/selftests/selftests.tsv). */
#ifndef RS_SELFTESTS_H
#define RS_SELFTESTS_H

#include <stdio.h>

#include "runs.h"
#include "util.h"

/*
 * Reads RESULTS/<kernel>/selftests/selftests.tsv for every kernel (written by
 * scripts/selftests: "name<TAB>result<TAB>rc<TAB>seconds[<TAB>...]", result
 * one of pass fail skip timeout oops notrun).  Appends to marks one line
 * per kernel that oopsed or fails a test that passes on the baseline
 * (kernels[0]), and writes the "Safety" section to f.  Kernels without the
 * file are listed as not run.  Returns the number of kernels marked.
 */
int selftests_report(const struct results *res, struct sbuf *marks, FILE *f);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - unit test of parse.c (make test): TAP lines, non-zero
 * exit if a check fails.
 */
#include <inttypes.h>
#include <stdio.h>

#include "parse.h"

static int failures, checks;

static void check(int cond, const char *what, const char *input)
{
	checks++;
	if (!cond)
		failures++;
	printf("%s - %s '%s'\n", cond ? "ok" : "not ok", what, input);
}

static void size_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;

	check(fl_parse_size(s, &v) == 0 && v == want, "size parses", s);
}

static void size_bad(const char *s)
{
	uint64_t v;

	check(fl_parse_size(s, &v) != 0, "size rejects", s);
}

static void u64_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;

	check(fl_parse_u64(s, &v) == 0 && v == want, "number parses", s);
}

static void u64_bad(const char *s)
{
	uint64_t v;

	check(fl_parse_u64(s, &v) != 0, "number rejects", s);
}

static void dbl_ok(const char *s, double want)
{
	double v = -12345;

	check(fl_parse_double(s, &v) == 0 && v == want, "seconds parse", s);
}

static void dbl_bad(const char *s)
{
	double v;

	check(fl_parse_double(s, &v) != 0, "seconds reject", s);
}

int main(void)
{
	size_ok("4096", 4096);
	size_ok("64M", 64ull << 20);
	size_ok("64m", 64ull << 20);
	size_ok("8K", 8192);
	size_ok("2G", 2ull << 30);
	size_ok("0", 0);		/* the range check is the caller's */
	size_bad("12Q");
	size_bad("");
	size_bad("M");
	size_bad("-1M");
	size_bad("1MB");
	size_bad("1.5M");
	size_bad(" 1M");
	size_bad("99999999999999999999");
	size_bad("17179869184G");	/* 2^34 G overflows 64 bits */

	u64_ok("0", 0);
	u64_ok("4", 4);
	u64_ok("18446744073709551615", UINT64_MAX);
	u64_bad("abc");
	u64_bad("-1");
	u64_bad("+1");
	u64_bad("4x");
	u64_bad("");
	u64_bad("18446744073709551616");

	dbl_ok("0.5", 0.5);
	dbl_ok("3", 3.0);
	dbl_ok("-1", -1.0);		/* sign: the caller rejects it */
	dbl_bad("");
	dbl_bad("abc");
	dbl_bad("1s");
	dbl_bad("nan");
	dbl_bad("inf");
	dbl_bad(" 1");

	printf("# test_parse: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}

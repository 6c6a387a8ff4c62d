/* tap.h: minimal TAP output for the unit tests. */
#ifndef RS_TAP_H
#define RS_TAP_H

#include <math.h>
#include <stdio.h>

static int tap_n, tap_fail;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		tap_n++;                                                       \
		if (cond) {                                                    \
			printf("ok %d - ", tap_n);                             \
		} else {                                                       \
			tap_fail++;                                            \
			printf("not ok %d - ", tap_n);                         \
		}                                                              \
		printf(__VA_ARGS__);                                           \
		printf("%s\n", (cond) ? "" : "  (" #cond ")");                 \
	} while (0)

#define CHECK_NEAR(a, b, eps, name)                                            \
	CHECK(fabs((double)(a) - (double)(b)) <= (eps), "%s: %g == %g", name,   \
	      (double)(a), (double)(b))

static inline int tap_done(void)
{
	printf("1..%d\n%d passed, %d failed\n", tap_n, tap_n - tap_fail, tap_fail);
	return tap_fail ? 1 : 0;
}

#endif

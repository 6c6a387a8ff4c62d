/* SPDX-License-Identifier: GPL-2.0 */
/*
 * order.h - which pages a thread touches, and in what order.
 */
#ifndef FL_ORDER_H
#define FL_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* Thread idx of nr gets pages [*first, *first + *n) of npages. */
void fl_slice(size_t npages, unsigned int idx, unsigned int nr,
	      size_t *first, size_t *n);
/* order[i] = i, then a Fisher-Yates shuffle seeded by seed if random. */
void fl_order_fill(uint32_t *order, size_t n, int random, uint64_t seed);

#endif /* FL_ORDER_H */

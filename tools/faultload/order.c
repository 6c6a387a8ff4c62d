// SPDX-License-Identifier: GPL-2.0
/*
 * order.c - slices and page orders, see order.h.
 */
#include "order.h"
#include "util.h"

void fl_slice(size_t npages, unsigned int idx, unsigned int nr,
	      size_t *first, size_t *n)
{
	*first = npages * idx / nr;
	*n = npages * (idx + 1) / nr - *first;
}

void fl_order_fill(uint32_t *order, size_t n, int random, uint64_t seed)
{
	uint64_t state = seed;
	size_t i, j;
	uint32_t tmp;

	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	if (!random)
		return;
	for (i = n; i > 1; i--) {
		j = fl_rand(&state) % i;
		tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

/* summary.c: the headline table; see summary.h. */
#include "summary.h"
#include "measures.h"

#include <math.h>
#include <stdlib.h>

/* One headline cell: kernel k's median of key row i (its range is in the
 * scenario's table) and its ratio to the baseline's, or what stands for
 * it: nothing when both are 0, "(stock 0)" when only the baseline's is. */
static void headline_cell(const struct results *res, struct sbuf *b, const char *scen,
			  size_t k, int i, int has_hi, struct cell *base)
{
	char cb[64];
	if (i == KEY_HI_WAIT && !has_hi) {
		sb_printf(b, " — |");
		return;
	}
	struct cell c = cell_of(res, res->kernels[k], scen, &key_rows[i], NULL);
	if (k == 0)
		*base = c;
	if (!c.s.n) {
		sb_printf(b, " n/a |");
		return;
	}
	sb_printf(b, " %s", fmt_num(c.s.median, cb, sizeof(cb)));
	if (k > 0 && base->s.n && base->s.median > 0) {
		static const char *const mark[] = {
			[NOISE_NO] = "", [NOISE_YES] = ", noise", [NOISE_FEW] = ", too few runs"
		};

		sb_printf(b, " (×%.3g%s)", c.s.median / base->s.median,
			  mark[within_noise(res, scen, &key_rows[i], NULL, k)]);
	} else if (k > 0 && base->s.n && c.s.median != 0) {
		sb_printf(b, " (%s 0)", res->kernels[0]);
	}
	if (i == KEY_HI_WAIT && !inversion_exercised(res, res->kernels[k], scen))
		sb_printf(b, " (inversion not exercised)");
	sb_printf(b, " |");
}

void headline(const struct results *res, struct sbuf *b)
{
	sb_printf(b, "| scenario | kernel |");
	for (int i = 0; i < NHEADLINE_COLS; i++)
		sb_printf(b, " %s |", key_rows[i].label);
	sb_printf(b, "\n|---|---|");
	for (int i = 0; i < NHEADLINE_COLS; i++)
		sb_printf(b, "---:|");
	sb_printf(b, "\n");
	for (size_t s = 0; s < res->ns; s++) {
		const char *scen = res->scenarios[s];
		int has_hi = scenario_has_class(res, scen, "hi");
		struct cell base[NHEADLINE_COLS];
		for (size_t k = 0; k < res->nk; k++) {
			sb_printf(b, "| %s | %s |", scen, res->kernels[k]);
			for (int i = 0; i < NHEADLINE_COLS; i++)
				headline_cell(res, b, scen, k, i, has_hi, &base[i]);
			sb_printf(b, "\n");
		}
	}
}

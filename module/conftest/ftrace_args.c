// SPDX-License-Identifier: GPL-2.0
/*
 * An ftrace_ops callback that reads the traced function's arguments from
 * its ftrace_regs (DYNAMIC_FTRACE_WITH_ARGS: x86_64, arm64, riscv, s390,
 * powerpc, loongarch in 7.3 and 6.12).  The entry model's hooks need it;
 * without it they use kprobes.
 */
#include <linux/ftrace.h>

#ifndef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
#error "no DYNAMIC_FTRACE_WITH_ARGS"
#endif

static unsigned long rs_ct_arg;

static void rs_ct_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	rs_ct_arg = ftrace_regs_get_argument(fregs, 1);
	ftrace_test_recursion_unlock(bit);
}

int rs_conftest(void);
int rs_conftest(void)
{
	static struct ftrace_ops ops = {
		.func = rs_ct_func,
	};
	unsigned char sym[] = "handle_mm_fault";

	return ftrace_set_filter(&ops, sym, sizeof(sym) - 1, 1) ?:
	       register_ftrace_function(&ops);
}

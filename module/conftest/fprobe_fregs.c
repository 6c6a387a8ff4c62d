// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe with ftrace_regs handlers on the function-graph tracer (7.3 has
 * it).  Older fprobes (6.12) hand the handlers a pt_regs and run the
 * exit handler from a rethook: the module uses kretprobes there.
 */
#include <linux/fprobe.h>

#ifndef CONFIG_FPROBE
#error "CONFIG_FPROBE is off"
#endif

static int rs_ct_entry(struct fprobe *fp, unsigned long ip,
		       unsigned long ret_ip, struct ftrace_regs *fregs,
		       void *data)
{
	return ftrace_regs_get_argument(fregs, 1) != 0;
}

static void rs_ct_exit(struct fprobe *fp, unsigned long ip,
		       unsigned long ret_ip, struct ftrace_regs *fregs,
		       void *data)
{
	*(unsigned long *)data = ftrace_regs_get_return_value(fregs);
}

int rs_conftest(void);
int rs_conftest(void)
{
	static struct fprobe fp = {
		.entry_handler = rs_ct_entry,
		.exit_handler = rs_ct_exit,
		.entry_data_size = sizeof(unsigned long),
	};

	return register_fprobe_syms(&fp, NULL, 0);
}

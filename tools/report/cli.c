/* cli.c: getopt_long from an option table, the help text, usage errors;
 * see cli.h. */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define LONG_BASE 256 /* getopt_long's value of opts[i]: LONG_BASE + i */

void cli_usage_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", c->prog);
	exit(CLI_EXIT_USAGE);
}

void cli_need_value(const struct cli *c, int opt, const char *value)
{
	if (!value || !*value)
		cli_usage_error(c, "--%s: empty value", c->opts[opt].name);
}

void cli_help(const struct cli *c, FILE *f)
{
	char buf[64];
	fprintf(f, "usage: %s %s [options]\n\n%s\nOptions:\n", c->prog, c->operand, c->about);
	for (size_t i = 0; i < c->nopts; i++) {
		const struct cli_opt *o = &c->opts[i];
		snprintf(buf, sizeof(buf), "%c%c%c --%s%s%s", o->letter ? '-' : ' ',
			 o->letter ? o->letter : ' ', o->letter ? ',' : ' ', o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-26s", buf);
		for (const char *p = o->help, *nl; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			fprintf(f, "%*s%.*s\n", p == o->help ? 0 : 28, "",
				nl ? (int)(nl - p) : (int)strlen(p), p);
		}
	}
	fprintf(f, "\nExamples:\n%s", c->examples);
}

/* The name of the option getopt_long just refused, for the message. */
static const char *refused(const struct cli *c, char **argv, char *buf, size_t n)
{
	if (optopt >= LONG_BASE && (size_t)(optopt - LONG_BASE) < c->nopts)
		snprintf(buf, n, "--%s", c->opts[optopt - LONG_BASE].name);
	else if (optopt > 0 && optopt < LONG_BASE)
		snprintf(buf, n, "-%c", optopt);
	else
		snprintf(buf, n, "%s", argv[optind - 1]);
	return buf;
}

/* One option getopt_long returned: the table index, or exit. */
static int option_index(const struct cli *c, int key, char **argv)
{
	char buf[128];
	if (key == ':')
		cli_usage_error(c, "option '%s' needs a value", refused(c, argv, buf, sizeof(buf)));
	if (key == '?' && optopt >= LONG_BASE)
		cli_usage_error(c, "option '%s' takes no value", refused(c, argv, buf, sizeof(buf)));
	if (key == '?')
		cli_usage_error(c, "unknown option '%s'", refused(c, argv, buf, sizeof(buf)));
	for (size_t i = 0; key < LONG_BASE && i < c->nopts; i++)
		if (c->opts[i].letter == key)
			return (int)i;
	return key - LONG_BASE;
}

/* Keep the operand in *op: the first, non-empty, and only. */
static void operand(const struct cli *c, const char **op, const char *arg)
{
	if (*op)
		cli_usage_error(c, "more than one %s given ('%s', '%s')", c->operand, *op, arg);
	if (!*arg)
		cli_usage_error(c, "empty %s", c->operand);
	*op = arg;
}

const char *cli_parse(const struct cli *c, int argc, char **argv, cli_fn fn, void *ctx)
{
	const char *op = NULL;
	struct option *lo = calloc(c->nopts + 1, sizeof(*lo));
	char *so = calloc(2 * c->nopts + 3, 1), *s = so;
	if (!lo || !so) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		exit(1);
	}
	*s++ = '-'; /* operands come back in order, as 1 */
	*s++ = ':'; /* a missing value comes back as ':' */
	for (size_t i = 0; i < c->nopts; i++) {
		const struct cli_opt *o = &c->opts[i];
		lo[i] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL,
					 LONG_BASE + (int)i };
		if (o->letter) {
			*s++ = (char)o->letter;
			if (o->arg)
				*s++ = ':';
		}
	}
	opterr = 0;
	optind = 1;
	for (int key; (key = getopt_long(argc, argv, so, lo, NULL)) != -1;) {
		if (key == 1) {
			operand(c, &op, optarg);
			continue;
		}
		int i = option_index(c, key, argv);
		if (!strcmp(c->opts[i].name, "help")) {
			cli_help(c, stdout);
			exit(0);
		}
		fn(ctx, i, c->opts[i].arg ? optarg : NULL);
	}
	for (; optind < argc; optind++) /* after "--" */
		operand(c, &op, argv[optind]);
	free(lo);
	free(so);
	if (!op)
		cli_usage_error(c, "no %s given", c->operand);
	return op;
}

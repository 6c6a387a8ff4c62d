/* cli: the command line of rs-trace and rs-report: one option table each
 * drives getopt_long(), the --help text (with examples) and the usage
 * errors, as tools/faultload/opts.c does.  "--opt VALUE" and "--opt=VALUE"
 * both work; operands may come before or after the options.  A usage
 * error is one line on stderr naming the reason, and exit status 2.
 */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stddef.h>
#include <stdio.h>

#define CLI_EXIT_USAGE 2

struct cli_opt {
	const char *name; /* long name, without "--"; "help" prints the help */
	int letter;       /* short option letter, or 0 */
	const char *arg;  /* the value's name in the help; NULL for a flag */
	const char *help; /* the help text, lines separated by \n */
};

/* The entry of --help, -h in every table. */
#define CLI_OPT_HELP { "help", 'h', NULL, "this text" }

struct cli {
	const char *prog;           /* "rs-report" */
	const char *operand;        /* the one operand: "RESULTS_DIR" */
	const char *about;          /* paragraphs after the usage line */
	const struct cli_opt *opts; /* the options */
	size_t nopts;
	const char *examples;       /* lines "  command   # what it does" */
};

/* Called for each option: its index in opts, its value (NULL for a flag). */
typedef void (*cli_fn)(void *ctx, int opt, const char *value);

/* Parse argv and return the operand; --help prints the help to stdout and
 * exits 0; an unknown option, a missing value, no operand, an empty one or
 * more than one is a usage error (exit 2). */
const char *cli_parse(const struct cli *c, int argc, char **argv, cli_fn fn, void *ctx);

/* "PROG: <message> (see PROG --help)" on stderr, exit 2. */
void cli_usage_error(const struct cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* Check that an option's value is not empty (a usage error otherwise). */
void cli_need_value(const struct cli *c, int opt, const char *value);

void cli_help(const struct cli *c, FILE *f);

#endif

/* util: small helpers shared by rs-report's files. */
#ifndef RS_UTIL_H
#define RS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Print "rs-report: ..." and exit(1). */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "rs-report: <kind><message>" on stderr. */
void vmessage(const char *kind, const char *fmt, va_list ap);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whole file into a NUL-terminated buffer; NULL (errno set) if unreadable. */
char *read_file(const char *path, size_t *len);

/* Split a buffer into lines in place: the next line (NUL-terminated,
 * without its "\n" and a "\r" before it), *p moved past it and *lineno
 * counted; NULL at the end. */
char *next_line(char **p, int *lineno);

/* A growing string. */
struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct sbuf *b);

/* Format a number for the report: "n/a" for NaN, thousands separators for
 * integers, a few decimals otherwise.  Returns buf. */
char *fmt_num(double v, char *buf, size_t n);
/* A markdown table's head: lead (its first columns, "| a | b |"), then
 * "| col |" for each of cols[0..n), the rule line lead_rule (for the first
 * columns), then rule (e.g. "---:|") for each of cols. */
void md_head(FILE *f, const char *lead, const char *lead_rule, char *const *cols, size_t n,
	     const char *rule);

#endif

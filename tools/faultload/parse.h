/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - strict parsers for option values.  Each returns 0 on success
 * or -1 if the text is not a complete, valid value (no range checks here
 * beyond what the type can hold: the caller checks ranges).
 */
#ifndef FL_PARSE_H
#define FL_PARSE_H

#include <stdint.h>

/* Unsigned decimal integer ("12"), no sign, no suffix. */
int fl_parse_u64(const char *s, uint64_t *out);
/* Byte count with an optional K, M or G suffix (binary, case-insensitive). */
int fl_parse_size(const char *s, uint64_t *out);
/* Finite decimal number ("0.5", "3"), may be negative: ranges are the caller's. */
int fl_parse_double(const char *s, double *out);

#endif /* FL_PARSE_H */

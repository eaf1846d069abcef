/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_JSON_H
#define RDMACONF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing string; an allocation failure aborts, the harness cannot go on. */
struct rc_str {
	char *s;
	size_t len, cap;
};

void rc_str_printf(struct rc_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rc_str_json(struct rc_str *b, const char *s); /* quoted, escaped */
void rc_str_hex(struct rc_str *b, const uint8_t *p, size_t len); /* quoted */
void rc_str_free(struct rc_str *b);

#endif

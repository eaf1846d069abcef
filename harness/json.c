// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static void reserve(struct rc_str *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	b->cap = (b->len + more + 1) * 2;
	b->s = realloc(b->s, b->cap);
	if (!b->s)
		abort();
}

void rc_str_printf(struct rc_str *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	reserve(b, n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

void rc_str_json(struct rc_str *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		rc_str_printf(b, "null");
		return;
	}
	rc_str_printf(b, "\"");
	for (; *p; p++) {
		switch (*p) {
		case '"':
			rc_str_printf(b, "\\\"");
			break;
		case '\\':
			rc_str_printf(b, "\\\\");
			break;
		case '\n':
			rc_str_printf(b, "\\n");
			break;
		case '\t':
			rc_str_printf(b, "\\t");
			break;
		case '\r':
			rc_str_printf(b, "\\r");
			break;
		default:
			/* control bytes and non-UTF-8 garbage from the code
			 * under test must not break the document */
			if (*p < 0x20 || *p >= 0x80)
				rc_str_printf(b, "\\u%04x", *p);
			else
				rc_str_printf(b, "%c", *p);
		}
	}
	rc_str_printf(b, "\"");
}

void rc_str_hex(struct rc_str *b, const uint8_t *p, size_t len)
{
	size_t i;

	reserve(b, 2 * len + 2);
	b->s[b->len++] = '"';
	for (i = 0; i < len; i++)
		b->len += sprintf(b->s + b->len, "%02x", p[i]);
	b->s[b->len++] = '"';
	b->s[b->len] = 0;
}

void rc_str_free(struct rc_str *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <string.h>

#include "escape.h"

static const char html_special[] = "<>&\"'";
static const char md_special[] = "\\`*_[]<>|#!~&";

/* Append the characters of @s before the first that needs escaping (a
 * control character, or one of @special) as they are; how many.  A page
 * of thousands of nodes escapes megabytes: a run at once, not a
 * character at a time. */
static size_t plain(struct rc_str *b, const char *s, const char *special)
{
	size_t n = 0;

	while (s[n] && (unsigned char)s[n] >= 0x20 && s[n] != 0x7f &&
	       !strchr(special, s[n]))
		n++;
	if (n)
		rc_str_printf(b, "%.*s", (int)n, s);
	return n;
}

void rc_str_html(struct rc_str *b, const char *s)
{
	for (; s && *s; s++) {
		s += plain(b, s, html_special);
		switch (*s) {
		case 0:
			return;
		case '<':
			rc_str_printf(b, "&lt;");
			break;
		case '>':
			rc_str_printf(b, "&gt;");
			break;
		case '&':
			rc_str_printf(b, "&amp;");
			break;
		case '"':
			rc_str_printf(b, "&quot;");
			break;
		case '\'':
			rc_str_printf(b, "&#39;");
			break;
		default:
			rc_str_printf(b, "%c",
				      (unsigned char)*s < 0x20 && *s != '\n' ?
					      '?' :
					      *s);
		}
	}
}

void rc_str_md(struct rc_str *b, const char *s)
{
	for (; s && *s; s++) {
		s += plain(b, s, md_special);
		if (!*s)
			return;
		if (strchr(md_special, *s))
			rc_str_printf(b, "\\%c", *s);
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			rc_str_printf(b, " ");
		else
			rc_str_printf(b, "%c",
				      (unsigned char)*s < 0x20 || *s == 0x7f ?
					      '?' :
					      *s);
	}
}

void rc_str_text(struct rc_str *b, bool html, const char *s)
{
	if (html)
		rc_str_html(b, s);
	else
		rc_str_md(b, s);
}

const char *rc_term_str(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (; s && *s && n + 5 < len; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c >= 0x7f)
			n += snprintf(buf + n, len - n, "\\x%02x", c);
		else
			buf[n++] = c;
	}
	buf[n] = 0;
	return buf;
}

void rc_term_put(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

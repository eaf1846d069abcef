// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		case '"': rc_str_printf(b, "\\\""); break;
		case '\\': rc_str_printf(b, "\\\\"); break;
		case '\n': rc_str_printf(b, "\\n"); break;
		case '\t': rc_str_printf(b, "\\t"); break;
		case '\r': rc_str_printf(b, "\\r"); break;
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

static int write_at(int fd, long off, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = pwrite(fd, s, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		s += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int write_tail(struct rc_results *r, const char *cases,
		      const char *summary, bool complete)
{
	struct rc_str b = {};
	size_t case_len;
	int ret;

	rc_str_printf(&b, "%s", cases);
	case_len = b.len;
	/* "true " keeps the trailer as long as "false": it never shrinks */
	rc_str_printf(&b, "\n],\n\"summary\": %s,\n\"complete\": %s}\n",
		      summary, complete ? "true " : "false");
	ret = write_at(r->fd, r->trailer_off, b.s, b.len);
	if (!ret && ftruncate(r->fd, r->trailer_off + b.len))
		ret = -errno;
	if (!ret)
		r->trailer_off += case_len;
	rc_str_free(&b);
	return ret;
}

int rc_results_open(struct rc_results *r, const char *path, const char *head)
{
	struct rc_str b = {};
	int ret;

	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r->fd < 0)
		return -errno;
	rc_str_printf(&b, "{%s,\n\"results\": [", head);
	ret = write_at(r->fd, 0, b.s, b.len);
	r->trailer_off = b.len;
	rc_str_free(&b);
	if (!ret)
		ret = write_tail(r, "", "{}", false);
	return ret;
}

int rc_results_add(struct rc_results *r, const char *case_json,
		   const char *summary_json)
{
	struct rc_str b = {};
	int ret;

	rc_str_printf(&b, "%s\n%s", r->ncases ? "," : "", case_json);
	ret = write_tail(r, b.s, summary_json, false);
	if (!ret)
		r->ncases++;
	rc_str_free(&b);
	return ret;
}

int rc_results_close(struct rc_results *r, const char *summary_json,
		     bool complete)
{
	int ret = write_tail(r, "", summary_json, complete);

	if (close(r->fd) && !ret)
		ret = -errno;
	r->fd = -1;
	return ret;
}

void rc_str_xml(struct rc_str *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': rc_str_printf(b, "&lt;"); break;
		case '>': rc_str_printf(b, "&gt;"); break;
		case '&': rc_str_printf(b, "&amp;"); break;
		case '"': rc_str_printf(b, "&quot;"); break;
		default:
			rc_str_printf(b, "%c", (unsigned char)*s < 0x20 &&
				      *s != '\n' ? '?' : *s);
		}
	}
}

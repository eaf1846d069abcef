// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

#define MAX_DEPTH 64

struct parser {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	int depth;
};

static bool fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->err[0])
		return false;
	n = snprintf(ps->err, ps->errlen,
		     "byte %zu: ", (size_t)(ps->p - ps->start));
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return false;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "unexpected '%c'", *ps->p);
	ps->p += n;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool hex4(struct parser *ps, unsigned int *u)
{
	int i, h;

	*u = 0;
	if (ps->end - ps->p < 4)
		return fail(ps, "short \\u escape");
	for (i = 0; i < 4; i++) {
		h = hexval(*ps->p++);
		if (h < 0)
			return fail(ps, "bad \\u escape");
		*u = *u << 4 | h;
	}
	return true;
}

/* code point @u as UTF-8 at @o */
static size_t utf8(unsigned int u, char *o)
{
	if (u < 0x80) {
		o[0] = u;
		return 1;
	}
	if (u < 0x800) {
		o[0] = 0xc0 | u >> 6;
		o[1] = 0x80 | (u & 0x3f);
		return 2;
	}
	if (u < 0x10000) {
		o[0] = 0xe0 | u >> 12;
		o[1] = 0x80 | ((u >> 6) & 0x3f);
		o[2] = 0x80 | (u & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | u >> 18;
	o[1] = 0x80 | ((u >> 12) & 0x3f);
	o[2] = 0x80 | ((u >> 6) & 0x3f);
	o[3] = 0x80 | (u & 0x3f);
	return 4;
}

static bool string_body(struct parser *ps, char *o);

static bool string(struct parser *ps, char **out)
{
	const char *q, *end = ps->end;
	bool ok;

	ps->p++; /* the opening quote */
	/* most strings have no escape and no control character: copied at
	 * once (a fleet's report reads gigabytes); the others, and every
	 * error, take the way below */
	for (q = ps->p;
	     q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20;
	     q++)
		;
	if (q < end && *q == '"') {
		*out = xcalloc(q - ps->p + 1, 1);
		memcpy(*out, ps->p, q - ps->p);
		ps->p = q + 1;
		return true;
	}
	for (q = ps->p; q < ps->end && *q != '"'; q++)
		if (*q == '\\')
			q++;
	if (q >= ps->end)
		return fail(ps, "unterminated string");
	/* unescaping never grows the text; nothing may read past the quote */
	*out = xcalloc(q - ps->p + 1, 1);
	ps->end = q;
	ok = string_body(ps, *out);
	ps->end = end;
	if (ok)
		ps->p = q + 1;
	return ok;
}

static bool string_body(struct parser *ps, char *o)
{
	unsigned int u, lo;

	while (ps->p < ps->end) {
		unsigned char c = *ps->p++;

		if (c < 0x20)
			return fail(ps, "control character in a string");
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		if (ps->p >= ps->end)
			return fail(ps, "bad escape");
		switch (*ps->p++) {
		case '"':
			*o++ = '"';
			break;
		case '\\':
			*o++ = '\\';
			break;
		case '/':
			*o++ = '/';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u':
			if (!hex4(ps, &u))
				return false;
			if (u >= 0xd800 && u < 0xdc00 && ps->end - ps->p >= 6 &&
			    ps->p[0] == '\\' && ps->p[1] == 'u') {
				ps->p += 2;
				if (!hex4(ps, &lo))
					return false;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(ps, "bad surrogate pair");
				u = 0x10000 + ((u - 0xd800) << 10) +
				    (lo - 0xdc00);
			}
			if (!u)
				u = '?'; /* no NUL inside C strings */
			o += utf8(u, o);
			break;
		default:
			return fail(ps, "bad escape");
		}
	}
	*o = 0;
	return true;
}

static bool number(struct parser *ps, double *num)
{
	char buf[64], *end;
	const char *q = ps->p;
	size_t n;

	while (q < ps->end && *q && strchr("+-0123456789.eE", *q))
		q++;
	n = q - ps->p;
	if (!n || n >= sizeof(buf))
		return fail(ps, "bad number");
	memcpy(buf, ps->p, n);
	buf[n] = 0;
	errno = 0;
	*num = strtod(buf, &end);
	if (*end || errno == ERANGE)
		return fail(ps, "bad number '%s'", buf);
	ps->p = q;
	return true;
}

static bool value(struct parser *ps, struct rc_jv *v);

static bool collection(struct parser *ps, struct rc_jv *v, bool obj)
{
	char close = obj ? '}' : ']';
	size_t cap = 0;

	if (++ps->depth > MAX_DEPTH)
		return fail(ps, "nested deeper than %d", MAX_DEPTH);
	v->type = obj ? RC_JOBJ : RC_JARR;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return true;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			v->items = realloc(v->items, cap * sizeof(*v->items));
			if (obj)
				v->keys = realloc(v->keys,
						  cap * sizeof(*v->keys));
			if (!v->items || (obj && !v->keys))
				abort();
		}
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		if (obj) {
			v->keys[v->n] = NULL;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != '"') {
				v->n++;
				return fail(ps, "expected a member name");
			}
			if (!string(ps, &v->keys[v->n])) {
				v->n++;
				return false;
			}
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p++ != ':') {
				v->n++;
				return fail(ps, "expected ':'");
			}
		}
		if (!value(ps, &v->items[v->n++]))
			return false;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			ps->depth--;
			return true;
		}
		return fail(ps, "expected ',' or '%c'", close);
	}
}

static bool value(struct parser *ps, struct rc_jv *v)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input");
	switch (*ps->p) {
	case '{':
		return collection(ps, v, true);
	case '[':
		return collection(ps, v, false);
	case '"':
		v->type = RC_JSTR;
		return string(ps, &v->str);
	case 't':
		v->type = RC_JBOOL;
		v->b = true;
		return literal(ps, "true");
	case 'f':
		v->type = RC_JBOOL;
		return literal(ps, "false");
	case 'n':
		v->type = RC_JNULL;
		return literal(ps, "null");
	}
	v->type = RC_JNUM;
	return number(ps, &v->num);
}

static void jv_clear(struct rc_jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jv_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

void rc_jv_free(struct rc_jv *v)
{
	if (!v)
		return;
	jv_clear(v);
	free(v);
}

struct rc_jv *rc_json_parse(const char *text, size_t len, char *err,
			    size_t errlen)
{
	struct parser ps = { .p = text,
			     .end = text + len,
			     .start = text,
			     .err = err,
			     .errlen = errlen };
	struct rc_jv *v = xcalloc(1, sizeof(*v));

	err[0] = 0;
	if (value(&ps, v)) {
		skip_ws(&ps);
		if (ps.p == ps.end)
			return v;
		fail(&ps, "trailing text");
	}
	rc_jv_free(v);
	return NULL;
}

struct rc_jv *rc_json_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct rc_jv *v;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int e;

	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	e = ferror(f);
	fclose(f);
	if (e) {
		snprintf(err, errlen, "cannot read %s", path);
		free(buf);
		return NULL;
	}
	v = rc_json_parse(buf, len, err, errlen);
	free(buf);
	if (!v) {
		char cause[256];

		snprintf(cause, sizeof(cause), "%s", err);
		snprintf(err, errlen, "%s: not JSON: %s", path, cause);
	}
	return v;
}

const struct rc_jv *rc_jv_get(const struct rc_jv *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != RC_JOBJ)
		return NULL;
	/* the first byte first: a lookup is mostly a miss, and a fleet's
	 * report and gate make millions */
	for (i = 0; i < obj->n; i++)
		if (obj->keys[i][0] == key[0] && !strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}

const char *rc_jv_str(const struct rc_jv *obj, const char *key)
{
	const struct rc_jv *v = rc_jv_get(obj, key);

	return v && v->type == RC_JSTR ? v->str : NULL;
}

double rc_jv_num(const struct rc_jv *obj, const char *key, double dflt)
{
	const struct rc_jv *v = rc_jv_get(obj, key);

	return v && v->type == RC_JNUM ? v->num : dflt;
}

const struct rc_jv *rc_results_find(const struct rc_jv *results, const char *id)
{
	size_t i;

	for (i = 0; results && results->type == RC_JARR && i < results->n;
	     i++) {
		const char *cid = rc_jv_str(&results->items[i], "id");

		if (cid && !strcmp(cid, id))
			return &results->items[i];
	}
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jsonread.h"

#define MAX_DEPTH 64
/* the arena's usual block: a results file's tree takes a few of them */
#define BLOCK_BYTES (256 << 10)

/* A document and everything in its tree come from blocks that are freed
 * together: a fleet's gate reads thousands of files of a million nodes
 * each, and a malloc and a free per string was most of its time. */
struct block {
	struct block *next;
	size_t used, cap;
	max_align_t data[];
};

struct doc {
	struct rc_jv root;
	struct block *blocks;
};

struct parser {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	int depth;
	struct doc *doc;
	/* the elements of the collections being read, innermost last:
	 * each is copied into the arena whole when its collection closes */
	struct rc_jv *items;
	char **keys;
	size_t top, cap;
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

/* Blocks of documents freed, kept for the next: a fleet's gate reads one
 * file after another, and fresh memory for each cost it a page fault per
 * page.  Bounded: a long-lived reader keeps no more than a few files'. */
#define MAX_SPARE 32
static __thread struct block *spare;
static __thread unsigned int nspare;

/* @size bytes of @ps's document, aligned for any member, zeroed or not */
static void *arena(struct parser *ps, size_t size)
{
	struct block *b = ps->doc->blocks;
	size_t align = sizeof(max_align_t);
	void *p;

	size = (size + align - 1) / align * align;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > BLOCK_BYTES ? size : BLOCK_BYTES;

		if (cap == BLOCK_BYTES && spare) {
			b = spare;
			spare = b->next;
			nspare--;
		} else if (!(b = malloc(sizeof(*b) + cap))) {
			abort();
		}
		b->used = 0;
		b->cap = cap;
		b->next = ps->doc->blocks;
		ps->doc->blocks = b;
	}
	p = (char *)b->data + b->used;
	b->used += size;
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

/* the bytes that end a string's run of plain text */
static const bool
	ends_plain[256] = { [0 ... 0x1f] = true, ['"'] = true, ['\\'] = true };

static bool string(struct parser *ps, char **out)
{
	const char *q, *end = ps->end;
	bool ok;

	ps->p++; /* the opening quote */
	/* most strings have no escape and no control character: copied at
	 * once (a fleet's report reads gigabytes); the others, and every
	 * error, take the way below */
	for (q = ps->p; q < end && !ends_plain[(unsigned char)*q]; q++)
		;
	if (q < end && *q == '"') {
		*out = arena(ps, q - ps->p + 1);
		memcpy(*out, ps->p, q - ps->p);
		(*out)[q - ps->p] = 0;
		ps->p = q + 1;
		return true;
	}
	for (q = ps->p; q < ps->end && *q != '"'; q++)
		if (*q == '\\')
			q++;
	if (q >= ps->end)
		return fail(ps, "unterminated string");
	/* unescaping never grows the text; nothing may read past the quote */
	*out = arena(ps, q - ps->p + 1);
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

/* One more element on the stack of open collections' elements. */
static void push(struct parser *ps, const struct rc_jv *v, char *key)
{
	if (ps->top == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 256;
		ps->items = realloc(ps->items, ps->cap * sizeof(*ps->items));
		ps->keys = realloc(ps->keys, ps->cap * sizeof(*ps->keys));
		if (!ps->items || !ps->keys)
			abort();
	}
	ps->items[ps->top] = *v;
	ps->keys[ps->top++] = key;
}

/* The elements pushed since @base, as @v's, in the arena. */
static bool close_collection(struct parser *ps, struct rc_jv *v, size_t base,
			     bool obj)
{
	v->n = ps->top - base;
	if (v->n) {
		v->items = arena(ps, v->n * sizeof(*v->items));
		memcpy(v->items, ps->items + base, v->n * sizeof(*v->items));
		if (obj) {
			v->keys = arena(ps, v->n * sizeof(*v->keys));
			memcpy(v->keys, ps->keys + base,
			       v->n * sizeof(*v->keys));
		}
	}
	ps->top = base;
	ps->p++;
	ps->depth--;
	return true;
}

static bool collection(struct parser *ps, struct rc_jv *v, bool obj)
{
	char close = obj ? '}' : ']';
	size_t base = ps->top;

	if (++ps->depth > MAX_DEPTH)
		return fail(ps, "nested deeper than %d", MAX_DEPTH);
	v->type = obj ? RC_JOBJ : RC_JARR;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close)
		return close_collection(ps, v, base, obj);
	for (;;) {
		struct rc_jv item = { 0 };
		char *key = NULL;

		if (obj) {
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a member name");
			if (!string(ps, &key))
				return false;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p++ != ':')
				return fail(ps, "expected ':'");
		}
		if (!value(ps, &item))
			return false;
		push(ps, &item, key);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close)
			return close_collection(ps, v, base, obj);
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

void rc_jv_free(struct rc_jv *v)
{
	struct doc *d;
	struct block *b;

	if (!v)
		return;
	d = (struct doc *)((char *)v - offsetof(struct doc, root));
	while ((b = d->blocks)) {
		d->blocks = b->next;
		if (b->cap == BLOCK_BYTES && nspare < MAX_SPARE) {
			b->next = spare;
			spare = b;
			nspare++;
		} else {
			free(b);
		}
	}
	free(d);
}

struct rc_jv *rc_json_parse(const char *text, size_t len, char *err,
			    size_t errlen)
{
	struct doc *d = xcalloc(1, sizeof(*d));
	struct parser ps = { .p = text,
			     .end = text + len,
			     .start = text,
			     .err = err,
			     .errlen = errlen,
			     .doc = d };
	bool ok;

	err[0] = 0;
	ok = value(&ps, &d->root);
	if (ok) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			ok = fail(&ps, "trailing text");
	}
	free(ps.items);
	free(ps.keys);
	if (ok)
		return &d->root;
	rc_jv_free(&d->root);
	return NULL;
}

struct rc_jv *rc_json_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct rc_jv *v;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	struct stat st;
	int e;

	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	/* a regular file's size is known: read in one go (one byte more
	 * sees its end); a pipe's is not, and grows as it is read */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = st.st_size + 1;
	if (cap && !(buf = malloc(cap)))
		abort();
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
	/* Where each key was found last, by the key's address: the objects
	 * of a results file have their members in one order, so a fleet's
	 * report and gate, which make millions of lookups, mostly find a
	 * member at the first place they look. */
	static __thread struct {
		const char *key;
		size_t i;
	} hint[64];
	size_t h = ((uintptr_t)key >> 3) % (sizeof(hint) / sizeof(hint[0])), i;

	if (!obj || obj->type != RC_JOBJ)
		return NULL;
	i = hint[h].i;
	if (hint[h].key == key && i < obj->n && !strcmp(obj->keys[i], key))
		return &obj->items[i];
	/* the first byte first: most keys compared are not the one */
	for (i = 0; i < obj->n; i++)
		if (obj->keys[i][0] == key[0] && !strcmp(obj->keys[i], key)) {
			hint[h].key = key;
			hint[h].i = i;
			return &obj->items[i];
		}
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
	/* Where the last case was found in each of a few arrays: two files
	 * of one suite list their cases in one order, so a gate or report
	 * walking one file finds each case of the other next to the last
	 * one, not after a scan of thousands. */
	static __thread struct {
		const struct rc_jv *results;
		size_t i;
	} hint[4];
	size_t h = ((uintptr_t)results >> 4) % (sizeof(hint) / sizeof(hint[0]));
	size_t n, k, i;

	if (!results || results->type != RC_JARR || !results->n)
		return NULL;
	n = results->n;
	i = hint[h].results == results ? hint[h].i + 1 : 0;
	for (k = 0; k < n; k++, i++) {
		const char *cid;

		if (i >= n)
			i = 0;
		cid = rc_jv_str(&results->items[i], "id");
		if (cid && !strcmp(cid, id)) {
			hint[h].results = results;
			hint[h].i = i;
			return &results->items[i];
		}
	}
	return NULL;
}

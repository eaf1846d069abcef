// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "profile.h"
#include "rdmaconf.h"

static char *next_word(char **p)
{
	char *w;

	while (isspace((unsigned char)**p))
		(*p)++;
	if (!**p)
		return NULL;
	w = *p;
	while (**p && !isspace((unsigned char)**p))
		(*p)++;
	if (**p)
		*(*p)++ = 0;
	return w;
}

static bool valid_number(const char *s)
{
	char *end;

	errno = 0;
	strtoll(s, &end, 0);
	return !errno && end != s && !*end;
}

/* "6.11", "50", "6.12.118": digits and single dots, nothing else */
static bool valid_version(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) &&
		    (*s != '.' || !isdigit((unsigned char)s[1])))
			return false;
	return true;
}

void rc_profile_set_host(struct rc_profile *p, const char *kernel,
			 const char *rdma_core, enum rc_target_id target)
{
	p->kernel = kernel;
	p->rdma_core = rdma_core;
	p->target = target;
}

void rc_profile_set_umad_debug(struct rc_profile *p, unsigned int level)
{
	snprintf(p->umad_debug, sizeof(p->umad_debug), "%u", level);
}

int rc_version_cmp(const char *a, const char *b)
{
	char *ea, *eb;
	unsigned long x, y;

	for (;;) {
		x = strtoul(a, &ea, 10);
		y = strtoul(b, &eb, 10);
		if (x != y)
			return x < y ? -1 : 1;
		if (*ea != '.' || *eb != '.')
			return 0;
		a = ea + 1;
		b = eb + 1;
	}
}

/* Where the file is read: its line, and what the directives above the
 * line say of the entries below them. */
struct reading {
	const char *path;
	unsigned int lineno;
	bool scope[RC_NIMPLS]; /* %scope */
	bool when; /* %when holds here */
	bool target; /* %target names this run's target */
	char *err;
	size_t errlen;
};

static int bad(struct reading *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct reading *rd, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(rd->err, rd->errlen, "%s:%u: ", rd->path, rd->lineno);
	va_start(ap, fmt);
	vsnprintf(rd->err + n, rd->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * "%when WHAT OP VERSION" or "%when always" in @s (after "%when"): does
 * it hold?  1 or 0; -1 when it is malformed.
 */
static int when_holds(const struct rc_profile *p, char *s)
{
	static const char *const ops[] = { "<", "<=", "==", ">=", ">" };
	char *what = next_word(&s), *op = next_word(&s), *ver = next_word(&s);
	const char *have;
	size_t i;
	int c;

	if (what && !strcmp(what, "always") && !op)
		return 1;
	if (!what || !op || !ver || next_word(&s) ||
	    (strcmp(what, "kernel") && strcmp(what, "rdma-core") &&
	     strcmp(what, "umad-debug")) ||
	    !valid_version(ver))
		return -1;
	for (i = 0; i < ARRAY_SIZE(ops) && strcmp(op, ops[i]); i++)
		;
	if (i == ARRAY_SIZE(ops))
		return -1;
	if (!strcmp(what, "umad-debug"))
		have = *p->umad_debug ? p->umad_debug : "0";
	else
		have = strcmp(what, "kernel") ? p->rdma_core : p->kernel;
	if (!have)
		return 0;
	c = rc_version_cmp(have, ver);
	switch (i) {
	case 0:
		return c < 0;
	case 1:
		return c <= 0;
	case 2:
		return c == 0;
	case 3:
		return c >= 0;
	default:
		return c > 0;
	}
}

/* "%target NAME [NAME...]" or "%target all": does it name this run's? */
static int target_holds(const struct rc_profile *p, struct reading *rd, char *s)
{
	char *w = next_word(&s);
	bool holds = false;
	int t;

	if (w && !strcmp(w, "all") && !next_word(&s))
		return 1;
	for (; w; w = next_word(&s)) {
		t = rc_target_parse(w);
		if (t < 0)
			return bad(rd,
				   "%%target names no target '%.32s' (%s, "
				   "or all)",
				   w, rc_target_choices());
		holds |= t == (int)p->target;
	}
	return holds;
}

/* A line that starts with '%': what it says of the entries below it. */
static int directive(const struct rc_profile *p, struct reading *rd,
		     const char *name, char *s)
{
	char *word;
	int holds;

	if (!strcmp(name, "%when")) {
		holds = when_holds(p, s);
		if (holds < 0)
			return bad(rd, "expected '%%when kernel|rdma-core|"
				       "umad-debug <|<=|==|>=|> VERSION' or "
				       "'%%when always'");
		rd->when = holds;
		return 0;
	}
	if (!strcmp(name, "%target")) {
		holds = target_holds(p, rd, s);
		if (holds < 0)
			return -1;
		rd->target = holds;
		return 0;
	}
	word = next_word(&s);
	if (!strcmp(name, "%scope") && word && !*s &&
	    (!strcmp(word, "both") || rc_impl_parse(word) >= 0)) {
		rd->scope[RC_IMPL_SYSTEM] = strcmp(word, "reference");
		rd->scope[RC_IMPL_REFERENCE] = strcmp(word, "system");
		return 0;
	}
	if (!strcmp(name, "%scope"))
		return bad(rd, "expected '%%scope system|both|reference'");
	return bad(rd, "unknown directive '%.32s' (%%scope, %%when, %%target)",
		   name);
}

/* An entry's kind, "XFAIL:return=N": the kind, its failure kind and the
 * pinned value; 0 or -1. */
static int entry_kind(struct reading *rd, char *kind, int *xkind,
		      int *fail_kind, char **pin)
{
	char *qualifier;

	*fail_kind = 0;
	*pin = strchr(kind, '=');
	if (*pin)
		*(*pin)++ = 0; /* XFAIL:return=N: the kind, then N */
	if (*pin && strcmp(kind, "XFAIL:return") &&
	    strcmp(kind, "XFAIL:output"))
		return bad(rd, "only XFAIL:return= and XFAIL:output= take a "
			       "value");
	if (*pin && !**pin)
		return bad(rd, "nothing after '='");
	if (*pin && !strcmp(kind, "XFAIL:return") && !valid_number(*pin))
		return bad(rd, "XFAIL:return= takes a number, not '%.32s'",
			   *pin);
	qualifier = strchr(kind, ':');
	if (qualifier)
		*qualifier++ = 0; /* XFAIL:errno: the kind, then "errno" */
	*xkind = rc_entry_kind_parse(kind);
	if (*xkind < 0)
		return bad(rd, "unknown kind '%.32s' (%s)", kind,
			   rc_entry_kind_choices());
	if (qualifier && *xkind != RC_ENTRY_XFAIL)
		return bad(rd, "only XFAIL takes a qualifier, not %s", kind);
	if (qualifier && (*fail_kind = rc_fail_kind_parse(qualifier)) <= 0)
		return bad(rd, "unknown failure kind '%.32s' (%s)", qualifier,
			   rc_fail_kind_choices());
	return 0;
}

/* @path as an entry's "where" shows it: relative to the data directory
 * when it is in it, so that results name no host's own paths. */
static const char *shown_path(const struct rc_profile *p, const char *path)
{
	size_t n = p->dir ? strlen(p->dir) : 0;

	if (n && !strncmp(path, p->dir, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

static void entry_free(struct rc_profile_entry *e)
{
	free(e->id);
	free(e->pin);
	free(e->reason);
	free(e->where);
}

/*
 * Entry @id into @p, where this profile is read from entry *@first on
 * (which moves down as an earlier profile's entries are taken over).  A
 * case has at most one entry per implementation: the library's deviation
 * and the kernel's, which only the reference shows, can be two entries of
 * other scopes.  A later, more specific profile (the device's, the
 * target's) takes the case over from an earlier one, for the
 * implementations its entry applies to.
 */
static int add_entry(struct rc_profile *p, struct reading *rd,
		     unsigned int *first, const char *id, int xkind,
		     int fail_kind, const char *pin, const char *reason)
{
	struct rc_profile_entry *e;
	unsigned int i;
	bool left;
	int k;

	for (i = 0; i < p->n; i++) {
		e = &p->e[i];
		if (strcmp(e->id, id))
			continue;
		left = false;
		for (k = 0; k < RC_NIMPLS; k++) {
			if (rd->scope[k] && e->applies[k] && i >= *first)
				return bad(rd,
					   "second entry for %.200s (of the "
					   "%s implementation)",
					   id, rc_impl_name(k));
			e->applies[k] &= !rd->scope[k];
			left |= e->applies[k];
		}
		if (left)
			continue;
		/* taken over for every implementation it applied to */
		entry_free(e);
		memmove(e, e + 1, (--p->n - i) * sizeof(*e));
		if (i < *first)
			(*first)--;
		i--;
	}
	e = realloc(p->e, (p->n + 1) * sizeof(*p->e));
	if (!e)
		abort();
	p->e = e;
	e = &p->e[p->n++];
	memset(e, 0, sizeof(*e));
	e->kind = xkind;
	e->fail_kind = fail_kind;
	e->pin = pin ? strdup(pin) : NULL;
	memcpy(e->applies, rd->scope, sizeof(rd->scope));
	e->id = strdup(id);
	e->reason = strdup(reason);
	if (!e->id || !e->reason || (pin && !e->pin) ||
	    asprintf(&e->where, "%s:%u", shown_path(p, rd->path), rd->lineno) <
		    0)
		abort();
	return 0;
}

int rc_profile_load(struct rc_profile *p, const char *path, char *err,
		    size_t errlen)
{
	struct reading rd = { .path = path,
			      .when = true,
			      .target = true,
			      .scope = { [RC_IMPL_SYSTEM] = true },
			      .err = err,
			      .errlen = errlen };
	char *line = NULL, *s, *id, *kind, *pin;
	size_t cap = 0, n;
	unsigned int first = p->n;
	int xkind = 0, fail_kind = 0, ret = -1;
	struct stat st;
	FILE *f = fopen(path, "re");

	if (!f || fstat(fileno(f), &st)) {
		snprintf(err, errlen, "cannot read profile %s: %s", path,
			 strerror(errno));
		goto out;
	}
	/* a directory opens, and reads as nothing: no profile at all */
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "profile %s is not a file", path);
		goto out;
	}
	while (getline(&line, &cap, f) > 0) {
		rd.lineno++;
		s = line;
		n = strlen(s);
		while (n && isspace((unsigned char)s[n - 1]))
			s[--n] = 0;
		id = next_word(&s);
		if (!id || id[0] == '#')
			continue;
		if (id[0] == '%') {
			if (directive(p, &rd, id, s))
				goto out;
			continue;
		}
		kind = next_word(&s);
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!kind || !*s) {
			bad(&rd,
			    "expected '<case id> KIND <reason>' (KIND: %s)",
			    rc_entry_kind_choices());
			goto out;
		}
		if (entry_kind(&rd, kind, &xkind, &fail_kind, &pin))
			goto out;
		/* checked above, loaded only where %when and %target hold */
		if (rd.when && rd.target &&
		    add_entry(p, &rd, &first, id, xkind, fail_kind, pin, s))
			goto out;
	}
	n = strlen(p->files);
	snprintf(p->files + n, sizeof(p->files) - n, "%s%s", n ? " " : "",
		 shown_path(p, path));
	ret = 0;
out:
	free(line);
	if (f)
		fclose(f);
	return ret;
}

struct rc_profile_entry *
rc_profile_find_for(struct rc_profile *p, const char *id, enum rc_impl_id impl)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].id, id) && rc_entry_applies(&p->e[i], impl))
			return &p->e[i];
	return NULL;
}

struct rc_profile_entry *rc_profile_find(struct rc_profile *p, const char *id)
{
	struct rc_profile_entry *x = NULL;
	int k;

	for (k = 0; k < RC_NIMPLS && !x; k++)
		x = rc_profile_find_for(p, id, k);
	return x;
}

void rc_profile_free(struct rc_profile *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		entry_free(&p->e[i]);
	free(p->e);
	p->e = NULL;
	p->n = 0;
}

bool rc_entry_applies(const struct rc_profile_entry *x, enum rc_impl_id impl)
{
	return x && impl < RC_NIMPLS && x->applies[impl];
}

bool rc_entry_skips(const struct rc_profile_entry *x, enum rc_impl_id impl)
{
	return rc_entry_applies(x, impl) && x->kind == RC_ENTRY_SKIP;
}

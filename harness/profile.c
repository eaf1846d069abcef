// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void rc_profile_set_versions(struct rc_profile *p, const char *kernel,
			     const char *rdma_core)
{
	p->kernel = kernel;
	p->rdma_core = rdma_core;
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
	    (strcmp(what, "kernel") && strcmp(what, "rdma-core")) ||
	    !isdigit((unsigned char)*ver))
		return -1;
	for (i = 0; i < ARRAY_SIZE(ops) && strcmp(op, ops[i]); i++)
		;
	if (i == ARRAY_SIZE(ops))
		return -1;
	have = strcmp(what, "kernel") ? p->rdma_core : p->kernel;
	if (!have)
		return 0;
	c = rc_version_cmp(have, ver);
	switch (i) {
	case 0: return c < 0;
	case 1: return c <= 0;
	case 2: return c == 0;
	case 3: return c >= 0;
	default: return c > 0;
	}
}

int rc_profile_load(struct rc_profile *p, const char *path, char *err,
		    size_t errlen)
{
	struct rc_profile_entry *e;
	char *line = NULL, *s, *id, *kind, *reason;
	size_t cap = 0, n;
	unsigned int lineno = 0, first = p->n;
	struct rc_profile_entry *old;
	int xkind, fail_kind;
	char *pin, *qualifier;
	bool scope[RC_NIMPLS] = { [RC_IMPL_SYSTEM] = true };
	bool when = true;
	FILE *f = fopen(path, "re");

	if (!f) {
		snprintf(err, errlen, "cannot read profile %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		s = line;
		n = strlen(s);
		while (n && isspace((unsigned char)s[n - 1]))
			s[--n] = 0;
		id = next_word(&s);
		if (!id || id[0] == '#')
			continue;
		if (!strcmp(id, "%when")) {
			int holds = when_holds(p, s);

			if (holds < 0) {
				snprintf(err, errlen, "%s:%u: expected '%%when "
					 "kernel|rdma-core <|<=|==|>=|> VERSION' "
					 "or '%%when always'", path, lineno);
				goto fail;
			}
			when = holds;
			continue;
		}
		kind = next_word(&s);
		if (!strcmp(id, "%scope")) {
			if (kind && !*s && (!strcmp(kind, "both") ||
					    !strcmp(kind, "system") ||
					    !strcmp(kind, "reference"))) {
				scope[RC_IMPL_SYSTEM] = strcmp(kind, "reference");
				scope[RC_IMPL_REFERENCE] = strcmp(kind, "system");
			} else {
				snprintf(err, errlen, "%s:%u: expected '%%scope "
					 "system|both|reference'", path, lineno);
				goto fail;
			}
			continue;
		}
		while (*s && isspace((unsigned char)*s))
			s++;
		reason = s;
		if (!kind || !*reason) {
			snprintf(err, errlen, "%s:%u: expected '<case id> "
				 "KIND <reason>' (KIND: %s)", path, lineno,
				 rc_entry_kind_choices());
			goto fail;
		}
		fail_kind = 0;
		pin = strchr(kind, '=');
		if (pin)
			*pin++ = 0;	/* XFAIL:return=N: the kind, then N */
		if (pin && strcmp(kind, "XFAIL:return") &&
		    strcmp(kind, "XFAIL:output")) {
			snprintf(err, errlen, "%s:%u: only XFAIL:return= and "
				 "XFAIL:output= take a value", path, lineno);
			goto fail;
		}
		if (pin && !strcmp(kind, "XFAIL:return") && !valid_number(pin)) {
			snprintf(err, errlen, "%s:%u: XFAIL:return= takes a "
				 "number, not '%.32s'", path, lineno, pin);
			goto fail;
		}
		if (pin && !*pin) {
			snprintf(err, errlen, "%s:%u: nothing after '='", path,
				 lineno);
			goto fail;
		}
		qualifier = strchr(kind, ':');
		if (qualifier)
			*qualifier++ = 0;	/* XFAIL:errno: the kind, then "errno" */
		xkind = rc_entry_kind_parse(kind);
		if ((int)xkind < 0) {
			snprintf(err, errlen, "%s:%u: unknown kind '%.32s' (%s)",
				 path, lineno, kind, rc_entry_kind_choices());
			goto fail;
		}
		if (qualifier && xkind != RC_ENTRY_XFAIL) {
			snprintf(err, errlen, "%s:%u: only XFAIL takes a "
				 "qualifier, not %s", path, lineno, kind);
			goto fail;
		}
		if (qualifier &&
		    (fail_kind = rc_fail_kind_parse(qualifier)) <= 0) {
			snprintf(err, errlen, "%s:%u: unknown failure kind "
				 "'%.32s' (%s)", path, lineno, qualifier,
				 rc_fail_kind_choices());
			goto fail;
		}
		/* checked above, loaded only where its %when holds */
		if (!when)
			continue;
		old = rc_profile_find(p, id);
		if (old && old - p->e >= first) {
			snprintf(err, errlen, "%s:%u: second entry for %.200s",
				 path, lineno, id);
			goto fail;
		}
		if (old) {
			/* a later, more specific profile (the device's) takes
			 * the case over from an earlier one (the library's) */
			free(old->id);
			free(old->pin);
			free(old->reason);
			free(old->where);
			e = old;
		} else {
			e = realloc(p->e, (p->n + 1) * sizeof(*p->e));
			if (!e)
				abort();
			p->e = e;
			e = &p->e[p->n++];
		}
		memset(e, 0, sizeof(*e));
		e->kind = xkind;
		e->fail_kind = fail_kind;
		e->pin = pin ? strdup(pin) : NULL;
		memcpy(e->applies, scope, sizeof(scope));
		e->id = strdup(id);
		e->reason = strdup(reason);
		if (asprintf(&e->where, "%s:%u", path, lineno) < 0)
			abort();
	}
	free(line);
	fclose(f);
	n = strlen(p->files);
	snprintf(p->files + n, sizeof(p->files) - n, "%s%s", n ? " " : "",
		 path);
	return 0;
fail:
	free(line);
	fclose(f);
	return -1;
}

struct rc_profile_entry *rc_profile_find(struct rc_profile *p, const char *id)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->e[i].id, id))
			return &p->e[i];
	return NULL;
}

void rc_profile_free(struct rc_profile *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		free(p->e[i].id);
		free(p->e[i].pin);
		free(p->e[i].reason);
		free(p->e[i].where);
	}
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

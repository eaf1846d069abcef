// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The vocabulary tables of vocab.h as arrays, and their lookups.  The
 * tables are the only place a name is spelt; a name read back from a
 * results file or a profile is looked up here, never compared with a
 * literal.
 */
#include <stdio.h>
#include <string.h>

#include "vocab.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	unsigned int rank;
	bool ran, bad, breaks;
} verdicts[] = {
#define V(e, n, rank, ran, bad, breaks, ...) \
	[RC_##e] = { n, rank, ran, bad, breaks },
	RC_VERDICTS(V)
#undef V
};

static const struct {
	const char *qualifier, *text;
	enum rc_verdict covers;
} fail_kinds[] = {
#define K(e, q, t, covers) [RC_FAIL_##e] = { q, t, covers },
	RC_FAIL_KINDS(K)
#undef K
};

static const struct {
	const char *name, *title, *brief;
} bases[] = {
#define B(e, n, t, s) [RC_BASIS_##e] = { n, t, s },
	RC_BASES(B)
#undef B
};

static const char *const conv_names[] = {
#define C(e, n, ...) [RC_CONV_##e] = n,
	RC_CONVS(C)
#undef C
};

static const char *const outcome_names[] = {
#define O(e, n, ...) [RC_RET_##e] = n,
	RC_OUTCOMES(O)
#undef O
};

static const char *const impl_names[] = {
#define I(e, n, ...) [RC_IMPL_##e] = n,
	RC_IMPLS(I)
#undef I
};

static const char *const entry_kind_names[] = {
#define E(e, n, ...) [RC_ENTRY_##e] = n,
	RC_ENTRY_KINDS(E)
#undef E
};

/* @name's index among @n names, or -1 */
static int find(const char *const *names, size_t stride, size_t n,
		const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++) {
		const char *s = *(const char *const *)((const char *)names +
						       i * stride);

		if (s && *s && !strcmp(s, name))
			return i;
	}
	return -1;
}

#define FIND(table, member, name) \
	find(&(table)[0].member, sizeof((table)[0]), ARRAY_LEN(table), name)

const char *rc_verdict_name(enum rc_verdict v)
{
	return v < RC_NVERDICTS ? verdicts[v].name : "?";
}

int rc_verdict_parse(const char *name)
{
	return FIND(verdicts, name, name);
}

unsigned int rc_verdict_rank(enum rc_verdict v)
{
	return v < RC_NVERDICTS ? verdicts[v].rank : 0;
}

bool rc_verdict_ran(enum rc_verdict v)
{
	return v < RC_NVERDICTS && verdicts[v].ran;
}

bool rc_verdict_bad(enum rc_verdict v)
{
	return v < RC_NVERDICTS && verdicts[v].bad;
}

bool rc_verdict_breaks(enum rc_verdict v)
{
	return v < RC_NVERDICTS && verdicts[v].breaks;
}

const char *rc_fail_kind_name(enum rc_fail_kind k)
{
	return k < RC_NFAIL_KINDS ? fail_kinds[k].text : "";
}

const char *rc_fail_kind_qualifier(enum rc_fail_kind k)
{
	return k < RC_NFAIL_KINDS ? fail_kinds[k].qualifier : "";
}

int rc_fail_kind_parse(const char *qualifier)
{
	return FIND(fail_kinds, qualifier, qualifier);
}

enum rc_verdict rc_fail_kind_covers(enum rc_fail_kind k)
{
	return k < RC_NFAIL_KINDS ? fail_kinds[k].covers : RC_NVERDICTS;
}

enum rc_fail_kind rc_fail_kind_of_verdict(enum rc_verdict v)
{
	size_t k;

	for (k = 0; k < ARRAY_LEN(fail_kinds); k++)
		if (fail_kinds[k].covers == v)
			return k;
	return RC_FAIL_NONE;
}

const char *rc_basis_name(enum rc_basis b)
{
	return b > RC_BASIS_NONE && b < RC_NBASES ? bases[b].name : "none";
}

const char *rc_basis_title(enum rc_basis b)
{
	return b > RC_BASIS_NONE && b < RC_NBASES ? bases[b].title : "";
}

const char *rc_basis_short(enum rc_basis b)
{
	return b > RC_BASIS_NONE && b < RC_NBASES ? bases[b].brief : "";
}

int rc_basis_parse(const char *name)
{
	return FIND(bases, name, name);
}

const char *rc_conv_name(enum rc_conv c)
{
	return c < RC_NCONVS ? conv_names[c] : "?";
}

const char *rc_outcome_name(enum rc_ret r)
{
	return r < RC_NOUTCOMES ? outcome_names[r] : "?";
}

const char *rc_impl_name(enum rc_impl_id i)
{
	return i < RC_NIMPLS ? impl_names[i] : "?";
}

int rc_impl_parse(const char *name)
{
	return find(impl_names, sizeof(impl_names[0]), RC_NIMPLS, name);
}

const char *rc_entry_kind_name(enum rc_entry_kind k)
{
	return k < RC_NENTRY_KINDS ? entry_kind_names[k] : "?";
}

int rc_entry_kind_parse(const char *name)
{
	return find(entry_kind_names, sizeof(entry_kind_names[0]),
		    RC_NENTRY_KINDS, name);
}

/* "a, b, c" of the non-empty names among @n, into @buf */
static const char *choices(char *buf, size_t len, const char *const *names,
			   size_t stride, size_t n)
{
	size_t i, used = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < n && used < len; i++) {
		const char *s = *(const char *const *)((const char *)names +
						       i * stride);

		if (s && *s)
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", s);
	}
	return buf;
}

const char *rc_entry_kind_choices(void)
{
	static char buf[64];

	return choices(buf, sizeof(buf), entry_kind_names,
		       sizeof(entry_kind_names[0]), RC_NENTRY_KINDS);
}

const char *rc_fail_kind_choices(void)
{
	static char buf[128];

	return choices(buf, sizeof(buf), &fail_kinds[0].qualifier,
		       sizeof(fail_kinds[0]), RC_NFAIL_KINDS);
}

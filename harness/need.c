// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The needs of need.h as predicates over the probed target (struct
 * rc_target), each with the cause a row gets when it is not met.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "need.h"
#include "profile.h"
#include "rdmaconf.h"

static const char *const link_names[] = {
	[RC_LINK_NONE] = "none",
	[RC_LINK_IB] = "InfiniBand",
	[RC_LINK_ROCE] = "RoCE",
	[RC_LINK_IWARP] = "iWARP",
};

/* Is need @index met on @t?  If not, why (beyond what it asks). */
static bool met(unsigned int index, const struct rc_target *t, char *why,
		size_t len)
{
	why[0] = 0;
	switch (1u << index) {
	case RC_NEED_DEVICE:
		snprintf(why, len, "none here (rdmaconf run --vm brings one)");
		return t->ca;
	case RC_NEED_ROOT:
		return t->root;
	case RC_NEED_PEER:
		snprintf(why, len, "rdmaconf run --vm --two brings two");
		return t->peer;
	case RC_NEED_IB:
	case RC_NEED_ROCE:
	case RC_NEED_IWARP:
		snprintf(why, len, "the port's is %s", link_names[t->link]);
		return t->link == (1u << index == RC_NEED_IB   ? RC_LINK_IB :
				   1u << index == RC_NEED_ROCE ? RC_LINK_ROCE :
								 RC_LINK_IWARP);
	case RC_NEED_CA:
	case RC_NEED_UD:
	case RC_NEED_UC:
	case RC_NEED_IMM:
	case RC_NEED_ATOMIC:
	case RC_NEED_NAK:
		snprintf(why, len, "the port is %s", link_names[t->link]);
		return t->link == RC_LINK_IB || t->link == RC_LINK_ROCE;
	case RC_NEED_UMAD:
		snprintf(why, len, "%s port %d has none (modprobe ib_umad)",
			 t->ca, t->port);
		return t->umad;
	case RC_NEED_SYSFS:
		snprintf(why, len,
			 "%s was named by its launcher (RDMACONF_TARGET), "
			 "whose sysfs is a simulator's",
			 t->ca);
		return t->sysfs;
	case RC_NEED_REMOTE:
		snprintf(why, len, "rdmaconf run --target ibsim brings one");
		return t->remote_lid;
	}
	return true;
}

static const struct {
	const char *name, *what;
	bool skip, device;
} needs[] = {
#define N(e, n, what, unmet, device) \
	[RC_NEED_INDEX_##e] = { n, what, RC_##unmet == RC_SKIP, device },
	RC_NEEDS(N)
#undef N
};

int rc_needs_unmet(const struct rc_case *c, const struct rc_target *t,
		   bool *skip, char *why, size_t len)
{
	char more[160];
	unsigned int i;
	bool device = false;

	/* a row that needs something of a device needs one: DEVICE, first
	 * in the table, is its cause when there is none */
	for (i = 0; i < RC_NNEEDS; i++)
		device |= (c->needs & (1u << i)) && needs[i].device;
	for (i = 0; i < RC_NNEEDS; i++) {
		if (!(c->needs & (1u << i)) &&
		    !(i == RC_NEED_INDEX_DEVICE && device))
			continue;
		if (met(i, t, more, sizeof(more)))
			continue;
		*skip = needs[i].skip;
		snprintf(why, len, "needs %s%s%s", needs[i].what,
			 more[0] ? "; " : "", more);
		return 0;
	}
	if (c->kernel && t->kernel &&
	    rc_version_cmp(t->kernel, c->kernel) < 0) {
		*skip = false;
		snprintf(why, len, "needs Linux %s or later; this is %s",
			 c->kernel, t->kernel);
		return 0;
	}
	return 1;
}

const char *rc_need_name(unsigned int index)
{
	return index < RC_NNEEDS ? needs[index].name : "?";
}

void rc_need_vocab_json(struct rc_str *b)
{
	unsigned int i;

	rc_str_printf(b, ",\n\"needs\": [");
	for (i = 0; i < RC_NNEEDS; i++) {
		rc_str_printf(b, "%s\n  {\"name\": ", i ? "," : "");
		rc_str_json(b, needs[i].name);
		rc_str_printf(b, ", \"what\": ");
		rc_str_json(b, needs[i].what);
		rc_str_printf(b, ", \"unmet\": \"%s\"}",
			      needs[i].skip ? "SKIP" : "UNSUPPORTED");
	}
	rc_str_printf(b, "]");
}

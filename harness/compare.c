// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "compare.h"

static bool flag(const struct rc_jv *c, const char *key)
{
	const struct rc_jv *v = rc_jv_get(c, key);

	return v && v->type == RC_JBOOL && v->b;
}

const char *rc_case_verdict(const struct rc_jv *c, enum rc_impl_id impl)
{
	const char *v = rc_jv_str(rc_jv_get(c, "verdict"), rc_impl_name(impl));
	int k = rc_verdict_parse(v);

	/* a word of the vocabulary, never the file's own text */
	return k >= 0 ? rc_verdict_name(k) : v ? "?" : "-";
}

/* Did the implementation run the call at all (vocab.h)?  A verdict
 * this build does not know did not. */
static bool ran(const char *v)
{
	int k = rc_verdict_parse(v);

	return k >= 0 && rc_verdict_ran(k);
}

bool rc_case_ran(const struct rc_jv *c, enum rc_impl_id impl)
{
	return ran(rc_case_verdict(c, impl));
}

/* "system no longer runs it (SKIP: needs a second RDMA device ...)" */
static const char *stopped_running(const struct rc_jv *b, const struct rc_jv *n)
{
	static char why[320];
	const char *detail;
	char key[32];
	int i;

	for (i = 0; i < RC_NIMPLS; i++) {
		if (!ran(rc_case_verdict(b, i)) || ran(rc_case_verdict(n, i)))
			continue;
		snprintf(key, sizeof(key), "%s_detail", rc_impl_name(i));
		detail = rc_jv_str(n, key);
		snprintf(why, sizeof(why), "%s no longer runs it (%s%s%.256s)",
			 rc_impl_name(i), rc_case_verdict(n, i),
			 detail && *detail ? ": " : "", detail ? detail : "");
		return why;
	}
	return NULL;
}

static bool same_verdicts(const struct rc_jv *b, const struct rc_jv *n)
{
	int i;

	for (i = 0; i < RC_NIMPLS; i++)
		if (strcmp(rc_case_verdict(b, i), rc_case_verdict(n, i)))
			return false;
	return true;
}

enum rc_change rc_compare_case(const struct rc_jv *b, const struct rc_jv *n,
			       const char **why)
{
	const char *stale = rc_jv_str(n, "stale"), *stopped;

	*why = "";
	if (!n) {
		*why = "vanished from the results (a deliberate removal is a "
		       "baseline update)";
		return RC_WORSE;
	}
	if (!b) {
		*why = "new case, not ok";
		return flag(n, "ok") ? RC_SAME : RC_WORSE;
	}
	/* a profile entry that was out of date in the first file already
	 * is not what changed (two revisions of rdma-core, both with a
	 * fix the profile does not know yet) */
	if (!flag(n, "ok") && flag(n, "conforms_now") &&
	    !(flag(b, "conforms_now") && same_verdicts(b, n))) {
		*why = stale ? stale : "now conforms";
		return RC_UPDATE;
	}
	if (flag(b, "ok") && !flag(n, "ok")) {
		*why = stale ? stale :
		       rc_jv_str(n, "divergence") ?
			       rc_jv_str(n, "divergence") :
		       rc_jv_str(n, "system_detail") ?
			       rc_jv_str(n, "system_detail") :
			       "not ok";
		return RC_WORSE;
	}
	stopped = stopped_running(b, n);
	if (stopped) {
		*why = stopped;
		return RC_WORSE;
	}
	if (!flag(b, "ok") && flag(n, "ok")) {
		*why = "ok now";
		return RC_BETTER;
	}
	return same_verdicts(b, n) ? RC_SAME : RC_CHANGED;
}

const char *rc_change_name(enum rc_change c)
{
	static const char *const names[] = {
		[RC_SAME] = "SAME",	  [RC_WORSE] = "WORSE",
		[RC_UPDATE] = "UPDATE",	  [RC_BETTER] = "BETTER",
		[RC_CHANGED] = "CHANGED",
	};

	return names[c];
}

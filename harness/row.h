/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The result of one row: what each implementation did, whether the two
 * agree, what the expectation profile says of it, and the row's final
 * status.  rc_row_decide() (verdict.c, with expect.c) is the only place
 * that status is decided; KTAP, the results JSON, JUnit and the summary
 * (output.h) only write it down.
 */
#ifndef RDMACONF_ROW_H
#define RDMACONF_ROW_H

#include <stdbool.h>

#include "rdmaconf.h"
#include "expect.h"

/* One implementation's outcome of a row. */
struct rc_outcome {
	bool ran;		/* selected for the run (--impl) */
	struct rc_judgement j;
	struct rc_obs obs;
	/* the call's time when it first failed on timing alone, beside
	 * other rows or under the host's load; the row then ran again,
	 * alone, and that run is judged (0: it did not) */
	double first_ms;
};

#define RC_STALE_MAX 300
struct rc_row_result {
	struct rc_outcome oc[RC_NIMPLS];
	int agree;		/* 1 agree, 0 diverge, -1 not comparable */
	char why[256];		/* the divergence */
	struct rc_expectation *x;	/* the profile's entry, or NULL */
	bool expected_divergence;
	char stale[RC_STALE_MAX];	/* the entry no longer matches */
	/* stale because a known failure now conforms: the profile needs an
	 * update, nothing got worse */
	bool conforms_now;
	bool by_profile;	/* a SKIP entry kept it from running */
	bool anyran;		/* some implementation ran the call */
	bool bad;		/* "not ok": the run fails */
};

/* Per-call durations seen so far in a run, for calls with no documented
 * wait (rc_row_decide flags one that blocks far longer than elsewhere). */
struct rc_call_times {
	const char *call[64];
	double fastest[64];
	unsigned int n;
};

/*
 * Decide the row from the outcomes in @r->oc (judged by rc_judge or set by
 * the runner): timing against the rest of the run, agreement, the profile
 * entry @x, and whether the row is ok.
 */
void rc_row_decide(const struct rc_group *g, const struct rc_case *c,
		   struct rc_expectation *x, double slowness,
		   struct rc_call_times *times, struct rc_row_result *r);

/* Does profile entry @x keep implementation @impl from running the row?
 * (SKIP entries, by their %scope.) */
bool rc_expect_skips(const struct rc_expectation *x, enum rc_impl_id impl);

/* Apply profile entry @x to @r (expect.c). */
void rc_expect_apply(struct rc_expectation *x, struct rc_row_result *r);

#endif

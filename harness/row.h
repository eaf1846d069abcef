/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The result of one row: each implementation's outcome and verdict,
 * whether the two agree, what the profile entry says of the row, and
 * whether the row is ok.  rc_row_decide() is the only place that is
 * decided (each implementation's verdict by rc_verdict_decide); KTAP, the
 * results JSON, JUnit and the summary (output.h) only write it down.
 */
#ifndef RDMACONF_ROW_H
#define RDMACONF_ROW_H

#include <stdbool.h>

#include "rdmaconf.h"
#include "profile.h"
#include "verdict.h"

struct rc_row_result {
	struct rc_outcome oc[RC_NIMPLS];
	int agree; /* 1 agree, 0 diverge, -1 not comparable */
	char why[256]; /* the divergence */
	/* the profile's entry the row names (the system's, else the
	 * reference's), or NULL; and the reference's, when it has one of its
	 * own */
	const struct rc_profile_entry *x, *x_ref;
	bool expected_divergence;
	char stale[RC_STALE_MAX]; /* the entry no longer matches */
	/* stale because a known failure now conforms: the profile needs an
	 * update, nothing got worse */
	bool conforms_now;
	bool by_profile; /* a SKIP entry kept it from running */
	bool anyran; /* some implementation ran the call */
	bool bad; /* "not ok": the run fails */
};

/* Per-call durations seen so far in a run, for calls with no documented
 * wait (a call that blocks far longer than elsewhere fails). */
#define RC_MAX_CALLS 512
struct rc_call_times {
	const char *call[RC_MAX_CALLS];
	double fastest[RC_MAX_CALLS];
	unsigned int n;
};

/*
 * Decide the row from the outcomes in @r->oc: each implementation's
 * verdict (with @x[impl], its profile entry, and the call's times in the
 * run, which this row's times join), agreement, the entries' effect on
 * the row, and whether the row is ok.  @x may be NULL (no entry), @times
 * (no blocking check).
 */
void rc_row_decide(const struct rc_group *g, const struct rc_case *c,
		   const struct rc_profile_entry *const *x, double slowness,
		   struct rc_call_times *times, struct rc_row_result *r);

/* Do two implementations' observations of one row behave the same, as
 * the call's convention reads them?  If not, why in @why. */
bool rc_agree(const struct rc_group *g, const struct rc_case *c,
	      const struct rc_obs *a, const struct rc_obs *b, double slowness,
	      char *why, size_t len);

#endif

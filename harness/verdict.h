/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The verdict of one implementation on one row, decided in one place
 * (rc_verdict_decide) from everything that can change it: what the row
 * observed, how its process ended, a timing failure that runs again
 * alone, a call that blocks where its page documents no wait, and the
 * profile entry that applies.  Nothing else writes a verdict.
 */
#ifndef RDMACONF_VERDICT_H
#define RDMACONF_VERDICT_H

#include <stdbool.h>

#include "rdmaconf.h"
#include "profile.h"

#define RC_STALE_MAX 300

struct rc_judgement {
	enum rc_verdict verdict;
	enum rc_fail_kind kind;
	/* the call returned and what it did was judged against the
	 * contract (PASS or FAIL before any profile entry): only then are
	 * two implementations compared */
	bool judged;
	/* it failed on timing alone and may run once more, alone (beside
	 * other rows or under the host's load a call can be slowed) */
	bool retry;
	/* the profile entry expects a failure and it conforms: the entry
	 * needs an update, nothing got worse */
	bool conforms_now;
	char msg[512];
	char fields[256]; /* RC_FAIL_OUTPUT: the fields that differ */
	char stale[RC_STALE_MAX]; /* the entry no longer matches */
};

/* One implementation's run of a row: what the verdict is decided from. */
struct rc_outcome {
	bool selected; /* --impl chose it */
	struct rc_obs obs;
	struct rc_end end; /* how its process ended */
	/* the call's time when it first failed on timing alone; the row
	 * then ran again, alone, and that run is judged (0: it did not) */
	double first_ms;
	unsigned int attempts; /* processes it took: 1, or 2 */
	struct rc_judgement j;
};

/* What the verdict depends on beyond the outcome. */
struct rc_verdict_in {
	enum rc_impl_id impl;
	double slowness; /* the host's, for tolerances (>= 1) */
	/* the call's fastest time anywhere in the run so far, this row
	 * included; < 0: not known (the row is not judged for blocking) */
	double fastest_ms;
	/* the row's profile entry, or NULL; it counts only where it
	 * applies to @impl */
	const struct rc_profile_entry *entry;
};

void rc_verdict_decide(const struct rc_group *g, const struct rc_case *c,
		       const struct rc_outcome *o,
		       const struct rc_verdict_in *in, struct rc_judgement *j);

/* The tolerance of a timed row on a host @slowness times slower. */
double rc_tolerance_ms(const struct rc_contract *e, double slowness);
bool rc_within_tolerance(const struct rc_contract *e, double ms,
			 double slowness);

#endif

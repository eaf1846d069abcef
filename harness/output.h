/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The writers of a run: KTAP on stdout (out_ktap.c), the results JSON
 * (out_json.c), JUnit (out_junit.c), and the summary all of them end with
 * (summary.c).  Each writes down a row's result as rc_row_decide() left
 * it, and decides nothing.
 */
#ifndef RDMACONF_OUTPUT_H
#define RDMACONF_OUTPUT_H

#include <stdio.h>

#include "device.h"
#include "json.h"
#include "row.h"

/*
 * The results file's format, by version: 2 names the row's contract
 * "contract" (was "expected"), its note "note" (was "reason") and its
 * profile entry "profile_entry" (was "expectation").  Readers take 1 as
 * well (results.h).
 */
#define RC_RESULTS_SCHEMA 2

/* how many not-ok rows the last lines of a run name */
#define RC_SUMMARY_BAD_IDS 8

struct rc_summary {
	unsigned int cases, ok, bad, diverge, agree, stale;
	unsigned int ran; /* rows some implementation ran */
	unsigned int conforms_now; /* not ok only for an outdated profile */
	unsigned int by_profile; /* kept from running by a SKIP entry */
	unsigned int count[RC_NIMPLS][RC_NVERDICTS];
	/* failures (FAIL, XFAIL, CRASH, HANG, ABSENT) by the row's basis:
	 * "breaks the man page" counts only documented rows */
	unsigned int breaks[RC_NIMPLS][RC_NBASES];
	/* where the rows' time went, per implementation: in each row's
	 * process before the call, in the call, after it; and every ms the
	 * rows took, counted by the runner (the rest of it is fork, exec and
	 * what a row that never reached its call spent) */
	double setup_ms[RC_NIMPLS], call_ms[RC_NIMPLS], teardown_ms[RC_NIMPLS];
	double rows_ms[RC_NIMPLS];
	/* the first rows that are not ok, named again just above the last
	 * line: a log cut to its tail still says which */
	const char *bad_ids[RC_SUMMARY_BAD_IDS];
};

void rc_summary_add(struct rc_summary *s, const struct rc_case *c,
		    const struct rc_row_result *r);
/* a profile entry that names no case: stale, and the run is not ok */
void rc_summary_add_orphan(struct rc_summary *s, const char *id);
void rc_summary_json(struct rc_str *b, const struct rc_summary *s);
void rc_summary_ktap(FILE *f, const struct rc_summary *s,
		     const bool impl[RC_NIMPLS]);

void rc_ktap_row(FILE *f, unsigned int n, const struct rc_case *c,
		 const struct rc_row_result *r);

/* the results file's head: the tool, the host, the device */
void rc_json_head(struct rc_str *b, const struct rc_device *dev,
		  const struct rc_target *t, const struct rc_profile *p);
/* the row as written in its table (rdmaconf list --json) */
void rc_json_case(struct rc_str *b, const struct rc_group *g,
		  const struct rc_case *c);
void rc_json_row(struct rc_str *b, const struct rc_group *g,
		 const struct rc_case *c, const struct rc_row_result *r);

void rc_junit_row(struct rc_str *b, const struct rc_group *g,
		  const struct rc_case *c, const struct rc_row_result *r);
/* The whole JUnit file; 0, or -errno when it cannot be written. */
int rc_junit_write(const char *path, const struct rc_str *rows,
		   const struct rc_summary *s, const struct rc_device *dev);

#endif

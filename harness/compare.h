/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One case in two results files: what changed from the first (a
 * baseline, or a matrix's previous column) to the second.  The gate and
 * the report's "what changed" section judge it here, the same way.
 */
#ifndef RDMACONF_COMPARE_H
#define RDMACONF_COMPARE_H

#include "jsonread.h"
#include "vocab.h"

enum rc_change {
	RC_SAME,
	RC_WORSE, /* was ok, is not; stopped running; new and not ok;
			 * vanished */
	RC_UPDATE, /* now conforms where a profile expects a failure,
			 * and did not in the first file */
	RC_BETTER, /* was not ok, is ok */
	RC_CHANGED, /* a verdict changed, ok both times */
};

/*
 * Case @b of the first file and @n of the second (either NULL: new, or
 * vanished).  @why: the reason, for WORSE and UPDATE.
 */
enum rc_change rc_compare_case(const struct rc_jv *b, const struct rc_jv *n,
			       const char **why);
const char *rc_change_name(enum rc_change c);
/* A case's verdict on @impl: the vocabulary's word, "-" when it has none,
 * "?" when the file holds something else (safe to show anywhere). */
const char *rc_case_verdict(const struct rc_jv *c, enum rc_impl_id impl);
/* Did @impl run the call of case @c (a verdict of vocab.h that ran)? */
bool rc_case_ran(const struct rc_jv *c, enum rc_impl_id impl);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Expectation profiles: known deviations of the system implementation (a
 * library version, a provider, a device), kept as data with a reason.
 * Each line is a profile entry; what an entry does to a verdict is
 * verdict.c's to decide, this file only reads them.
 *
 *   # comment
 *   <case id>  XFAIL[:return|:errno|:output|:timing|:success|:crash|:hang|
 *                    :absent|:broken]|DIVERGE|SKIP <reason>
 *
 * XFAIL: the system breaks the documentation here (and so differs from the
 * reference).  DIVERGE: both are within the documentation but differ.
 * XFAIL:return=N covers only the wrong return value N, and
 * XFAIL:output=F1,F2 only wrong output in exactly the fields F1 and F2
 * (as the report names them).
 * With a qualifier, XFAIL covers only that kind of failure: a failure of
 * another kind is still FAIL, so an entry cannot hide a new bug.  Only
 * XFAIL:crash covers a CRASH, only XFAIL:hang a HANG (a known crash or
 * deadlock of the system library), only XFAIL:absent an ABSENT (a
 * documented call the library does not export), and only XFAIL:broken a
 * row whose set-up cannot work on this target (a simulator that never
 * delivers what the row waits for).
 * SKIP: the row cannot run on this target at all, and the watchdog could
 * not contain it; %scope decides which implementation it keeps out.  An entry that no longer
 * matches -- the system now passes, agrees, or the id names no case -- is
 * reported as XPASS or STALE and fails the run.  Profiles never excuse the
 * reference -- except where the entry says the kernel or the device is
 * the cause, which no userspace implementation can change:
 *
 *   %scope both     the entries below apply to system and reference
 *   %scope reference  to the reference only: where the cause is what the
 *                   reference sees through the kernel interface alone (a
 *                   simulator's stand-in for the kernel that the system
 *                   library happens to paper over), or the kernel's
 *                   deviation where the library deviates too (an entry
 *                   each: a case has at most one per implementation)
 *   %scope system   (the default) to the system implementation only
 *
 * Deviations of some versions only are data too: the entries after
 *
 *   %when kernel >= 6.11      (or <, <=, >, ==, with any dotted version)
 *   %when rdma-core < 50
 *   %when always              (the default)
 *
 * apply only where the running kernel or the system's rdma-core is such a
 * version (rc_profile_set_host); elsewhere they are not loaded.  An
 * unknown version (an rdma-core build tree) meets no condition.  And the
 * entries after
 *
 *   %target vm host           (names of target.h's table)
 *   %target all               (the default)
 *
 * hold only on those targets: the kernel's deviations where a kernel
 * runs the rows, not on a simulator that stands in for it.
 */
#ifndef RDMACONF_PROFILE_H
#define RDMACONF_PROFILE_H

#include <stdbool.h>

#include "impl.h"
#include "target.h"
#include "vocab.h"

struct rc_profile_entry {
	char *id;
	enum rc_entry_kind kind;
	int fail_kind; /* enum rc_fail_kind; 0: any */
	/* XFAIL:return=N, XFAIL:output=FIELD[,FIELD...]: the known wrong
	 * value, or the fields the known wrong output differs in, so that
	 * another wrong answer is a new failure, not the known one */
	char *pin;
	char *reason;
	char *where; /* file:line */
	/* which implementations the entry applies to (%scope) */
	bool applies[RC_NIMPLS];
};

struct rc_profile {
	struct rc_profile_entry *e;
	unsigned int n;
	char files[512]; /* the files loaded, for the results */
	/* what %when compares against; NULL: unknown */
	const char *kernel, *rdma_core;
	char umad_debug[12]; /* RDMACONF_UMAD_DEBUG's level, "0" unset */
	enum rc_target_id target; /* what %target names */
	/* the data directory: an entry's "where" names its profiles
	 * relative to it ("rdma-core.expect:71"), not by this host's path */
	const char *dir;
};

/* What %when and %target lines are decided on, before loading. */
void rc_profile_set_host(struct rc_profile *p, const char *kernel,
			 const char *rdma_core, enum rc_target_id target);
/* The level libibumad's debug output runs at in the rows (rc_case_run),
 * which "%when umad-debug >= N" compares against. */
void rc_profile_set_umad_debug(struct rc_profile *p, unsigned int level);
/* Compare dotted versions numerically ("6.12.118+deb13" > "6.1"): <0, 0,
 * >0 over the fields both give. */
int rc_version_cmp(const char *a, const char *b);

/* Load @path into @p; a malformed line is an error: one-line cause in
 * @err, returns -1. */
int rc_profile_load(struct rc_profile *p, const char *path, char *err,
		    size_t errlen);
void rc_profile_free(struct rc_profile *p);
/* The entry for case @id that applies to @impl, or NULL */
struct rc_profile_entry *
rc_profile_find_for(struct rc_profile *p, const char *id, enum rc_impl_id impl);
/* The first entry for case @id (the system's, else the reference's) */
struct rc_profile_entry *rc_profile_find(struct rc_profile *p, const char *id);
/* Does @x apply to implementation @impl (its %scope)? */
bool rc_entry_applies(const struct rc_profile_entry *x, enum rc_impl_id impl);
/* Does @x keep @impl from running the row (a SKIP entry)? */
bool rc_entry_skips(const struct rc_profile_entry *x, enum rc_impl_id impl);

#endif

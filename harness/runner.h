/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_RUNNER_H
#define RDMACONF_RUNNER_H

#include "rdmaconf.h"

/* How the isolated child ended, beyond what it wrote into its rc_obs. */
struct rc_exit {
	enum rc_verdict verdict;	/* RC_CRASH, RC_HANG, or RC_PASS: judge obs */
	char msg[256];
};

/*
 * Run one row on one implementation in a forked child in its own process
 * group.  The watchdog kills the whole group after @watchdog_ms.  @obs must
 * be shared memory (rc_obs_shared()).
 */
void rc_run_isolated(const struct rc_group *g, const struct rc_case *c,
		     const struct rc_ops *ops, const struct rc_target *t,
		     struct rc_obs *obs, unsigned int watchdog_ms,
		     struct rc_exit *ex);
struct rc_obs *rc_obs_shared(void);
/* The same page in a process exec'd for one case (its descriptor). */
struct rc_obs *rc_obs_attach(int fd);
/* Start the guardian that kills the running row's process group when
 * this process dies; once per run, before the first row.  0 or -1. */
int rc_runner_guard(void);
/* Kill the child of the row now running (from a signal handler). */
void rc_runner_abort(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef RDMACONF_RUNNER_H
#define RDMACONF_RUNNER_H

#include "rdmaconf.h"

/* the most rows a run has in flight at once (--jobs) */
#define RC_MAX_JOBS 32

/*
 * One row on one implementation in flight: a forked child in its own
 * process group, with its own shared observation page.  The watchdog
 * kills the whole group after @watchdog_ms.
 */
struct rc_slot {
	struct rc_obs *obs;
	int obs_fd;
	pid_t pid; /* 0: the slot is free */
	int pidfd;
	bool failed_start; /* fork failed: obs says why */
	double start;
	unsigned int watchdog_ms;
	const struct rc_case *c;
	int job; /* the caller's: which job it runs */
	unsigned int oui; /* the job's RC_SHARE_VENDOR_OUI token */
};

/* @n slots, each with its observation page; NULL on failure. */
struct rc_slot *rc_slots_init(unsigned int n);
/* Start row @c on @ops in the free slot @s. */
void rc_slot_start(struct rc_slot *s, const struct rc_group *g,
		   const struct rc_case *c, const struct rc_ops *ops,
		   const struct rc_target *t, unsigned int watchdog_ms);
/* Wait until a started slot's child has ended or hung, reap it, and
 * return that slot (free again, its obs and @end filled: how it ended,
 * which verdict.c judges); NULL when no slot is busy. */
struct rc_slot *rc_slots_wait(struct rc_end *end);
/* What a per-process simulator (ibsim's umad2sim) preloads into each
 * row's process, which is then exec'd afresh (RDMACONF_CASE_PRELOAD); NULL
 * on a real kernel.  Such a simulator also limits how many rows may run
 * at once (schedule.c) and how a hung row is stopped. */
const char *rc_case_preload(void);
/*
 * Run @g's row with @ops: with RDMACONF_UMAD_DEBUG=LEVEL, a libibumad row
 * first sets umad_debug(LEVEL) on its implementation, so that the paths
 * that run only with the library's debug output on run too (the rows of
 * umad_debug and of the dumps, which read the level or stderr, excepted).
 */
void rc_case_run(const struct rc_group *g, const struct rc_case *c,
		 struct rc_ctx *ctx);
/* RDMACONF_UMAD_DEBUG's level, 0 when it is unset */
unsigned int rc_case_umad_debug(void);
/* How many copies of the simulated fabric the run has, 0 when it has
 * none (RDMACONF_CASE_LANES, with a per-process simulator only): slot n
 * runs its rows in lane n, whose environment (its fabric, its remote
 * node) is RDMACONF_CASE_LANE_<n>.  Rows in different lanes share
 * nothing. */
unsigned int rc_case_lanes(void);
/* The page of a process exec'd for one case (its descriptor). */
struct rc_obs *rc_obs_attach(int fd);
/* Start the guardian that kills the running rows' process groups when
 * this process dies; once per run, before the first row.  0 or -1. */
int rc_runner_guard(void);
/* Kill the children of every row now running (from a signal handler). */
void rc_runner_abort(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which row runs next when rows run in parallel: the one decision of the
 * pool, apart from the processes (runner.c) and the results (run.c), so
 * that it can be tested alone.
 */
#ifndef RDMACONF_SCHEDULE_H
#define RDMACONF_SCHEDULE_H

#include <stdbool.h>

enum rc_job_state { RC_JOB_WAITING, RC_JOB_RUNNING, RC_JOB_DONE };

/* One row on one implementation. */
struct rc_job {
	unsigned int shares; /* enum rc_share: the row's and its group's */
	enum rc_job_state state;
	int row, impl; /* the caller's: which row, which side */
	/* the profile expects the row to deviate on this side */
	bool deviates;
	unsigned int oui; /* while running: its RC_SHARE_VENDOR_OUI token */
};

/* What the jobs now running hold. */
struct rc_held {
	unsigned int shares; /* the locks (all but RC_SHARE_VENDOR_OUI) */
	unsigned int ouis; /* the RC_SHARE_VENDOR_OUI tokens, a bit each */
	unsigned int running;
};

/*
 * The next job to start, or -1: of the waiting jobs that share nothing
 * with what is running, the first, in the order of @jobs, that holds a
 * shared resource (it is on a chain that runs one job at a time: the
 * critical path), else the first.  A job that must run alone starts only
 * when nothing runs, and no job after it starts before it, so that it
 * cannot starve.
 */
int rc_sched_next(const struct rc_job *jobs, int n, const struct rc_held *h);
/*
 * Put @jobs in the order they are offered in: the rows that run alone
 * first (nothing runs yet, so none of them waits for the pool to drain),
 * then the ones the profile expects to deviate (such a row often waits
 * out a deadline for what never comes: started first, its wait overlaps
 * the rest instead of ending the run), then the others; each group in
 * table order.  Which row a job is and where it is printed do not change.
 */
void rc_sched_order(struct rc_job *jobs, int n);
/* What a job holds for a row that shares @shares (enum rc_share): that;
 * in a run with lanes (rc_case_lanes()), nothing: each slot has its
 * own fabric. */
unsigned int rc_sched_holds(unsigned int shares);
void rc_sched_start(struct rc_job *j, struct rc_held *h);
void rc_sched_done(struct rc_job *j, struct rc_held *h);
/* --jobs 0: eight times the online CPUs (rows wait far more than they
 * compute: for messages, timeouts, quiet periods; the whole suite on rxe
 * under TCG with 2 CPUs, 22.7 s with 16 jobs, 27.7 s with 8, and no
 * faster with 24), at most @max; where
 * each row's process must be alone on its fabric (a simulator that
 * replaces the kernel's interface per process, RDMACONF_CASE_PRELOAD),
 * one per lane, or 1 without lanes.  Never more than the lanes. */
unsigned int rc_sched_jobs(unsigned int asked, unsigned int max);
/* How many copies of the simulated fabric a run of @rows rows starts
 * (--target ibsim): --jobs, or RC_SIM_LANES, never more than the rows. */
#define RC_SIM_LANES 16
unsigned int rc_sched_lanes(unsigned int asked, unsigned int rows);

#endif

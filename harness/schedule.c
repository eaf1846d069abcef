// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <unistd.h>

#include "rdmaconf.h"
#include "runner.h"
#include "schedule.h"

int rc_sched_next(const struct rc_job *jobs, int n, const struct rc_held *h)
{
	int i, free_job = -1;

	for (i = 0; i < n; i++) {
		const struct rc_job *j = &jobs[i];

		if (j->state != RC_JOB_WAITING)
			continue;
		/* nothing after it overtakes it */
		if (j->shares & RC_SHARE_ALONE)
			return free_job >= 0 ? free_job :
			       h->running ? -1 : i;
		if (h->shares & RC_SHARE_ALONE)
			return -1;
		if (j->shares & h->shares)
			continue;
		/* a job that holds something is on a chain of jobs that
		 * must run one after another: it goes before the free ones,
		 * which can fill any gap */
		if (j->shares)
			return i;
		if (free_job < 0)
			free_job = i;
	}
	return free_job;
}

/* a side's own instances of the resources, above the shared ones */
#define RC_SHARE_SIDE_SHIFT 8

unsigned int rc_sched_holds(unsigned int shares, int impl)
{
	unsigned int own = shares & ~(RC_SHARE_SPLIT | RC_SHARE_ALONE);

	/* one slot per lane, each its own fabric */
	if (rc_case_lanes())
		return 0;
	/* the resource itself and both sides' instances of it */
	if (!(shares & RC_SHARE_SPLIT))
		return shares | own << RC_SHARE_SIDE_SHIFT |
		       own << (2 * RC_SHARE_SIDE_SHIFT);
	return (shares & RC_SHARE_ALONE) |
	       own << (RC_SHARE_SIDE_SHIFT * (impl + 1));
}

void rc_sched_start(struct rc_job *j, struct rc_held *h)
{
	j->state = RC_JOB_RUNNING;
	h->shares |= j->shares;
	h->running++;
}

void rc_sched_done(struct rc_job *j, struct rc_held *h)
{
	j->state = RC_JOB_DONE;
	/* no two running jobs hold the same resource */
	h->shares &= ~j->shares;
	h->running--;
}

/* Rows on the simulator wait for MADs far more than they compute, and a
 * lane costs ~9 MB and 0.1 s to start: many, but not more than rows. */
unsigned int rc_sched_lanes(unsigned int asked, unsigned int rows)
{
	unsigned int n = asked ? asked : RC_SIM_LANES;

	if (n > rows)
		n = rows;
	return n ? n : 1;
}

unsigned int rc_sched_jobs(unsigned int asked, unsigned int max)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	unsigned int lanes = rc_case_lanes();

	if (lanes && lanes < max)
		max = lanes;
	if (asked)
		return asked > max ? max : asked;
	if (rc_case_preload())
		return lanes ? lanes : 1;
	if (cpus < 1)
		cpus = 1;
	return 2 * cpus > max ? max : 2 * cpus;
}

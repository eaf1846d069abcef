// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <unistd.h>

#include "rdmaconf.h"
#include "runner.h"
#include "schedule.h"

/* the shares that are locks */
#define LOCKS(shares) ((shares) & ~RC_SHARE_VENDOR_OUI)
#define ALL_OUIS ((1u << RC_VENDOR_OUIS) - 1)

static bool fits(const struct rc_job *j, const struct rc_held *h)
{
	if (LOCKS(j->shares) & h->shares)
		return false;
	return !(j->shares & RC_SHARE_VENDOR_OUI) || h->ouis != ALL_OUIS;
}

int rc_sched_next(const struct rc_job *jobs, int n, const struct rc_held *h)
{
	int i, free_job = -1;

	for (i = 0; i < n; i++) {
		const struct rc_job *j = &jobs[i];

		if (j->state != RC_JOB_WAITING)
			continue;
		/* nothing after it overtakes it */
		if (j->shares & RC_SHARE_ALONE)
			return free_job >= 0 ? free_job : h->running ? -1 : i;
		if (h->shares & RC_SHARE_ALONE)
			return -1;
		if (!fits(j, h))
			continue;
		/* a job that holds a lock is on a chain of jobs that must
		 * run one after another: it goes before the free ones,
		 * which can fill any gap */
		if (LOCKS(j->shares))
			return i;
		if (free_job < 0)
			free_job = i;
	}
	return free_job;
}

static int rank(const struct rc_job *j)
{
	if (j->shares & RC_SHARE_ALONE)
		return 0;
	return j->deviates ? 1 : 2;
}

static int by_rank(const void *a, const void *b)
{
	const struct rc_job *x = a, *y = b;

	if (rank(x) != rank(y))
		return rank(x) - rank(y);
	/* in table order within a rank: qsort is not stable */
	return x->row != y->row ? x->row - y->row : x->impl - y->impl;
}

void rc_sched_order(struct rc_job *jobs, int n)
{
	qsort(jobs, n, sizeof(*jobs), by_rank);
}

unsigned int rc_sched_holds(unsigned int shares)
{
	/* one slot per lane, each its own fabric */
	return rc_case_lanes() ? 0 : shares;
}

void rc_sched_start(struct rc_job *j, struct rc_held *h)
{
	j->state = RC_JOB_RUNNING;
	h->shares |= LOCKS(j->shares);
	h->running++;
	j->oui = 0;
	if (j->shares & RC_SHARE_VENDOR_OUI) {
		j->oui = __builtin_ctz(~h->ouis);
		h->ouis |= 1u << j->oui;
	}
}

void rc_sched_done(struct rc_job *j, struct rc_held *h)
{
	j->state = RC_JOB_DONE;
	/* no two running jobs hold the same lock */
	h->shares &= ~LOCKS(j->shares);
	if (j->shares & RC_SHARE_VENDOR_OUI)
		h->ouis &= ~(1u << j->oui);
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
	return 8 * cpus > max ? max : 8 * cpus;
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Which rows run together when rows run in parallel (harness/schedule.c). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../harness/rdmaconf.h"
#include "../../harness/schedule.h"

/* Start every job rc_sched_next allows now; how many started. */
static int start_all(struct rc_job *j, int n, struct rc_held *h, int limit)
{
	int started = 0, i;

	while (started < limit && (i = rc_sched_next(j, n, h)) >= 0) {
		rc_sched_start(&j[i], h);
		started++;
	}
	return started;
}

Test(schedule, rows_sharing_nothing_run_together)
{
	struct rc_job j[4] = {};
	struct rc_held h = {};

	cr_assert_eq(start_all(j, 4, &h, 3), 3);
	cr_assert_eq(j[3].state, RC_JOB_WAITING);
}

Test(schedule, a_shared_resource_serializes_and_others_pass)
{
	struct rc_job j[3] = { { .shares = RC_SHARE_MAD },
			       { .shares = RC_SHARE_MAD },
			       { .shares = 0 } };
	struct rc_held h = {};

	cr_assert_eq(start_all(j, 3, &h, 8), 2);
	cr_assert_eq(j[0].state, RC_JOB_RUNNING);
	cr_assert_eq(j[1].state, RC_JOB_WAITING);
	cr_assert_eq(j[2].state, RC_JOB_RUNNING);
	rc_sched_done(&j[0], &h);
	cr_assert_eq(rc_sched_next(j, 3, &h), 1);
}

Test(schedule, a_row_that_runs_alone_waits_and_blocks_later_rows)
{
	struct rc_job j[3] = { { .shares = 0 },
			       { .shares = RC_SHARE_ALONE },
			       { .shares = 0 } };
	struct rc_held h = {};

	cr_assert_eq(start_all(j, 3, &h, 8), 1);
	cr_assert_eq(j[2].state, RC_JOB_WAITING, "no job overtakes it");
	rc_sched_done(&j[0], &h);
	cr_assert_eq(start_all(j, 3, &h, 8), 1);
	cr_assert_eq(j[1].state, RC_JOB_RUNNING);
	cr_assert_eq(rc_sched_next(j, 3, &h), -1, "nothing beside it");
}

Test(schedule, vendor_ouis_are_tokens_each_running_row_its_own)
{
	struct rc_job j[RC_VENDOR_OUIS + 2];
	struct rc_held h = {};
	unsigned int seen = 0;
	int i;

	for (i = 0; i < RC_VENDOR_OUIS + 2; i++)
		j[i] = (struct rc_job){ .shares = RC_SHARE_VENDOR_OUI };
	j[RC_VENDOR_OUIS + 1].shares = 0;
	cr_assert_eq(start_all(j, RC_VENDOR_OUIS + 2, &h, 32),
		     RC_VENDOR_OUIS + 1, "as many as the kernel keeps OUIs");
	cr_assert_eq(j[RC_VENDOR_OUIS].state, RC_JOB_WAITING);
	for (i = 0; i < RC_VENDOR_OUIS; i++) {
		cr_assert_lt(j[i].oui, RC_VENDOR_OUIS);
		cr_assert_not(seen & 1u << j[i].oui, "no two the same");
		seen |= 1u << j[i].oui;
	}
	rc_sched_done(&j[3], &h);
	cr_assert_eq(rc_sched_next(j, RC_VENDOR_OUIS + 2, &h), RC_VENDOR_OUIS);
	rc_sched_start(&j[RC_VENDOR_OUIS], &h);
	cr_assert_eq(j[RC_VENDOR_OUIS].oui, j[3].oui, "the one given back");
}

Test(schedule, chained_jobs_go_before_free_ones)
{
	struct rc_job j[3] = { { .shares = 0 },
			       { .shares = RC_SHARE_MAD },
			       { .shares = RC_SHARE_VENDOR_OUI } };
	struct rc_held h = {};

	cr_assert_eq(rc_sched_next(j, 3, &h), 1);
	rc_sched_start(&j[1], &h);
	cr_assert_eq(rc_sched_next(j, 3, &h), 0, "a token is no chain");
}

Test(schedule, one_job_runs_the_table_in_order)
{
	struct rc_job j[4] = {
		{ .shares = RC_SHARE_MAD }, {}, { .shares = RC_SHARE_ALONE }, {}
	};
	struct rc_held h = {};
	int i, next;

	for (i = 0; i < 4; i++) {
		next = rc_sched_next(j, 4, &h);
		cr_assert_eq(next, i);
		rc_sched_start(&j[next], &h);
		rc_sched_done(&j[next], &h);
	}
}

Test(schedule, alone_then_deviating_then_the_rest_each_in_table_order)
{
	struct rc_job j[6] = {
		{ .row = 0, .impl = 0 },
		{ .row = 0, .impl = 1, .deviates = true },
		{ .row = 1, .impl = 0, .shares = RC_SHARE_MAD },
		{ .row = 2, .impl = 0, .shares = RC_SHARE_ALONE },
		{ .row = 2,
		  .impl = 1,
		  .shares = RC_SHARE_ALONE,
		  .deviates = true },
		{ .row = 3, .impl = 0, .deviates = true },
	};
	static const int want[6][2] = { { 2, 0 }, { 2, 1 }, { 0, 1 },
					{ 3, 0 }, { 0, 0 }, { 1, 0 } };
	int i;

	rc_sched_order(j, 6);
	for (i = 0; i < 6; i++) {
		cr_assert_eq(j[i].row, want[i][0], "job %d", i);
		cr_assert_eq(j[i].impl, want[i][1], "job %d", i);
	}
}

Test(schedule, pool_size)
{
	cr_assert_eq(rc_sched_jobs(3, 32), 3);
	cr_assert_eq(rc_sched_jobs(99, 32), 32);
	cr_assert_geq(rc_sched_jobs(0, 32), 2);
	setenv("RDMACONF_CASE_PRELOAD", "x.so", 1);
	cr_assert_eq(rc_sched_jobs(0, 32), 1,
		     "a per-process simulator runs one row at a time");
	setenv("RDMACONF_CASE_LANES", "6", 1);
	cr_assert_eq(rc_sched_jobs(0, 32), 6, "one row per lane");
	cr_assert_eq(rc_sched_jobs(9, 32), 6, "never more than the lanes");
	cr_assert_eq(rc_sched_jobs(2, 32), 2);
	unsetenv("RDMACONF_CASE_PRELOAD");
	cr_assert_eq(rc_sched_jobs(3, 32), 3,
		     "lanes are the simulator's, and only with it");
	unsetenv("RDMACONF_CASE_LANES");
}

Test(schedule, lanes_per_run)
{
	cr_assert_eq(rc_sched_lanes(0, 193), RC_SIM_LANES);
	cr_assert_eq(rc_sched_lanes(0, 3), 3, "no more fabrics than rows");
	cr_assert_eq(rc_sched_lanes(0, 0), 1);
	cr_assert_eq(rc_sched_lanes(4, 193), 4, "--jobs names them");
}

Test(schedule, lanes_share_nothing)
{
	setenv("RDMACONF_CASE_PRELOAD", "x.so", 1);
	setenv("RDMACONF_CASE_LANES", "4", 1);
	cr_assert_eq(rc_sched_holds(RC_SHARE_MAD | RC_SHARE_ALONE), 0,
		     "each lane is a fabric of its own");
	unsetenv("RDMACONF_CASE_LANES");
	cr_assert_eq(rc_sched_holds(RC_SHARE_MAD), RC_SHARE_MAD);
	unsetenv("RDMACONF_CASE_PRELOAD");
}

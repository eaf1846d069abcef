// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rc_guarded and rc_end_by (harness/guard.c): a row's calls in a child
 * whose crash leaves the row's process to put the machine back.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../../harness/rdmaconf.h"

/* the observation page shared, as the runner's is */
static struct rc_obs *shared_obs(void)
{
	void *p = mmap(NULL, sizeof(struct rc_obs), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	cr_assert(p != MAP_FAILED);
	return p;
}

static char x[] = "x";

static void crashes(struct rc_ctx *ctx, void *arg)
{
	abort();
}

static void exits(struct rc_ctx *ctx, void *arg)
{
	exit(7);
}

static void observes(struct rc_ctx *ctx, void *arg)
{
	rc_obs_violation(ctx->obs, "seen by the child: %s", (char *)arg);
}

Test(guard, a_crash_in_the_child_is_its_signal)
{
	struct rc_ctx ctx = { .obs = shared_obs() };

	int status = rc_guarded(&ctx, crashes, NULL);

	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	cr_assert_eq(ctx.obs->state, RC_STATE_NONE);
}

Test(guard, what_the_child_observed_is_the_rows)
{
	struct rc_ctx ctx = { .obs = shared_obs() };

	cr_assert_eq(rc_guarded(&ctx, observes, x), 0);
	cr_assert_str_eq(ctx.obs->violation, "seen by the child: x");
}

/* The row's process, given what its child did: how it ends */
static int row_ending_by(void (*fn)(struct rc_ctx *, void *))
{
	int status;
	pid_t pid = fork();

	cr_assert(pid >= 0);
	if (!pid) {
		struct rc_ctx ctx = { .obs = shared_obs() };
		int child = rc_guarded(&ctx, fn, x);

		rc_end_by(0); /* nothing: goes on */
		rc_end_by(-1);
		rc_end_by(child);
		_exit(3);
	}
	cr_assert(waitpid(pid, &status, 0) == pid);
	return status;
}

Test(guard, the_row_ends_as_its_child_did)
{
	int status = row_ending_by(crashes);

	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	status = row_ending_by(exits);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	status = row_ending_by(observes);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3);
}

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

static void crashes(struct rc_ctx *ctx, void *arg)
{
	abort();
}

static void observes(struct rc_ctx *ctx, void *arg)
{
	rc_obs_violation(ctx->obs, "seen by the child: %s", (char *)arg);
}

Test(guard, a_crash_in_the_child_is_its_signal)
{
	struct rc_ctx ctx = { .obs = shared_obs() };

	cr_assert_eq(rc_guarded(&ctx, crashes, NULL), SIGABRT);
	cr_assert_eq(ctx.obs->state, RC_STATE_NONE);
}

Test(guard, what_the_child_observed_is_the_rows)
{
	struct rc_ctx ctx = { .obs = shared_obs() };

	cr_assert_eq(rc_guarded(&ctx, observes, "x"), 0);
	cr_assert_str_eq(ctx.obs->violation, "seen by the child: x");
}

Test(guard, the_row_ends_by_the_childs_signal)
{
	int status;
	pid_t pid = fork();

	cr_assert(pid >= 0);
	if (!pid) {
		rc_end_by(0); /* none: goes on */
		rc_end_by(SIGABRT);
		_exit(3);
	}
	cr_assert(waitpid(pid, &status, 0) == pid);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

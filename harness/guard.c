// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A row's own child process, for the calls under test of a row that
 * holds machine state it must put back (a netdev's link, an address).
 * The row's process changes the state, the child makes the calls, and
 * the row's process puts the state back however the child ended: a crash
 * of the implementation under test then costs that row alone, not every
 * row after it.  The observation page is shared (runner.c), so what the
 * child observed is the row's.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "rdmaconf.h"

#ifdef RDMACONF_COVERAGE
void __gcov_dump(void);
#endif

int rc_guarded(struct rc_ctx *ctx, void (*fn)(struct rc_ctx *, void *),
	       void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN, "fork: %m");
		return -1;
	}
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn(ctx, arg);
#ifdef RDMACONF_COVERAGE
		__gcov_dump();
#endif
		/* _exit: as the row's process ends (runner.c) */
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN, "waitpid: %m");
			return -1;
		}
	return status;
}

void rc_end_by(int status)
{
	sigset_t one;
	int sig;

	if (status <= 0)
		return;
	if (WIFEXITED(status)) {
		/* the implementation under test called exit(): the row's
		 * process ends as the child did (as runner.c's _exit) */
		_exit(WEXITSTATUS(status));
	}
	sig = WTERMSIG(status);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	/* a signal whose default is to be ignored: end as killed */
	raise(SIGKILL);
}

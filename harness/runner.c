// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Isolation of every row, after kselftest's harness: the row runs in a
 * forked child that leads its own process group, the parent waits on a
 * pidfd with a deadline, and a child that outlives the deadline has its
 * whole group killed.  Whatever the code under test does to itself -- a
 * signal, abort(), exit(), an endless loop -- becomes CRASH or HANG for
 * that row, and the run goes on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

static volatile pid_t running_child;

/*
 * No process of a run outlives it, even when the runner is SIGKILLed:
 * the row's child dies with its parent (PR_SET_PDEATHSIG), and a guardian
 * process kills the row's whole process group -- what the code under test
 * forked included -- when the runner's end of a pipe closes.  The
 * guardian learns the group from a shared page.
 */
static volatile pid_t *guarded_pgid;
static int guard_fd = -1;

int rc_runner_guard(void)
{
	void *page = mmap(NULL, sizeof(pid_t), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int p[2];
	char c;
	pid_t pid;

	if (page == MAP_FAILED || pipe2(p, O_CLOEXEC))
		return -1;
	guarded_pgid = page;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid) {
		close(p[0]);
		guard_fd = p[1];
		return 0;
	}
	/* the guardian: its job starts when Ctrl-C has ended the runner */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	prctl(PR_SET_NAME, "rdmaconf-guard");
	close(p[1]);
	while (read(p[0], &c, 1) < 0 && errno == EINTR)
		;
	if (*guarded_pgid > 0)
		kill(-*guarded_pgid, SIGKILL);
	_exit(0);
}

static void guard(pid_t pgid)
{
	running_child = pgid;
	if (guarded_pgid)
		*guarded_pgid = pgid;
}

#ifdef RDMACONF_COVERAGE
void __gcov_dump(void);
#endif

/* The observation page lives in a memfd, so that a child that execs
 * itself (RDMACONF_CASE_PRELOAD) can map the same page again. */
static int obs_fd = -1;

struct rc_obs *rc_obs_shared(void)
{
	void *p;

	obs_fd = memfd_create("rdmaconf-obs", 0);
	if (obs_fd < 0 || ftruncate(obs_fd, sizeof(struct rc_obs)))
		return NULL;
	p = mmap(NULL, sizeof(struct rc_obs), PROT_READ | PROT_WRITE,
		 MAP_SHARED, obs_fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

struct rc_obs *rc_obs_attach(int fd)
{
	void *p = mmap(NULL, sizeof(struct rc_obs), PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * A fresh process for the row: this program again, with
 * RDMACONF_CASE_PRELOAD put ahead of its LD_PRELOAD.  For simulators that replace
 * the kernel's umad interface per process (ibsim's umad2sim), whose state
 * a forked child would share with its parent.
 */
static void exec_case(const struct rc_case *c, const struct rc_ops *ops,
		      const struct rc_target *t, const char *preload)
{
	char self[4096], fd[16], slow[32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *args[] = { self, (char *)"__case", (char *)c->id,
			 (char *)ops->name, fd, NULL };

	if (n < 0)
		_exit(127);
	self[n] = 0;
	snprintf(fd, sizeof(fd), "%d", obs_fd);
	snprintf(slow, sizeof(slow), "%.3f", t->slowness);
	setenv("RDMACONF_SLOWNESS", slow, 1);
	/* ahead of what the run itself was given (a shim under test) */
	if (getenv("LD_PRELOAD") && *getenv("LD_PRELOAD")) {
		char *both;

		if (asprintf(&both, "%s %s", preload, getenv("LD_PRELOAD")) < 0)
			_exit(127);
		setenv("LD_PRELOAD", both, 1);
	} else {
		setenv("LD_PRELOAD", preload, 1);
	}
	/* umad2sim writes its fake sysfs into the working directory */
	if (getenv("RDMACONF_CASE_DIR") && chdir(getenv("RDMACONF_CASE_DIR")))
		_exit(127);
	execv(self, args);
	_exit(127);
}

void rc_runner_abort(void)
{
	pid_t pid = running_child;

	if (pid > 0)
		kill(-pid, SIGKILL);
}

static void child(const struct rc_group *g, const struct rc_case *c,
		  const struct rc_ops *ops, const struct rc_target *t,
		  struct rc_obs *obs, pid_t parent)
{
	struct rc_ctx ctx = { .ops = ops, .target = t, .obs = obs };
	sigset_t none;

	setpgid(0, 0);
	/* dies with the runner; checked after, as the runner may be gone */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	/* only the runner may hold the guardian's pipe open */
	if (guard_fd >= 0)
		close(guard_fd);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* The code under test may print; KTAP on stdout must stay clean. */
	dup2(STDERR_FILENO, STDOUT_FILENO);
	if (getenv("RDMACONF_CASE_PRELOAD"))
		exec_case(c, ops, t, getenv("RDMACONF_CASE_PRELOAD"));
	g->run(c, &ctx);
#ifdef RDMACONF_COVERAGE
	/* _exit skips gcov's exit hook: save what the row covered */
	__gcov_dump();
#endif
	/* _exit: no atexit handlers of the library under test run here */
	_exit(0);
}

/* Wait for @pid until @deadline (ms, monotonic); false on timeout. */
static bool wait_deadline(pid_t pid, double deadline, int *status)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0);
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	double left;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			break;
		left = deadline - rc_now_ms();
		if (left <= 0) {
			if (pidfd >= 0)
				close(pidfd);
			return false;
		}
		if (pidfd >= 0) {
			poll(&pfd, 1, left > 100 ? 100 : (int)left + 1);
		} else {
			/* kernels before 5.3: poll the child at 1 ms */
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return true;
}

void rc_run_isolated(const struct rc_group *g, const struct rc_case *c,
		     const struct rc_ops *ops, const struct rc_target *t,
		     struct rc_obs *obs, unsigned int watchdog_ms,
		     struct rc_exit *ex)
{
	pid_t parent = getpid();
	double start;
	int status = 0;
	pid_t pid;

	memset(obs, 0, sizeof(*obs));
	memset(ex, 0, sizeof(*ex));
	ex->verdict = RC_PASS;
	fflush(NULL);
	start = rc_now_ms();
	obs->t_start = start;
	pid = fork();
	if (pid < 0) {
		obs->state = RC_STATE_BROKEN;
		snprintf(obs->reason, sizeof(obs->reason), "fork: %s",
			 strerror(errno));
		return;
	}
	if (pid == 0)
		child(g, c, ops, t, obs, parent);
	setpgid(pid, pid);	/* both sides: whoever runs first wins */
	guard(pid);

	if (!wait_deadline(pid, start + watchdog_ms, &status)) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		guard(0);
		obs->total_ms = rc_now_ms() - start;
		ex->verdict = RC_HANG;
		snprintf(ex->msg, sizeof(ex->msg),
			 "no result after %u ms (watchdog), %s",
			 watchdog_ms, obs->state == RC_STATE_STARTED ?
			 "inside the call under test" : "in the row's setup");
		return;
	}
	/* grandchildren the code under test left behind go with the group */
	kill(-pid, SIGKILL);
	guard(0);
	obs->total_ms = rc_now_ms() - start;

	if (WIFSIGNALED(status)) {
		ex->verdict = RC_CRASH;
		snprintf(ex->msg, sizeof(ex->msg), "killed by signal %d (%s)%s",
			 WTERMSIG(status), strsignal(WTERMSIG(status)),
			 obs->state == RC_STATE_STARTED ?
			 " inside the call under test" : "");
	} else if (obs->state == RC_STATE_STARTED ||
		   obs->state == RC_STATE_NONE || WEXITSTATUS(status)) {
		ex->verdict = RC_CRASH;
		snprintf(ex->msg, sizeof(ex->msg),
			 "process exited with status %d %s",
			 WEXITSTATUS(status), obs->state == RC_STATE_STARTED ?
			 "inside the call under test" : "before recording a result");
	}
}

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

/*
 * No process of a run outlives it, even when the runner is SIGKILLed:
 * each row's child dies with its parent (PR_SET_PDEATHSIG), and a
 * guardian process kills the process group of every row still running --
 * what the code under test forked included -- when the runner's end of a
 * pipe closes.  The guardian learns the groups from a shared page, one
 * entry per slot.
 */
static volatile pid_t *guarded_pgid;
static int guard_fd = -1;

int rc_runner_guard(void)
{
	void *page = mmap(NULL, RC_MAX_JOBS * sizeof(pid_t),
			  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			  -1, 0);
	int p[2], i;
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
	for (i = 0; i < RC_MAX_JOBS; i++)
		if (guarded_pgid[i] > 0)
			kill(-guarded_pgid[i], SIGKILL);
	_exit(0);
}

/* the slots of this run, for the guardian and for rc_runner_abort() */
static struct rc_slot *slots;
static unsigned int nslots;

static void guard(const struct rc_slot *s, pid_t pgid)
{
	if (guarded_pgid)
		guarded_pgid[s - slots] = pgid;
}

#ifdef RDMACONF_COVERAGE
void __gcov_dump(void);
#endif

/* Each slot's observation page lives in a memfd, so that a child that
 * execs itself (RDMACONF_CASE_PRELOAD) can map the same page again. */
static struct rc_obs *obs_page(int *fd)
{
	void *p;

	*fd = memfd_create("rdmaconf-obs", 0);
	if (*fd < 0 || ftruncate(*fd, sizeof(struct rc_obs)))
		return NULL;
	p = mmap(NULL, sizeof(struct rc_obs), PROT_READ | PROT_WRITE,
		 MAP_SHARED, *fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

struct rc_slot *rc_slots_init(unsigned int n)
{
	unsigned int i;

	if (!n || n > RC_MAX_JOBS)
		return NULL;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return NULL;
	nslots = n;
	for (i = 0; i < n; i++) {
		slots[i].pidfd = -1;
		slots[i].obs = obs_page(&slots[i].obs_fd);
		if (!slots[i].obs)
			return NULL;
	}
	return slots;
}

const char *rc_case_preload(void)
{
	const char *p = getenv("RDMACONF_CASE_PRELOAD");

	return p && *p ? p : NULL;
}

unsigned int rc_case_umad_debug(void)
{
	const char *level = getenv("RDMACONF_UMAD_DEBUG");

	return level ? (unsigned int)strtoul(level, NULL, 10) : 0;
}

void rc_case_run(const struct rc_group *g, const struct rc_case *c,
		 struct rc_ctx *ctx)
{
	static const char *const own_level[] = { "umad_debug", "umad_dump",
						 "umad_addr_dump" };
	unsigned int level = rc_case_umad_debug();
	bool debug = level && !strcmp(g->lib, "umad") && ctx->ops->umad_debug;
	unsigned int i;

	for (i = 0; debug && i < ARRAY_SIZE(own_level); i++)
		debug = strcmp(g->call, own_level[i]);
	if (debug)
		ctx->ops->umad_debug((int)level);
	g->run(c, ctx);
}

unsigned int rc_case_lanes(void)
{
	const char *l = getenv("RDMACONF_CASE_LANES");
	unsigned long n;
	char *end;

	if (!rc_case_preload() || !l || !*l)
		return 0;
	n = strtoul(l, &end, 10);
	return *end || n > RC_MAX_JOBS ? 0 : n;
}

/* Lane @lane's environment, RDMACONF_CASE_LANE_<lane>="VAR=VALUE ...",
 * into this process: its fabric and its remote node. */
static void enter_lane(unsigned int lane)
{
	char name[64], *env, *var, *save;

	snprintf(name, sizeof(name), "RDMACONF_CASE_LANE_%u", lane);
	env = getenv(name);
	if (!env || !(env = strdup(env)))
		_exit(127);
	for (var = strtok_r(env, " ", &save); var;
	     var = strtok_r(NULL, " ", &save))
		if (!strchr(var, '=') || putenv(var))
			_exit(127);
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
		      const struct rc_target *t, const struct rc_slot *s,
		      const char *preload)
{
	char self[4096], fd[16], slow[32], slot[16];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *args[] = {
		self, (char *)"__case", (char *)c->id, (char *)ops->name, fd,
		NULL
	};

	if (n < 0)
		_exit(127);
	self[n] = 0;
	snprintf(fd, sizeof(fd), "%d", s->obs_fd);
	snprintf(slot, sizeof(slot), "%u", (unsigned int)(s - slots));
	setenv("RDMACONF_CASE_SLOT", slot, 1);
	snprintf(slot, sizeof(slot), "%u", s->oui);
	setenv("RDMACONF_CASE_OUI", slot, 1);
	if (rc_case_lanes())
		enter_lane((s - slots) % rc_case_lanes());
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
	unsigned int i;

	for (i = 0; i < nslots; i++)
		if (slots[i].pid > 0)
			kill(-slots[i].pid, SIGKILL);
}

static void child(const struct rc_group *g, const struct rc_case *c,
		  const struct rc_ops *ops, const struct rc_target *t,
		  const struct rc_slot *s, pid_t parent)
{
	struct rc_ctx ctx = { .ops = ops,
			      .target = t,
			      .obs = s->obs,
			      .shares = c->shares | g->shares,
			      .needs = c->needs,
			      .slot = s - slots,
			      .oui = s->oui };
	unsigned int i;
	sigset_t none;

	setpgid(0, 0);
	/* dies with the runner; checked after, as the runner may be gone */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	/* only the runner may hold the guardian's pipe open */
	if (guard_fd >= 0)
		close(guard_fd);
	/* nor see the other rows' watches */
	for (i = 0; i < nslots; i++)
		if (slots[i].pidfd >= 0 && &slots[i] != s)
			close(slots[i].pidfd);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* The code under test may print; KTAP on stdout must stay clean. */
	dup2(STDERR_FILENO, STDOUT_FILENO);
	if (rc_case_preload())
		exec_case(c, ops, t, s, rc_case_preload());
	rc_case_run(g, c, &ctx);
#ifdef RDMACONF_COVERAGE
	/* _exit skips gcov's exit hook: save what the row covered */
	__gcov_dump();
#endif
	/* _exit: no atexit handlers of the library under test run here */
	_exit(0);
}

void rc_slot_start(struct rc_slot *s, const struct rc_group *g,
		   const struct rc_case *c, const struct rc_ops *ops,
		   const struct rc_target *t, unsigned int watchdog_ms)
{
	struct rc_obs *obs = s->obs;
	pid_t parent = getpid();

	memset(obs, 0, sizeof(*obs));
	s->c = c;
	s->watchdog_ms = watchdog_ms;
	fflush(NULL);
	s->start = rc_now_ms();
	obs->t_start = s->start;
	s->pid = fork();
	if (s->pid < 0) {
		s->pid = 0;
		s->pidfd = -1;
		s->failed_start = true;
		obs->state = RC_STATE_BROKEN;
		snprintf(obs->reason, sizeof(obs->reason), "fork: %s",
			 strerror(errno));
		return;
	}
	if (s->pid == 0)
		child(g, c, ops, t, s, parent);
	setpgid(s->pid, s->pid); /* both sides: whoever runs first wins */
	guard(s, s->pid);
	s->failed_start = false;
	/* kernels before 5.3 have no pidfd: rc_slots_wait() polls */
	s->pidfd = syscall(SYS_pidfd_open, s->pid, 0);
}

/* The slot's child has ended with @status, or hung (@hung): how. */
static void finish(struct rc_slot *s, int status, bool hung, struct rc_end *end)
{
	struct rc_obs *obs = s->obs;

	/* grandchildren the code under test left behind go with the group */
	kill(-s->pid, SIGKILL);
	guard(s, 0);
	if (s->pidfd >= 0)
		close(s->pidfd);
	s->pid = 0;
	s->pidfd = -1;
	obs->total_ms = rc_now_ms() - s->start;
	end->watchdog_ms = s->watchdog_ms;
	if (hung) {
		end->how = RC_END_HUNG;
		end->status = 0;
	} else if (WIFSIGNALED(status)) {
		end->how = RC_END_SIGNALED;
		end->status = WTERMSIG(status);
	} else {
		end->how = RC_END_EXITED;
		end->status = WEXITSTATUS(status);
	}
}

/*
 * A hung row under a simulator that stands in for the kernel per process
 * (RDMACONF_CASE_PRELOAD: ibsim's umad2sim) holds one of the simulator's
 * few client slots, which only the process's exit hook gives back: it is
 * asked to exit (SIGTERM, rc_cmd_case) before it is killed, or a few hung
 * rows would use up the fabric for every row after them.
 */
static void stop_hung(pid_t pid)
{
	double deadline = rc_now_ms() + 500;
	siginfo_t info;

	if (!rc_case_preload())
		return;
	kill(pid, SIGTERM);
	while (rc_now_ms() < deadline) {
		struct timespec ts = { 0, 10000000 };

		/* ended? (reaped by the caller) */
		info.si_pid = 0;
		if (!waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) &&
		    info.si_pid == pid)
			return;
		nanosleep(&ts, NULL);
	}
}

/*
 * How long a SIGKILLed row may take to end.  A process blocked in the
 * kernel uninterruptibly (a provider's close that waits for hardware, or
 * a kernel that a malformed work request wedged) never does: waiting for
 * it would hang the run, and every row after it.
 */
#define RC_KILL_GRACE_MS 3000

/* @pid, SIGKILLed: reaped into @status within the grace, or false and
 * where it waits in the kernel in @wchan (it is left to init). */
static bool reap_killed(pid_t pid, int *status, char *wchan, size_t size)
{
	double deadline = rc_now_ms() + RC_KILL_GRACE_MS;
	char path[64];
	ssize_t n;
	int fd;

	do {
		struct timespec ts = { 0, 5000000 };

		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		nanosleep(&ts, NULL);
	} while (rc_now_ms() < deadline);
	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, wchan, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	snprintf(wchan + (n > 0 ? n : 0), size - (n > 0 ? n : 0), "%s",
		 n > 0 && strcmp(wchan, "0") ? "" : "unknown");
	return false;
}

/* Has the slot's child ended, or outlived its watchdog?  Reaps it. */
static bool slot_done(struct rc_slot *s, struct rc_end *end)
{
	int status = 0;

	end->stuck[0] = 0;
	if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
		finish(s, status, false, end);
		return true;
	}
	if (rc_now_ms() < s->start + s->watchdog_ms)
		return false;
	stop_hung(s->pid);
	kill(-s->pid, SIGKILL);
	kill(s->pid, SIGKILL);
	if (!reap_killed(s->pid, &status, end->stuck, sizeof(end->stuck)))
		fprintf(stderr,
			"rdmaconf: %s: process %d did not end after SIGKILL "
			"(in the kernel at %s); left behind\n",
			s->c->id, (int)s->pid, end->stuck);
	finish(s, status, true, end);
	return true;
}

struct rc_slot *rc_slots_wait(struct rc_end *end)
{
	struct pollfd pfd[RC_MAX_JOBS];
	unsigned int i, n;
	double first, left;

	for (;;) {
		n = 0;
		first = 0;
		for (i = 0; i < nslots; i++) {
			struct rc_slot *s = &slots[i];

			if (s->failed_start) {
				s->failed_start = false;
				*end = (struct rc_end){ .how = RC_END_NO_START };
				return s;
			}
			if (!s->pid)
				continue;
			if (slot_done(s, end))
				return s;
			if (!n || s->start + s->watchdog_ms < first)
				first = s->start + s->watchdog_ms;
			if (s->pidfd >= 0)
				pfd[n++] = (struct pollfd){ .fd = s->pidfd,
							    .events = POLLIN };
			else
				pfd[n++] = (struct pollfd){ .fd = -1 };
		}
		if (!n)
			return NULL;
		left = first - rc_now_ms();
		if (left > 100)
			left = 100;
		if (left < 1)
			left = 1;
		/* without pidfds (valgrind, old kernels): look again at 1 ms */
		for (i = 0; i < n; i++)
			if (pfd[i].fd < 0)
				left = 1;
		poll(pfd, n, (int)left);
	}
}

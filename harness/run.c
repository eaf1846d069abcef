// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf run on this host: find the target, load the profiles, run every
 * selected row on each implementation in isolation, have the row decided
 * (rc_row_decide), and hand the result to the writers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "rdmaconf.h"
#include "cli.h"
#include "device.h"
#include "json.h"
#include "need.h"
#include "output.h"
#include "paths.h"
#include "profile.h"
#include "results.h"
#include "row.h"
#include "run.h"
#include "runner.h"
#include "schedule.h"
#include "target.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
	rc_runner_abort();
}

/* 2M dependent volatile updates take about 4 ms on a native core */
#define NATIVE_LOOP_MS 4.0

/* How much slower than a native 2020s core this host runs: emulated CPUs
 * (qemu TCG) are 10-50x slower, and time tolerances must follow.  The
 * fastest of up to 40 samples 25 ms apart: the machine's speed, not a
 * moment's noise.  Five samples back to back once fell in such a moment,
 * and the run's waits tripled; in the rxe VM the first second after boot
 * (the host loading the guest's files) read 2.1-2.7 where the rest of
 * the boot reads 1.4-1.5.  A native speed ends the search at once. */
static double measure_slowness(void)
{
	const struct timespec gap = { .tv_nsec = 25 * 1000 * 1000 };
	const char *env = getenv("RDMACONF_SLOWNESS");
	struct timespec a, b;
	volatile uint32_t x = 1;
	double ms, best = 0;
	int i, n;

	if (env && atof(env) >= 1)
		return atof(env);
	for (n = 0; n < 40 && (!n || best > NATIVE_LOOP_MS); n++) {
		if (n)
			nanosleep(&gap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &a);
		for (i = 0; i < 2000000; i++)
			x = x * 1664525u + 1013904223u;
		clock_gettime(CLOCK_MONOTONIC, &b);
		ms = (b.tv_sec - a.tv_sec) * 1e3 +
		     (b.tv_nsec - a.tv_nsec) / 1e6;
		if (!n || ms < best)
			best = ms;
	}
	return best / NATIVE_LOOP_MS < 1 ? 1 : best / NATIVE_LOOP_MS;
}

/* A selected row of the run, from its jobs to its place in the output. */
struct run_row {
	const struct rc_group *g;
	const struct rc_case *c;
	/* the profile's entry for each implementation, or NULL */
	const struct rc_profile_entry *x[RC_NIMPLS];
	struct rc_row_result res;
	unsigned int pending; /* jobs not yet done */
};

/*
 * Settle what of row @rr runs no process: an implementation not selected,
 * a need the target does not meet, a profile's SKIP entry (its verdict is
 * decided with the row's).  Adds a job for each implementation that must
 * run it.
 */
static void plan_row(struct run_row *rr, int row, const struct rc_opts *o,
		     const struct rc_target *t, struct rc_job *jobs, int *njobs)
{
	const struct rc_case *c = rr->c;
	char unmet[RC_REASON_MAX];
	enum rc_state st;
	bool skip;
	int i;

	if (rc_needs_unmet(c, t, &skip, unmet, sizeof(unmet)))
		unmet[0] = 0;
	st = skip ? RC_STATE_SKIP : RC_STATE_UNSUPPORTED;

	memset(&rr->res, 0, sizeof(rr->res));
	for (i = 0; i < RC_NIMPLS; i++) {
		struct rc_outcome *oc = &rr->res.oc[i];
		const char *why = unmet[0] ? unmet : NULL;

		if (!o->impl[i])
			continue;
		oc->selected = true;
		if (!why && rc_entry_skips(rr->x[i], i)) {
			why = rr->x[i]->reason;
			st = RC_STATE_SKIP;
			rr->res.by_profile = true;
		}
		if (why) {
			oc->obs.state = st;
			snprintf(oc->obs.reason, sizeof(oc->obs.reason), "%s",
				 why);
			continue;
		}
		jobs[*njobs] = (struct rc_job){
			.shares = rc_sched_holds(c->shares | rr->g->shares),
			.row = row,
			.impl = i,
			.deviates = rr->x[i] != NULL
		};
		(*njobs)++;
		rr->pending++;
	}
}

/*
 * A fleet's node whose partner died (rdmaconf fleet) would take the
 * partner's silence for its library's failure.  The fleet keeps a file
 * (RDMACONF_REMOTE_ALIVE) that it renews while the partner answers and
 * removes once it has not for a while: a row that needs the remote node
 * and did not pass is taken as run only when the file is renewed after
 * the row ended; removed, or not renewed in time, the partner was gone
 * and the row did not run -- its need was not met.  @since: the row's
 * end, CLOCK_REALTIME as the file's times are.
 */
#define RC_REMOTE_CONFIRM_MS 30000
static bool remote_gone(const struct rc_target *t, const struct timespec *since)
{
	double deadline = rc_now_ms() + RC_REMOTE_CONFIRM_MS * t->slowness;
	const struct timespec gap = { .tv_nsec = 50 * 1000 * 1000 };
	struct stat st;

	while (rc_now_ms() < deadline) {
		if (stat(t->remote_alive, &st))
			return true;
		if (st.st_mtim.tv_sec > since->tv_sec ||
		    (st.st_mtim.tv_sec == since->tv_sec &&
		     st.st_mtim.tv_nsec > since->tv_nsec))
			return false;
		nanosleep(&gap, NULL);
	}
	return true;
}

/* The row's outcome on @oc: not run, its partner gone */
static void partner_gone(struct rc_outcome *oc)
{
	oc->end = (struct rc_end){ .how = RC_END_NONE };
	oc->obs.state = RC_STATE_SKIP;
	snprintf(oc->obs.reason, sizeof(oc->obs.reason),
		 RC_PARTNER_GONE
		 ": the remote node stopped answering while the row ran "
		 "(RDMACONF_REMOTE_ALIVE was not renewed after it)");
}

/*
 * A job's child has ended in slot @s: its outcome into its row.  A call
 * that fails on timing alone may have been slowed by the rows beside it or
 * by the host's load (rc_verdict_decide says so): the job goes back to
 * run once more, alone, and that run is judged; the first time is kept.
 * A call that really waits too long or not at all fails both times.
 */
static void record_job(struct run_row *rr, struct rc_job *job,
		       const struct rc_slot *s, const struct rc_end *end,
		       const struct rc_target *t)
{
	struct rc_outcome *oc = &rr->res.oc[job->impl];
	struct rc_verdict_in in = { .impl = job->impl,
				    .slowness = t->slowness,
				    .fastest_ms = -1 };
	struct rc_judgement j;

	struct timespec ended;

	clock_gettime(CLOCK_REALTIME, &ended);
	oc->obs = *s->obs;
	oc->end = *end;
	oc->attempts++;
	rc_verdict_decide(rr->g, rr->c, oc, &in, &j);
	if ((rr->c->needs & RC_NEED_REMOTE) && t->remote_alive &&
	    j.verdict != RC_PASS && remote_gone(t, &ended)) {
		partner_gone(oc);
		rr->pending--;
		return;
	}
	if (j.retry) {
		oc->first_ms = oc->obs.elapsed_ms;
		job->state = RC_JOB_WAITING;
		job->shares |= RC_SHARE_ALONE;
		return;
	}
	rr->pending--;
}

static bool case_exists(const char *id)
{
	const struct rc_group *const *gp;
	size_t i;

	for_each_row (gp, i)
		if (!strcmp(RC_ROW(*gp, i)->id, id))
			return true;
	return false;
}

static const char *kernel_release(void)
{
	static struct utsname u;

	return uname(&u) ? NULL : u.release;
}

/* --expect FILE, else rdma-core.expect, kernel.expect and <driver>.expect. */
static int load_profiles(const struct rc_opts *o, struct rc_profile *p,
			 const struct rc_device *dev)
{
	static const char *const always[] = { "rdma-core.expect",
					      "kernel.expect" };
	const char *dir = rc_path_expect_dir();
	char path[4096], err[512], drv[64];
	size_t i;

	p->dir = dir;
	/* what %when lines are decided on */
	rc_profile_set_host(
		p, kernel_release(),
		rc_impl_rdma_core_version(rc_impl_system_origin("umad")),
		rc_target_current());
	rc_profile_set_umad_debug(p, rc_case_umad_debug());

	if (o->expect) {
		if (!strcmp(o->expect, "none"))
			return 0;
		if (!rc_profile_load(p, o->expect, err, sizeof(err)))
			return 0;
		fprintf(stderr, "rdmaconf: %s\n", err);
		return -1;
	}
	/* the libraries' and the kernel's deviations hold on every device:
	 * a data directory without them is no data directory (a profile
	 * silently missing turns known deviations into new FAILs) */
	for (i = 0; i < ARRAY_SIZE(always); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, always[i]);
		if (rc_profile_load(p, path, err, sizeof(err)))
			goto fail;
	}
	if (dev && !rc_device_driver(dev, drv, sizeof(drv))) {
		snprintf(path, sizeof(path), "%s/%s.expect", dir, drv);
		if (!access(path, F_OK) &&
		    rc_profile_load(p, path, err, sizeof(err)))
			goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "rdmaconf: %s%s\n", err,
		getenv("RDMACONF_EXPECT_DIR") ? " (RDMACONF_EXPECT_DIR)" : "");
	return -1;
}

/*
 * RDMACONF_TARGET=CA:PORT:LINK_LAYER[:umad] names the device instead of
 * looking in sysfs, and what it provides: for simulators whose sysfs
 * only the processes they are preloaded into can see (ibsim), so that
 * their launcher, which knows, says it.
 */
static bool target_from_env(struct rc_target *t, struct rc_device *dev)
{
	const char *e = getenv("RDMACONF_TARGET");
	char provides[16] = "";

	memset(dev, 0, sizeof(*dev));
	if (!e || sscanf(e, "%255[^:]:%d:%31[^:]:%15s", dev->name, &dev->port,
			 dev->link_layer, provides) < 3)
		return false;
	snprintf(dev->state, sizeof(dev->state), "ACTIVE");
	t->ca = dev->name;
	t->port = dev->port;
	t->link_layer = dev->link_layer;
	t->link = strcmp(dev->link_layer, "Ethernet") ? RC_LINK_IB :
							RC_LINK_ROCE;
	t->umad = !strcmp(provides, "umad");
	return true;
}

/*
 * RDMACONF_REMOTE=LID:PORT_GUID names another node of the fabric where
 * rdmaconf-peer runs (it prints that line); ci/ibsim-run sets it.  False
 * when it is set but is not that.
 */
static bool remote_from_env(struct rc_target *t)
{
	const char *e = getenv("RDMACONF_REMOTE");

	t->remote_lid = 0;
	t->remote_alive = getenv("RDMACONF_REMOTE_ALIVE");
	if (t->remote_alive && !*t->remote_alive)
		t->remote_alive = NULL;
	return !e || !*e || rc_cli_remote(e, &t->remote_lid, &t->remote_guid);
}

/* A hung row is asked to exit before it is killed (runner.c stop_hung):
 * exit(), not _exit(), so that the simulator's exit hook gives its client
 * slot back.  Not async-signal-safe, and on purpose: the process ends. */
static void exit_on_term(int sig)
{
	exit(128 + sig);
}

/* rdmaconf __case ID IMPL FD: one row, in a process of its own (exec_case
 * in runner.c); the result goes to the observation page at FD. */
int rc_cmd_case(int argc, char **argv)
{
	static struct rc_device dev;
	static struct rc_target t;
	const struct rc_group *const *gp;
	struct rc_ctx ctx = { .target = &t };
	size_t i;

	if (argc != 5)
		return 127;
	signal(SIGTERM, exit_on_term);
	/* no RDMACONF_TARGET: no device (the parent skipped device rows) */
	target_from_env(&t, &dev);
	remote_from_env(&t);
	t.slowness = getenv("RDMACONF_SLOWNESS") ?
			     atof(getenv("RDMACONF_SLOWNESS")) :
			     1;
	t.root = geteuid() == 0;
	ctx.obs = rc_obs_attach(atoi(argv[4]));
	ctx.slot = getenv("RDMACONF_CASE_SLOT") ?
			   atoi(getenv("RDMACONF_CASE_SLOT")) :
			   0;
	ctx.oui = getenv("RDMACONF_CASE_OUI") ?
			  atoi(getenv("RDMACONF_CASE_OUI")) :
			  0;
	ctx.ops = rc_impl(strcmp(argv[3], "system") ? RC_IMPL_REFERENCE :
						      RC_IMPL_SYSTEM);
	if (!ctx.obs)
		return 127;
	for_each_row (gp, i)
		if (!strcmp(RC_ROW(*gp, i)->id, argv[2])) {
			ctx.shares = RC_ROW(*gp, i)->shares | (*gp)->shares;
			ctx.needs = RC_ROW(*gp, i)->needs;
			rc_case_run(*gp, RC_ROW(*gp, i), &ctx);
			/* exit, not _exit: the simulator's exit hook gives
			 * its client slot back */
			exit(0);
		}
	return 127;
}

/* Find the target the rows run on: RDMACONF_TARGET, or --device, or the
 * first device with an ACTIVE port; and a second device, for peer rows. */
static int find_target(const struct rc_opts *o, struct rc_target *t,
		       struct rc_device *dev, struct rc_device *peer)
{
	int ret;

	if (!remote_from_env(t)) {
		fprintf(stderr,
			"rdmaconf: RDMACONF_REMOTE=%s is not "
			"LID:PORT_GUID (what rdmaconf-peer prints)\n",
			getenv("RDMACONF_REMOTE"));
		return RC_EXIT_USAGE;
	}
	/* a target its launcher names has a sysfs of the simulator's */
	t->sysfs = !target_from_env(t, dev);
	ret = t->sysfs ? rc_device_find(o->device, dev) : 0;
	if (ret == -ENOENT || (o->device && ret)) {
		fprintf(stderr, "rdmaconf: device %s %s\n", o->device,
			ret == -ENOENT ? "does not exist" :
					 "has no ACTIVE port");
		return RC_EXIT_ENV;
	}
	if (!ret && !t->ca) {
		t->ca = dev->name;
		t->port = dev->port;
		t->link_layer = dev->link_layer;
		t->link = rc_device_link(dev);
		t->umad = rc_device_umad(dev);
	}
	if (!ret && !rc_device_find_peer(dev, peer)) {
		t->peer = peer->name;
		t->peer_port = peer->port;
	}
	t->root = geteuid() == 0;
	t->kernel = kernel_release();
	t->slowness = measure_slowness();
	return RC_EXIT_OK;
}

/* The writers' state of one run, and the rows in the order they print. */
struct run_out {
	const struct rc_opts *o;
	const struct rc_target *t;
	struct rc_results results;
	struct rc_str row, sum, junit;
	struct rc_summary s;
	struct rc_call_times times;
	struct run_row *rows;
	unsigned int nrows, next; /* rows[next] is the next to print */
	bool tty; /* progress on stderr */
};

/* The results file could not be written (-@err): what it holds now. */
static void results_failed(const struct run_out *w, int err)
{
	if (w->results.stream)
		fprintf(stderr, "rdmaconf: writing %s failed: %s\n", w->o->json,
			strerror(-err));
	else
		fprintf(stderr,
			"rdmaconf: writing %s failed: %s; it holds the "
			"first %u cases\n",
			w->o->json, strerror(-err),
			rc_results_saved(&w->results));
}

/* TERM=dumb: a terminal that cannot redraw a line (the VM's console when
 * the host's stderr is a file, ci/guest/stage2) */
static bool term_dumb(void)
{
	const char *term = getenv("TERM");

	return term && !strcmp(term, "dumb");
}

/* Decide row @i and write it everywhere; -1 when a write fails (the
 * results file then holds every row before the failure). */
static int emit_row(struct run_out *w, unsigned int i)
{
	struct run_row *rr = &w->rows[i];
	int ret;

	if (w->tty)
		fprintf(stderr, "\r\033[K");
	rc_row_decide(rr->g, rr->c, rr->x, w->t->slowness, &w->times, &rr->res);
	rc_summary_add(&w->s, rr->c, &rr->res);
	rc_ktap_row(stdout, i + 1, rr->c, &rr->res);
	w->row.len = 0;
	w->sum.len = 0;
	rc_json_row(&w->row, rr->g, rr->c, &rr->res);
	rc_summary_json(&w->sum, &w->s);
	ret = w->o->json ? rc_results_add(&w->results, w->row.s, w->sum.s) : 0;
	if (ret) {
		results_failed(w, ret);
		return -1;
	}
	rc_junit_row(&w->junit, rr->g, rr->c, &rr->res);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr,
			"rdmaconf: writing the KTAP stream failed: %m\n");
		return -1;
	}
	return 0;
}

/* Print the rows that are complete, in order, as far as they go. */
static int emit_ready(struct run_out *w)
{
	for (; w->next < w->nrows && !w->rows[w->next].pending; w->next++)
		if (emit_row(w, w->next))
			return -1;
	return 0;
}

unsigned int rc_count_selected(const struct rc_opts *o)
{
	const struct rc_group *const *gp;
	unsigned int n = 0;
	size_t r;

	for_each_row (gp, r)
		n += rc_cli_row_selected(o, *gp, r);
	return n;
}

/*
 * Zeroed memory for @n rows that no child of the run inherits: the rows'
 * results are the runner's alone (6 KB a row, 8 MB for the whole suite),
 * and every fork would otherwise copy their page tables, and every write
 * of the runner while a row runs copy a page (most of a row's cost under
 * TCG).  A child touches none of it: it is handed the row's static case
 * and its slot's shared observation.
 */
static struct run_row *rows_alloc(size_t n)
{
	size_t len = (n ? n : 1) * sizeof(struct run_row);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (madvise(p, len, MADV_DONTFORK)) {
		munmap(p, len);
		return NULL;
	}
	return p;
}

/* The selected rows, in table order; their count in @n. */
static struct run_row *select_rows(const struct rc_opts *o,
				   struct rc_profile *p, unsigned int *n)
{
	const struct rc_group *const *gp;
	struct run_row *rows;
	size_t r, total = rc_count_selected(o);
	int i;

	rows = rows_alloc(total);
	*n = 0;
	if (!rows)
		return NULL;
	for_each_row (gp, r) {
		const struct rc_case *c = RC_ROW(*gp, r);

		if (!rc_cli_row_selected(o, *gp, r))
			continue;
		rows[*n].g = *gp;
		rows[*n].c = c;
		for (i = 0; i < RC_NIMPLS; i++)
			rows[*n].x[i] = rc_profile_find_for(p, c->id, i);
		(*n)++;
	}
	return rows;
}

/*
 * Run the jobs in a pool of @nslots isolated children (rc_sched_next
 * decides which may run together) and print each row once all of its
 * jobs are done, in table order.
 */

/*
 * A row's watchdog: its own, or the run's.  On iWARP an rdma_cm row
 * waits at least IWARP_CM_WATCHDOG_MS: siw's CM tears a connection down
 * whose request nobody answered only when its MPA request timer ends (10
 * s, MPAREQ_TIMEOUT in drivers/infiniband/sw/siw/siw_cm.h), and a row's
 * rdma_destroy_id may wait for that, which is no hang.
 */
#define IWARP_CM_WATCHDOG_MS 30000
static unsigned int row_watchdog_ms(const struct run_out *w,
				    const struct run_row *rr)
{
	unsigned int wd = rr->c->watchdog_ms ? rr->c->watchdog_ms :
					       w->o->watchdog_ms;

	if (w->t->link == RC_LINK_IWARP && !strcmp(rr->g->lib, "rdmacm") &&
	    wd < IWARP_CM_WATCHDOG_MS)
		wd = IWARP_CM_WATCHDOG_MS;
	return wd;
}
static int run_jobs(struct run_out *w, struct rc_job *jobs, int njobs,
		    unsigned int nslots)
{
	struct rc_slot *slots = rc_slots_init(nslots), *s;
	struct rc_held held = {};
	unsigned int i, done = 0;
	struct rc_end end;
	int j, failed;

	if (!slots || rc_runner_guard()) {
		fprintf(stderr,
			"rdmaconf: cannot set up the case runner: %m\n");
		return RC_EXIT_ENV;
	}
	failed = emit_ready(w);
	while (!interrupted && !failed) {
		for (i = 0; i < nslots && !interrupted; i++) {
			struct run_row *rr;
			unsigned int wd;

			if (slots[i].pid || slots[i].failed_start)
				continue;
			j = rc_sched_next(jobs, njobs, &held);
			if (j < 0)
				break;
			rr = &w->rows[jobs[j].row];
			wd = row_watchdog_ms(w, rr);
			rc_sched_start(&jobs[j], &held);
			slots[i].job = j;
			slots[i].oui = jobs[j].oui;
			rc_slot_start(&slots[i], rr->g, rr->c,
				      rc_impl(jobs[j].impl), w->t,
				      wd * w->t->slowness);
		}
		s = rc_slots_wait(&end);
		if (!s || interrupted)
			break;
		j = s->job;
		rc_sched_done(&jobs[j], &held);
		record_job(&w->rows[jobs[j].row], &jobs[j], s, &end, w->t);
		if (w->tty)
			fprintf(stderr, "\r\033[K[%u/%d] %s", ++done, njobs,
				s->c->id);
		failed = emit_ready(w);
	}
	/* what the children of an interrupted run left is not a result */
	rc_runner_abort();
	while (rc_slots_wait(&end))
		;
	/* but every row that was complete is, out of order or not */
	for (i = w->next; i < w->nrows && !failed; i++)
		if (!w->rows[i].pending)
			failed = emit_row(w, i);
	return failed ? RC_EXIT_ENV : RC_EXIT_OK;
}

int rc_cmd_run(const struct rc_opts *o)
{
	struct rc_target target = { .port = 0, .link_layer = "" };
	/* static: reachable until exit on every early return (LeakSanitizer) */
	static struct rc_str head;
	static struct rc_profile profile;
	static struct run_out w;
	static struct rc_job *jobs;
	struct rc_device dev, peer;
	unsigned int nslots, i;
	int ret, njobs = 0;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit is a write error, as a full disk is */
	signal(SIGXFSZ, SIG_IGN);
	ret = find_target(o, &target, &dev, &peer);
	if (ret)
		return ret;
	if (load_profiles(o, &profile, target.ca ? &dev : NULL))
		return RC_EXIT_USAGE;
	w.o = o;
	w.t = &target;
	/* progress redraws its line: a terminal that can (not TERM=dumb) */
	w.tty = isatty(STDERR_FILENO) && !term_dumb();
	w.rows = select_rows(o, &profile, &w.nrows);
	jobs = calloc(w.nrows * RC_NIMPLS + 1, sizeof(*jobs));
	if (!w.rows || !jobs) {
		fprintf(stderr, "rdmaconf: out of memory\n");
		return RC_EXIT_ENV;
	}
	/* a run that selects nothing tests nothing: never a green run */
	if (!w.nrows) {
		fprintf(stderr,
			"rdmaconf: --filter '%.64s' selects no case "
			"(rdmaconf list shows the ids)\n",
			o->filter);
		return RC_EXIT_USAGE;
	}
	for (i = 0; i < w.nrows; i++)
		plan_row(&w.rows[i], i, o, &target, jobs, &njobs);
	rc_sched_order(jobs, njobs);
	nslots = rc_sched_jobs(o->jobs, RC_MAX_JOBS);

	rc_json_head(&head, target.ca ? &dev : NULL, &target, &profile);
	if (o->json) {
		ret = rc_results_open(&w.results, o->json, head.s);
		if (ret) {
			fprintf(stderr, "rdmaconf: cannot write %s: %s\n",
				o->json, strerror(-ret));
			return RC_EXIT_ENV;
		}
	}
	printf("KTAP version 1\n1..%u\n", w.nrows);
	printf("# rdmaconf %s; device %s; slowness %.1f; jobs %u\n", rc_version,
	       target.ca ? target.ca : "none", target.slowness, nslots);

	ret = run_jobs(&w, jobs, njobs, nslots);
	if (ret)
		return ret;

	/* entries naming no case at all have gone stale */
	for (i = 0; !interrupted && i < profile.n; i++) {
		if (case_exists(profile.e[i].id))
			continue;
		printf("# STALE: %s: %s names no case\n", profile.e[i].where,
		       profile.e[i].id);
		rc_summary_add_orphan(&w.s, profile.e[i].id);
	}
	w.sum.len = 0;
	rc_summary_json(&w.sum, &w.s);
	ret = o->json ? rc_results_close(&w.results, w.sum.s, !interrupted) : 0;
	if (ret) {
		results_failed(&w, ret);
		return RC_EXIT_ENV;
	}
	if (o->junit) {
		ret = rc_junit_write(o->junit, &w.junit, &w.s,
				     target.ca ? &dev : NULL);
		if (ret) {
			fprintf(stderr, "rdmaconf: cannot write %s: %s\n",
				o->junit, strerror(-ret));
			return RC_EXIT_ENV;
		}
	}
	rc_summary_ktap(stdout, &w.s, o->impl);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr,
			"rdmaconf: writing the KTAP stream failed: %m\n");
		return RC_EXIT_ENV;
	}
	rc_str_free(&head);
	rc_str_free(&w.row);
	rc_str_free(&w.sum);
	rc_str_free(&w.junit);
	rc_profile_free(&profile);
	if (interrupted) {
		fprintf(stderr,
			"rdmaconf: interrupted after %u of %u cases; "
			"results so far kept\n",
			w.next, w.nrows);
		return RC_EXIT_INTERRUPTED;
	}
	if (w.s.bad)
		return RC_EXIT_FAILURES;
	/* every row skipped or unsupported: nothing was tested */
	if (!w.s.ran) {
		fprintf(stderr,
			"rdmaconf: no case ran here: all %u were "
			"skipped or unsupported (see their reasons)\n",
			w.nrows);
		return RC_EXIT_NOTHING;
	}
	return RC_EXIT_OK;
}

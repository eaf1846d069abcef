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
#include <unistd.h>

#include "rdmaconf.h"
#include "cli.h"
#include "device.h"
#include "expect.h"
#include "json.h"
#include "output.h"
#include "row.h"
#include "run.h"
#include "runner.h"

#ifndef RDMACONF_VERSION
#define RDMACONF_VERSION "0.1"
#endif
#ifndef RDMACONF_SRCDIR
#define RDMACONF_SRCDIR "."
#endif

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
	rc_runner_abort();
}

/* How much slower than a native 2020s core this host runs: emulated CPUs
 * (qemu TCG) are 10-50x slower, and time tolerances must follow. */
static double measure_slowness(void)
{
	const char *env = getenv("RDMACONF_SLOWNESS");
	struct timespec a, b;
	volatile uint32_t x = 1;
	double ms;
	int i;

	if (env && atof(env) >= 1)
		return atof(env);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < 2000000; i++)
		x = x * 1664525u + 1013904223u;
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
	/* 2M dependent volatile updates take about 4 ms on a native core */
	return ms / 4.0 < 1 ? 1 : ms / 4.0;
}

/*
 * Requirements of the row the run target does not meet, as a reason.  No
 * device, or no root, is this host's lack (SKIP); a device of the wrong
 * link layer cannot do what the row checks (UNSUPPORTED).
 */
static const char *unmet_needs(const struct rc_case *c,
			       const struct rc_target *t, enum rc_state *st)
{
	static char why[96];

	*st = RC_STATE_SKIP;
	if ((c->needs & (RC_NEED_DEVICE | RC_NEED_UMAD | RC_NEED_IB |
			 RC_NEED_ROCE)) && !t->ca)
		return "needs an RDMA device with an active port; none here "
		       "(rdmaconf run --vm brings one)";
	if ((c->needs & RC_NEED_ROOT) && !t->root)
		return "needs root";
	if ((c->needs & RC_NEED_PEER) && !t->peer)
		return "needs a second RDMA device that reaches the first "
		       "(rdmaconf run --vm --two brings two)";
	*st = RC_STATE_UNSUPPORTED;
	if ((c->needs & RC_NEED_IB) && strcmp(t->link_layer, "InfiniBand")) {
		snprintf(why, sizeof(why), "needs an InfiniBand link layer; "
			 "the port's is %s", t->link_layer);
		return why;
	}
	if ((c->needs & RC_NEED_ROCE) && strcmp(t->link_layer, "Ethernet")) {
		snprintf(why, sizeof(why), "needs an Ethernet (RoCE) link "
			 "layer; the port's is %s", t->link_layer);
		return why;
	}
	/* after the link layer: on RoCE no remote node can help */
	*st = RC_STATE_SKIP;
	if ((c->needs & RC_NEED_REMOTE) && !t->remote_lid)
		return "needs rdmaconf-peer on another node of the fabric, "
		       "named by RDMACONF_REMOTE=LID:PORT_GUID (rdmaconf run "
		       "--target ibsim brings one)";
	return NULL;
}

/*
 * Run @c on every selected implementation into @r->oc: each in an
 * isolated child, unless the target lacks what the row needs or a
 * profile's SKIP entry keeps that implementation from it.
 */
static void run_case(const struct rc_group *g, const struct rc_case *c,
		     const struct rc_opts *o, const struct rc_target *t,
		     const struct rc_expectation *x, struct rc_obs *shared,
		     struct rc_row_result *r)
{
	unsigned int wd = c->watchdog_ms ? c->watchdog_ms : o->watchdog_ms;
	enum rc_state st;
	const char *unmet = unmet_needs(c, t, &st);
	struct rc_exit ex;
	int i;

	memset(r, 0, sizeof(*r));
	wd = wd * t->slowness;
	for (i = 0; i < RC_NIMPLS; i++) {
		struct rc_outcome *oc = &r->oc[i];
		const char *why = unmet;

		if (!o->impl[i])
			continue;
		oc->ran = true;
		if (!why && rc_expect_skips(x, i)) {
			why = x->reason;
			st = RC_STATE_SKIP;
			r->by_profile = true;
		}
		if (why) {
			oc->obs.state = st;
			snprintf(oc->obs.reason, sizeof(oc->obs.reason), "%s",
				 why);
			rc_judge(c, &oc->obs, t->slowness, &oc->j);
			continue;
		}
		rc_run_isolated(g, c, rc_impl(i), t, shared, wd, &ex);
		oc->obs = *shared;
		if (ex.verdict != RC_PASS) {
			oc->j.verdict = ex.verdict;
			snprintf(oc->j.msg, sizeof(oc->j.msg), "%s", ex.msg);
		} else {
			rc_judge(c, &oc->obs, t->slowness, &oc->j);
		}
	}
}

static bool case_exists(const char *id)
{
	const struct rc_group *const *gp;
	size_t i;

	for_each_group(gp)
		for (i = 0; i < (*gp)->nrows; i++)
			if (!strcmp(RC_ROW(*gp, i)->id, id))
				return true;
	return false;
}

/* --expect FILE, else rdma-core.expect, kernel.expect and <driver>.expect. */
static int load_profiles(const struct rc_opts *o, struct rc_profile *p,
			 const struct rc_device *dev)
{
	static const char *const always[] = { "rdma-core.expect",
					      "kernel.expect" };
	const char *dir = getenv("RDMACONF_EXPECT_DIR");
	char path[4096], err[512], drv[64];
	size_t i;

	if (o->expect) {
		if (!strcmp(o->expect, "none"))
			return 0;
		if (!rc_profile_load(p, o->expect, err, sizeof(err)))
			return 0;
		fprintf(stderr, "rdmaconf: %s\n", err);
		return -1;
	}
	if (!dir)
		dir = RDMACONF_SRCDIR "/cases/expect";
	/* the libraries' and the kernel's deviations hold on every device */
	for (i = 0; i < ARRAY_SIZE(always); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, always[i]);
		if (!access(path, F_OK) &&
		    rc_profile_load(p, path, err, sizeof(err)))
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
	fprintf(stderr, "rdmaconf: %s\n", err);
	return -1;
}

/*
 * RDMACONF_TARGET=CA:PORT:LINK_LAYER names the device instead of looking
 * in sysfs: for simulators whose sysfs only the processes they are
 * preloaded into can see (ibsim).
 */
static bool target_from_env(struct rc_target *t, struct rc_device *dev)
{
	const char *e = getenv("RDMACONF_TARGET");

	memset(dev, 0, sizeof(*dev));
	if (!e || sscanf(e, "%255[^:]:%d:%31s", dev->name, &dev->port,
			 dev->link_layer) != 3)
		return false;
	snprintf(dev->state, sizeof(dev->state), "ACTIVE");
	t->ca = dev->name;
	t->port = dev->port;
	t->link_layer = dev->link_layer;
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
	return !e || !*e || rc_cli_remote(e, &t->remote_lid, &t->remote_guid);
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
	/* no RDMACONF_TARGET: no device (the parent skipped device rows) */
	target_from_env(&t, &dev);
	remote_from_env(&t);
	t.slowness = getenv("RDMACONF_SLOWNESS") ?
		     atof(getenv("RDMACONF_SLOWNESS")) : 1;
	t.root = geteuid() == 0;
	ctx.obs = rc_obs_attach(atoi(argv[4]));
	ctx.ops = rc_impl(strcmp(argv[3], "system") ? RC_IMPL_REFERENCE :
			  RC_IMPL_SYSTEM);
	if (!ctx.obs)
		return 127;
	for_each_group(gp)
		for (i = 0; i < (*gp)->nrows; i++)
			if (!strcmp(RC_ROW(*gp, i)->id, argv[2])) {
				(*gp)->run(RC_ROW(*gp, i), &ctx);
				/* exit, not _exit: the simulator's exit hook
				 * gives its client slot back */
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
		fprintf(stderr, "rdmaconf: RDMACONF_REMOTE=%s is not "
			"LID:PORT_GUID (what rdmaconf-peer prints)\n",
			getenv("RDMACONF_REMOTE"));
		return RC_EXIT_USAGE;
	}
	ret = target_from_env(t, dev) ? 0 : rc_device_find(o->device, dev);
	if (ret == -ENOENT || (o->device && ret)) {
		fprintf(stderr, "rdmaconf: device %s %s\n", o->device,
			ret == -ENOENT ? "does not exist" :
			"has no ACTIVE port");
		return RC_EXIT_ENV;
	}
	if (!ret) {
		t->ca = dev->name;
		t->port = dev->port;
		t->link_layer = dev->link_layer;
		if (!rc_device_find_other(dev->name, peer)) {
			t->peer = peer->name;
			t->peer_port = peer->port;
		}
	}
	t->root = geteuid() == 0;
	t->slowness = measure_slowness();
	return RC_EXIT_OK;
}

static unsigned int count_selected(const struct rc_opts *o)
{
	const struct rc_group *const *gp;
	unsigned int total = 0;
	size_t r;

	for_each_group(gp)
		for (r = 0; r < (*gp)->nrows; r++)
			total += rc_cli_selected(RC_ROW(*gp, r)->id, o->filter);
	return total;
}

int rc_cmd_run(const struct rc_opts *o)
{
	const struct rc_group *const *gp;
	struct rc_target target = { .port = 0, .link_layer = "" };
	/* static: reachable until exit on every early return (LeakSanitizer) */
	static struct rc_str head, row, sum, junit;
	static struct rc_profile profile;
	static struct rc_call_times times;
	struct rc_results results = { .fd = -1 };
	struct rc_row_result res;
	struct rc_summary s = {};
	struct rc_device dev, peer;
	struct rc_obs *shared;
	unsigned int total, n = 0;
	bool tty = isatty(STDERR_FILENO);
	int ret;
	size_t r, i;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	ret = find_target(o, &target, &dev, &peer);
	if (ret)
		return ret;
	if (load_profiles(o, &profile, target.ca ? &dev : NULL))
		return RC_EXIT_USAGE;
	shared = rc_obs_shared();
	if (!shared || rc_runner_guard()) {
		fprintf(stderr, "rdmaconf: cannot set up the case runner: %m\n");
		return RC_EXIT_ENV;
	}
	rc_json_head(&head, target.ca ? &dev : NULL, &target);
	if (o->json) {
		ret = rc_results_open(&results, o->json, head.s);
		if (ret) {
			fprintf(stderr, "rdmaconf: cannot write %s: %s\n",
				o->json, strerror(-ret));
			return RC_EXIT_ENV;
		}
	}

	total = count_selected(o);
	printf("KTAP version 1\n1..%u\n", total);
	printf("# rdmaconf %s; device %s; slowness %.1f\n", RDMACONF_VERSION,
	       target.ca ? target.ca : "none", target.slowness);

	for_each_group(gp) {
		const struct rc_group *g = *gp;

		for (r = 0; r < g->nrows && !interrupted; r++) {
			const struct rc_case *c = RC_ROW(g, r);
			struct rc_expectation *x;

			if (!rc_cli_selected(c->id, o->filter))
				continue;
			n++;
			if (tty)
				fprintf(stderr, "\r\033[K[%u/%u] %s", n, total,
					c->id);
			x = rc_profile_find(&profile, c->id);
			run_case(g, c, o, &target, x, shared, &res);
			if (interrupted)
				break;
			rc_row_decide(g, c, x, target.slowness, &times, &res);
			rc_summary_add(&s, c, &res);

			if (tty)
				fprintf(stderr, "\r\033[K");
			rc_ktap_row(stdout, n, c, &res);
			row.len = 0;
			sum.len = 0;
			rc_json_row(&row, g, c, &res);
			rc_summary_json(&sum, &s);
			if (o->json && rc_results_add(&results, row.s, sum.s)) {
				fprintf(stderr, "rdmaconf: writing %s failed: %m; "
					"results so far are in it\n", o->json);
				return RC_EXIT_ENV;
			}
			rc_junit_row(&junit, g, c, &res);
		}
	}

	/* entries naming no case at all have gone stale */
	for (i = 0; !interrupted && i < profile.n; i++) {
		if (profile.e[i].used || case_exists(profile.e[i].id))
			continue;
		printf("# STALE: %s: %s names no case\n", profile.e[i].where,
		       profile.e[i].id);
		rc_summary_add_orphan(&s);
	}
	sum.len = 0;
	rc_summary_json(&sum, &s);
	if (o->json && rc_results_close(&results, sum.s, !interrupted))
		fprintf(stderr, "rdmaconf: closing %s failed: %m\n", o->json);
	if (o->junit) {
		ret = rc_junit_write(o->junit, &junit, &s,
				     target.ca ? &dev : NULL);
		if (ret) {
			fprintf(stderr, "rdmaconf: cannot write %s: %s\n",
				o->junit, strerror(-ret));
			return RC_EXIT_ENV;
		}
	}
	rc_summary_ktap(stdout, &s, o->impl);
	rc_str_free(&head);
	rc_str_free(&row);
	rc_str_free(&sum);
	rc_str_free(&junit);
	rc_profile_free(&profile);
	if (interrupted) {
		fprintf(stderr, "rdmaconf: interrupted after %u of %u cases; "
			"results so far kept\n", n, total);
		return RC_EXIT_INTERRUPTED;
	}
	return s.bad ? RC_EXIT_FAILURES : RC_EXIT_OK;
}

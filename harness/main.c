// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf: run the documented behaviours of rdma-core's libraries on the
 * system implementation and on the reference, side by side.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rdmaconf.h"
#include "cli.h"
#include "device.h"
#include "diff.h"
#include "expect.h"
#include "json.h"
#include "report.h"
#include "runner.h"

#ifndef RDMACONF_VERSION
#define RDMACONF_VERSION "0.1"
#endif
#ifndef RDMACONF_SRCDIR
#define RDMACONF_SRCDIR "."
#endif

enum rc_exit_code {
	RC_EXIT_OK = 0,
	RC_EXIT_FAILURES = 1,	/* a case failed, crashed, hung or diverged */
	RC_EXIT_USAGE = 2,
	RC_EXIT_ENV = 3,	/* the environment cannot run the suite */
	RC_EXIT_INTERRUPTED = 130,
};


struct summary {
	unsigned int cases, ok, bad, diverge, agree, stale;
	unsigned int count[RC_NIMPLS][RC_NVERDICTS];
};

static volatile sig_atomic_t interrupted;

static void usage(FILE *f)
{
	fprintf(f,
"usage: rdmaconf list [--filter GLOB[,GLOB...]]\n"
"       rdmaconf run [--filter GLOB[,GLOB...]] [--impl system|reference|both]\n"
"                    [--json FILE] [--junit FILE] [--device NAME]\n"
"                    [--vm [--two] | --target host|vm|ibsim]\n"
"                    [--rdma-core BUILD_DIR]\n"
"                    [--expect FILE] [--watchdog-ms MS]\n"
"       rdmaconf report RESULTS.json [MORE.json ...] -o DIR\n"
"       rdmaconf gate --baseline BASELINE.json RESULTS.json\n"
"       rdmaconf --help | --version\n"
"\n"
"Runs every documented behaviour (case) of libibumad, libibverbs and\n"
"librdmacm on the system rdma-core, as the dynamic linker finds it, and on\n"
"rdmaconf's own reference implementation, each case in an isolated child.\n"
"KTAP on stdout; exit 0 when no case fails, crashes, hangs or diverges.\n"
"See rdmaconf(1).\n");
}

static void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rdmaconf: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see rdmaconf --help)\n");
	exit(RC_EXIT_USAGE);
}


#define for_each_group(gp) \
	for (gp = __start_rc_groups; gp < __stop_rc_groups; gp++)

static int cmd_list(const struct rc_opts *o)
{
	const struct rc_group *const *gp;
	size_t i;

	for_each_group(gp)
		for (i = 0; i < (*gp)->nrows; i++)
			if (rc_cli_selected(RC_ROW(*gp, i)->id, o->filter))
				printf("%s\n", RC_ROW(*gp, i)->id);
	return RC_EXIT_OK;
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

static const char *rdma_core_version(const char *origin)
{
	static char v[64];
	const char *p;

	/* rdma-core installs libibumad.so.3.<minor>.<package version> */
	if (!origin || !(p = strstr(origin, ".so.")))
		return NULL;
	p += 4;
	if (!(p = strchr(p, '.')) || !(p = strchr(p + 1, '.')))
		return NULL;
	snprintf(v, sizeof(v), "%s", p + 1);
	return v;
}

static void json_head(struct rc_str *b, const struct rc_device *dev,
		      const struct rc_target *t)
{
	const char *origin = rc_impl_system_origin("umad");
	struct utsname u;

	uname(&u);
	rc_str_printf(b, "\"tool\": {\"name\": \"rdmaconf\", \"version\": ");
	rc_str_json(b, RDMACONF_VERSION);
	rc_str_printf(b, "},\n\"host\": {\"kernel\": ");
	rc_str_json(b, u.release);
	rc_str_printf(b, ", \"machine\": ");
	rc_str_json(b, u.machine);
	rc_str_printf(b, ", \"rdma_core\": ");
	rc_str_json(b, rdma_core_version(origin));
	rc_str_printf(b, ", \"libibumad\": ");
	rc_str_json(b, origin);
	rc_str_printf(b, ", \"libibverbs\": ");
	rc_str_json(b, rc_impl_system_origin("verbs"));
	rc_str_printf(b, ", \"librdmacm\": ");
	rc_str_json(b, rc_impl_system_origin("rdmacm"));
	rc_str_printf(b, ", \"ld_preload\": ");
	rc_str_json(b, getenv("LD_PRELOAD"));
	rc_str_printf(b, ", \"ld_library_path\": ");
	rc_str_json(b, getenv("LD_LIBRARY_PATH"));
	rc_str_printf(b, ", \"peer_device\": ");
	rc_str_json(b, t->peer);
	rc_str_printf(b, ", \"remote_node\": ");
	if (t->remote_lid)
		rc_str_printf(b, "{\"lid\": %u, \"port_guid\": "
			      "\"0x%016" PRIx64 "\"}", t->remote_lid,
			      t->remote_guid);
	else
		rc_str_printf(b, "null");
	rc_str_printf(b, ", \"slowness\": %.2f},\n\"device\": ",
		      t->slowness);
	rc_device_fingerprint(dev, b);
}

static void json_summary(struct rc_str *b, const struct summary *s)
{
	int i, v;

	rc_str_printf(b, "{\"cases\": %u, \"ok\": %u, \"not_ok\": %u, "
		      "\"agree\": %u, \"diverge\": %u, \"stale\": %u",
		      s->cases, s->ok, s->bad, s->agree, s->diverge, s->stale);
	for (i = 0; i < RC_NIMPLS; i++) {
		rc_str_printf(b, ", \"%s\": {", rc_impl(i)->name);
		for (v = 0; v < RC_NVERDICTS; v++)
			rc_str_printf(b, "%s\"%s\": %u", v ? ", " : "",
				      rc_verdict_name(v), s->count[i][v]);
		rc_str_printf(b, "}");
	}
	rc_str_printf(b, "}");
}

static const char *conv_name(enum rc_conv c)
{
	switch (c) {
	case RC_CONV_VALUE: return "value";
	case RC_CONV_NEG_ERRNO: return "-errno";
	case RC_CONV_NEG: return "negative";
	case RC_CONV_ERRNO_RET: return "errno-as-return";
	case RC_CONV_NULL_ERRNO: return "NULL+errno";
	case RC_CONV_M1_ERRNO: return "-1+errno";
	case RC_CONV_OFFSET: return "offset";
	}
	return "?";
}

static void json_needs(struct rc_str *b, unsigned int needs)
{
	static const char *const names[] = { "device", "root", "ib", "roce",
					     "umad", "peer", "remote" };
	unsigned int i, n = 0;

	rc_str_printf(b, "[");
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (needs & (1u << i))
			rc_str_printf(b, "%s\"%s\"", n++ ? ", " : "", names[i]);
	rc_str_printf(b, "]");
}

static void json_expected(struct rc_str *b, const struct rc_expect *e)
{
	static const char *const rets[] = { "eq", "in", "ok", "error" };
	uint8_t want[RC_OUT_MAX];
	unsigned int i;

	rc_str_printf(b, "{\"convention\": \"%s\", \"ret\": \"%s\"",
		      conv_name(e->conv), rets[e->ret]);
	if (e->ret == RC_RET_EQ || e->ret == RC_RET_IN)
		rc_str_printf(b, ", \"value\": %lld", e->value);
	if (e->ret == RC_RET_IN)
		rc_str_printf(b, ", \"alt\": [%lld, %lld]", e->alt[0], e->alt[1]);
	rc_str_printf(b, ", \"errno\": [");
	for (i = 0; i < RC_MAX_ERRNOS && e->errnos[i]; i++)
		rc_str_printf(b, "%s\"%s\"", i ? ", " : "",
			      rc_errno_name(e->errnos[i]));
	rc_str_printf(b, "]");
	if (e->out) {
		rc_bytes_build(e->out, want);
		rc_str_printf(b, ", \"out\": ");
		rc_str_hex(b, want, e->out->len);
	}
	if (e->tol_ms)
		rc_str_printf(b, ", \"ms\": %u, \"tol_ms\": %u", e->ms,
			      e->tol_ms);
	rc_str_printf(b, "}");
}

struct outcome {
	bool ran;
	struct rc_judgement j;
	struct rc_obs obs;
};

static void json_obs(struct rc_str *b, const struct outcome *oc)
{
	const struct rc_obs *o = &oc->obs;

	if (!oc->ran || o->state != RC_STATE_RAN) {
		rc_str_printf(b, "null");
		return;
	}
	rc_str_printf(b, "{\"ret\": %lld, \"errno\": ", o->ret);
	rc_str_json(b, o->err ? rc_errno_name(o->err) : NULL);
	rc_str_printf(b, ", \"out\": ");
	rc_str_hex(b, o->out, o->out_len);
	rc_str_printf(b, ", \"elapsed_ms\": %.3f}", o->elapsed_ms);
}

static void json_case(struct rc_str *b, const struct rc_group *g,
		      const struct rc_case *c, const struct outcome *oc,
		      int agree, const char *why,
		      const struct rc_expectation *x, const char *stale,
		      bool bad)
{
	int i;

	rc_str_printf(b, "{\"id\": ");
	rc_str_json(b, c->id);
	/* the KTAP line's verdict: what a gate compares */
	rc_str_printf(b, ", \"ok\": %s", bad ? "false" : "true");
	rc_str_printf(b, ", \"call\": ");
	rc_str_json(b, g->call);
	rc_str_printf(b, ", \"doc\": ");
	rc_str_json(b, c->doc);
	rc_str_printf(b, ", \"needs\": ");
	json_needs(b, c->needs);
	rc_str_printf(b, ", \"verdict\": {");
	for (i = 0; i < RC_NIMPLS; i++)
		rc_str_printf(b, "%s\"%s\": %s%s%s", i ? ", " : "",
			      rc_impl(i)->name, oc[i].ran ? "\"" : "",
			      oc[i].ran ? rc_verdict_name(oc[i].j.verdict) :
			      "null", oc[i].ran ? "\"" : "");
	rc_str_printf(b, "}, \"agree\": %s", agree < 0 ? "null" :
		      agree ? "true" : "false");
	for (i = 0; i < RC_NIMPLS; i++) {
		rc_str_printf(b, ", \"%s\": ", rc_impl(i)->name);
		json_obs(b, &oc[i]);
		rc_str_printf(b, ", \"%s_detail\": ", rc_impl(i)->name);
		rc_str_json(b, oc[i].ran ? oc[i].j.msg : NULL);
	}
	rc_str_printf(b, ", \"expected\": ");
	json_expected(b, &c->expect);
	rc_str_printf(b, ", \"divergence\": ");
	rc_str_json(b, why && why[0] ? why : NULL);
	rc_str_printf(b, ", \"reason\": ");
	rc_str_json(b, c->note);
	rc_str_printf(b, ", \"expectation\": ");
	if (x) {
		rc_str_printf(b, "{\"kind\": \"%s\", \"reason\": ",
			      rc_expect_kind_name(x->kind));
		rc_str_json(b, x->reason);
		rc_str_printf(b, ", \"where\": ");
		rc_str_json(b, x->where);
		rc_str_printf(b, "}");
	} else {
		rc_str_printf(b, "null");
	}
	rc_str_printf(b, ", \"stale\": ");
	rc_str_json(b, stale);
	rc_str_printf(b, "}");
}

/*
 * Apply the profile entry @x (may be NULL) to a case's outcome.  Returns
 * whether a divergence is expected; sets @stale when the entry no longer
 * matches what was seen.
 */
/* An XFAIL entry on one implementation's outcome; false: stale. */
static bool apply_xfail(struct rc_expectation *x, struct outcome *o,
			const char *impl, char *stale, size_t len)
{
	if (!o->ran)
		return true;
	if ((x->fail_kind == RC_FAIL_CRASH && o->j.verdict == RC_CRASH) ||
	    (x->fail_kind == RC_FAIL_HANG && o->j.verdict == RC_HANG)) {
		o->j.verdict = RC_XFAIL;
		snprintf(o->j.msg, sizeof(o->j.msg), "%s (%s)", x->reason,
			 x->where);
		return true;
	}
	if (o->j.verdict == RC_FAIL && x->fail_kind &&
	    x->fail_kind != (int)o->j.kind) {
		snprintf(stale, len, "%s expects a failure of kind '%s', got "
			 "'%s'", x->where, rc_fail_kind_name(x->fail_kind),
			 rc_fail_kind_name(o->j.kind));
		return false;
	}
	if (o->j.verdict == RC_FAIL) {
		o->j.verdict = RC_XFAIL;
		snprintf(o->j.msg, sizeof(o->j.msg), "%s (%s)", x->reason,
			 x->where);
	} else if (o->j.verdict == RC_PASS) {
		o->j.verdict = RC_XPASS;
		snprintf(stale, len, "%s expects a failure, but the %s "
			 "implementation passes", x->where, impl);
		snprintf(o->j.msg, sizeof(o->j.msg), "%s", stale);
	}
	return true;
}

/*
 * Apply the profile entry @x (may be NULL) to a case's outcome.  Returns
 * whether a divergence is expected; sets @stale when the entry no longer
 * matches what was seen.
 */
static bool apply_expectation(struct rc_expectation *x, struct outcome *oc,
			      int agree, char *stale, size_t len)
{
	bool ok;

	stale[0] = 0;
	if (!x)
		return false;
	x->used = true;
	switch (x->kind) {
	case RC_EXP_XFAIL:
		ok = apply_xfail(x, &oc[RC_IMPL_SYSTEM], "system", stale, len);
		if (x->both && !stale[0])
			ok &= apply_xfail(x, &oc[RC_IMPL_REFERENCE], "reference",
					  stale, len);
		return ok;
	case RC_EXP_DIVERGE:
		if (agree == 1)
			snprintf(stale, len, "%s expects a divergence, but "
				 "the implementations agree", x->where);
		return true;
	case RC_EXP_SKIP:
		break;
	}
	return false;
}

/* Both sides of a byte mismatch, as KTAP diagnostic lines. */
static void ktap_dump(const struct rc_case *c, const struct outcome *oc)
{
	uint8_t want[RC_OUT_MAX];
	int i;

	for (i = 0; i < RC_NIMPLS; i++) {
		/* a violated property (rc_obs_violation) has no expected bytes */
		if (!oc[i].ran || oc[i].j.kind != RC_FAIL_OUTPUT ||
		    !c->expect.out)
			continue;
		rc_bytes_build(c->expect.out, want);
		printf("# %s: expected\n", rc_impl(i)->name);
		rc_hexdump(stdout, "#   ", want, oc[i].obs.out, c->expect.out->len);
		printf("# %s: observed\n", rc_impl(i)->name);
		rc_hexdump(stdout, "#   ", oc[i].obs.out, want, oc[i].obs.out_len);
	}
	if (oc[0].ran && oc[1].ran && oc[0].obs.out_len == oc[1].obs.out_len &&
	    memcmp(oc[0].obs.out, oc[1].obs.out, oc[0].obs.out_len) &&
	    !(oc[0].j.kind == RC_FAIL_OUTPUT || oc[1].j.kind == RC_FAIL_OUTPUT)) {
		printf("# system output\n");
		rc_hexdump(stdout, "#   ", oc[0].obs.out, oc[1].obs.out,
			   oc[0].obs.out_len);
		printf("# reference output\n");
		rc_hexdump(stdout, "#   ", oc[1].obs.out, oc[0].obs.out,
			   oc[1].obs.out_len);
	}
}

static bool verdict_bad(enum rc_verdict v)
{
	return v == RC_FAIL || v == RC_CRASH || v == RC_HANG ||
	       v == RC_XPASS || v == RC_BROKEN;
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

static void run_case(const struct rc_group *g, const struct rc_case *c,
		     const struct rc_opts *o, const struct rc_target *t,
		     const struct rc_expectation *x, struct rc_obs *shared,
		     struct outcome *oc)
{
	unsigned int wd = c->watchdog_ms ? c->watchdog_ms : o->watchdog_ms;
	enum rc_state st;
	const char *unmet = unmet_needs(c, t, &st);

	if (!unmet && x && x->kind == RC_EXP_SKIP) {
		unmet = x->reason;
		st = RC_STATE_SKIP;
	}
	struct rc_exit ex;
	int i;

	wd = wd * t->slowness;
	for (i = 0; i < RC_NIMPLS; i++) {
		memset(&oc[i], 0, sizeof(oc[i]));
		if (!o->impl[i])
			continue;
		oc[i].ran = true;
		if (unmet) {
			oc[i].obs.state = st;
			snprintf(oc[i].obs.reason, sizeof(oc[i].obs.reason),
				 "%s", unmet);
			rc_judge(c, &oc[i].obs, t->slowness, &oc[i].j);
			continue;
		}
		rc_run_isolated(g, c, rc_impl(i), t, shared, wd, &ex);
		oc[i].obs = *shared;
		if (ex.verdict != RC_PASS) {
			oc[i].j.verdict = ex.verdict;
			snprintf(oc[i].j.msg, sizeof(oc[i].j.msg), "%s", ex.msg);
		} else {
			rc_judge(c, &oc[i].obs, t->slowness, &oc[i].j);
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

/* The environment of the run, as JUnit properties (CI systems show them). */
static void junit_properties(struct rc_str *b, const struct rc_device *dev)
{
	static const char *const libs[] = { "umad", "verbs", "rdmacm" };
	struct rc_str fp = {};
	struct utsname u;
	char name[32];
	size_t i;

	uname(&u);
	rc_str_printf(b, "  <properties>\n");
#define PROP(k, v) \
	do { \
		rc_str_printf(b, "    <property name=\"%s\" value=\"", k); \
		rc_str_xml(b, (v) ? (v) : ""); \
		rc_str_printf(b, "\"/>\n"); \
	} while (0)
	PROP("kernel", u.release);
	PROP("rdma_core", rdma_core_version(rc_impl_system_origin("umad")));
	for (i = 0; i < ARRAY_SIZE(libs); i++) {
		snprintf(name, sizeof(name), "lib_%s", libs[i]);
		PROP(name, rc_impl_system_origin(libs[i]));
	}
	PROP("device", dev ? dev->name : "none");
	rc_device_fingerprint(dev, &fp);
	PROP("device_fingerprint", fp.s);
#undef PROP
	rc_str_printf(b, "  </properties>\n");
	rc_str_free(&fp);
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

static int cmd_run(const struct rc_opts *o)
{
	const struct rc_group *const *gp;
	struct rc_target target = { .port = 0, .link_layer = "" };
	/* static: reachable until exit on every early return (LeakSanitizer) */
	static struct rc_str head, cj, sj, junit;
	struct rc_results results = { .fd = -1 };
	struct outcome oc[RC_NIMPLS];
	struct summary s = {};
	static struct rc_profile profile;
	struct rc_expectation *x;
	struct rc_device dev, peer;
	struct rc_obs *shared;
	char stale[300];
	bool xdiv;
	unsigned int total = 0, n = 0;
	bool tty = isatty(STDERR_FILENO);
	int ret, i, agree;
	char why[256];
	size_t r;

	if (!remote_from_env(&target)) {
		fprintf(stderr, "rdmaconf: RDMACONF_REMOTE=%s is not "
			"LID:PORT_GUID (what rdmaconf-peer prints)\n",
			getenv("RDMACONF_REMOTE"));
		return RC_EXIT_USAGE;
	}
	ret = target_from_env(&target, &dev) ? 0 :
	      rc_device_find(o->device, &dev);
	if (ret == -ENOENT || (o->device && ret)) {
		fprintf(stderr, "rdmaconf: device %s %s\n", o->device,
			ret == -ENOENT ? "does not exist" :
			"has no ACTIVE port");
		return RC_EXIT_ENV;
	}
	if (!ret) {
		target.ca = dev.name;
		target.port = dev.port;
		target.link_layer = dev.link_layer;
		if (!rc_device_find_other(dev.name, &peer)) {
			target.peer = peer.name;
			target.peer_port = peer.port;
		}
	}
	target.root = geteuid() == 0;
	target.slowness = measure_slowness();

	if (load_profiles(o, &profile, target.ca ? &dev : NULL))
		return RC_EXIT_USAGE;
	shared = rc_obs_shared();
	if (!shared) {
		fprintf(stderr, "rdmaconf: cannot map shared memory: %m\n");
		return RC_EXIT_ENV;
	}
	json_head(&head, target.ca ? &dev : NULL, &target);
	if (o->json) {
		ret = rc_results_open(&results, o->json, head.s);
		if (ret) {
			fprintf(stderr, "rdmaconf: cannot write %s: %s\n",
				o->json, strerror(-ret));
			return RC_EXIT_ENV;
		}
	}

	for_each_group(gp)
		for (r = 0; r < (*gp)->nrows; r++)
			total += rc_cli_selected(RC_ROW(*gp, r)->id, o->filter);
	printf("KTAP version 1\n1..%u\n", total);
	printf("# rdmaconf %s; device %s; slowness %.1f\n", RDMACONF_VERSION,
	       target.ca ? target.ca : "none", target.slowness);

	for_each_group(gp) {
		const struct rc_group *g = *gp;

		for (r = 0; r < g->nrows && !interrupted; r++) {
			const struct rc_case *c = RC_ROW(g, r);
			bool bad = false, anyran = false;

			if (!rc_cli_selected(c->id, o->filter))
				continue;
			n++;
			if (tty)
				fprintf(stderr, "\r\033[K[%u/%u] %s", n, total,
					c->id);
			x = rc_profile_find(&profile, c->id);
			run_case(g, c, o, &target, x, shared, oc);
			if (interrupted)
				break;

			agree = -1;
			why[0] = 0;
			if (oc[0].ran && oc[1].ran &&
			    oc[0].obs.state == RC_STATE_RAN &&
			    oc[1].obs.state == RC_STATE_RAN &&
			    rc_verdict_ran(oc[0].j.verdict) &&
			    rc_verdict_ran(oc[1].j.verdict))
				agree = rc_agree(c, &oc[0].obs, &oc[1].obs,
						 target.slowness, why,
						 sizeof(why));
			xdiv = apply_expectation(x, oc, agree, stale,
						 sizeof(stale));
			for (i = 0; i < RC_NIMPLS; i++) {
				if (!oc[i].ran)
					continue;
				s.count[i][oc[i].j.verdict]++;
				bad |= verdict_bad(oc[i].j.verdict);
				anyran |= rc_verdict_ran(oc[i].j.verdict);
			}
			bad |= (agree == 0 && !xdiv) || stale[0];
			s.stale += stale[0] != 0;
			s.cases++;
			s.diverge += agree == 0;
			s.agree += agree == 1;
			if (bad)
				s.bad++;
			else
				s.ok++;

			if (tty)
				fprintf(stderr, "\r\033[K");
			if (!bad && !anyran) {
				const struct outcome *first =
					oc[0].ran ? &oc[0] : &oc[1];

				printf("ok %u %s # SKIP %s\n", n, c->id,
				       first->j.msg);
			} else if (!bad && x && x->kind != RC_EXP_SKIP) {
				printf("ok %u %s # XFAIL %s\n", n, c->id,
				       x->reason);
			} else {
				printf("%s %u %s\n", bad ? "not ok" : "ok", n,
				       c->id);
			}
			for (i = 0; i < RC_NIMPLS; i++)
				if (oc[i].ran && (bad || oc[i].j.verdict != RC_PASS))
					printf("# %s: %s%s%s\n", rc_impl(i)->name,
					       rc_verdict_name(oc[i].j.verdict),
					       oc[i].j.msg[0] ? " - " : "",
					       oc[i].j.msg);
			if (agree == 0)
				printf("# DIVERGE%s: %s\n", xdiv ?
				       " (expected)" : "", why);
			if (stale[0])
				printf("# STALE: %s\n", stale);
			if (bad) {
				printf("# doc: %s\n", c->doc);
				ktap_dump(c, oc);
			}

			cj.len = 0;
			sj.len = 0;
			json_case(&cj, g, c, oc, agree, why, x,
				  stale[0] ? stale : NULL, bad);
			json_summary(&sj, &s);
			if (o->json && rc_results_add(&results, cj.s, sj.s)) {
				fprintf(stderr, "rdmaconf: writing %s failed: %m; "
					"results so far are in it\n", o->json);
				return RC_EXIT_ENV;
			}
			rc_str_printf(&junit, "<testcase classname=\"%s\" name=\"",
				      g->call);
			rc_str_xml(&junit, c->id);
			rc_str_printf(&junit, "\">");
			if (bad) {
				rc_str_printf(&junit, "<failure message=\"");
				rc_str_xml(&junit, why[0] ? why :
					     oc[0].ran && verdict_bad(oc[0].j.verdict) ?
					     oc[0].j.msg : oc[1].j.msg);
				rc_str_printf(&junit, "\"/>");
			} else if (!anyran) {
				rc_str_printf(&junit, "<skipped message=\"");
				rc_str_xml(&junit, oc[0].ran ? oc[0].j.msg :
					     oc[1].j.msg);
				rc_str_printf(&junit, "\"/>");
			}
			rc_str_printf(&junit, "</testcase>\n");
		}
	}

	/* entries naming no case at all have gone stale */
	for (i = 0; !interrupted && i < (int)profile.n; i++) {
		if (profile.e[i].used || case_exists(profile.e[i].id))
			continue;
		printf("# STALE: %s: %s names no case\n", profile.e[i].where,
		       profile.e[i].id);
		s.stale++;
		s.bad++;
	}
	sj.len = 0;
	json_summary(&sj, &s);
	if (o->json && rc_results_close(&results, sj.s, !interrupted))
		fprintf(stderr, "rdmaconf: closing %s failed: %m\n", o->json);
	if (o->junit) {
		struct rc_str props = {};
		FILE *f = fopen(o->junit, "w");

		if (!f) {
			fprintf(stderr, "rdmaconf: cannot write %s: %m\n",
				o->junit);
			return RC_EXIT_ENV;
		}
		junit_properties(&props, target.ca ? &dev : NULL);
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<testsuite name=\"rdmaconf\" tests=\"%u\" "
			"failures=\"%u\">\n%s%s</testsuite>\n", s.cases, s.bad,
			props.s, junit.s ? junit.s : "");
		fclose(f);
		rc_str_free(&props);
	}

	printf("# rdmaconf: %u cases: %u ok, %u not ok, %u diverge, %u stale",
	       s.cases, s.ok, s.bad, s.diverge, s.stale);
	for (i = 0; i < RC_NIMPLS; i++)
		if (o->impl[i])
			printf("; %s %u pass %u fail %u xfail %u skip "
			       "%u unsupported %u absent %u crash %u hang",
			       rc_impl(i)->name,
			       s.count[i][RC_PASS], s.count[i][RC_FAIL],
			       s.count[i][RC_XFAIL],
			       s.count[i][RC_SKIP], s.count[i][RC_UNSUPPORTED],
			       s.count[i][RC_ABSENT], s.count[i][RC_CRASH],
			       s.count[i][RC_HANG]);
	printf("\n");
	rc_str_free(&head);
	rc_str_free(&cj);
	rc_str_free(&sj);
	rc_str_free(&junit);
	rc_profile_free(&profile);
	if (interrupted) {
		fprintf(stderr, "rdmaconf: interrupted after %u of %u cases; "
			"results so far kept\n", n, total);
		return RC_EXIT_INTERRUPTED;
	}
	return s.bad ? RC_EXIT_FAILURES : RC_EXIT_OK;
}

static void on_signal(int sig)
{
	interrupted = 1;
	rc_runner_abort();
}

/*
 * --rdma-core DIR: run against an rdma-core build tree (built in place, as
 * its build.sh does: DIR/lib holds the libraries, and they find their
 * providers there).  The dynamic linker has already loaded libibverbs, so
 * this command starts again with DIR/lib first on the library path; the
 * VM inherits that environment.
 */
static int exec_with_rdma_core(const char *dir, int argc, char **argv)
{
	char lib[4096], path[8192], self[4096];
	const char *old = getenv("LD_LIBRARY_PATH");
	char **args = calloc(argc + 1, sizeof(*args));
	ssize_t n;
	int i, k = 0;

	snprintf(lib, sizeof(lib), "%s/lib/libibverbs.so.1", dir);
	if (access(lib, R_OK)) {
		fprintf(stderr, "rdmaconf: %s is not an rdma-core build tree "
			"(no lib/libibverbs.so.1)\n", dir);
		return RC_EXIT_ENV;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || !args || !realpath(dir, lib)) {
		fprintf(stderr, "rdmaconf: cannot restart with %s\n", dir);
		return RC_EXIT_ENV;
	}
	self[n] = 0;
	snprintf(path, sizeof(path), "%s/lib%s%s", lib, old ? ":" : "",
		 old ? old : "");
	setenv("LD_LIBRARY_PATH", path, 1);
	setenv("RDMACONF_RDMA_CORE_ACTIVE", lib, 1);
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--rdma-core")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--rdma-core=", 12))
			continue;
		args[k++] = argv[i];
	}
	execv(self, args);
	fprintf(stderr, "rdmaconf: cannot restart: %m\n");
	return RC_EXIT_ENV;
}

static bool launcher_arg(const char *a)
{
	return !strcmp(a, "--vm") || !strcmp(a, "--two") ||
	       !strcmp(a, "--target") || !strncmp(a, "--target=", 9);
}

/*
 * Run this very command under a test-host launcher: inside the rxe VM
 * (ci/rxe-vm [--two]) or on the simulated InfiniBand fabric
 * (ci/ibsim-run), which set what the command finds there.  @env names the
 * variable that overrides the launcher's path.
 */
static int exec_launcher(const char *env, const char *script, bool two,
			 const char *filter, int argc, char **argv)
{
	const char *launcher = getenv(env);
	char self[4096], path[4096], build[4096];
	char **args = calloc(argc + 6, sizeof(*args));
	ssize_t n;
	int i, k = 0;

	if (!launcher) {
		snprintf(path, sizeof(path), "%s/%s", RDMACONF_SRCDIR, script);
		launcher = path;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || !args) {
		fprintf(stderr, "rdmaconf: cannot find own executable\n");
		return RC_EXIT_ENV;
	}
	self[n] = 0;
	/* ci/ibsim-run takes rdmaconf-peer from beside this program */
	snprintf(build, sizeof(build), "%s", self);
	*strrchr(build, '/') = 0;
	setenv("RDMACONF_BUILD", build, 0);
	args[k++] = (char *)launcher;
	if (two)
		args[k++] = (char *)"--two";
	args[k++] = (char *)"--";
	args[k++] = self;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--target"))
			i++;
		else if (!launcher_arg(argv[i]))
			args[k++] = argv[i];
	}
	if (filter) {
		args[k++] = (char *)"--filter";
		args[k++] = (char *)filter;
	}
	execv(launcher, args);
	fprintf(stderr, "rdmaconf: cannot start the test-host launcher %s: "
		"%m\n", launcher);
	return RC_EXIT_ENV;
}

/* rdmaconf __case ID IMPL FD: one row, in a process of its own (exec_case
 * in runner.c); the result goes to the observation page at FD. */
static int run_one_case(int argc, char **argv)
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

int main(int argc, char **argv)
{
	struct rc_opts o;
	char err[256];
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return RC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return RC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rdmaconf %s\n", RDMACONF_VERSION);
		return RC_EXIT_OK;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "__case"))
		return run_one_case(argc, argv);
	if (!strcmp(cmd, "report"))
		return rc_cmd_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "gate"))
		return rc_cmd_gate(argc - 1, argv + 1);
	switch (rc_cli_parse(argc, argv, &o, err, sizeof(err))) {
	case RC_CLI_HELP:
		usage(stdout);
		return RC_EXIT_OK;
	case RC_CLI_USAGE:
		die_usage("%s", err);
	case RC_CLI_LIST:
		return cmd_list(&o);
	case RC_CLI_RUN:
		break;
	}
	if (!o.rdma_core)
		o.rdma_core = getenv("RDMACONF_RDMA_CORE");
	if (o.rdma_core && !getenv("RDMACONF_RDMA_CORE_ACTIVE"))
		return exec_with_rdma_core(o.rdma_core, argc, argv);
	if (o.vm)
		return exec_launcher("RDMACONF_RXE_VM", "ci/rxe-vm", o.two, NULL,
				     argc, argv);
	/* ibsim simulates the MAD interface only: the umad cases, unless
	 * told otherwise */
	if (o.ibsim)
		return exec_launcher("RDMACONF_IBSIM_RUN", "ci/ibsim-run",
				     false, o.filter ? NULL : "umad/*", argc,
				     argv);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	return cmd_run(&o);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf gate --baseline BASELINE.json RESULTS.json: the CI gate for a
 * change to a provider or library.  Every case that got worse fails it:
 * a case that was ok is not ok now (PASS to FAIL, a new CRASH or HANG, an
 * unexpected divergence, a profile entry gone stale), a new case that is
 * not ok, a case that ran and now does not run at all or is ABSENT (a gate
 * that passes because nothing ran would pass anything), and a case that
 * vanished from the results (removing one on purpose is a baseline
 * update).  A case that now conforms where a profile expects a failure
 * fails the gate too, but as "now conforms: update the profile", not as
 * worse.  What improved is listed.  Exit 0 nothing got worse and no
 * profile is out of date, 1 otherwise, 2 usage, 3 a file could not be
 * read.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "report.h"

struct side {
	const char *path;
	struct rc_jv *doc;
	const struct rc_jv *results;
};

static const struct rc_jv *find(const struct side *s, const char *id)
{
	return rc_results_find(s->results, id);
}

static bool ok(const struct rc_jv *c)
{
	const struct rc_jv *v = rc_jv_get(c, "ok");

	return v && v->type == RC_JBOOL && v->b;
}

static const char *verdict(const struct rc_jv *c, const char *impl)
{
	const char *v = rc_jv_str(rc_jv_get(c, "verdict"), impl);

	return v ? v : "-";
}

static bool flag(const struct rc_jv *c, const char *key)
{
	const struct rc_jv *v = rc_jv_get(c, key);

	return v && v->type == RC_JBOOL && v->b;
}

/* Did the implementation run the call at all?  ABSENT did not. */
static bool ran(const char *v)
{
	static const char *const not_run[] = { "SKIP", "UNSUPPORTED", "ABSENT",
					       "BROKEN", "-" };
	size_t i;

	for (i = 0; i < sizeof(not_run) / sizeof(not_run[0]); i++)
		if (!strcmp(v, not_run[i]))
			return false;
	return true;
}

static const char *stopped_running(const struct rc_jv *b,
				   const struct rc_jv *n)
{
	static const char *const impls[] = { "system", "reference" };
	static char why[64];
	size_t i;

	for (i = 0; i < 2; i++)
		if (ran(verdict(b, impls[i])) && !ran(verdict(n, impls[i]))) {
			snprintf(why, sizeof(why), "%s no longer runs it (%s)",
				 impls[i], verdict(n, impls[i]));
			return why;
		}
	return NULL;
}

static bool load(struct side *s)
{
	char err[512];

	s->doc = rc_json_load(s->path, err, sizeof(err));
	if (!s->doc) {
		fprintf(stderr, "rdmaconf: %s\n", err);
		return false;
	}
	s->results = rc_jv_get(s->doc, "results");
	if (!s->results || s->results->type != RC_JARR) {
		fprintf(stderr, "rdmaconf: %s: not an rdmaconf results file\n",
			s->path);
		return false;
	}
	return true;
}

static void row(const char *mark, const char *id, const struct rc_jv *b,
		const struct rc_jv *n, const char *why)
{
	printf("%-8s %-58s %5s/%-5s -> %5s/%-5s %s\n", mark, id,
	       b ? verdict(b, "system") : "", b ? verdict(b, "reference") : "",
	       n ? verdict(n, "system") : "", n ? verdict(n, "reference") : "",
	       why);
}

int rc_cmd_gate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "baseline", required_argument, NULL, 'b' }, {}
	};
	struct side base = {}, now = {};
	unsigned int worse = 0, better = 0, same = 0, update = 0;
	int c, ret = 3;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:", opts, NULL)) != -1) {
		if (c != 'b') {
			fprintf(stderr, "rdmaconf: usage: rdmaconf gate "
				"--baseline BASELINE.json RESULTS.json\n");
			return 2;
		}
		base.path = optarg;
	}
	if (!base.path || argc - optind != 1) {
		fprintf(stderr, "rdmaconf: gate needs --baseline BASELINE.json "
			"and one RESULTS.json\n");
		return 2;
	}
	now.path = argv[optind];
	if (!load(&base) || !load(&now))
		goto out;
	printf("%-8s %-58s %11s    %11s\n", "", "case", "baseline",
	       "now (system/reference)");
	for (i = 0; i < now.results->n; i++) {
		const struct rc_jv *n = &now.results->items[i];
		const char *id = rc_jv_str(n, "id");
		const struct rc_jv *b = id ? find(&base, id) : NULL;
		const char *stale = rc_jv_str(n, "stale");

		if (!id)
			continue;
		if (!b) {
			if (!ok(n)) {
				row("WORSE", id, NULL, n, "new case, not ok");
				worse++;
			}
			continue;
		}
		if (!ok(n) && flag(n, "conforms_now")) {
			row("UPDATE", id, b, n, stale ? stale : "now conforms");
			update++;
		} else if (ok(b) && !ok(n)) {
			row("WORSE", id, b, n, stale ? stale :
			    rc_jv_str(n, "divergence") ? rc_jv_str(n, "divergence") :
			    rc_jv_str(n, "system_detail") ?
			    rc_jv_str(n, "system_detail") : "not ok");
			worse++;
		} else if (stopped_running(b, n)) {
			row("WORSE", id, b, n, stopped_running(b, n));
			worse++;
		} else if (!ok(b) && ok(n)) {
			row("BETTER", id, b, n, "ok now");
			better++;
		} else if (strcmp(verdict(b, "system"), verdict(n, "system")) ||
			   strcmp(verdict(b, "reference"), verdict(n, "reference"))) {
			row("CHANGED", id, b, n, "");
		} else {
			same++;
		}
	}
	for (i = 0; i < base.results->n; i++) {
		const char *id = rc_jv_str(&base.results->items[i], "id");

		if (id && !find(&now, id)) {
			row("WORSE", id, &base.results->items[i], NULL,
			    "vanished from the results (a deliberate removal "
			    "is a baseline update)");
			worse++;
		}
	}
	printf("gate: %u worse, %u now conform (update the profile), %u "
	       "better, %u unchanged (baseline %s)\n", worse, update, better,
	       same, base.path);
	ret = worse || update ? 1 : 0;
out:
	rc_jv_free(base.doc);
	rc_jv_free(now.doc);
	return ret;
}

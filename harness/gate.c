// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf gate --baseline BASELINE.json RESULTS.json: the CI gate for a
 * change to a provider or library.  Every case that got worse fails it:
 * a case that was ok is not ok now (PASS to FAIL, a new CRASH or HANG, an
 * unexpected divergence, a profile entry gone stale), a new case that is
 * not ok, and a case that ran and now does not run at all (a gate that
 * passes because nothing ran would pass anything).  What improved is
 * listed.  Exit 0 nothing got worse, 1 something did, 2 usage, 3 a file
 * could not be read.
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

static bool ran(const char *v)
{
	return strcmp(v, "SKIP") && strcmp(v, "UNSUPPORTED") && strcmp(v, "-");
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
	unsigned int worse = 0, better = 0, same = 0;
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
		if (ok(b) && !ok(n)) {
			row("WORSE", id, b, n, stale ? stale :
			    rc_jv_str(n, "divergence") ? rc_jv_str(n, "divergence") :
			    rc_jv_str(n, "system_detail") ?
			    rc_jv_str(n, "system_detail") : "not ok");
			worse++;
		} else if (ran(verdict(b, "system")) &&
			   !ran(verdict(n, "system"))) {
			row("WORSE", id, b, n, "no longer runs");
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

		if (id && !find(&now, id))
			row("GONE", id, &base.results->items[i], NULL,
			    "not in the new results");
	}
	printf("gate: %u worse, %u better, %u unchanged (baseline %s)\n",
	       worse, better, same, base.path);
	ret = worse ? 1 : 0;
out:
	rc_jv_free(base.doc);
	rc_jv_free(now.doc);
	return ret;
}

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

#include "compare.h"
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
	       b ? rc_case_verdict(b, "system") : "",
	       b ? rc_case_verdict(b, "reference") : "",
	       n ? rc_case_verdict(n, "system") : "",
	       n ? rc_case_verdict(n, "reference") : "", why);
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
		const char *id = rc_jv_str(n, "id"), *why;
		const struct rc_jv *b = id ? find(&base, id) : NULL;
		enum rc_change ch;

		if (!id)
			continue;
		ch = rc_compare_case(b, n, &why);
		if (ch != RC_SAME)
			row(rc_change_name(ch), id, b, n, why);
		worse += ch == RC_WORSE;
		update += ch == RC_UPDATE;
		better += ch == RC_BETTER;
		same += ch == RC_SAME && b;
	}
	for (i = 0; i < base.results->n; i++) {
		const struct rc_jv *b = &base.results->items[i];
		const char *id = rc_jv_str(b, "id"), *why;

		if (!id || find(&now, id))
			continue;
		rc_compare_case(b, NULL, &why);
		row("WORSE", id, b, NULL, why);
		worse++;
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

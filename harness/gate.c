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
 * worse.  What improved is listed.  Each case listed is followed by the
 * sentence it cites.  Exit 0 nothing got worse and no profile is out of
 * date, 1 otherwise, 2 usage, 3 a file could not be read.
 *
 * rdmaconf gate --rdma-core TREE [--base REV] [--head REV] and --builds
 * BASE_BUILD HEAD_BUILD make the two results files first: that is
 * ci/gate-rdma-core, which builds and runs both and comes back here.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "escape.h"
#include "compare.h"
#include "jsonread.h"
#include "launch.h"
#include "report.h"
#include "report_fleet.h"
#include "results.h"

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

	s->doc = rc_results_load(s->path, err, sizeof(err));
	if (!s->doc) {
		fprintf(stderr, "rdmaconf: %s\n", err);
		return false;
	}
	s->results = rc_jv_get(s->doc, "results");
	return true;
}

/* One line of the gate's table; what came from a file is shown as text
 * (rc_term_str): a results file cannot write to the terminal. */
static void row(const char *mark, const char *who, const char *id,
		const struct rc_jv *b, const struct rc_jv *n, const char *why)
{
	char case_id[200], shown_why[1024], shown_doc[1024], node[128];
	const char *doc;

	snprintf(case_id, sizeof(case_id), "%s%s%s",
		 who ? rc_term_str(who, node, sizeof(node)) : "", who ? ":" : "",
		 rc_term_str(id, shown_why, sizeof(shown_why)));
	printf("%-8s %-58s %5s/%-5s -> %5s/%-5s %s\n", mark, case_id,
	       b ? rc_case_verdict(b, RC_IMPL_SYSTEM) : "",
	       b ? rc_case_verdict(b, RC_IMPL_REFERENCE) : "",
	       n ? rc_case_verdict(n, RC_IMPL_SYSTEM) : "",
	       n ? rc_case_verdict(n, RC_IMPL_REFERENCE) : "",
	       rc_term_str(why, shown_why, sizeof(shown_why)));
	/* what the case holds the library to, as it cites it */
	doc = rc_jv_str(n ? n : b, "doc");
	if (doc && *doc)
		printf("%-8s cites: \"%s\"\n", "",
		       rc_term_str(doc, shown_doc, sizeof(shown_doc)));
}

/* A node's line of a fleet's gate */
static void node_row(const char *mark, const char *node, const char *what)
{
	char shown[128];

	printf("%-8s %-58s %s\n", mark, rc_term_str(node, shown,
						   sizeof(shown)), what);
}

struct tally {
	unsigned int worse, better, same, update;
};

/* One results file against its baseline; the rows printed prefixed with
 * @who (a fleet's node) when given.  False when a file cannot be read. */
static bool gate_file(const char *base_path, const char *now_path,
		      const char *who, struct tally *t)
{
	struct side base = { .path = base_path }, now = { .path = now_path };
	const struct rc_jv *complete;
	bool ok = false, partial;
	size_t i;

	if (!load(&base) || !load(&now))
		goto out;
	/* a baseline whose run did not complete says nothing of the cases
	 * it lacks: those are not new, they are unknown, and not green */
	complete = rc_jv_get(base.doc, "complete");
	partial = !complete || !complete->b;
	for (i = 0; i < now.results->n; i++) {
		const struct rc_jv *n = &now.results->items[i];
		const char *id = rc_jv_str(n, "id"), *why;
		const struct rc_jv *b = find(&base, id);
		enum rc_change ch;

		if (!b && partial) {
			row("WORSE", who, id, b, n, "not in the baseline, "
			    "whose run did not complete");
			t->worse++;
			continue;
		}
		ch = rc_compare_case(b, n, &why);
		if (ch != RC_SAME)
			row(rc_change_name(ch), who, id, b, n, why);
		t->worse += ch == RC_WORSE;
		t->update += ch == RC_UPDATE;
		t->better += ch == RC_BETTER;
		t->same += ch == RC_SAME && b;
	}
	for (i = 0; i < base.results->n; i++) {
		const struct rc_jv *b = &base.results->items[i];
		const char *id = rc_jv_str(b, "id"), *why;

		if (!id || find(&now, id))
			continue;
		rc_compare_case(b, NULL, &why);
		row("WORSE", who, id, b, NULL, why);
		t->worse++;
	}
	ok = true;
out:
	rc_jv_free(base.doc);
	rc_jv_free(now.doc);
	return ok;
}

/*
 * A fleet directory against a fleet baseline: node by node, as named by
 * their fleet.json.  A node whose step died, or that is gone, got worse.
 */
static bool gate_fleet(const char *base_dir, const char *now_dir,
		       struct tally *t)
{
	struct rc_jv *bf = NULL, *nf = NULL;
	char **bp = NULL, **np = NULL;
	const struct rc_jv *bn, *nn;
	char bpath[4096], npath[4096];
	bool ok = false;
	size_t i, j;

	if (rc_fleet_load(base_dir, &bf, &bp) < 0 ||
	    rc_fleet_load(now_dir, &nf, &np) < 0)
		goto out;
	bn = rc_jv_get(bf, "nodes");
	nn = rc_jv_get(nf, "nodes");
	for (i = 0; i < nn->n; i++) {
		const char *node = rc_jv_str(&nn->items[i], "node");
		const char *res = rc_jv_str(&nn->items[i], "results");
		const struct rc_jv *st = rc_jv_get(&nn->items[i], "status");

		if (!node)
			continue;
		if (!st || st->type != RC_JNUM) {
			node_row("WORSE", node, "its step died");
			t->worse++;
		}
		for (j = 0; j < bn->n; j++)
			if (!strcmp(rc_jv_str(&bn->items[j], "node") ?: "",
				    node))
				break;
		if (j == bn->n || !rc_jv_str(&bn->items[j], "results")) {
			node_row("NEW", node, "not in the baseline");
			continue;
		}
		if (!res)
			continue;
		snprintf(bpath, sizeof(bpath), "%s/%s", base_dir,
			 rc_jv_str(&bn->items[j], "results"));
		snprintf(npath, sizeof(npath), "%s/%s", now_dir, res);
		if (!gate_file(bpath, npath, node, t))
			goto out;
	}
	for (j = 0; j < bn->n; j++) {
		const char *node = rc_jv_str(&bn->items[j], "node");

		for (i = 0; node && i < nn->n; i++)
			if (!strcmp(rc_jv_str(&nn->items[i], "node") ?: "",
				    node))
				break;
		if (node && i == nn->n) {
			node_row("WORSE", node, "vanished from the fleet");
			t->worse++;
		}
	}
	ok = true;
out:
	for (i = 0; bp && bp[i]; i++)
		free(bp[i]);
	for (i = 0; np && np[i]; i++)
		free(np[i]);
	free(bp);
	free(np);
	rc_jv_free(bf);
	rc_jv_free(nf);
	return ok;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int rc_cmd_gate(int argc, char **argv)
{
	struct option opts[RC_NOPTS + 1];
	char shortopts[3 * RC_NOPTS + 2];
	struct tally t = {};
	const char *base = NULL, *now;
	bool builds = false, ok;
	int c;

	rc_cli_getopt(RC_CMD_GATE, opts, shortopts);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (rc_cli_opt_of(c)) {
		case RC_OPT_HELP:
			rc_cli_usage(stdout);
			return RC_EXIT_OK;
		case RC_OPT_BASELINE:
			base = optarg;
			break;
		case RC_OPT_RDMA_CORE:
		case RC_OPT_BUILDS:
		case RC_OPT_BASE:
		case RC_OPT_HEAD:
		case RC_OPT_FILTER:
		case RC_OPT_OUTPUT:
			builds = true;
			break;
		default:
			fprintf(stderr, "rdmaconf: usage: rdmaconf gate "
				"--baseline BASELINE.json|DIR RESULTS.json|DIR, "
				"or --rdma-core TREE, or --builds BASE HEAD\n");
			return RC_EXIT_USAGE;
		}
	}
	/* rdma-core's revisions or builds: built and run by the helper,
	 * which judges their results here again */
	if (builds && base) {
		fprintf(stderr, "rdmaconf: gate --baseline compares results "
			"files; --rdma-core and --builds make them\n");
		return RC_EXIT_USAGE;
	}
	if (builds)
		return rc_exec_helper("gate-rdma-core",
				      "RDMACONF_GATE_RDMA_CORE", argc - 1,
				      argv + 1);
	if (!base || argc - optind != 1) {
		fprintf(stderr, "rdmaconf: gate needs --baseline BASELINE.json "
			"and one RESULTS.json (or two fleet directories)\n");
		return RC_EXIT_USAGE;
	}
	now = argv[optind];
	if (is_dir(base) != is_dir(now)) {
		fprintf(stderr, "rdmaconf: gate compares a results file with a "
			"results file, or a fleet directory with a fleet "
			"directory\n");
		return RC_EXIT_USAGE;
	}
	printf("%-8s %-58s %11s    %11s\n", "", "case", "baseline",
	       "now (system/reference)");
	ok = is_dir(now) ? gate_fleet(base, now, &t) :
			   gate_file(base, now, NULL, &t);
	if (!ok)
		return RC_EXIT_ENV;
	printf("gate: %u worse, %u now conform (update the profile), %u "
	       "better, %u unchanged (baseline %s)\n", t.worse, t.update,
	       t.better, t.same, base);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "rdmaconf: writing stdout failed: %m\n");
		return RC_EXIT_ENV;
	}
	return t.worse || t.update ? RC_EXIT_FAILURES : RC_EXIT_OK;
}

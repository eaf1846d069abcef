// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmaconf report: results files (one per host, device or library build)
 * into one self-contained HTML page and a Markdown summary.  One column per
 * results file; for each: the device fingerprint, a verdict matrix per call
 * for system and reference, every case that failed, diverged or was
 * excused with its man-page sentence, expected against observed and hex
 * dumps, and an SVG plot of requested against observed durations of the
 * timed rows.  No script, no network asset: the page is one file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rdmaconf.h"
#include "cli.h"
#include "compare.h"
#include "escape.h"
#include "json.h"
#include "jsonread.h"
#include "report.h"
#include "report_changes.h"
#include "report_providers.h"
#include "report_doc.h"
#include "report_fleet.h"
#include "report_page.h"
#include "report_verdict.h"
#include "results.h"
#include "wfile.h"

/*
 * Failures by what the row rests on: "breaks the man page" counts only
 * rows whose cited sentence says what they require; rows that follow
 * Linux's ABI or our reading of a silent page are counted apart.
 */

/* The run's own count (summary.c decides what a break is); 0 in results
 * written before rows had a basis. */
static unsigned int breaks_of(const struct rc_report_run *r,
			      enum rc_impl_id impl, enum rc_basis basis)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_breaks", rc_impl_name(impl));
	return rc_jv_num(rc_jv_get(rc_jv_get(r->doc, "summary"), key),
			 rc_basis_name(basis), 0);
}

static bool not_run_by_profile(const struct rc_jv *c)
{
	const struct rc_jv *v = rc_jv_get(c, "not_run_by_profile");

	return v && v->type == RC_JBOOL && v->b;
}

/* A table of the breaks per basis, and the rows a profile kept from
 * running; HTML or Markdown. */
static void breaks(struct rc_str *b, const struct rc_report_run *runs, int n,
		   bool html)
{
	size_t i, k;
	int r;

	rc_str_printf(b, html ? "<h2>Failures by basis</h2><table><tr><th>"
				"run</th><th></th>" :
				"\n## Failures by basis\n\n"
				"| run | |");
	for (k = RC_BASIS_DOCUMENTED; k < RC_NBASES; k++)
		rc_str_printf(b, html ? "<th>%s</th>" : " %s |",
			      rc_basis_title(k));
	rc_str_printf(b, html ? "</tr>" : "\n|---|---|");
	for (k = RC_BASIS_DOCUMENTED; k < RC_NBASES && !html; k++)
		rc_str_printf(b, "---|");
	rc_str_printf(b, html ? "" : "\n");
	for (r = 0; r < n; r++)
		for (i = 0; i < RC_NIMPLS; i++) {
			rc_str_printf(b,
				      html ? "<tr><td>%d</td><td>%s</td>" :
					     "| %d | %s |",
				      r + 1, rc_impl_name(i));
			for (k = RC_BASIS_DOCUMENTED; k < RC_NBASES; k++)
				rc_str_printf(b, html ? "<td>%u</td>" : " %u |",
					      breaks_of(&runs[r], i, k));
			rc_str_printf(b, html ? "</tr>" : "\n");
		}
	rc_str_printf(b, html ? "</table><p>" : "\n");
	for (k = 0, i = 0; html && k < RC_NVERDICTS; k++)
		if (rc_verdict_breaks(k))
			rc_str_printf(b, "%s%s", i++ ? ", " : "",
				      rc_verdict_name(k));
	if (html)
		rc_str_printf(b, ", by the basis of the row: only a "
				 "documented row's sentence says what it "
				 "requires.</p>");
	for (r = 0; r < n; r++)
		for (i = 0; i < runs[r].results->n; i++) {
			const struct rc_jv *c = &runs[r].results->items[i];

			if (!not_run_by_profile(c))
				continue;
			rc_str_printf(b,
				      html ? "<p>Not run, by profile (%d): "
					     "<code>" :
					     "Not run, by profile (%d): ",
				      r + 1);
			rc_str_text(b, html, rc_jv_str(c, "id"));
			rc_str_printf(b, html ? "</code></p>" : "\n");
		}
}

/* What changed between adjacent columns (report_changes.c) */
static void changes(struct rc_str *b, const struct rc_report_run *runs, int n,
		    const char **ids, size_t nids, bool html)
{
	const char **labels = calloc(n, sizeof(*labels));
	const struct rc_jv **results = calloc(n, sizeof(*results));
	bool *elsewhere = calloc(n, sizeof(*elsewhere));
	int r;

	if (!labels || !results || !elsewhere)
		abort();
	for (r = 0; r < n; r++) {
		labels[r] = runs[r].label;
		results[r] = runs[r].results;
		elsewhere[r] =
			r && rc_report_providers_differ(&runs[r - 1], &runs[r]);
	}
	rc_report_changes(b, labels, results, n, elsewhere, ids, nids, html);
	rc_report_providers(b, runs, n, ids, nids, html);
	free(labels);
	free(results);
	free(elsewhere);
}

/* Written whole (wfile.c): a full disk or a signal leaves the page as it
 * was, never cut */
static int write_file(const char *dir, const char *name, const struct rc_str *b)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = rc_wfile_write(path,
			     &(struct rc_piece){ b->s ? b->s : "", b->len }, 1);
	if (ret) {
		fprintf(stderr, "rdmaconf: cannot write %s: %s\n", path,
			strerror(-ret));
		return -1;
	}
	return 0;
}

int rc_cmd_report(int argc, char **argv)
{
	struct option opts[RC_NOPTS + 1];
	char shortopts[3 * RC_NOPTS + 2];
	struct rc_str page = {}, md = {};
	const char *out = NULL, **ids, *fleet_dir = NULL;
	char **paths;
	struct rc_report_run *runs;
	size_t nids;
	int c, n, r, ret = RC_EXIT_ENV;

	rc_cli_getopt(RC_CMD_REPORT, opts, shortopts);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (rc_cli_opt_of(c) == RC_OPT_HELP) {
			rc_cli_usage(stdout);
			return RC_EXIT_OK;
		}
		if (rc_cli_opt_of(c) == RC_OPT_FLEET_DIR) {
			fleet_dir = optarg;
			continue;
		}
		if (rc_cli_opt_of(c) != RC_OPT_OUTPUT) {
			fprintf(stderr,
				"rdmaconf: usage: rdmaconf report "
				"RESULTS.json [MORE.json ...] -o DIR, or "
				"rdmaconf report --fleet DIR [-o DIR]\n");
			return RC_EXIT_USAGE;
		}
		out = optarg;
	}
	n = argc - optind;
	paths = argv + optind;
	/* a fleet: each node's file read once, in a pass of its own */
	if (fleet_dir) {
		if (n) {
			fprintf(stderr,
				"rdmaconf: report --fleet DIR takes its "
				"results files from DIR/fleet.json\n");
			return RC_EXIT_USAGE;
		}
		return rc_report_fleet(fleet_dir, out ? out : fleet_dir);
	}
	if (!out || n < 1) {
		fprintf(stderr,
			"rdmaconf: report needs -o DIR and at least one "
			"results file\n");
		return RC_EXIT_USAGE;
	}
	runs = calloc(n ? n : 1, sizeof(*runs));
	if (!runs)
		abort();
	if (rc_report_load(n, paths, runs))
		goto out;
	if (mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "rdmaconf: cannot create %s: %s\n", out,
			strerror(errno));
		goto out;
	}
	ids = rc_report_ids(runs, n, &nids);
	rc_str_printf(
		&page,
		"<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
		"<title>rdmaconf conformance report</title><style>%s"
		"</style></head><body><h1>rdmaconf conformance report</h1>",
		rc_report_css);
	rc_report_verdict(&page, runs, n, true);
	rc_str_printf(&page, "<h2>Devices and hosts</h2>");
	for (r = 0; r < n; r++)
		rc_report_fingerprint(&page, &runs[r]);
	rc_report_matrix(&page, runs, n, ids, nids);
	changes(&page, runs, n, ids, nids, true);
	breaks(&page, runs, n, true);
	rc_report_details(&page, runs, n, ids, nids);
	rc_str_printf(&page,
		      "<h2>Timing</h2><p>Each timed row: what it asks "
		      "for, against what each implementation took; the dashed "
		      "line is equality.</p>");
	for (r = 0; r < n; r++)
		rc_report_plot(&page, &runs[r], r);
	rc_str_printf(
		&page,
		"<h2>Where the time goes</h2><p>Per "
		"implementation, the time of the rows' processes; then the "
		"%d slowest rows, both implementations added up.</p>",
		RC_REPORT_SLOWEST);
	for (r = 0; r < n; r++)
		rc_report_time_breakdown(&page, &runs[r], r);
	rc_str_printf(&page, "</body></html>\n");
	rc_report_markdown(&md, runs, n, ids, nids);
	changes(&md, runs, n, ids, nids, false);
	breaks(&md, runs, n, false);
	if (!write_file(out, "index.html", &page) &&
	    !write_file(out, "summary.md", &md)) {
		printf("report: %s/index.html %s/summary.md (%d results file%s, "
		       "%zu cases)\n",
		       out, out, n, n == 1 ? "" : "s", nids);
		ret = fflush(stdout) || ferror(stdout) ? RC_EXIT_ENV :
							 RC_EXIT_OK;
	}
	free(ids);
out:
	for (r = 0; r < n; r++)
		rc_jv_free(runs[r].doc);
	free(runs);
	rc_str_free(&page);
	rc_str_free(&md);
	return ret;
}

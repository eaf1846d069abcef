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
#include "json.h"
#include "jsonread.h"
#include "report.h"
#include "report_changes.h"
#include "report_fleet.h"
#include "results.h"

struct run {
	const char *path;
	struct rc_jv *doc;
	const struct rc_jv *results;
	char label[200];
};

/* a scalar member as text ("" when absent) */
static const char *text(const struct rc_jv *obj, const char *key, char *buf,
			size_t len)
{
	const struct rc_jv *v = rc_jv_get(obj, key);

	buf[0] = 0;
	if (!v)
		return buf;
	switch (v->type) {
	case RC_JSTR:
		snprintf(buf, len, "%s", v->str);
		break;
	case RC_JNUM:
		snprintf(buf, len, "%.15g", v->num);
		break;
	case RC_JBOOL:
		snprintf(buf, len, "%s", v->b ? "true" : "false");
		break;
	case RC_JARR: {
		size_t i, n = 0;

		for (i = 0; i < v->n && n < len; i++)
			if (v->items[i].type == RC_JSTR)
				n += snprintf(buf + n, len - n, "%s%s",
					      i ? ", " : "", v->items[i].str);
		break;
	}
	default:
		break;
	}
	return buf;
}

static const char *verdict_of(const struct rc_jv *c, enum rc_impl_id impl)
{
	return rc_case_verdict(c, impl);
}

static bool case_ok(const struct rc_jv *c)
{
	const struct rc_jv *ok = rc_jv_get(c, "ok");

	return ok && ok->type == RC_JBOOL && ok->b;
}

static bool noteworthy(const struct rc_jv *c)
{
	int i;

	for (i = 0; i < RC_NIMPLS; i++)
		if (rc_verdict_parse(verdict_of(c, i)) != RC_PASS)
			return true;
	return !case_ok(c) || rc_jv_str(c, "divergence");
}

/*
 * Failures by what the row rests on: "breaks the man page" counts only
 * rows whose cited sentence says what they require; rows that follow
 * Linux's ABI or our reading of a silent page are counted apart.
 */

/* The run's own count (summary.c decides what a break is); 0 in results
 * written before rows had a basis. */
static unsigned int breaks_of(const struct run *r, enum rc_impl_id impl,
			      enum rc_basis basis)
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
static void breaks(struct rc_str *b, const struct run *runs, int n, bool html)
{
	size_t i, k;
	int r;

	rc_str_printf(b, html ? "<h2>Failures by basis</h2><table><tr><th>"
		      "run</th><th></th>" : "\n## Failures by basis\n\n"
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
			rc_str_printf(b, html ? "<tr><td>%d</td><td>%s</td>" :
				      "| %d | %s |", r + 1, rc_impl_name(i));
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
			rc_str_printf(b, html ? "<p>Not run, by profile (%d): "
				      "<code>" : "Not run, by profile (%d): `",
				      r + 1);
			rc_str_xml(b, rc_jv_str(c, "id"));
			rc_str_printf(b, html ? "</code></p>" : "`\n");
		}
}

static int load_runs(int n, char **paths, struct run *runs)
{
	char err[512], b1[64], b2[64];
	const struct rc_jv *dev, *host;
	int i;

	for (i = 0; i < n; i++) {
		runs[i].path = paths[i];
		runs[i].doc = rc_results_load(paths[i], err, sizeof(err));
		if (!runs[i].doc) {
			fprintf(stderr, "rdmaconf: %s\n", err);
			return -1;
		}
		runs[i].results = rc_jv_get(runs[i].doc, "results");
		dev = rc_jv_get(runs[i].doc, "device");
		host = rc_jv_get(runs[i].doc, "host");
		snprintf(runs[i].label, sizeof(runs[i].label), "%s (%s), "
			 "rdma-core %s, Linux %s%s%s",
			 rc_jv_str(dev, "name") ? rc_jv_str(dev, "name") : "no device",
			 rc_jv_str(dev, "driver") ? rc_jv_str(dev, "driver") : "-",
			 text(host, "rdma_core", b1, sizeof(b1)),
			 text(host, "kernel", b2, sizeof(b2)),
			 rc_jv_str(host, "os") ? ", " : "",
			 rc_jv_str(host, "os") ? rc_jv_str(host, "os") : "");
	}
	return 0;
}

static const struct rc_jv *find_case(const struct run *r, const char *id)
{
	return rc_results_find(r->results, id);
}

/* Every case id of every run, first appearance first. */
static const char **all_ids(const struct run *runs, int n, size_t *count)
{
	const char **ids = NULL;
	size_t k = 0, i, j;
	int r;

	for (r = 0; r < n; r++)
		for (i = 0; i < runs[r].results->n; i++) {
			const char *id = rc_jv_str(&runs[r].results->items[i], "id");

			for (j = 0; id && j < k && strcmp(ids[j], id); j++)
				;
			if (!id || j < k)
				continue;
			ids = realloc(ids, (k + 1) * sizeof(*ids));
			if (!ids)
				abort();
			ids[k++] = id;
		}
	*count = k;
	return ids;
}

static const char *css =
	"body{font:14px/1.4 sans-serif;margin:2em;color:#222}"
	"h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;"
	"vertical-align:top}th{background:#f0f0f0}"
	".PASS{background:#d8f5d8}.FAIL,.CRASH,.HANG,.BROKEN,.XPASS{"
	"background:#f8c8c8}.XFAIL{background:#fbe7b8}.SKIP,.UNSUPPORTED,"
	".ABSENT{background:#e4e4f4}.DIV{background:#f0d0f0}"
	"pre{background:#f7f7f7;padding:4px;margin:2px 0}"
	"mark{background:#ffb0b0}.doc{font-style:italic}"
	"code{font-size:.95em}";

static void fingerprint(struct rc_str *b, const struct run *r)
{
	static const char *const dev_keys[] = {
		"name", "driver", "vendor_id", "vendor_part_id", "hw_ver", "fw_ver",
		"node_guid", "node_type", "hca_type", "port", "link_layer",
		"port_state", "gids" };
	static const char *const host_keys[] = {
		"kernel", "machine", "rdma_core", "libibumad", "libibverbs",
		"librdmacm", "ld_preload", "ld_library_path", "peer_device",
		"slowness" };
	const struct rc_jv *dev = rc_jv_get(r->doc, "device");
	const struct rc_jv *host = rc_jv_get(r->doc, "host");
	const struct rc_jv *sum = rc_jv_get(r->doc, "summary");
	const struct rc_jv *complete = rc_jv_get(r->doc, "complete");
	char v[1024];
	size_t i;

	rc_str_printf(b, "<h3>");
	rc_str_xml(b, r->label);
	rc_str_printf(b, "</h3><p><code>");
	rc_str_xml(b, r->path);
	rc_str_printf(b, "</code>%s</p><table>",
		      complete && complete->type == RC_JBOOL && !complete->b ?
		      " <b>(incomplete: the run was stopped)</b>" : "");
	for (i = 0; i < ARRAY_SIZE(dev_keys); i++) {
		rc_str_printf(b, "<tr><th>device %s</th><td>", dev_keys[i]);
		rc_str_xml(b, text(dev, dev_keys[i], v, sizeof(v)));
		rc_str_printf(b, "</td></tr>");
	}
	for (i = 0; i < ARRAY_SIZE(host_keys); i++) {
		rc_str_printf(b, "<tr><th>host %s</th><td>", host_keys[i]);
		rc_str_xml(b, text(host, host_keys[i], v, sizeof(v)));
		rc_str_printf(b, "</td></tr>");
	}
	rc_str_printf(b, "<tr><th>summary</th><td>%s cases, %s ok, %s not ok, "
		      "%s diverge</td></tr></table>",
		      text(sum, "cases", v, 32), text(sum, "ok", v + 32, 32),
		      text(sum, "not_ok", v + 64, 32),
		      text(sum, "diverge", v + 96, 32));
}

/* "3 PASS, 1 XFAIL" for one call, one run, one implementation; the
 * cell's colour is its worst verdict (vocab.h's rank) */
static void call_counts(struct rc_str *b, const struct run *r,
			const char *call, enum rc_impl_id impl)
{
	unsigned int count[RC_NVERDICTS] = {};
	enum rc_verdict worst = RC_PASS;
	size_t i;
	int k, n = 0;

	for (i = 0; i < r->results->n; i++) {
		const struct rc_jv *c = &r->results->items[i];
		const char *cc = rc_jv_str(c, "call");

		if (!cc || strcmp(cc, call))
			continue;
		k = rc_verdict_parse(verdict_of(c, impl));
		if (k < 0)
			continue;
		count[k]++;
		if (rc_verdict_rank(k) > rc_verdict_rank(worst))
			worst = k;
	}
	rc_str_printf(b, "<td class=\"%s\">", rc_verdict_name(worst));
	for (k = 0; k < RC_NVERDICTS; k++)
		if (count[k])
			rc_str_printf(b, "%s%u %s", n++ ? ", " : "", count[k],
				      rc_verdict_name(k));
	rc_str_printf(b, "</td>");
}

static void matrix(struct rc_str *b, const struct run *runs, int n,
		   const char **ids, size_t nids)
{
	const char **seen = calloc(nids ? nids : 1, sizeof(*seen));
	size_t i, j, nseen = 0;
	int r, k;

	if (!seen)
		abort();
	rc_str_printf(b, "<h2>Verdicts per call</h2><table><tr><th>call</th>");
	for (r = 0; r < n; r++)
		for (k = 0; k < RC_NIMPLS; k++)
			rc_str_printf(b, "<th>%s<br><small>%d: %s</small></th>",
				      rc_impl_name(k), r + 1, runs[r].label);
	rc_str_printf(b, "</tr>");
	/* calls in the order their first case appears */
	for (i = 0; i < nids; i++) {
		const struct rc_jv *c = NULL;
		const char *call;

		for (r = 0; r < n && !c; r++)
			c = find_case(&runs[r], ids[i]);
		call = rc_jv_str(c, "call");
		for (j = 0; j < nseen && call && strcmp(seen[j], call); j++)
			;
		if (!call || j < nseen)
			continue;
		seen[nseen++] = call;
		rc_str_printf(b, "<tr><td><code>");
		rc_str_xml(b, call);
		rc_str_printf(b, "</code></td>");
		for (r = 0; r < n; r++)
			for (k = 0; k < RC_NIMPLS; k++)
				call_counts(b, &runs[r], call, k);
		rc_str_printf(b, "</tr>");
	}
	free(seen);
	rc_str_printf(b, "</table><h2>Verdicts per case</h2><table><tr>"
		      "<th>case</th>");
	for (r = 0; r < n; r++)
	{
		for (k = 0; k < RC_NIMPLS; k++)
			rc_str_printf(b, "<th>%s %d</th>", rc_impl_name(k),
				      r + 1);
		rc_str_printf(b, "<th>agree %d</th>", r + 1);
	}
	rc_str_printf(b, "</tr>");
	for (i = 0; i < nids; i++) {
		rc_str_printf(b, "<tr><td><a href=\"#");
		rc_str_xml(b, ids[i]);
		rc_str_printf(b, "\"><code>");
		rc_str_xml(b, ids[i]);
		rc_str_printf(b, "</code></a></td>");
		for (r = 0; r < n; r++) {
			const struct rc_jv *c = find_case(&runs[r], ids[i]);
			const struct rc_jv *ag = rc_jv_get(c, "agree");

			for (k = 0; k < RC_NIMPLS; k++)
				rc_str_printf(b, "<td class=\"%s\">%s</td>",
					      verdict_of(c, k),
					      verdict_of(c, k));
			rc_str_printf(b, "<td%s>%s</td>",
				      ag && ag->type == RC_JBOOL && !ag->b ?
				      " class=\"DIV\"" : "",
				      !ag || ag->type != RC_JBOOL ? "-" :
				      ag->b ? "yes" : "DIVERGE");
		}
		rc_str_printf(b, "</tr>");
	}
	rc_str_printf(b, "</table>");
}

/* 16 bytes a line; bytes that differ from @other marked */
static void hexdump(struct rc_str *b, const char *hex, const char *other)
{
	size_t n = hex ? strlen(hex) / 2 : 0, on = other ? strlen(other) / 2 : 0;
	size_t i;

	if (!n) {
		rc_str_printf(b, "<pre>(none)</pre>");
		return;
	}
	rc_str_printf(b, "<pre>");
	for (i = 0; i < n; i++) {
		bool diff = other && (i >= on || strncmp(hex + 2 * i,
							 other + 2 * i, 2));

		if (i % 16 == 0)
			rc_str_printf(b, "%s%04zx:", i ? "\n" : "", i);
		rc_str_printf(b, diff ? " <mark>%.2s</mark>" : " %.2s",
			      hex + 2 * i);
	}
	rc_str_printf(b, "</pre>");
}

static void observed(struct rc_str *b, const struct rc_jv *c,
		     enum rc_impl_id id, const char *cmp_hex)
{
	const char *impl = rc_impl_name(id);
	const struct rc_jv *o = rc_jv_get(c, impl);
	char key[64], v[256], e[64], ms[64];

	snprintf(key, sizeof(key), "%s_detail", impl);
	rc_str_printf(b, "<tr><th>%s</th><td class=\"%s\">%s</td><td>", impl,
		      verdict_of(c, id), verdict_of(c, id));
	rc_str_xml(b, rc_jv_str(c, key));
	rc_str_printf(b, "</td><td>ret %s, errno %s, %s ms",
		      text(o, "ret", v, sizeof(v)),
		      text(o, "errno", e, sizeof(e))[0] ? e : "-",
		      text(o, "elapsed_ms", ms, sizeof(ms)));
	hexdump(b, rc_jv_str(o, "out"), cmp_hex);
	rc_str_printf(b, "</td></tr>");
}

static void details(struct rc_str *b, const struct run *runs, int n,
		    const char **ids, size_t nids)
{
	char v[512];
	size_t i;
	int r;

	rc_str_printf(b, "<h2>Failures, divergences and known deviations</h2>");
	for (i = 0; i < nids; i++)
		for (r = 0; r < n; r++) {
			const struct rc_jv *c = find_case(&runs[r], ids[i]);
			const struct rc_jv *exp = rc_jv_get(c, "contract");
			const struct rc_jv *x = rc_jv_get(c, "profile_entry");
			const char *eout = rc_jv_str(exp, "out");
			const char *sout = rc_jv_str(rc_jv_get(c,
				rc_impl_name(RC_IMPL_SYSTEM)), "out");
			const char *rout = rc_jv_str(rc_jv_get(c,
				rc_impl_name(RC_IMPL_REFERENCE)), "out");

			if (!c || !noteworthy(c))
				continue;
			rc_str_printf(b, "<h3 id=\"");
			rc_str_xml(b, ids[i]);
			rc_str_printf(b, "\"><code>");
			rc_str_xml(b, ids[i]);
			rc_str_printf(b, "</code> <small>(%d: ", r + 1);
			rc_str_xml(b, runs[r].label);
			rc_str_printf(b, ")</small></h3><p class=\"doc\">");
			rc_str_xml(b, rc_jv_str(c, "doc"));
			rc_str_printf(b, " <small>(basis: ");
			rc_str_xml(b, rc_jv_str(c, "basis") ?
				   rc_jv_str(c, "basis") : "not recorded");
			rc_str_printf(b, ")</small></p>");
			if (rc_jv_str(c, "note")) {
				rc_str_printf(b, "<p>Note (the row's reading): ");
				rc_str_xml(b, rc_jv_str(c, "note"));
				rc_str_printf(b, "</p>");
			}
			rc_str_printf(b, "<table><tr><th>contract</th><td colspan=3>"
				      "%s ", text(exp, "convention", v, sizeof(v)));
			rc_str_printf(b, "%s ", text(exp, "ret", v, sizeof(v)));
			rc_str_printf(b, "%s", text(exp, "value", v, sizeof(v)));
			if (text(exp, "errno", v, sizeof(v))[0])
				rc_str_printf(b, ", errno %s", v);
			if (text(exp, "ms", v, sizeof(v))[0]) {
				rc_str_printf(b, ", %s ms", v);
				rc_str_printf(b, " +/- %s ms",
					      text(exp, "tol_ms", v, sizeof(v)));
			}
			if (eout)
				hexdump(b, eout, NULL);
			rc_str_printf(b, "</td></tr>");
			observed(b, c, RC_IMPL_SYSTEM, eout ? eout : rout);
			observed(b, c, RC_IMPL_REFERENCE, eout ? eout : sout);
			if (rc_jv_str(c, "divergence")) {
				rc_str_printf(b, "<tr><th>divergence</th><td "
					      "colspan=3 class=\"DIV\">");
				rc_str_xml(b, rc_jv_str(c, "divergence"));
				rc_str_printf(b, "</td></tr>");
			}
			if (x) {
				rc_str_printf(b, "<tr><th>profile entry</th><td colspan=3>"
					      "%s: ", text(x, "kind", v, sizeof(v)));
				rc_str_xml(b, rc_jv_str(x, "reason"));
				rc_str_printf(b, " <small>(");
				rc_str_xml(b, rc_jv_str(x, "where"));
				rc_str_printf(b, ")</small></td></tr>");
			}
			if (rc_jv_str(c, "stale")) {
				rc_str_printf(b, "<tr><th>STALE</th><td colspan=3 "
					      "class=\"FAIL\">");
				rc_str_xml(b, rc_jv_str(c, "stale"));
				rc_str_printf(b, "</td></tr>");
			}
			rc_str_printf(b, "</table>");
		}
}

/*
 * Where a run's time goes: per implementation, the rows' set-up, calls and
 * checks (the summary's sums), then the slowest rows as stacked bars of
 * the same three phases, both implementations added up.
 */
#define SLOWEST 15
static const char *const phases[] = { "setup_ms", "elapsed_ms",
				      "teardown_ms" };
static const char *const phase_names[] = { "set-up", "call",
					   "checks and clean-up" };
static const char *const phase_colours[] = { "#89b", "#c63", "#bbb" };

static double phase_of(const struct rc_jv *c, int p)
{
	return rc_jv_num(rc_jv_get(c, rc_impl_name(0)), phases[p], 0) +
	       rc_jv_num(rc_jv_get(c, rc_impl_name(1)), phases[p], 0);
}

static double row_ms(const struct rc_jv *c)
{
	return phase_of(c, 0) + phase_of(c, 1) + phase_of(c, 2);
}

static int slower_first(const void *a, const void *b)
{
	double x = row_ms(*(const struct rc_jv *const *)a);
	double y = row_ms(*(const struct rc_jv *const *)b);

	return (x < y) - (x > y);
}

static void time_breakdown(struct rc_str *b, const struct run *r, int idx)
{
	const struct rc_jv *top[SLOWEST] = {}, **all, *sum = rc_jv_get(r->doc,
								     "summary");
	size_t nall = 0;
	const int w = 760, bar = 16, label = 330;
	char key[32];
	size_t i, k;
	double max;
	int n = 0, p;

	rc_str_printf(b, "<h3>%d: ", idx + 1);
	rc_str_xml(b, r->label);
	rc_str_printf(b, "</h3><table><tr><th></th><th>in rows</th>");
	for (p = 0; p < 3; p++)
		rc_str_printf(b, "<th>%s</th>", phase_names[p]);
	rc_str_printf(b, "</tr>");
	for (k = 0; k < RC_NIMPLS; k++) {
		const struct rc_jv *t;

		snprintf(key, sizeof(key), "%s_ms", rc_impl_name(k));
		t = rc_jv_get(sum, key);
		rc_str_printf(b, "<tr><td>%s</td><td>%.0f ms</td><td>%.0f ms</td>"
			      "<td>%.0f ms</td><td>%.0f ms</td></tr>", rc_impl_name(k),
			      rc_jv_num(t, "rows", 0), rc_jv_num(t, "setup", 0),
			      rc_jv_num(t, "call", 0),
			      rc_jv_num(t, "teardown", 0));
	}
	rc_str_printf(b, "</table>");
	/* the slowest rows */
	all = calloc(r->results->n + 1, sizeof(*all));
	if (!all)
		abort();
	for (i = 0; i < r->results->n; i++)
		if (row_ms(&r->results->items[i]) > 0)
			all[nall++] = &r->results->items[i];
	qsort(all, nall, sizeof(*all), slower_first);
	for (i = 0; i < nall && n < SLOWEST; i++)
		top[n++] = all[i];
	free(all);
	if (!n)
		return;
	max = row_ms(top[0]);
	rc_str_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		      "width=\"%d\" height=\"%d\" font-size=\"11\">", w,
		      (n + 1) * bar + 8);
	for (i = 0; i < (size_t)n; i++) {
		double x = label;

		rc_str_printf(b, "<text x=\"0\" y=\"%zu\">", i * bar + 12);
		rc_str_xml(b, rc_jv_str(top[i], "id"));
		rc_str_printf(b, "</text>");
		for (p = 0; p < 3; p++) {
			double len = phase_of(top[i], p) / max * (w - label - 60);

			rc_str_printf(b, "<rect x=\"%.1f\" y=\"%zu\" "
				      "width=\"%.1f\" height=\"%d\" "
				      "fill=\"%s\"/>", x, i * bar + 2, len,
				      bar - 4, phase_colours[p]);
			x += len;
		}
		rc_str_printf(b, "<text x=\"%.1f\" y=\"%zu\">%.0f ms</text>",
			      x + 4, i * bar + 12, row_ms(top[i]));
	}
	for (p = 0; p < 3; p++)
		rc_str_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" "
			      "height=\"10\" fill=\"%s\"/><text x=\"%d\" "
			      "y=\"%d\">%s</text>", label + p * 130,
			      n * bar + 2, phase_colours[p], label + p * 130 + 14,
			      n * bar + 11, phase_names[p]);
	rc_str_printf(b, "</svg>");
}

/* Requested against observed duration of every timed row, per run. */
static void plot(struct rc_str *b, const struct run *r, int idx)
{
	const int w = 520, h = 360, m = 50;
	double max = 100;
	size_t i;
	int k, t, npoints = 0;

	for (i = 0; i < r->results->n; i++) {
		const struct rc_jv *c = &r->results->items[i];
		double req = rc_jv_num(rc_jv_get(c, "contract"), "ms", -1);

		if (req < 0 || !rc_jv_get(rc_jv_get(c, "contract"), "tol_ms"))
			continue;
		npoints++;
		for (k = 0; k < RC_NIMPLS; k++) {
			double obs = rc_jv_num(rc_jv_get(c, rc_impl_name(k)),
					       "elapsed_ms", 0);

			max = obs > max ? obs : max;
		}
		max = req > max ? req : max;
	}
	if (!npoints)
		return;
	max *= 1.1;
#define X(v) (m + (v) / max * (w - 2 * m))
#define Y(v) (h - m - (v) / max * (h - 2 * m))
	rc_str_printf(b, "<h3>Timed rows, run %d</h3><svg xmlns=\"http://www."
		      "w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		      "font-size=\"11\"><rect width=\"%d\" height=\"%d\" "
		      "fill=\"white\" stroke=\"#ccc\"/>", idx + 1, w, h, w, h);
	rc_str_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		      "stroke=\"#000\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		      "y2=\"%d\" stroke=\"#000\"/>", m, h - m, w - m, h - m, m,
		      h - m, m, m);
	rc_str_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		      "stroke=\"#999\" stroke-dasharray=\"4\"/>", X(0.0), Y(0.0),
		      X(max), Y(max));
	for (t = 0; t <= 4; t++) {
		double v = max * t / 4;

		rc_str_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			      "%.0f</text><text x=\"%d\" y=\"%.1f\" text-anchor="
			      "\"end\">%.0f</text>", X(v), h - m + 15, v, m - 4,
			      Y(v) + 4, v);
	}
	rc_str_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		      "requested ms (the row's contract)</text>"
		      "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
		      "text-anchor=\"middle\">observed ms</text>", w / 2, h - 12,
		      h / 2, h / 2);
	for (i = 0; i < r->results->n; i++) {
		const struct rc_jv *c = &r->results->items[i];
		double req = rc_jv_num(rc_jv_get(c, "contract"), "ms", -1);

		if (req < 0 || !rc_jv_get(rc_jv_get(c, "contract"), "tol_ms"))
			continue;
		for (k = 0; k < RC_NIMPLS; k++) {
			double obs = rc_jv_num(rc_jv_get(c, rc_impl_name(k)),
					       "elapsed_ms", -1);

			if (obs < 0)
				continue;
			rc_str_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
				      "fill=\"%s\" fill-opacity=\"0.6\"><title>",
				      X(req) + (k ? 3 : -3), Y(obs),
				      k ? "#2a7" : "#c33");
			rc_str_xml(b, rc_jv_str(c, "id"));
			rc_str_printf(b, " %s: %.1f ms</title></circle>", rc_impl_name(k),
				      obs);
		}
	}
	rc_str_printf(b, "<circle cx=\"%d\" cy=\"20\" r=\"4\" fill=\"#c33\"/>"
		      "<text x=\"%d\" y=\"24\">system</text><circle cx=\"%d\" "
		      "cy=\"36\" r=\"4\" fill=\"#2a7\"/><text x=\"%d\" y=\"40\">"
		      "reference</text></svg>", m + 10, m + 18, m + 10, m + 18);
#undef X
#undef Y
}

static void markdown(struct rc_str *b, const struct run *runs, int n,
		     const char **ids, size_t nids)
{
	size_t i;
	int r;

	rc_str_printf(b, "# rdmaconf conformance report\n\n");
	for (r = 0; r < n; r++) {
		const struct rc_jv *sum = rc_jv_get(runs[r].doc, "summary");
		char a[32], bb[32], c[32], d[32];

		rc_str_printf(b, "%d. %s: %s cases, %s ok, %s not ok, %s diverge "
			      "(`%s`)\n", r + 1, runs[r].label,
			      text(sum, "cases", a, sizeof(a)),
			      text(sum, "ok", bb, sizeof(bb)),
			      text(sum, "not_ok", c, sizeof(c)),
			      text(sum, "diverge", d, sizeof(d)), runs[r].path);
	}
	rc_str_printf(b, "\n| case |");
	for (r = 0; r < n; r++)
		rc_str_printf(b, " system %d | reference %d |", r + 1, r + 1);
	rc_str_printf(b, "\n|---|");
	for (r = 0; r < n; r++)
		rc_str_printf(b, "---|---|");
	rc_str_printf(b, "\n");
	for (i = 0; i < nids; i++) {
		bool any = false;

		for (r = 0; r < n; r++) {
			const struct rc_jv *c = find_case(&runs[r], ids[i]);

			any |= c && noteworthy(c);
		}
		if (!any)
			continue;
		rc_str_printf(b, "| `%s` |", ids[i]);
		for (r = 0; r < n; r++) {
			const struct rc_jv *c = find_case(&runs[r], ids[i]);

			rc_str_printf(b, " %s | %s |",
				      verdict_of(c, RC_IMPL_SYSTEM),
				      verdict_of(c, RC_IMPL_REFERENCE));
		}
		rc_str_printf(b, "\n");
	}
	rc_str_printf(b, "\nEvery other case passes on both implementations. "
		      "Details, hex dumps and timing plots: index.html.\n");
}

/* What changed between adjacent columns (report_changes.c) */
static void changes(struct rc_str *b, const struct run *runs, int n,
		    const char **ids, size_t nids, bool html)
{
	const char **labels = calloc(n, sizeof(*labels));
	const struct rc_jv **results = calloc(n, sizeof(*results));
	int r;

	if (!labels || !results)
		abort();
	for (r = 0; r < n; r++) {
		labels[r] = runs[r].label;
		results[r] = runs[r].results;
	}
	rc_report_changes(b, labels, results, n, ids, nids, html);
	free(labels);
	free(results);
}

static int write_file(const char *dir, const char *name, const struct rc_str *b)
{
	char path[4096];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "rdmaconf: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	bad = fwrite(b->s, 1, b->len, f) != b->len;
	bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "rdmaconf: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* The fleet section, with each node's results doc where it has one */
static void fleet(struct rc_str *b, const struct rc_jv *fl,
		  const struct run *runs, int n, const char **ids,
		  size_t nids, bool html)
{
	const struct rc_jv *nodes = rc_jv_get(fl, "nodes");
	const struct rc_jv **docs = calloc(nodes->n + 1, sizeof(*docs));
	size_t i;
	int r = 0;

	if (!docs)
		abort();
	for (i = 0; i < nodes->n && r < n; i++)
		if (rc_jv_str(&nodes->items[i], "results"))
			docs[i] = runs[r++].doc;
	rc_report_fleet(b, fl, docs, ids, nids, html);
	free(docs);
}

int rc_cmd_report(int argc, char **argv)
{
	struct option opts[RC_NOPTS + 1];
	char shortopts[3 * RC_NOPTS + 2];
	struct rc_str page = {}, md = {};
	const char *out = NULL, **ids, *fleet_dir = NULL;
	struct rc_jv *fl = NULL;
	char **paths, **fleet_files = NULL;
	struct run *runs;
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
			fprintf(stderr, "rdmaconf: usage: rdmaconf report "
				"RESULTS.json [MORE.json ...] -o DIR, or "
				"rdmaconf report --fleet DIR [-o DIR]\n");
			return RC_EXIT_USAGE;
		}
		out = optarg;
	}
	n = argc - optind;
	paths = argv + optind;
	if (fleet_dir) {
		if (n) {
			fprintf(stderr, "rdmaconf: report --fleet DIR takes its "
				"results files from DIR/fleet.json\n");
			return RC_EXIT_USAGE;
		}
		n = rc_fleet_load(fleet_dir, &fl, &fleet_files);
		if (n < 0) {
			rc_jv_free(fl);
			return RC_EXIT_ENV;
		}
		paths = fleet_files;
		if (!out)
			out = fleet_dir;
	}
	if (!out || (n < 1 && !fleet_dir)) {
		fprintf(stderr, "rdmaconf: report needs -o DIR and at least one "
			"results file\n");
		return RC_EXIT_USAGE;
	}
	runs = calloc(n ? n : 1, sizeof(*runs));
	if (!runs)
		abort();
	if (load_runs(n, paths, runs))
		goto out;
	if (mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "rdmaconf: cannot create %s: %s\n", out,
			strerror(errno));
		goto out;
	}
	ids = all_ids(runs, n, &nids);
	rc_str_printf(&page, "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
		      "<title>rdmaconf conformance report</title><style>%s"
		      "</style></head><body><h1>rdmaconf conformance report</h1>",
		      css);
	if (fl)
		fleet(&page, fl, runs, n, ids, nids, true);
	rc_str_printf(&page, "<h2>Devices and hosts</h2>");
	for (r = 0; r < n; r++)
		fingerprint(&page, &runs[r]);
	matrix(&page, runs, n, ids, nids);
	if (!fl)
		changes(&page, runs, n, ids, nids, true);
	breaks(&page, runs, n, true);
	details(&page, runs, n, ids, nids);
	rc_str_printf(&page, "<h2>Timing</h2><p>Each timed row: what it asks "
		      "for, against what each implementation took; the dashed "
		      "line is equality.</p>");
	for (r = 0; r < n; r++)
		plot(&page, &runs[r], r);
	rc_str_printf(&page, "<h2>Where the time goes</h2><p>Per "
		      "implementation, the time of the rows' processes; then the "
		      "%d slowest rows, both implementations added up.</p>",
		      SLOWEST);
	for (r = 0; r < n; r++)
		time_breakdown(&page, &runs[r], r);
	rc_str_printf(&page, "</body></html>\n");
	markdown(&md, runs, n, ids, nids);
	if (fl)
		fleet(&md, fl, runs, n, ids, nids, false);
	else
		changes(&md, runs, n, ids, nids, false);
	breaks(&md, runs, n, false);
	if (!write_file(out, "index.html", &page) &&
	    !write_file(out, "summary.md", &md)) {
		printf("report: %s/index.html %s/summary.md (%d results file%s, "
		       "%zu cases)\n", out, out, n, n == 1 ? "" : "s", nids);
		ret = fflush(stdout) || ferror(stdout) ? RC_EXIT_ENV :
		      RC_EXIT_OK;
	}
	free(ids);
out:
	for (r = 0; r < n; r++)
		rc_jv_free(runs[r].doc);
	free(runs);
	if (fleet_files)
		for (r = 0; fleet_files[r]; r++)
			free(fleet_files[r]);
	free(fleet_files);
	rc_jv_free(fl);
	rc_str_free(&page);
	rc_str_free(&md);
	return ret;
}

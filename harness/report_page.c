// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The report page's tables (HTML): each run's device and host, the
 * verdicts per call and per case, and each case worth a look with its
 * sentence, contract, observations and hex dumps.  Every string of a
 * results file goes through rc_str_html(); a verdict only as a word of
 * the vocabulary.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "rdmaconf.h"
#include "escape.h"
#include "report_doc.h"
#include "report_page.h"

const char rc_report_css[] =
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

void rc_report_fingerprint(struct rc_str *b, const struct rc_report_run *r)
{
	static const char *const dev_keys[] = {
		"name",	    "driver", "vendor_id",  "vendor_part_id",
		"hw_ver",   "fw_ver", "node_guid",  "node_type",
		"hca_type", "port",   "link_layer", "port_state",
		"gids"
	};
	static const char *const host_keys[] = {
		"kernel",      "machine",   "rdma_core",  "libibumad",
		"libibverbs",  "librdmacm", "ld_preload", "ld_library_path",
		"peer_device", "slowness"
	};
	const struct rc_jv *dev = rc_jv_get(r->doc, "device");
	const struct rc_jv *host = rc_jv_get(r->doc, "host");
	const struct rc_jv *sum = rc_jv_get(r->doc, "summary");
	const struct rc_jv *complete = rc_jv_get(r->doc, "complete");
	char v[1024];
	size_t i;

	rc_str_printf(b, "<h3>");
	rc_str_html(b, r->label);
	rc_str_printf(b, "</h3><p><code>");
	rc_str_html(b, r->path);
	rc_str_printf(b, "</code>%s</p><table>",
		      complete && complete->type == RC_JBOOL && !complete->b ?
			      " <b>(incomplete: the run was stopped)</b>" :
			      "");
	for (i = 0; i < ARRAY_SIZE(dev_keys); i++) {
		rc_str_printf(b, "<tr><th>device %s</th><td>", dev_keys[i]);
		rc_str_html(b, rc_report_text(dev, dev_keys[i], v, sizeof(v)));
		rc_str_printf(b, "</td></tr>");
	}
	for (i = 0; i < ARRAY_SIZE(host_keys); i++) {
		rc_str_printf(b, "<tr><th>host %s</th><td>", host_keys[i]);
		rc_str_html(b,
			    rc_report_text(host, host_keys[i], v, sizeof(v)));
		rc_str_printf(b, "</td></tr>");
	}
	rc_str_printf(b,
		      "<tr><th>summary</th><td>%g cases, %g ok, %g not ok, "
		      "%g diverge</td></tr></table>",
		      rc_jv_num(sum, "cases", 0), rc_jv_num(sum, "ok", 0),
		      rc_jv_num(sum, "not_ok", 0),
		      rc_jv_num(sum, "diverge", 0));
}

/* "3 PASS, 1 XFAIL" for one call, one run, one implementation; the
 * cell's colour is its worst verdict (vocab.h's rank) */
static void call_counts(struct rc_str *b, const struct rc_report_run *r,
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
		k = rc_verdict_parse(rc_case_verdict(c, impl));
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

void rc_report_matrix(struct rc_str *b, const struct rc_report_run *runs, int n,
		      const char **ids, size_t nids)
{
	const char **seen = calloc(nids ? nids : 1, sizeof(*seen));
	size_t i, j, nseen = 0;
	int r, k;

	if (!seen)
		abort();
	rc_str_printf(b, "<h2>Verdicts per call</h2><table><tr><th>call</th>");
	for (r = 0; r < n; r++)
		for (k = 0; k < RC_NIMPLS; k++) {
			rc_str_printf(b,
				      "<th>%s<br><small>%d: ", rc_impl_name(k),
				      r + 1);
			rc_str_html(b, runs[r].label);
			rc_str_printf(b, "</small></th>");
		}
	rc_str_printf(b, "</tr>");
	/* calls in the order their first case appears */
	for (i = 0; i < nids; i++) {
		const struct rc_jv *c = NULL;
		const char *call;

		for (r = 0; r < n && !c; r++)
			c = rc_report_find(&runs[r], ids[i]);
		call = rc_jv_str(c, "call");
		for (j = 0; j < nseen && call && strcmp(seen[j], call); j++)
			;
		if (!call || j < nseen)
			continue;
		seen[nseen++] = call;
		rc_str_printf(b, "<tr><td><code>");
		rc_str_html(b, call);
		rc_str_printf(b, "</code></td>");
		for (r = 0; r < n; r++)
			for (k = 0; k < RC_NIMPLS; k++)
				call_counts(b, &runs[r], call, k);
		rc_str_printf(b, "</tr>");
	}
	free(seen);
	rc_str_printf(b, "</table><h2>Verdicts per case</h2><table><tr>"
			 "<th>case</th>");
	for (r = 0; r < n; r++) {
		for (k = 0; k < RC_NIMPLS; k++)
			rc_str_printf(b, "<th>%s %d</th>", rc_impl_name(k),
				      r + 1);
		rc_str_printf(b, "<th>agree %d</th>", r + 1);
	}
	rc_str_printf(b, "</tr>");
	for (i = 0; i < nids; i++) {
		rc_str_printf(b, "<tr><td><a href=\"#");
		rc_str_html(b, ids[i]);
		rc_str_printf(b, "\"><code>");
		rc_str_html(b, ids[i]);
		rc_str_printf(b, "</code></a></td>");
		for (r = 0; r < n; r++) {
			const struct rc_jv *c =
				rc_report_find(&runs[r], ids[i]);
			const struct rc_jv *ag = rc_jv_get(c, "agree");

			for (k = 0; k < RC_NIMPLS; k++)
				rc_str_printf(b, "<td class=\"%s\">%s</td>",
					      rc_case_verdict(c, k),
					      rc_case_verdict(c, k));
			rc_str_printf(b, "<td%s>%s</td>",
				      ag && ag->type == RC_JBOOL && !ag->b ?
					      " class=\"DIV\"" :
					      "",
				      !ag || ag->type != RC_JBOOL ? "-" :
				      ag->b			  ? "yes" :
								    "DIVERGE");
		}
		rc_str_printf(b, "</tr>");
	}
	rc_str_printf(b, "</table>");
}

/* a results file's hex string is hex, or shows as '?' */
static char hexdigit(char c)
{
	return isxdigit((unsigned char)c) ? c : '?';
}

/* 16 bytes a line; bytes that differ from @other marked */
static void hexdump(struct rc_str *b, const char *hex, const char *other)
{
	size_t n = hex ? strlen(hex) / 2 : 0,
	       on = other ? strlen(other) / 2 : 0;
	size_t i;

	if (!n) {
		rc_str_printf(b, "<pre>(none)</pre>");
		return;
	}
	rc_str_printf(b, "<pre>");
	for (i = 0; i < n; i++) {
		bool diff = other &&
			    (i >= on || strncmp(hex + 2 * i, other + 2 * i, 2));

		if (i % 16 == 0)
			rc_str_printf(b, "%s%04zx:", i ? "\n" : "", i);
		rc_str_printf(b, diff ? " <mark>%c%c</mark>" : " %c%c",
			      hexdigit(hex[2 * i]), hexdigit(hex[2 * i + 1]));
	}
	rc_str_printf(b, "</pre>");
}

/* "-errno error, errno EINVAL, 200 ms +/- 80 ms" */
static void contract(struct rc_str *b, const struct rc_jv *exp)
{
	static const char *const keys[] = { "convention", "ret", "value" };
	char v[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		rc_str_html(b, rc_report_text(exp, keys[i], v, sizeof(v)));
		rc_str_printf(b, i + 1 < ARRAY_SIZE(keys) ? " " : "");
	}
	if (rc_report_text(exp, "errno", v, sizeof(v))[0]) {
		rc_str_printf(b, ", errno ");
		rc_str_html(b, v);
	}
	if (rc_report_text(exp, "ms", v, sizeof(v))[0]) {
		rc_str_printf(b, ", ");
		rc_str_html(b, v);
		rc_str_printf(b, " ms +/- ");
		rc_str_html(b, rc_report_text(exp, "tol_ms", v, sizeof(v)));
		rc_str_printf(b, " ms");
	}
}

static void observed(struct rc_str *b, const struct rc_jv *c,
		     enum rc_impl_id id, const char *cmp_hex)
{
	const char *impl = rc_impl_name(id);
	const struct rc_jv *o = rc_jv_get(c, impl);
	char key[64], v[256], e[64], ms[64];

	snprintf(key, sizeof(key), "%s_detail", impl);
	rc_str_printf(b, "<tr><th>%s</th><td class=\"%s\">%s</td><td>", impl,
		      rc_case_verdict(c, id), rc_case_verdict(c, id));
	rc_str_html(b, rc_jv_str(c, key));
	rc_str_printf(b, "</td><td>ret ");
	rc_str_html(b, rc_report_text(o, "ret", v, sizeof(v)));
	rc_str_printf(b, ", errno ");
	rc_str_html(b, rc_report_text(o, "errno", e, sizeof(e))[0] ? e : "-");
	rc_str_printf(b, ", ");
	rc_str_html(b, rc_report_text(o, "elapsed_ms", ms, sizeof(ms)));
	rc_str_printf(b, " ms");
	hexdump(b, rc_jv_str(o, "out"), cmp_hex);
	rc_str_printf(b, "</td></tr>");
}

/* A row of the details table: a profile entry @x, titled @title */
static void profile_entry(struct rc_str *b, const char *title,
			  const struct rc_jv *x)
{
	char v[512];

	if (!x || x->type != RC_JOBJ)
		return;
	rc_str_printf(b, "<tr><th>");
	rc_str_html(b, title);
	rc_str_printf(b, "</th><td colspan=3>");
	rc_str_html(b, rc_report_text(x, "kind", v, sizeof(v)));
	rc_str_printf(b, ": ");
	rc_str_html(b, rc_jv_str(x, "reason"));
	rc_str_printf(b, " <small>(");
	rc_str_html(b, rc_jv_str(x, "where"));
	rc_str_printf(b, ")</small></td></tr>");
}

void rc_report_details(struct rc_str *b, const struct rc_report_run *runs,
		       int n, const char **ids, size_t nids)
{
	size_t i;
	int r;

	rc_str_printf(b, "<h2>Failures, divergences and known deviations</h2>");
	for (i = 0; i < nids; i++)
		for (r = 0; r < n; r++) {
			const struct rc_jv *c =
				rc_report_find(&runs[r], ids[i]);
			const struct rc_jv *exp = rc_jv_get(c, "contract");
			const struct rc_jv *x = rc_jv_get(c, "profile_entry");
			const char *eout = rc_jv_str(exp, "out");
			const char *sout = rc_jv_str(
				rc_jv_get(c, rc_impl_name(RC_IMPL_SYSTEM)),
				"out");
			const char *rout = rc_jv_str(
				rc_jv_get(c, rc_impl_name(RC_IMPL_REFERENCE)),
				"out");

			if (!c || !rc_report_noteworthy(c))
				continue;
			rc_str_printf(b, "<h3 id=\"");
			rc_str_html(b, ids[i]);
			rc_str_printf(b, "\"><code>");
			rc_str_html(b, ids[i]);
			rc_str_printf(b, "</code> <small>(%d: ", r + 1);
			rc_str_html(b, runs[r].label);
			rc_str_printf(b, ")</small></h3><p class=\"doc\">");
			rc_str_html(b, rc_jv_str(c, "doc"));
			rc_str_printf(b, " <small>(basis: ");
			rc_str_html(b, rc_jv_str(c, "basis") ?
					       rc_jv_str(c, "basis") :
					       "not recorded");
			rc_str_printf(b, ")</small></p>");
			if (rc_jv_str(c, "note")) {
				rc_str_printf(b,
					      "<p>Note (the row's reading): ");
				rc_str_html(b, rc_jv_str(c, "note"));
				rc_str_printf(b, "</p>");
			}
			rc_str_printf(b, "<table><tr><th>contract</th>"
					 "<td colspan=3>");
			contract(b, exp);
			if (eout)
				hexdump(b, eout, NULL);
			rc_str_printf(b, "</td></tr>");
			observed(b, c, RC_IMPL_SYSTEM, eout ? eout : rout);
			observed(b, c, RC_IMPL_REFERENCE, eout ? eout : sout);
			if (rc_jv_str(c, "divergence")) {
				rc_str_printf(b, "<tr><th>divergence</th><td "
						 "colspan=3 class=\"DIV\">");
				rc_str_html(b, rc_jv_str(c, "divergence"));
				rc_str_printf(b, "</td></tr>");
			}
			profile_entry(b, "profile entry", x);
			profile_entry(b, "the reference's profile entry",
				      rc_jv_get(c, "reference_profile_entry"));
			if (rc_jv_str(c, "stale")) {
				rc_str_printf(b,
					      "<tr><th>STALE</th><td colspan=3 "
					      "class=\"FAIL\">");
				rc_str_html(b, rc_jv_str(c, "stale"));
				rc_str_printf(b, "</td></tr>");
			}
			rc_str_printf(b, "</table>");
		}
}

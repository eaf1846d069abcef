// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "escape.h"
#include "compare.h"
#include "report_changes.h"

void rc_report_change_row(struct rc_str *b, const char *id,
			  const struct rc_jv *was, const struct rc_jv *now,
			  enum rc_change ch, const char *why, bool html)
{
	int k;

	if (html) {
		rc_str_printf(b, "<tr><td>%s</td><td><a href=\"#",
			      rc_change_name(ch));
		rc_str_html(b, id);
		rc_str_printf(b, "\"><code>");
		rc_str_html(b, id);
		rc_str_printf(b, "</code></a></td>");
		for (k = 0; k < RC_NIMPLS; k++)
			rc_str_printf(b, "<td class=\"%s\">%s &rarr; %s</td>",
				      rc_case_verdict(now, k),
				      rc_case_verdict(was, k),
				      rc_case_verdict(now, k));
		rc_str_printf(b, "<td>");
		rc_str_html(b, why);
		rc_str_printf(b, "</td></tr>");
		return;
	}
	rc_str_printf(b, "| %s | ", rc_change_name(ch));
	rc_str_md(b, id);
	rc_str_printf(b, " | %s -> %s | %s -> %s | ",
		      rc_case_verdict(was, RC_IMPL_SYSTEM),
		      rc_case_verdict(now, RC_IMPL_SYSTEM),
		      rc_case_verdict(was, RC_IMPL_REFERENCE),
		      rc_case_verdict(now, RC_IMPL_REFERENCE));
	rc_str_md(b, why);
	rc_str_printf(b, " |\n");
}

void rc_report_change_table(struct rc_str *b, bool html)
{
	rc_str_printf(b, html ? "<table><tr><th>change</th><th>case</th>"
				"<th>system</th><th>reference</th>"
				"<th>why</th></tr>" :
				"\n| change | case | system | reference | why "
				"|\n|---|---|---|---|---|\n");
}

void rc_report_changes(struct rc_str *b, const char *const *labels,
		       const struct rc_jv *const *results, int n,
		       const bool *elsewhere, const char **ids, size_t nids,
		       bool html)
{
	unsigned int changed;
	const char *why;
	size_t i;
	int r;

	if (n < 2)
		return;
	rc_str_printf(
		b,
		html ? "<h2>What changed</h2><p>From each column to "
		       "the next, every case whose verdict changed, judged as "
		       "<code>rdmaconf gate</code> does.</p>" :
		       "\n## What changed\n");
	for (r = 1; r < n; r++) {
		changed = 0;
		if (html) {
			rc_str_printf(b, "<h3>%d &rarr; %d</h3><p>", r, r + 1);
			rc_str_html(b, labels[r - 1]);
			rc_str_printf(b, " &rarr; ");
			rc_str_html(b, labels[r]);
			rc_str_printf(b, "</p>");
		} else {
			rc_str_printf(b, "\n### %d -> %d: ", r, r + 1);
			rc_str_md(b, labels[r - 1]);
			rc_str_printf(b, " -> ");
			rc_str_md(b, labels[r]);
			rc_str_printf(b, "\n");
		}
		if (elsewhere && elsewhere[r]) {
			rc_str_printf(b,
				      html ? "<p>Another provider: see "
					     "<a href=\"#providers\">Where "
					     "the providers differ</a>.</p>" :
					     "\nAnother provider: see Where "
					     "the providers differ.\n");
			continue;
		}
		rc_report_change_table(b, html);
		for (i = 0; i < nids; i++) {
			const struct rc_jv *was =
				rc_results_find(results[r - 1], ids[i]);
			const struct rc_jv *now =
				rc_results_find(results[r], ids[i]);
			enum rc_change ch;

			if (!was && !now)
				continue;
			ch = rc_compare_case(was, now, &why);
			if (ch == RC_SAME)
				continue;
			rc_report_change_row(b, ids[i], was, now, ch, why,
					     html);
			changed++;
		}
		if (html)
			rc_str_printf(b, "</table>%s",
				      changed ? "" : "<p>Nothing changed.</p>");
		else if (!changed)
			rc_str_printf(b, "\nNothing changed.\n");
	}
}

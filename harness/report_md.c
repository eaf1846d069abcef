// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The report's Markdown summary: each run's counts, and the cases worth a
 * look with their verdicts.  Every string of a results file goes through
 * rc_str_md().
 */
#include <stdio.h>

#include "compare.h"
#include "rdmaconf.h"
#include "escape.h"
#include "report_doc.h"
#include "report_page.h"
#include "report_verdict.h"

void rc_report_markdown(struct rc_str *b, const struct rc_report_run *runs,
			int n, const char **ids, size_t nids)
{
	size_t i;
	int r;

	rc_str_printf(b, "# rdmaconf conformance report\n\n");
	rc_report_verdict(b, runs, n, false);
	rc_str_printf(b, "\n## Cases\n\n");
	for (r = 0; r < n; r++) {
		const struct rc_jv *sum = rc_jv_get(runs[r].doc, "summary");

		rc_str_printf(b, "%d. ", r + 1);
		rc_str_md(b, runs[r].label);
		rc_str_printf(b, ": %g cases, %g ok, %g not ok, %g diverge (",
			      rc_jv_num(sum, "cases", 0),
			      rc_jv_num(sum, "ok", 0),
			      rc_jv_num(sum, "not_ok", 0),
			      rc_jv_num(sum, "diverge", 0));
		rc_str_md(b, runs[r].path);
		rc_str_printf(b, ")\n");
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
			const struct rc_jv *c =
				rc_report_find(&runs[r], ids[i]);

			any |= c && rc_report_noteworthy(c);
		}
		if (!any)
			continue;
		rc_str_printf(b, "| ");
		rc_str_md(b, ids[i]);
		rc_str_printf(b, " |");
		for (r = 0; r < n; r++) {
			const struct rc_jv *c =
				rc_report_find(&runs[r], ids[i]);

			rc_str_printf(b, " %s | %s |",
				      rc_case_verdict(c, RC_IMPL_SYSTEM),
				      rc_case_verdict(c, RC_IMPL_REFERENCE));
		}
		rc_str_printf(b, "\n");
	}
	rc_str_printf(b, "\nEvery other case passes on both implementations. "
			 "Details, hex dumps and timing plots: index.html.\n");
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The conformance verdict per implementation and results file: how many
 * cases it conforms in, how many it breaks by what the row rests on (only
 * a documented row's sentence says what it requires), how many of those
 * no profile records (new), how many did not run.  The same counts the
 * run's summary keeps (summary.c), read back from the cases themselves so
 * that a results file of any schema opens the same way.
 */
#include <stdio.h>

#include "compare.h"
#include "escape.h"
#include "report_verdict.h"

void rc_report_conformance(const struct rc_report_run *run,
			   enum rc_impl_id impl, struct rc_conformance *c)
{
	size_t i;

	*c = (struct rc_conformance){ 0 };
	for (i = 0; run->results && i < run->results->n; i++) {
		const struct rc_jv *k = &run->results->items[i];
		int v = rc_verdict_parse(rc_case_verdict(k, impl));
		int basis = rc_basis_parse(rc_jv_str(k, "basis"));

		if (v < 0)
			continue; /* not run on this implementation */
		if (v == RC_PASS)
			c->conforms++;
		else if (!rc_verdict_ran(v))
			c->not_run++;
		if (!rc_verdict_breaks(v))
			continue;
		/* a row written before rows had a basis rests on its page */
		c->breaks[basis > RC_BASIS_NONE ? basis : RC_BASIS_DOCUMENTED]++;
		if (v != RC_XFAIL)
			c->fresh++;
	}
}

static void sentence(struct rc_str *b, const struct rc_conformance *c)
{
	unsigned int all = 0;
	int k;

	rc_str_printf(b, "conforms in %u case%s", c->conforms,
		      c->conforms == 1 ? "" : "s");
	for (k = RC_BASIS_DOCUMENTED; k < RC_NBASES; k++) {
		rc_str_printf(b, "%s %s in %u",
			      k == RC_BASIS_DOCUMENTED ? "; breaks" : ",",
			      rc_basis_short(k), c->breaks[k]);
		all += c->breaks[k];
	}
	if (all)
		rc_str_printf(b, "; %u of them new (in no profile)", c->fresh);
	if (c->not_run)
		rc_str_printf(b, "; %u did not run here", c->not_run);
}

void rc_report_verdict(struct rc_str *b, const struct rc_report_run *runs,
		       int n, bool html)
{
	struct rc_conformance c;
	int r, i;

	rc_str_printf(b, html ? "<h2>Verdict</h2><ul>" : "## Verdict\n\n");
	for (r = 0; r < n; r++)
		for (i = 0; i < RC_NIMPLS; i++) {
			rc_report_conformance(&runs[r], i, &c);
			rc_str_printf(
				b, html ? "<li><b>%s</b> on " : "- **%s** on ",
				rc_impl_name(i));
			rc_str_text(b, html, runs[r].label);
			rc_str_printf(b, n > 1 ? " (%d): " : ": ", r + 1);
			sentence(b, &c);
			rc_str_printf(b, html ? ".</li>" : ".\n");
		}
	/* what a break is, from the table (vocab.h), never a list here */
	rc_str_printf(b, html ? "</ul><p>A break is " : "\nA break is ");
	for (i = 0, r = 0; i < RC_NVERDICTS; i++)
		if (rc_verdict_breaks(i))
			rc_str_printf(b, "%s%s", r++ ? ", " : "",
				      rc_verdict_name(i));
	rc_str_printf(b,
		      ", counted by the basis of the row; one that a "
		      "profile records is not new.%s",
		      html ? "</p>" : "\n");
}

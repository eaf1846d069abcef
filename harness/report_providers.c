// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "escape.h"
#include "report_changes.h"
#include "report_providers.h"

static const char *driver_of(const struct rc_report_run *r)
{
	return rc_jv_str(rc_jv_get(r->doc, "device"), "driver");
}

bool rc_report_providers_differ(const struct rc_report_run *a,
				const struct rc_report_run *b)
{
	const char *x = driver_of(a), *y = driver_of(b);

	return x && y && *x && *y && strcmp(x, y);
}

/* Did any implementation run case @c? */
static bool ran_any(const struct rc_jv *c)
{
	int k;

	for (k = 0; k < RC_NIMPLS; k++)
		if (rc_case_ran(c, k))
			return true;
	return false;
}

/* Why no implementation ran case @c: the first detail given */
static const char *not_run_cause(const struct rc_jv *c)
{
	const char *d = rc_jv_str(c, "system_detail");

	if (!d || !*d)
		d = rc_jv_str(c, "reference_detail");
	return d && *d ? d : rc_case_verdict(c, RC_IMPL_SYSTEM);
}

/* The cases one column ran and the other did not, by cause */
struct only_one {
	const char *cause;
	int side; /* the column that did not run them: 0 or 1 */
	const char *first; /* one of them, for the reader to look up */
	unsigned int n;
};

struct tally {
	struct only_one *v;
	size_t n;
};

static void count(struct tally *t, const char *cause, int side, const char *id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].side == side && !strcmp(t->v[i].cause, cause)) {
			t->v[i].n++;
			return;
		}
	t->v = realloc(t->v, (t->n + 1) * sizeof(*t->v));
	if (!t->v)
		abort();
	t->v[t->n++] = (struct only_one){ cause, side, id, 1 };
}

static void heading(struct rc_str *b, const struct rc_report_run *x,
		    const struct rc_report_run *y, int r, bool html)
{
	if (html) {
		rc_str_printf(b, "<h3>%d &rarr; %d: ", r, r + 1);
		rc_str_html(b, driver_of(x));
		rc_str_printf(b, " &rarr; ");
		rc_str_html(b, driver_of(y));
		rc_str_printf(b, "</h3><p>");
		rc_str_html(b, x->label);
		rc_str_printf(b, " &rarr; ");
		rc_str_html(b, y->label);
		rc_str_printf(b, "</p>");
		rc_report_change_table(b, html);
		return;
	}
	rc_str_printf(b, "\n### %d -> %d: ", r, r + 1);
	rc_str_md(b, driver_of(x));
	rc_str_printf(b, " -> ");
	rc_str_md(b, driver_of(y));
	rc_str_printf(b, "\n\n");
	rc_str_md(b, x->label);
	rc_str_printf(b, " -> ");
	rc_str_md(b, y->label);
	rc_str_printf(b, "\n");
	rc_report_change_table(b, html);
}

static void only_one_ran(struct rc_str *b, const struct tally *t,
			 const struct rc_report_run *pair[2], bool html)
{
	size_t i;

	if (!t->n)
		return;
	rc_str_printf(b, html ? "<p>Run by one provider only, by the other's "
				"cause:</p><ul>" :
				"\nRun by one provider only, by the other's "
				"cause:\n\n");
	for (i = 0; i < t->n; i++) {
		const struct only_one *o = &t->v[i];

		rc_str_printf(b,
			      html ? "<li>%u not run on " : "- %u not run on ",
			      o->n);
		rc_str_text(b, html, driver_of(pair[o->side]));
		rc_str_printf(b, ": ");
		rc_str_text(b, html, o->cause);
		rc_str_printf(b, html ? " (<code>" : " (");
		rc_str_text(b, html, o->first);
		rc_str_printf(b, html ? "</code>%s)</li>" : "%s)\n",
			      o->n > 1 ? ", ..." : "");
	}
	if (html)
		rc_str_printf(b, "</ul>");
}

static void pair_section(struct rc_str *b, const struct rc_report_run *x,
			 const struct rc_report_run *y, int r, const char **ids,
			 size_t nids, bool html)
{
	const struct rc_report_run *pair[2] = { x, y };
	struct tally t = { 0 };
	unsigned int listed = 0;
	const char *why;
	size_t i;

	heading(b, x, y, r, html);
	for (i = 0; i < nids; i++) {
		const struct rc_jv *was = rc_results_find(x->results, ids[i]);
		const struct rc_jv *now = rc_results_find(y->results, ids[i]);
		enum rc_change ch;

		if (!was && !now)
			continue;
		if (was && now && ran_any(was) != ran_any(now)) {
			count(&t, not_run_cause(ran_any(was) ? now : was),
			      ran_any(was) ? 1 : 0, ids[i]);
			continue;
		}
		ch = rc_compare_case(was, now, &why);
		if (ch == RC_SAME)
			continue;
		rc_report_change_row(b, ids[i], was, now, ch, why, html);
		listed++;
	}
	if (html)
		rc_str_printf(b, "</table>%s",
			      listed ? "" : "<p>No case both ran differs.</p>");
	else if (!listed)
		rc_str_printf(b, "\nNo case both ran differs.\n");
	only_one_ran(b, &t, pair, html);
	free(t.v);
}

void rc_report_providers(struct rc_str *b, const struct rc_report_run *runs,
			 int n, const char **ids, size_t nids, bool html)
{
	bool any = false;
	int r;

	for (r = 1; r < n; r++) {
		if (!rc_report_providers_differ(&runs[r - 1], &runs[r]))
			continue;
		if (!any)
			rc_str_printf(
				b, html ? "<h2 id=\"providers\">Where the "
					  "providers differ</h2>"
					  "<p>From a column to the next on "
					  "another provider, every case both "
					  "ran whose verdict changed, judged "
					  "as <code>rdmaconf gate</code> "
					  "does; then those only one ran.</p>" :
					  "\n## Where the providers differ\n");
		any = true;
		pair_section(b, &runs[r - 1], &runs[r], r, ids, nids, html);
	}
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The report's timing figures (SVG in the page): where each run's time
 * goes, and requested against observed durations of the timed rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdmaconf.h"
#include "escape.h"
#include "report_doc.h"
#include "report_page.h"

/*
 * Where a run's time goes: per implementation, the rows' set-up, calls and
 * checks (the summary's sums), then the slowest rows as stacked bars of
 * the same three phases, both implementations added up.
 */

static const char *const phases[] = { "setup_ms", "elapsed_ms", "teardown_ms" };
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

void rc_report_time_breakdown(struct rc_str *b, const struct rc_report_run *r,
			      int idx)
{
	const struct rc_jv *top[RC_REPORT_SLOWEST] = {}, **all,
			   *sum = rc_jv_get(r->doc, "summary");
	size_t nall = 0;
	const int w = 760, bar = 16, label = 330;
	char key[32];
	size_t i, k;
	double max;
	int n = 0, p;

	rc_str_printf(b, "<h3>%d: ", idx + 1);
	rc_str_html(b, r->label);
	rc_str_printf(b, "</h3><table><tr><th></th><th>in rows</th>");
	for (p = 0; p < 3; p++)
		rc_str_printf(b, "<th>%s</th>", phase_names[p]);
	rc_str_printf(b, "</tr>");
	for (k = 0; k < RC_NIMPLS; k++) {
		const struct rc_jv *t;

		snprintf(key, sizeof(key), "%s_ms", rc_impl_name(k));
		t = rc_jv_get(sum, key);
		rc_str_printf(b,
			      "<tr><td>%s</td><td>%.0f ms</td><td>%.0f ms</td>"
			      "<td>%.0f ms</td><td>%.0f ms</td></tr>",
			      rc_impl_name(k), rc_jv_num(t, "rows", 0),
			      rc_jv_num(t, "setup", 0), rc_jv_num(t, "call", 0),
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
	for (i = 0; i < nall && n < RC_REPORT_SLOWEST; i++)
		top[n++] = all[i];
	free(all);
	if (!n)
		return;
	max = row_ms(top[0]);
	rc_str_printf(b,
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		      "width=\"%d\" height=\"%d\" font-size=\"11\">",
		      w, (n + 1) * bar + 8);
	for (i = 0; i < (size_t)n; i++) {
		double x = label;

		rc_str_printf(b, "<text x=\"0\" y=\"%zu\">", i * bar + 12);
		rc_str_html(b, rc_jv_str(top[i], "id"));
		rc_str_printf(b, "</text>");
		for (p = 0; p < 3; p++) {
			double len =
				phase_of(top[i], p) / max * (w - label - 60);

			rc_str_printf(b,
				      "<rect x=\"%.1f\" y=\"%zu\" "
				      "width=\"%.1f\" height=\"%d\" "
				      "fill=\"%s\"/>",
				      x, i * bar + 2, len, bar - 4,
				      phase_colours[p]);
			x += len;
		}
		rc_str_printf(b, "<text x=\"%.1f\" y=\"%zu\">%.0f ms</text>",
			      x + 4, i * bar + 12, row_ms(top[i]));
	}
	for (p = 0; p < 3; p++)
		rc_str_printf(b,
			      "<rect x=\"%d\" y=\"%d\" width=\"10\" "
			      "height=\"10\" fill=\"%s\"/><text x=\"%d\" "
			      "y=\"%d\">%s</text>",
			      label + p * 130, n * bar + 2, phase_colours[p],
			      label + p * 130 + 14, n * bar + 11,
			      phase_names[p]);
	rc_str_printf(b, "</svg>");
}

/* Requested against observed duration of every timed row, per run. */
void rc_report_plot(struct rc_str *b, const struct rc_report_run *r, int idx)
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
	rc_str_printf(b,
		      "<h3>Timed rows, run %d</h3><svg xmlns=\"http://www."
		      "w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		      "font-size=\"11\"><rect width=\"%d\" height=\"%d\" "
		      "fill=\"white\" stroke=\"#ccc\"/>",
		      idx + 1, w, h, w, h);
	rc_str_printf(b,
		      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		      "stroke=\"#000\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		      "y2=\"%d\" stroke=\"#000\"/>",
		      m, h - m, w - m, h - m, m, h - m, m, m);
	rc_str_printf(b,
		      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		      "stroke=\"#999\" stroke-dasharray=\"4\"/>",
		      X(0.0), Y(0.0), X(max), Y(max));
	for (t = 0; t <= 4; t++) {
		double v = max * t / 4;

		rc_str_printf(
			b,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			"%.0f</text><text x=\"%d\" y=\"%.1f\" text-anchor="
			"\"end\">%.0f</text>",
			X(v), h - m + 15, v, m - 4, Y(v) + 4, v);
	}
	rc_str_printf(b,
		      "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		      "requested ms (the row's contract)</text>"
		      "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
		      "text-anchor=\"middle\">observed ms</text>",
		      w / 2, h - 12, h / 2, h / 2);
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
			rc_str_printf(
				b,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
				"fill=\"%s\" fill-opacity=\"0.6\"><title>",
				X(req) + (k ? 3 : -3), Y(obs),
				k ? "#2a7" : "#c33");
			rc_str_html(b, rc_jv_str(c, "id"));
			rc_str_printf(b, " %s: %.1f ms</title></circle>",
				      rc_impl_name(k), obs);
		}
	}
	rc_str_printf(
		b,
		"<circle cx=\"%d\" cy=\"20\" r=\"4\" fill=\"#c33\"/>"
		"<text x=\"%d\" y=\"24\">system</text><circle cx=\"%d\" "
		"cy=\"36\" r=\"4\" fill=\"#2a7\"/><text x=\"%d\" y=\"40\">"
		"reference</text></svg>",
		m + 10, m + 18, m + 10, m + 18);
#undef X
#undef Y
}

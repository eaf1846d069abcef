// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The counts a run ends with, in the results JSON and on the last KTAP
 * line.  Failures are counted by the basis of the row that saw them, so
 * that "breaks the man page" never includes a row that follows Linux's
 * ABI or our own reading of a silent page.
 */
#include <stdio.h>

#include "output.h"

/* a row not ok, named among the first few */
static void add_bad(struct rc_summary *s, const char *id)
{
	if (s->bad < RC_SUMMARY_BAD_IDS)
		s->bad_ids[s->bad] = id;
	s->bad++;
}

void rc_summary_add(struct rc_summary *s, const struct rc_case *c,
		    const struct rc_row_result *r)
{
	int i;

	for (i = 0; i < RC_NIMPLS; i++) {
		const struct rc_obs *o = &r->oc[i].obs;

		if (!r->oc[i].selected)
			continue;
		s->rows_ms[i] += o->total_ms;
		if (o->state == RC_STATE_RAN) {
			s->setup_ms[i] += o->setup_ms;
			s->call_ms[i] += o->elapsed_ms;
			s->teardown_ms[i] += rc_obs_teardown_ms(o);
		}
		s->count[i][r->oc[i].j.verdict]++;
		if (rc_verdict_breaks(r->oc[i].j.verdict) &&
		    c->basis < RC_NBASES)
			s->breaks[i][c->basis]++;
	}
	s->cases++;
	s->ran += r->anyran;
	s->stale += r->stale[0] != 0;
	s->conforms_now += r->conforms_now;
	s->by_profile += r->by_profile;
	s->diverge += r->agree == 0;
	s->agree += r->agree == 1;
	if (r->bad)
		add_bad(s, c->id);
	else
		s->ok++;
}

void rc_summary_add_orphan(struct rc_summary *s, const char *id)
{
	s->stale++;
	add_bad(s, id);
}

void rc_summary_json(struct rc_str *b, const struct rc_summary *s)
{
	int i, v;

	rc_str_printf(b,
		      "{\"cases\": %u, \"ok\": %u, \"not_ok\": %u, "
		      "\"agree\": %u, \"diverge\": %u, \"stale\": %u, "
		      "\"conforms_now\": %u, \"not_run_by_profile\": %u",
		      s->cases, s->ok, s->bad, s->agree, s->diverge, s->stale,
		      s->conforms_now, s->by_profile);
	for (i = 0; i < RC_NIMPLS; i++) {
		rc_str_printf(b, ", \"%s\": {", rc_impl_name(i));
		for (v = 0; v < RC_NVERDICTS; v++)
			rc_str_printf(b, "%s\"%s\": %u", v ? ", " : "",
				      rc_verdict_name(v), s->count[i][v]);
		rc_str_printf(b,
			      "}, \"%s_ms\": {\"setup\": %.1f, \"call\": "
			      "%.1f, \"teardown\": %.1f, \"rows\": %.1f",
			      rc_impl_name(i), s->setup_ms[i], s->call_ms[i],
			      s->teardown_ms[i], s->rows_ms[i]);
		rc_str_printf(b, "}, \"%s_breaks\": {", rc_impl_name(i));
		for (v = RC_BASIS_DOCUMENTED; v < RC_NBASES; v++)
			rc_str_printf(b, "%s\"%s\": %u",
				      v > RC_BASIS_DOCUMENTED ? ", " : "",
				      rc_basis_name(v), s->breaks[i][v]);
		rc_str_printf(b, "}");
	}
	rc_str_printf(b, "}");
}

void rc_summary_ktap(FILE *f, const struct rc_summary *s,
		     const bool impl[RC_NIMPLS])
{
	const unsigned int *k;
	int i;

	for (i = 0; i < RC_NIMPLS; i++)
		if (impl[i])
			fprintf(f,
				"# %s time: %.0f ms in rows: set-up %.0f, "
				"calls %.0f, checks and clean-up %.0f\n",
				rc_impl_name(i), s->rows_ms[i], s->setup_ms[i],
				s->call_ms[i], s->teardown_ms[i]);
	for (i = 0; i < RC_NIMPLS; i++)
		if (impl[i])
			fprintf(f,
				"# %s breaks: the man page %u, Linux's ABI "
				"%u, our reading %u\n",
				rc_impl_name(i),
				s->breaks[i][RC_BASIS_DOCUMENTED],
				s->breaks[i][RC_BASIS_LINUX],
				s->breaks[i][RC_BASIS_INTERPRETATION]);
	for (i = 0; i < (int)s->bad && i < RC_SUMMARY_BAD_IDS; i++)
		fprintf(f, "%s%s", i ? ", " : "# not ok: ", s->bad_ids[i]);
	if (s->bad > RC_SUMMARY_BAD_IDS)
		fprintf(f, " and %u more", s->bad - RC_SUMMARY_BAD_IDS);
	if (s->bad)
		fprintf(f, "\n");
	fprintf(f,
		"# rdmaconf: %u cases: %u ok, %u not ok, %u diverge, "
		"%u stale",
		s->cases, s->ok, s->bad, s->diverge, s->stale);
	if (s->conforms_now)
		fprintf(f, " (%u now conform: update the profile)",
			s->conforms_now);
	if (s->by_profile)
		fprintf(f, ", %u not run by profile", s->by_profile);
	for (i = 0; i < RC_NIMPLS; i++) {
		if (!impl[i])
			continue;
		k = s->count[i];
		fprintf(f,
			"; %s %u pass %u fail %u xfail %u skip "
			"%u unsupported %u absent %u crash %u hang",
			rc_impl_name(i), k[RC_PASS], k[RC_FAIL], k[RC_XFAIL],
			k[RC_SKIP], k[RC_UNSUPPORTED], k[RC_ABSENT],
			k[RC_CRASH], k[RC_HANG]);
	}
	fprintf(f, "\n");
}

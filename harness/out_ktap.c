// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A row as KTAP (kselftest's grammar): "ok N id", "ok N id # SKIP why",
 * "ok N id # XFAIL why", "not ok N id", then diagnostic lines: each
 * implementation's verdict where it is not a plain PASS, the divergence,
 * a stale profile entry, and for a row that is not ok its sentence and
 * both sides of a byte mismatch.
 */
#include <string.h>

#include "diff.h"
#include "escape.h"
#include "output.h"

static void dump(FILE *f, const struct rc_case *c, const struct rc_outcome *oc)
{
	uint8_t want[RC_OUT_MAX];
	int i;

	for (i = 0; i < RC_NIMPLS; i++) {
		/* a violated property (rc_obs_violation) has no expected bytes */
		if (!oc[i].selected || oc[i].j.kind != RC_FAIL_OUTPUT ||
		    !c->contract.out)
			continue;
		rc_bytes_build(c->contract.out, want);
		fprintf(f, "# %s: expected\n", rc_impl_name(i));
		rc_hexdump(f, "#   ", want, oc[i].obs.out,
			   c->contract.out->len);
		fprintf(f, "# %s: observed\n", rc_impl_name(i));
		rc_hexdump(f, "#   ", oc[i].obs.out, want, oc[i].obs.out_len);
	}
	if (oc[0].selected && oc[1].selected &&
	    oc[0].obs.out_len == oc[1].obs.out_len &&
	    memcmp(oc[0].obs.out, oc[1].obs.out, oc[0].obs.out_len) &&
	    !(oc[0].j.kind == RC_FAIL_OUTPUT ||
	      oc[1].j.kind == RC_FAIL_OUTPUT)) {
		fprintf(f, "# system output\n");
		rc_hexdump(f, "#   ", oc[0].obs.out, oc[1].obs.out,
			   oc[0].obs.out_len);
		fprintf(f, "# reference output\n");
		rc_hexdump(f, "#   ", oc[1].obs.out, oc[0].obs.out,
			   oc[1].obs.out_len);
	}
}

/* The rest of a KTAP line: what the implementation under test said
 * (through a verdict's message) cannot break the stream into lines or
 * reach the terminal. */
static void line(FILE *f, const char *s)
{
	rc_term_put(f, s);
	fputc('\n', f);
}

void rc_ktap_row(FILE *f, unsigned int n, const struct rc_case *c,
		 const struct rc_row_result *r)
{
	const struct rc_outcome *oc = r->oc;
	int i;

	if (!r->bad && !r->anyran) {
		const struct rc_outcome *first = oc[0].selected ? &oc[0] :
								  &oc[1];

		fprintf(f, "ok %u %s # SKIP %s", n, c->id,
			r->by_profile ? "not run, by profile: " : "");
		line(f, first->j.msg);
	} else if (!r->bad && r->x && r->x->kind != RC_ENTRY_SKIP) {
		fprintf(f, "ok %u %s # XFAIL ", n, c->id);
		line(f, r->x->reason);
	} else {
		fprintf(f, "%s %u %s\n", r->bad ? "not ok" : "ok", n, c->id);
	}
	for (i = 0; i < RC_NIMPLS; i++)
		if (oc[i].selected && (r->bad || oc[i].j.verdict != RC_PASS)) {
			fprintf(f, "# %s: %s%s", rc_impl_name(i),
				rc_verdict_name(oc[i].j.verdict),
				oc[i].j.msg[0] ? " - " : "");
			line(f, oc[i].j.msg);
		}
	for (i = 0; i < RC_NIMPLS; i++)
		if (oc[i].first_ms)
			fprintf(f,
				"# %s: took %.1f ms beside other rows, out of "
				"its time tolerance: ran again alone (%.1f ms)\n",
				rc_impl_name(i), oc[i].first_ms,
				oc[i].obs.elapsed_ms);
	if (r->agree == 0) {
		fprintf(f, "# DIVERGE%s: ",
			r->expected_divergence ? " (expected)" : "");
		line(f, r->why);
	}
	if (r->stale[0]) {
		fprintf(f, "# STALE: ");
		line(f, r->stale);
	}
	if (r->bad) {
		fprintf(f, "# doc (%s): ", rc_basis_name(c->basis));
		line(f, c->doc);
		dump(f, c, oc);
	}
}

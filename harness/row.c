// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One row's result from its outcomes: each implementation's verdict
 * (verdict.c), whether the two agree, what a DIVERGE entry or a stale
 * entry does to the row, and whether the row is ok.
 */
#include <stdio.h>
#include <string.h>

#include "conv.h"
#include "diff.h"
#include "row.h"

/*
 * Return value, errno (where the call's convention reports one), output
 * bytes, and timing class (in or out of the row's tolerance) are
 * compared; absolute times never are.
 */
bool rc_agree(const struct rc_group *g, const struct rc_case *c,
	      const struct rc_obs *a, const struct rc_obs *b, double slowness,
	      char *why, size_t len)
{
	const struct rc_contract *e = &c->contract;
	int ea, eb;
	bool fa = rc_conv_failed(g->conv, a->ret, a->err, &ea);
	bool fb = rc_conv_failed(g->conv, b->ret, b->err, &eb);
	bool comparable = rc_conv_ret_comparable(g->conv, fa, fb);
	char fields[256];

	why[0] = 0;
	if (comparable && a->ret != b->ret) {
		snprintf(why, len, "return value %lld vs %lld", a->ret, b->ret);
		return false;
	}
	if (comparable && fa && fb && ea != eb) {
		snprintf(why, len, "errno %s vs %s", rc_errno_name(ea),
			 rc_errno_name(eb));
		return false;
	}
	if (a->out_len != b->out_len) {
		snprintf(why, len, "output length %u vs %u", a->out_len,
			 b->out_len);
		return false;
	}
	if (memcmp(a->out, b->out, a->out_len)) {
		rc_diff_fields(e->layout, a->out, b->out, a->out_len, fields,
			       sizeof(fields));
		snprintf(why, len, "output bytes differ in %s", fields);
		return false;
	}
	if (e->tol_ms &&
	    rc_within_tolerance(e, a->elapsed_ms, slowness) !=
		    rc_within_tolerance(e, b->elapsed_ms, slowness)) {
		snprintf(why, len, "timing class: %.1f ms vs %.1f ms",
			 a->elapsed_ms, b->elapsed_ms);
		return false;
	}
	return true;
}

/* The call's fastest time in the run, this row's returned calls
 * included; < 0 where the row is not judged for blocking (a documented
 * wait) or the run keeps no times. */
static double fastest_so_far(const struct rc_group *g, const struct rc_case *c,
			     struct rc_call_times *t,
			     const struct rc_row_result *r)
{
	double *fastest = NULL;
	unsigned int k;
	int i;

	if (!t || c->contract.tol_ms)
		return -1;
	for (k = 0; k < t->n && !fastest; k++)
		if (!strcmp(t->call[k], g->call))
			fastest = &t->fastest[k];
	if (!fastest) {
		if (t->n == ARRAY_SIZE(t->call))
			return -1;
		t->call[t->n] = g->call;
		t->fastest[t->n] = -1;
		fastest = &t->fastest[t->n++];
	}
	for (i = 0; i < RC_NIMPLS; i++) {
		const struct rc_obs *o = &r->oc[i].obs;

		if (r->oc[i].selected && o->state == RC_STATE_RAN &&
		    (*fastest < 0 || o->elapsed_ms < *fastest))
			*fastest = o->elapsed_ms;
	}
	return *fastest;
}

void rc_row_decide(const struct rc_group *g, const struct rc_case *c,
		   const struct rc_profile_entry *const *xs, double slowness,
		   struct rc_call_times *times, struct rc_row_result *r)
{
	struct rc_verdict_in in = { .slowness = slowness,
				    .fastest_ms =
					    fastest_so_far(g, c, times, r) };
	struct rc_outcome *a = &r->oc[RC_IMPL_SYSTEM];
	struct rc_outcome *b = &r->oc[RC_IMPL_REFERENCE];
	const struct rc_profile_entry *x;
	bool worse = false, expected = false;
	int i;

	r->x = xs ? xs[RC_IMPL_SYSTEM] : NULL;
	r->x_ref = xs ? xs[RC_IMPL_REFERENCE] : NULL;
	if (!r->x)
		r->x = r->x_ref;
	if (r->x_ref == r->x)
		r->x_ref = NULL;
	x = r->x;
	r->stale[0] = 0;
	r->conforms_now = false;
	r->anyran = false;
	for (i = 0; i < RC_NIMPLS; i++) {
		struct rc_judgement *j = &r->oc[i].j;

		in.impl = i;
		in.entry = xs ? xs[i] : NULL;
		expected |= in.entry && (in.entry->kind == RC_ENTRY_XFAIL ||
					 in.entry->kind == RC_ENTRY_DIVERGE);
		rc_verdict_decide(g, c, &r->oc[i], &in, j);
		if (!r->oc[i].selected)
			continue;
		if (j->stale[0] && !r->stale[0])
			memcpy(r->stale, j->stale, sizeof(r->stale));
		r->conforms_now |= j->conforms_now;
		/* XPASS is the entry's fault, counted as stale */
		if (j->verdict != RC_XPASS)
			worse |= rc_verdict_bad(j->verdict);
		r->anyran |= rc_verdict_ran(j->verdict);
	}
	r->agree = -1;
	r->why[0] = 0;
	if (a->selected && b->selected && a->j.judged && b->j.judged)
		r->agree = rc_agree(g, c, &a->obs, &b->obs, slowness, r->why,
				    sizeof(r->why));
	/* what one does wrong, the other need not; and a DIVERGE entry
	 * goes stale when the two agree */
	r->expected_divergence = expected;
	if (x && x->kind == RC_ENTRY_DIVERGE && r->agree == 1) {
		r->conforms_now = true;
		snprintf(r->stale, sizeof(r->stale),
			 "now agrees: update the "
			 "profile (%s expects a divergence, but the "
			 "implementations agree)",
			 x->where);
	}
	/* everything wrong with the row but a profile that is out of date
	 * because the implementation now conforms */
	worse |= (r->agree == 0 && !r->expected_divergence) ||
		 (r->stale[0] && !r->conforms_now);
	r->conforms_now &= !worse;
	r->bad = worse || r->conforms_now;
}

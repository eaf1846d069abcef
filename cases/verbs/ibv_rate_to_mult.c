// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_rate_to_mult(3): "converts the IB transmission rate enumeration rate
 * to a multiple of 2.5 Gbit/sec (the base rate)", and mult_to_ibv_rate
 * "converts the multiplier value (of 2.5 Gbit/sec) mult to an IB
 * transmission rate enumeration", with IBV_RATE_5_GBPS and 2 as the
 * page's example both ways.
 *
 * Both domains are walked whole, in both directions:
 * - example: IBV_RATE_5_GBPS is 2, and 2 is IBV_RATE_5_GBPS (documented)
 * - whole-multiples: every rate that is a whole multiple of 2.5 Gbit/s
 *   (18 of the 23) converts to that multiple, and the multiple back to
 *   the rate (documented); the values of the whole enum are compared
 *   across the implementations
 * - between-multiples: 14, 28, 56, 112 and 168 Gbit/s are no whole
 *   multiple: -1, or the nearest multiple as Linux's ib_rate_to_mult
 *   rounds (interpretation)
 * - not-a-rate, not-a-multiple: values no rate is, and multipliers no
 *   rate has, convert to no rate: a multiple <= 0, IBV_RATE_MAX, or for
 *   a multiplier next to a rate between multiples, that rate
 *   (interpretation: the page names no failure)
 */
#include <limits.h>
#include <stdlib.h>

#include "verbs_ctl.h"

#define DOC_MULT                                                \
	"ibv_rate_to_mult() converts the IB transmission rate " \
	"enumeration rate to a multiple of 2.5 Gbit/sec (the base rate)."
#define DOC_MULT_EX                                             \
	"For example, if rate is IBV_RATE_5_GBPS, the value 2 " \
	"will be returned (5 Gbit/sec = 2 * 2.5 Gbit/sec)."
#define DOC_RATE                                                    \
	"mult_to_ibv_rate() converts the multiplier value (of 2.5 " \
	"Gbit/sec) mult to an IB transmission rate enumeration."
#define DOC_RATE_EX                                        \
	"For example, if mult is 2, the rate enumeration " \
	"IBV_RATE_5_GBPS will be returned."

/* the highest multiplier walked: one beyond 1200 Gbit/s's 480 */
#define MULT_LAST 500

static vc_check mult_example, mult_whole, mult_between, mult_not_rate,
	rate_example, rate_whole, rate_not_multiple;

static const struct vc_row mult_rows[] = {
	{ .c = { .id = "verbs/rate_to_mult/example-5-gbps",
		 .doc = DOC_MULT_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { RC_RETURNS(2) } },
	  .check = mult_example,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/rate_to_mult/whole-multiples",
		 .doc = DOC_MULT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "returns how many of the 18 rates that are whole "
			 "multiples of 2.5 Gbit/s convert to their multiple",
		 .contract = { RC_RETURNS(18) } },
	  .check = mult_whole,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/rate_to_mult/between-multiples",
		 .doc = DOC_MULT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "14, 28, 56, 112 and 168 Gbit/s are no multiple of 2.5: "
			 "-1, or the nearest multiple (as Linux's "
			 "ib_rate_to_mult rounds them)",
		 .contract = { RC_RETURNS(5) } },
	  .check = mult_between,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/rate_to_mult/not-a-rate",
		 .doc = DOC_MULT,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_RATE_MAX (0), 1, one beyond the last rate, -1, "
			 "INT_MAX: no rate, so no multiple (a value <= 0); the "
			 "page names no failure",
		 .contract = { RC_RETURNS(5) } },
	  .check = mult_not_rate,
	  .rung = VC_BARE },
};

static const struct vc_row rate_rows[] = {
	{ .c = { .id = "verbs/mult_to_ibv_rate/example-2",
		 .doc = DOC_RATE_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { RC_RETURNS(IBV_RATE_5_GBPS) } },
	  .check = rate_example,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/mult_to_ibv_rate/whole-multiples",
		 .doc = DOC_RATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "returns how many of the 18 multipliers of a rate "
			 "convert back to that rate",
		 .contract = { RC_RETURNS(18) } },
	  .check = rate_whole,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/mult_to_ibv_rate/not-a-multiple",
		 .doc = DOC_RATE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "every multiplier from INT_MIN, -1 to 500 that is no "
			 "rate's: IBV_RATE_MAX, or a rate between multiples "
			 "within 1.25 Gbit/s of it; returns how many did",
		 .contract = { RC_RETURNS(MULT_LAST + 3 - 18) } },
	  .check = rate_not_multiple,
	  .rung = VC_BARE },
};

static bool whole(const struct vc_rate *r)
{
	return r->gbps10 % 25 == 0;
}

static void mult_example(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_rate_to_mult(IBV_RATE_5_GBPS));
}

static int whole_ok(struct rc_ctx *ctx)
{
	int got[VC_RATE_LAST + 1], i, ok = 0;

	for (i = 0; i <= VC_RATE_LAST; i++)
		got[i] = ctx->ops->ibv_rate_to_mult((enum ibv_rate)i);
	for (i = 0; i < vc_nrates; i++) {
		const struct vc_rate *r = &vc_rates[i];

		if (!whole(r))
			continue;
		if (got[r->rate] == r->gbps10 / 25)
			ok++;
		else
			rc_obs_violation(ctx->obs,
					 "rate %d (%d.%d Gbit/s): %d, "
					 "its multiple is %d",
					 r->rate, r->gbps10 / 10,
					 r->gbps10 % 10, got[r->rate],
					 r->gbps10 / 25);
	}
	rc_obs_out(ctx->obs, got, sizeof(got));
	return ok;
}

static void mult_whole(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	RC_OBSERVE(ctx, whole_ok(ctx));
}

static int between_ok(struct rc_ctx *ctx)
{
	int i, m, ok = 0;

	for (i = 0; i < vc_nrates; i++) {
		const struct vc_rate *r = &vc_rates[i];

		if (whole(r))
			continue;
		m = ctx->ops->ibv_rate_to_mult(r->rate);
		/* nearest: |m * 25 - gbps10| <= 12.5 */
		if (m == -1 || (m > 0 && 2 * abs(m * 25 - r->gbps10) <= 25))
			ok++;
		else
			rc_obs_violation(ctx->obs, "rate %d (%d Gbit/s): %d",
					 r->rate, r->gbps10 / 10, m);
	}
	return ok;
}

static void mult_between(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	RC_OBSERVE(ctx, between_ok(ctx));
}

static int not_rate_ok(struct rc_ctx *ctx)
{
	static const int v[] = { IBV_RATE_MAX, 1, VC_RATE_LAST + 1, -1,
				 INT_MAX };
	int i, m, ok = 0;

	for (i = 0; i < (int)ARRAY_SIZE(v); i++) {
		m = ctx->ops->ibv_rate_to_mult((enum ibv_rate)v[i]);
		if (m <= 0)
			ok++;
		else
			rc_obs_violation(ctx->obs, "rate %d: multiple %d", v[i],
					 m);
	}
	return ok;
}

static void mult_not_rate(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	RC_OBSERVE(ctx, not_rate_ok(ctx));
}

static void rate_example(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->mult_to_ibv_rate(2));
}

static int rate_whole_ok(struct rc_ctx *ctx)
{
	int got[VC_RATE_LAST + 1] = { 0 }, i, ok = 0;
	enum ibv_rate e;

	for (i = 0; i < vc_nrates; i++) {
		const struct vc_rate *r = &vc_rates[i];

		if (!whole(r))
			continue;
		e = ctx->ops->mult_to_ibv_rate(r->gbps10 / 25);
		got[r->rate] = e;
		if (e == r->rate)
			ok++;
		else
			rc_obs_violation(ctx->obs,
					 "mult %d: rate %d, %d.%d "
					 "Gbit/s is %d",
					 r->gbps10 / 25, e, r->gbps10 / 10,
					 r->gbps10 % 10, r->rate);
	}
	rc_obs_out(ctx->obs, got, sizeof(got));
	return ok;
}

static void rate_whole(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	RC_OBSERVE(ctx, rate_whole_ok(ctx));
}

/* Is @e an answer for the multiplier @m that no rate has? */
static bool no_rate_for(int m, enum ibv_rate e)
{
	int i;

	if (e == IBV_RATE_MAX)
		return true;
	for (i = 0; i < vc_nrates; i++)
		if (vc_rates[i].rate == e && !whole(&vc_rates[i]))
			return 2 * abs(m * 25 - vc_rates[i].gbps10) <= 25;
	return false;
}

static int not_multiple_ok(struct rc_ctx *ctx)
{
	int m, i, ok = 0;
	bool a_rate;
	enum ibv_rate e;

	for (m = -1; m <= MULT_LAST + 1; m++) {
		int v = m > MULT_LAST ? INT_MIN : m;

		for (a_rate = false, i = 0; i < vc_nrates; i++)
			a_rate |= whole(&vc_rates[i]) &&
				  vc_rates[i].gbps10 / 25 == v;
		if (a_rate)
			continue;
		e = ctx->ops->mult_to_ibv_rate(v);
		if (no_rate_for(v, e))
			ok++;
		else
			rc_obs_violation(ctx->obs, "mult %d: rate %d", v, e);
	}
	return ok;
}

static void rate_not_multiple(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	RC_OBSERVE(ctx, not_multiple_ok(ctx));
}

VC_GROUP(mult, ibv_rate_to_mult, RC_CONV_VALUE, mult_rows);
VC_GROUP(rate, mult_to_ibv_rate, RC_CONV_VALUE, rate_rows);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_rate_to_mbps(3): "converts the IB transmission rate enumeration rate
 * to a number of Mbit/sec", and mbps_to_ibv_rate "converts the number of
 * Mbit/sec mult to an IB transmission rate enumeration", with
 * IBV_RATE_5_GBPS and 5000 as the page's example both ways.
 *
 * - example: IBV_RATE_5_GBPS is 5000, and 5000 is IBV_RATE_5_GBPS
 *   (documented)
 * - whole-domain: every rate converts to its nominal rate or to its
 *   lanes' data rate as Linux's ib_rate_to_mbps has it (14 Gbit/s is
 *   14062: FDR's 14.0625 Gbit/s a lane); the values of the whole enum
 *   are compared across the implementations (interpretation: the page
 *   says which number for no rate beyond its example)
 * - round-trip: each rate's own number of Mbit/s converts back to the
 *   rate (documented: the two calls convert each way)
 * - not-a-rate: values no rate is give no positive number, and every
 *   number of Mbit/s from -1 to 1,300,000 that is no rate's gives
 *   IBV_RATE_MAX (interpretation: the page names no failure)
 */
#include <limits.h>

#include "verbs_ctl.h"

#define DOC_MBPS                                                \
	"ibv_rate_to_mbps() converts the IB transmission rate " \
	"enumeration rate to a number of Mbit/sec."
#define DOC_MBPS_EX                                           \
	"For example, if rate is IBV_RATE_5_GBPS, the value " \
	"5000 will be returned (5 Gbit/sec = 5000 Mbit/sec)."
#define DOC_RATE                                                   \
	"mbps_to_ibv_rate() converts the number of Mbit/sec mult " \
	"to an IB transmission rate enumeration."
#define DOC_RATE_EX                                           \
	"For example, if mult is 5000, the rate enumeration " \
	"IBV_RATE_5_GBPS will be returned."

/* beyond 1200 Gbit/s in either reading */
#define MBPS_LAST 1300000

static vc_check mbps_example, mbps_whole, mbps_not_rate, rate_example,
	rate_round_trip, rate_not_rate;

static const struct vc_row mbps_rows[] = {
	{ .c = { .id = "verbs/rate_to_mbps/example-5-gbps",
		 .doc = DOC_MBPS_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { RC_RETURNS(5000) } },
	  .check = mbps_example,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/rate_to_mbps/whole-domain",
		 .doc = DOC_MBPS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "each of the 23 rates: its nominal Mbit/s or its "
			 "lanes' data rate as Linux's ib_rate_to_mbps has it; "
			 "returns how many",
		 .contract = { RC_RETURNS(23) } },
	  .check = mbps_whole,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/rate_to_mbps/not-a-rate",
		 .doc = DOC_MBPS,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_RATE_MAX (0), 1, one beyond the last rate, -1, "
			 "INT_MAX: no rate, so no positive number; the page "
			 "names no failure",
		 .contract = { RC_RETURNS(5) } },
	  .check = mbps_not_rate,
	  .rung = VC_BARE },
};

static const struct vc_row rate_rows[] = {
	{ .c = { .id = "verbs/mbps_to_ibv_rate/example-5000",
		 .doc = DOC_RATE_EX,
		 .basis = RC_BASIS_DOCUMENTED,
		 .contract = { RC_RETURNS(IBV_RATE_5_GBPS) } },
	  .check = rate_example,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/mbps_to_ibv_rate/round-trip",
		 .doc = DOC_RATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "each rate's number from ibv_rate_to_mbps converts "
			 "back to it; returns how many of the 23 did",
		 .contract = { RC_RETURNS(23) } },
	  .check = rate_round_trip,
	  .rung = VC_BARE },
	{ .c = { .id = "verbs/mbps_to_ibv_rate/not-a-rate",
		 .doc = DOC_RATE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "every number from -1 to 1300000 and INT_MIN: "
			 "IBV_RATE_MAX unless it is a rate's own number or "
			 "nominal Mbit/s; returns 1 when all are",
		 .calls = MBPS_LAST + 3,
		 .contract = { RC_RETURNS(1) } },
	  .check = rate_not_rate,
	  .rung = VC_BARE },
};

static void mbps_example(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_rate_to_mbps(IBV_RATE_5_GBPS));
}

static int whole_ok(struct rc_ctx *ctx)
{
	int got[VC_RATE_LAST + 1], i, ok = 0;

	for (i = 0; i <= VC_RATE_LAST; i++)
		got[i] = ctx->ops->ibv_rate_to_mbps((enum ibv_rate)i);
	for (i = 0; i < vc_nrates; i++) {
		const struct vc_rate *r = &vc_rates[i];
		int m = got[r->rate];

		if (m == r->gbps10 * 100 || m == r->linux_mbps)
			ok++;
		else
			rc_obs_violation(ctx->obs, "rate %d (%d.%d Gbit/s): %d",
					 r->rate, r->gbps10 / 10,
					 r->gbps10 % 10, m);
	}
	rc_obs_out(ctx->obs, got, sizeof(got));
	return ok;
}

static void mbps_whole(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	RC_OBSERVE(ctx, whole_ok(ctx));
}

static int not_rate_ok(struct rc_ctx *ctx)
{
	static const int v[] = { IBV_RATE_MAX, 1, VC_RATE_LAST + 1, -1,
				 INT_MAX };
	int i, m, ok = 0;

	for (i = 0; i < (int)ARRAY_SIZE(v); i++) {
		m = ctx->ops->ibv_rate_to_mbps((enum ibv_rate)v[i]);
		if (m <= 0)
			ok++;
		else
			rc_obs_violation(ctx->obs, "rate %d: %d Mbit/s", v[i],
					 m);
	}
	return ok;
}

static void mbps_not_rate(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	RC_OBSERVE(ctx, not_rate_ok(ctx));
}

static void rate_example(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->mbps_to_ibv_rate(5000));
}

static int round_trip_ok(struct rc_ctx *ctx)
{
	int i, ok = 0, m;
	enum ibv_rate e;

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_rate_to_mbps,
			  "ibv_rate_to_mbps"))
		return -1;
	for (i = 0; i < vc_nrates; i++) {
		m = ctx->ops->ibv_rate_to_mbps(vc_rates[i].rate);
		e = ctx->ops->mbps_to_ibv_rate(m);
		if (e == vc_rates[i].rate)
			ok++;
		else
			rc_obs_violation(ctx->obs,
					 "mbps %d: rate %d, "
					 "ibv_rate_to_mbps had it of rate %d",
					 m, e, vc_rates[i].rate);
	}
	return ok;
}

static void rate_round_trip(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	RC_OBSERVE(ctx, round_trip_ok(ctx));
}

/* Is @m a number of Mbit/s of @e: its own or its nominal one? */
static bool of_rate(struct rc_ctx *ctx, int m, enum ibv_rate e)
{
	int i;

	for (i = 0; i < vc_nrates; i++)
		if (vc_rates[i].rate == e)
			return m == vc_rates[i].gbps10 * 100 ||
			       m == vc_rates[i].linux_mbps;
	return false;
}

static int not_rate_all(struct rc_ctx *ctx)
{
	enum ibv_rate e;
	int m, bad = 0;

	/* MBPS_LAST + 3 calls (the row's .calls) */
	for (m = -1; m <= MBPS_LAST + 1; m++) {
		int v = m > MBPS_LAST ? INT_MIN : m;

		e = ctx->ops->mbps_to_ibv_rate(v);
		if (e != IBV_RATE_MAX && !of_rate(ctx, v, e)) {
			bad++;
			rc_obs_violation(ctx->obs, "mbps %d: rate %d", v, e);
		}
	}
	return !bad;
}

static void rate_not_rate(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	RC_OBSERVE(ctx, not_rate_all(ctx));
}

VC_GROUP(mbps, ibv_rate_to_mbps, RC_CONV_VALUE, mbps_rows);
VC_GROUP(rate, mbps_to_ibv_rate, RC_CONV_VALUE, rate_rows);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_rt_values_ex(3): "returns certain real time values of a device
 * context", comp_mask "[in/out]" and IBV_VALUES_MASK_RAW_CLOCK; "returns 0
 * on success, or the value of errno on failure".  NOTES: "This extension
 * verb only calls the provider, the provider has to query this value
 * somehow and mark the queried values in the comp_mask field."
 *
 * - the raw clock: where the provider answers, RAW_CLOCK is marked in
 *   comp_mask and a second read is not earlier (documented); a provider
 *   that cannot (EOPNOTSUPP, rxe's and siw's) is UNSUPPORTED, the
 *   documented outcome of a provider without the verb
 * - comp_mask 0: nothing asked, so nothing marked (interpretation)
 * - only a bit no value has: an errno value (interpretation: nothing it
 *   can query)
 */
#include <errno.h>
#include <string.h>

#include "verbs_ctl.h"

#define DOC_RT                                                       \
	"ibv_query_rt_values_ex() returns certain real time values " \
	"of a device context."
#define DOC_NOTE                                                              \
	"This extension verb only calls the provider, the provider "          \
	"has to query this value somehow and mark the queried values in the " \
	"comp_mask field."
#define DOC_RET                                                  \
	"ibv_query_rt_values_ex() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."

static vc_check raw_clock, nothing_asked, unknown_bit;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/query_rt_values_ex/raw-clock",
		 .doc = DOC_NOTE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAW_CLOCK asked: marked in comp_mask, and a second "
			 "read not earlier; EOPNOTSUPP is a provider without "
			 "the verb (UNSUPPORTED)",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = raw_clock,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_rt_values_ex/nothing-asked",
		 .doc = DOC_NOTE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask 0: no value asked, none marked; "
			 "EOPNOTSUPP is a provider without the verb",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = nothing_asked,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/query_rt_values_ex/unknown-bit-only",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask 1 << 31: no value it can query",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = unknown_bit,
	  .rung = VL_CONTEXT },
};

static int query(struct rc_ctx *ctx, struct vl *l, uint32_t mask,
		 struct ibv_values_ex *v)
{
	int ret;

	memset(v, 0, sizeof(*v));
	v->comp_mask = mask;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_rt_values_ex(l->ctx, v));
	return ret;
}

/* EOPNOTSUPP: the provider has no such verb */
static bool provider_lacks(struct rc_ctx *ctx, int ret)
{
	if (ret != EOPNOTSUPP)
		return false;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "the provider has no "
		     "query_rt_values (EOPNOTSUPP)");
	return true;
}

static void raw_clock(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_values_ex a, b;
	int ret = query(ctx, l, IBV_VALUES_MASK_RAW_CLOCK, &a);

	if (provider_lacks(ctx, ret) || ret)
		return;
	if (!(a.comp_mask & IBV_VALUES_MASK_RAW_CLOCK)) {
		rc_obs_violation(ctx->obs,
				 "comp_mask 0x%x: RAW_CLOCK not "
				 "marked",
				 a.comp_mask);
		return;
	}
	memset(&b, 0, sizeof(b));
	b.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	if (ctx->ops->ibv_query_rt_values_ex(l->ctx, &b) ||
	    b.raw_clock.tv_sec < a.raw_clock.tv_sec ||
	    (b.raw_clock.tv_sec == a.raw_clock.tv_sec &&
	     b.raw_clock.tv_nsec < a.raw_clock.tv_nsec))
		rc_obs_violation(ctx->obs, "raw_clock: a second read is "
					   "earlier, or failed");
}

static void nothing_asked(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_values_ex v;
	int ret = query(ctx, l, 0, &v);

	if (provider_lacks(ctx, ret) || ret)
		return;
	if (v.comp_mask)
		rc_obs_violation(ctx->obs, "comp_mask 0x%x marked, none asked",
				 v.comp_mask);
}

static void unknown_bit(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_values_ex v;

	query(ctx, l, 1u << 31, &v);
}

VC_GROUP(rt, ibv_query_rt_values_ex, RC_CONV_ERRNO_RET, rows);

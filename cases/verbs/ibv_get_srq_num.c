// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_get_srq_num(3): "return srq number associated with the given XRC
 * shared receive queue"; "returns 0 on success, or the value of errno on
 * failure".
 *
 * - basic-srq-fails: a basic SRQ (the ladder's) has no XRC SRQ number:
 *   an errno value (interpretation), and srq_num untouched
 * - xrc-srq: an XRC SRQ's number; UNSUPPORTED on a device without
 *   IBV_DEVICE_XRC (rxe, siw), and where it has it, until XRC domains
 *   (ibv_open_xrcd) are among the calls under test
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_NUM                                                          \
	"ibv_get_srq_num() return srq number associated with the given " \
	"XRC shared receive queue"
#define DOC_RET                                                    \
	"ibv_get_srq_num() returns 0 on success, or the value of " \
	"errno on failure (which indicates the failure reason)."

#define UNTOUCHED 0xa5c3e1f7u

static vc_check basic_fails, xrc_srq;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/get_srq_num/basic-srq-fails",
		 .doc = DOC_NUM " ... " DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the number is an XRC SRQ's; a basic SRQ has none: "
			 "an errno value, and srq_num as it was (0xa5c3e1f7)",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = basic_fails,
	  .rung = VL_SRQ },
	{ .c = { .id = "verbs/get_srq_num/xrc-srq",
		 .doc = DOC_NUM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an XRC SRQ: 0, and its number; needs a device with "
			 "IBV_DEVICE_XRC and an XRC domain",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = xrc_srq,
	  .rung = VL_PD },
};

static void basic_fails(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	uint32_t num = UNTOUCHED;

	RC_OBSERVE(ctx, ctx->ops->ibv_get_srq_num(l->srq, &num));
	if (ctx->obs->ret && num != UNTOUCHED)
		rc_obs_violation(ctx->obs, "srq_num: %#x after the failure",
				 num);
}

static void xrc_srq(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_device_attr a;

	if (!vc_attr(ctx, l, &a) ||
	    !vc_device_can(ctx, l, a.device_cap_flags & IBV_DEVICE_XRC,
			   "the device has no XRC (IBV_DEVICE_XRC)"))
		return;
	rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
		     "XRC domains (ibv_open_xrcd) are not among the calls "
		     "under test yet");
}

VC_GROUP(num, ibv_get_srq_num, RC_CONV_ERRNO_RET, rows);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_modify_cq(3): "returns 0 on success, or the value of errno on
 * failure".  CQ moderation is the device's (cq_mod_caps of
 * ibv_device_attr_ex); rxe and siw have none (the kernel's MODIFY_CQ
 * command needs the driver's modify_cq).
 *
 * - moderation of count 1, period 1 on a device of max_cq_count 0: an
 *   errno value (interpretation: what the device cannot moderate it does
 *   not); UNSUPPORTED where it can
 * - the same within cq_mod_caps: 0 (documented); UNSUPPORTED without
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_RET                                                          \
	"returns 0 on success, or the value of errno on failure (which " \
	"indicates the failure reason)."

static vc_check modify;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/modify_cq/no-moderation",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "cq_mod_caps.max_cq_count 0 (rxe, siw): count 1, "
			 "period 1 is refused, an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = modify,
	  .rung = VL_CQ,
	  .arg = 0 },
	{ .c = { .id = "verbs/modify_cq/within-caps",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "count 1, period 1 within cq_mod_caps: 0; "
			 "UNSUPPORTED without CQ moderation",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = modify,
	  .rung = VL_CQ,
	  .arg = 1 },
};

static void modify(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_modify_cq_attr m = { .attr_mask = IBV_CQ_ATTR_MODERATE,
					.moderate = { 1, 1 } };
	struct ibv_device_attr_ex a;
	bool has;

	if (!vo_attr_ex(ctx, l, &a))
		return;
	has = a.cq_mod_caps.max_cq_count && a.cq_mod_caps.max_cq_period;
	if (row->arg ? !vo_has(ctx, has, "CQ moderation") :
		       !vo_lacks(ctx, has, "CQ moderation"))
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_modify_cq(l->cq, &m));
}

VC_GROUP(modify, ibv_modify_cq, RC_CONV_ERRNO_RET, rows);

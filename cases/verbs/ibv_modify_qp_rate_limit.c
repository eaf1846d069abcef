// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_modify_qp_rate_limit(3): ERRORS "EOPNOTSUPP Function is not
 * implemented for this device. (ENOSYS may sometimes be returned by old
 * versions of libibverbs)."  A device's rate limits are its
 * packet_pacing_caps (ibv_query_device_ex); rxe and siw have none.
 *
 * - an RC QP, rate_limit 1000 kbps, on a device of qp_rate_limit_max 0:
 *   EOPNOTSUPP or ENOSYS (documented); UNSUPPORTED with packet pacing
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_ENOTSUPP                                                       \
	"EOPNOTSUPP Function is not implemented for this device. (ENOSYS " \
	"may sometimes be returned by old versions of libibverbs)."

static vc_check unsupported;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/modify_qp_rate_limit/not-supported",
		 .doc = DOC_ENOTSUPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "packet_pacing_caps.qp_rate_limit_max 0 (rxe, siw): "
			 "EOPNOTSUPP or ENOSYS",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP, ENOSYS) } },
	  .check = unsupported,
	  .rung = VL_QP },
};

static void unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_qp_rate_limit_attr r = { .rate_limit = 1000 };
	struct ibv_device_attr_ex a;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_lacks(ctx, a.packet_pacing_caps.qp_rate_limit_max,
		      "packet pacing"))
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_modify_qp_rate_limit(l->qp, &r));
}

VC_GROUP(rate, ibv_modify_qp_rate_limit, RC_CONV_ERRNO_RET, rows);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_advise_mr(3): "EOPNOTSUPP libibverbs or provider driver doesn't
 * support the ibv_advise_mr() verb (ENOSYS may sometimes be returned by
 * old versions of libibverbs)."  Its advice is for ODP MRs; rxe (6.1) and
 * siw have no ODP (odp_caps.general_caps) and no advise_mr (the kernel's
 * ADVISE_MR method needs the driver's).
 *
 * - PREFETCH of a registered range on a device without ODP: EOPNOTSUPP
 *   or ENOSYS (documented: a device without ODP is read as one without
 *   the verb); UNSUPPORTED with ODP
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_ENOTSUPP                                                                    \
	"EOPNOTSUPP libibverbs or provider driver doesn't support the ibv_advise_mr() " \
	"verb (ENOSYS may sometimes be returned by old versions of "                    \
	"libibverbs)."

static vc_check unsupported;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/advise_mr/not-supported",
		 .doc = DOC_ENOTSUPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no ODP (rxe, siw): PREFETCH of a registered 4 KiB "
			 "is EOPNOTSUPP or ENOSYS; UNSUPPORTED with ODP",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP, ENOSYS) } },
	  .check = unsupported,
	  .rung = VL_PD },
};

static void unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_sge sge;
	struct ibv_mr *mr;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_lacks(ctx, a.odp_caps.general_caps & IBV_ODP_SUPPORT, "ODP") ||
	    !(mr = vc_mr(ctx, l->pd, 4096, IBV_ACCESS_LOCAL_WRITE)))
		return;
	sge.addr = (uintptr_t)mr->addr;
	sge.length = 4096;
	sge.lkey = mr->lkey;
	RC_OBSERVE(ctx,
		   ctx->ops->ibv_advise_mr(l->pd, IBV_ADVISE_MR_ADVICE_PREFETCH,
					   0, &sge, 1));
	vc_mr_free(ctx, mr);
}

VC_GROUP(advise, ibv_advise_mr, RC_CONV_ERRNO_RET, rows);

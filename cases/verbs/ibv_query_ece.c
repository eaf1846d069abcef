// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_ece(3), ibv_set_ece(3): "EOPNOTSUPP libibverbs or provider
 * driver doesn't support the ibv_set_ece() verb." (both pages say
 * ibv_set_ece).  ECE is the provider's (its driver data); rxe's and
 * siw's have none.  No device attribute says which providers have it.
 *
 * - ibv_query_ece of an RC QP, a provider without ECE: EOPNOTSUPP
 *   (documented); UNSUPPORTED where it answers
 * - ibv_set_ece of an RC QP, vendor_id 0x15b3, a provider without ECE:
 *   EOPNOTSUPP (documented); UNSUPPORTED where it takes it
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_ENOTSUPP                                                                  \
	"EOPNOTSUPP libibverbs or provider driver doesn't support the ibv_set_ece() " \
	"verb."

static vc_check query_unsupported, set_unsupported;

static const struct vc_row query_rows[] = {
	{ .c = { .id = "verbs/query_ece/not-supported",
		 .doc = DOC_ENOTSUPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP of a provider without ECE (rxe, siw): "
			 "EOPNOTSUPP; UNSUPPORTED where it answers",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP) } },
	  .check = query_unsupported,
	  .rung = VL_QP },
};

static const struct vc_row set_rows[] = {
	{ .c = { .id = "verbs/set_ece/not-supported",
		 .doc = DOC_ENOTSUPP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP of a provider without ECE (rxe, siw): "
			 "EOPNOTSUPP; UNSUPPORTED where it is taken",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP) } },
	  .check = set_unsupported,
	  .rung = VL_QP },
};

static void query_unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	struct ibv_ece e = { 0 };
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_ece(l->qp, &e));
	vo_made(ctx, !ret, "ECE");
}

static void set_unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_ece e = { .vendor_id = 0x15b3 };
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_set_ece(l->qp, &e));
	vo_made(ctx, !ret, "ECE");
}

VC_GROUP(query, ibv_query_ece, RC_CONV_ERRNO_RET, query_rows);
VC_GROUP(set, ibv_set_ece, RC_CONV_ERRNO_RET, set_rows);

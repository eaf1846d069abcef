// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_alloc_null_mr(3): "returns a pointer to the allocated MR, or NULL
 * if the request fails."  A null MR is the provider's own key (the
 * kernel's common ABI has no command for it); rxe's and siw's providers
 * have none, and no device attribute says which do.
 *
 * - a provider without null MRs: NULL, EOPNOTSUPP (interpretation: the
 *   errno the pages name for a device without a verb); UNSUPPORTED where
 *   one is made
 * - where one is made: its PD and context are the PD's (documented)
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_RET \
	"ibv_alloc_null_mr() returns a pointer to the allocated MR, or NULL if the request fails."

static vc_check unsupported, its_pd;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/alloc_null_mr/not-supported",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a provider without null MRs (rxe's, siw's): NULL "
			 "and EOPNOTSUPP; UNSUPPORTED where one is made",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS(EOPNOTSUPP) } },
	  .check = unsupported,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/alloc_null_mr/its-pd",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the MR's pd and context are the PD's; UNSUPPORTED "
			 "where none is made",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = its_pd,
	  .rung = VL_PD },
};

static void unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_mr *mr;

	RC_OBSERVE(ctx, mr = ctx->ops->ibv_alloc_null_mr(l->pd));
	vo_made(ctx, mr, "null MRs");
	if (mr)
		ctx->ops->ibv_dereg_mr(mr);
}

static void its_pd(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_mr *mr = ctx->ops->ibv_alloc_null_mr(l->pd);

	if (!mr) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the provider makes no null MR (%m)");
		return;
	}
	ctx->ops->ibv_dereg_mr(mr);
	RC_OBSERVE(ctx, mr = ctx->ops->ibv_alloc_null_mr(l->pd));
	if (!mr)
		return;
	if (mr->pd != l->pd || mr->context != l->ctx)
		rc_obs_violation(ctx->obs, "pd/context: not the PD's");
	ctx->ops->ibv_dereg_mr(mr);
}

VC_GROUP(alloc, ibv_alloc_null_mr, RC_CONV_NULL_ERRNO, rows);

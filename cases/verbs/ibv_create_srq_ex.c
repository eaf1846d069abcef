// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_srq_ex(3): "creates a shared receive queue (SRQ) supporting
 * both basic and xrc modes"; it "will update the srq_init_attr_ex struct
 * with the original values of the SRQ that was created; the values of
 * max_wr and max_sge will be greater than or equal to the values
 * requested"; it "returns a pointer to the created SRQ, or NULL if the
 * request fails".
 *
 * Each row stands on a PD of the implementation under test.
 * - basic-grants-at-least: IBV_SRQ_INIT_ATTR_TYPE | _PD, IBV_SRQT_BASIC,
 *   37 WRs of 3 SGEs: at least that, in srq_init_attr_ex and read back;
 *   the SRQ is the PD's and the context's
 * - no-type-is-basic: IBV_SRQ_INIT_ATTR_PD alone: a basic SRQ is made
 *   (interpretation)
 * - max-wr-one-beyond: max_srq_wr + 1: NULL (interpretation)
 */
#include <errno.h>

#include "verbs_ctl.h"
#include "verbs_srq.h"

#define DOC_UPDATE                                                           \
	"The function ibv_create_srq_ex() will update the srq_init_attr_ex " \
	"struct with the original values of the SRQ that was created; the "  \
	"values of max_wr and max_sge will be greater than or equal to the " \
	"values requested."
#define DOC_MODES                                                              \
	"ibv_create_srq_ex() creates a shared receive queue (SRQ) supporting " \
	"both basic and xrc modes."
#define DOC_RET                                                              \
	"ibv_create_srq_ex() returns a pointer to the created SRQ, or NULL " \
	"if the request fails."

/* beyond max_srq_wr, a flag of the row beside the comp_mask */
#define BEYOND (1L << 40)

static vc_check create_ex;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/create_srq_ex/basic-grants-at-least",
		 .doc = DOC_UPDATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_SRQT_BASIC, 37 WRs of 3 SGEs: max_wr >= 37 and "
			 "max_sge >= 3 in srq_init_attr_ex and read back with "
			 "ibv_query_srq; pd and context the ones it was made "
			 "with",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_ex,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD },
	{ .c = { .id = "verbs/create_srq_ex/no-type-is-basic",
		 .doc = DOC_MODES,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "comp_mask IBV_SRQ_INIT_ATTR_PD without _TYPE: "
			 "srq_type is not valid, read as the basic mode; made, "
			 "and at least what was asked",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_ex,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_PD },
	{ .c = { .id = "verbs/create_srq_ex/max-wr-one-beyond",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a basic SRQ of max_srq_wr + 1 WRs: beyond the "
			 "device, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_ex,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD | BEYOND },
};

static void create_ex(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_srq_init_attr_ex ia = {
		.attr = { .max_wr = 37, .max_sge = 3 },
		.comp_mask = (uint32_t)row->arg,
		/* not valid without IBV_SRQ_INIT_ATTR_TYPE: not basic */
		.srq_type = row->arg & IBV_SRQ_INIT_ATTR_TYPE ? IBV_SRQT_BASIC :
								IBV_SRQT_TM,
		.pd = l->pd,
	};
	struct ibv_device_attr a;
	struct ibv_srq_attr q;
	struct ibv_srq *srq;
	uint32_t wr = 37;

	if (row->arg & BEYOND) {
		if (!vc_attr(ctx, l, &a))
			return;
		wr = ia.attr.max_wr = a.max_srq_wr + 1;
		ia.attr.max_sge = 1;
	}
	RC_OBSERVE(ctx, srq = ctx->ops->ibv_create_srq_ex(l->ctx, &ia));
	if (!srq)
		return;
	if (ia.attr.max_wr < wr || ia.attr.max_sge < 3)
		rc_obs_violation(ctx->obs,
				 "srq_init_attr_ex: max_wr %u, max_sge %u "
				 "after; asked 37, 3",
				 ia.attr.max_wr, ia.attr.max_sge);
	else if (srq->pd != l->pd || srq->context != l->ctx)
		rc_obs_violation(ctx->obs,
				 "%s: not the one the SRQ was made with",
				 srq->pd != l->pd ? "pd" : "context");
	else if (vs_query(ctx, srq, &q) && (q.max_wr < wr || q.max_sge < 3))
		rc_obs_violation(
			ctx->obs,
			"query_srq: max_wr %u, max_sge %u; asked 37, 3",
			q.max_wr, q.max_sge);
	ctx->ops->ibv_destroy_srq(srq);
}

VC_GROUP(create_ex, ibv_create_srq_ex, RC_CONV_NULL_ERRNO, rows);

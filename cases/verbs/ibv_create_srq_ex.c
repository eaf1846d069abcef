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
 * - attr-is-the-srqs: max_wr and max_sge after are those ibv_query_srq
 *   reads of the SRQ made
 * What srq_init_attr_ex's fields say, our reading where the page gives no
 * outcome ("Identifies valid fields"): each NULL.
 * - no-pd-bit: IBV_SRQ_INIT_ATTR_TYPE alone, pd set but not marked valid:
 *   an SRQ is made on a PD, and there is none
 * - undefined-comp-mask-bits: the whole domain, each bit from
 *   IBV_SRQ_INIT_ATTR_RESERVED to bit 31 beside _TYPE | _PD: no SRQ for
 *   any (returns how many of the 27 were refused)
 * - pd-of-other-context: a PD of a second context of the same device: not
 *   this context's (ibv_alloc_pd(3): "allocates a PD for the RDMA device
 *   context context"); an SRQ made anyway is checked for whose it is
 * - xrc-without-xrcd: IBV_SRQT_XRC, no XRC domain or CQ
 * - type-beyond: srq_type one past IBV_SRQT_TM ("Basic / XRC / tag
 *   matching")
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
#define DOC_VALID "uint32_t comp_mask; /* Identifies valid fields */"
#define DOC_PD "struct ibv_pd *pd; /* PD associated with the SRQ */"
#define DOC_XRC \
	"struct ibv_xrcd *xrcd; /* XRC domain to associate with the SRQ */"
#define DOC_TYPE "enum ibv_srq_type srq_type; /* Basic / XRC / tag matching */"

/* flags of a row beside the comp_mask: beyond max_srq_wr; the check of
 * an SRQ made is exact (what ibv_query_srq reads) */
#define BEYOND (1L << 40)
#define EXACT (1L << 41)
/* srq_type as a refusal row gives it (the comp_mask in .arg) */
#define TYPE_OF(arg) ((int)((arg) >> 48))
#define WITH_TYPE(t) ((long)(t) << 48)
/* the PD of a second context, a flag of a refusal row */
#define OTHER_PD (1L << 42)
#define FIRST_UNDEFINED __builtin_ctz(IBV_SRQ_INIT_ATTR_RESERVED)

static vc_check create_ex, refused, undefined_bits;

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
	{ .c = { .id = "verbs/create_srq_ex/attr-is-the-srqs",
		 .doc = DOC_UPDATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "IBV_SRQT_BASIC, 37 WRs of 3 SGEs: srq_init_attr_ex's "
			 "max_wr and max_sge after are what ibv_query_srq reads "
			 "of the SRQ made",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_ex,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD | EXACT },
	{ .c = { .id = "verbs/create_srq_ex/no-pd-bit",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "IBV_SRQ_INIT_ATTR_TYPE alone, IBV_SRQT_BASIC, pd set "
			 "but not marked valid: no PD, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = refused,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | WITH_TYPE(IBV_SRQT_BASIC) },
	{ .c = { .id = "verbs/create_srq_ex/undefined-comp-mask-bits",
		 .doc = DOC_VALID,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "each bit from IBV_SRQ_INIT_ATTR_RESERVED to bit 31 "
			 "beside _TYPE | _PD, IBV_SRQT_BASIC: a field the "
			 "library does not define cannot be honoured, NULL for "
			 "each; returns how many of the 27 were refused",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(32 - FIRST_UNDEFINED) } },
	  .check = undefined_bits,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/create_srq_ex/pd-of-other-context",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "_TYPE | _PD, IBV_SRQT_BASIC, the PD of a second "
			 "context of the device: not a PD of this context, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = refused,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD | OTHER_PD |
		 WITH_TYPE(IBV_SRQT_BASIC) },
	{ .c = { .id = "verbs/create_srq_ex/xrc-without-xrcd",
		 .doc = DOC_XRC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "_TYPE | _PD, IBV_SRQT_XRC, no XRC domain or CQ "
			 "given: NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = refused,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
		 WITH_TYPE(IBV_SRQT_XRC) },
	{ .c = { .id = "verbs/create_srq_ex/type-beyond",
		 .doc = DOC_TYPE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "_TYPE | _PD, srq_type IBV_SRQT_TM + 1, a type the "
			 "page does not have: NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = refused,
	  .rung = VL_PD,
	  .arg = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
		 WITH_TYPE(IBV_SRQT_TM + 1) },
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
	else if ((row->arg & EXACT) &&
		 (q.max_wr != ia.attr.max_wr || q.max_sge != ia.attr.max_sge))
		rc_obs_violation(ctx->obs,
				 "srq_init_attr_ex: max_wr %u, max_sge %u "
				 "after; the SRQ made has %u, %u "
				 "(ibv_query_srq)",
				 ia.attr.max_wr, ia.attr.max_sge, q.max_wr,
				 q.max_sge);
	ctx->ops->ibv_destroy_srq(srq);
}

/* An SRQ the row says must not be made: if it is, whose it is */
static void made_anyway(struct rc_ctx *ctx, struct ibv_srq *srq,
			struct ibv_context *context, struct ibv_pd *pd)
{
	rc_obs_violation(ctx->obs, "an SRQ was made, on %s context and %s PD",
			 srq->context == context ? "the given" : "another",
			 srq->pd == pd ? "the given" : "another");
	ctx->ops->ibv_destroy_srq(srq);
}

static void refused(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_srq_init_attr_ex ia = {
		.attr = { .max_wr = 8, .max_sge = 1 },
		.comp_mask = (uint32_t)row->arg,
		.srq_type = TYPE_OF(row->arg),
		.pd = l->pd,
	};
	struct ibv_context *other = NULL;
	struct ibv_srq *srq;

	if (row->arg & OTHER_PD) {
		other = ctx->ops->ibv_open_device(l->dev);
		ia.pd = other ? ctx->ops->ibv_alloc_pd(other) : NULL;
		if (!ia.pd) {
			rc_obs_state(ctx->obs, RC_STATE_BROKEN,
				     "a PD of a second context (set-up): %m");
			goto out;
		}
	}
	RC_OBSERVE(ctx, srq = ctx->ops->ibv_create_srq_ex(l->ctx, &ia));
	if (srq)
		made_anyway(ctx, srq, l->ctx, ia.pd);
	if (other)
		ctx->ops->ibv_dealloc_pd(ia.pd);
out:
	if (other)
		ctx->ops->ibv_close_device(other);
}

/* how many of the comp_mask bits the library does not define are refused */
static int each_undefined_bit(struct rc_ctx *ctx, struct vl *l)
{
	int bit, refusals = 0;

	for (bit = FIRST_UNDEFINED; bit < 32; bit++) {
		struct ibv_srq_init_attr_ex ia = {
			.attr = { .max_wr = 8, .max_sge = 1 },
			.comp_mask = IBV_SRQ_INIT_ATTR_TYPE |
				     IBV_SRQ_INIT_ATTR_PD | 1u << bit,
			.srq_type = IBV_SRQT_BASIC,
			.pd = l->pd,
		};
		struct ibv_srq *srq = ctx->ops->ibv_create_srq_ex(l->ctx, &ia);

		if (!srq) {
			refusals++;
			continue;
		}
		rc_obs_violation(ctx->obs, "bit %d: an SRQ was made", bit);
		ctx->ops->ibv_destroy_srq(srq);
	}
	return refusals;
}

static void undefined_bits(const struct vc_row *row, struct rc_ctx *ctx,
			   struct vl *l)
{
	RC_OBSERVE(ctx, each_undefined_bit(ctx, l));
}

VC_GROUP(create_ex, ibv_create_srq_ex, RC_CONV_NULL_ERRNO, rows);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_srq(3): "creates a shared receive queue (SRQ) associated
 * with the protection domain pd"; it "will update the srq_init_attr
 * struct with the original values of the SRQ that was created; the values
 * of max_wr and max_sge will be greater than or equal to the values
 * requested"; it "returns a pointer to the created SRQ, or NULL if the
 * request fails".  srq_limit is "irrelevant for ibv_create_srq".
 *
 * Each row stands on a PD of the implementation under test.
 * - grants-at-least: 37 WRs of 3 SGEs: srq_init_attr and ibv_query_srq
 *   both say at least that; the SRQ is the PD's and the context's, with
 *   the srq_context it was given
 * - max-wr-exact: ibv_query_device's max_srq_wr, an exact fit: made,
 *   max_wr >= it (UNSUPPORTED where such an SRQ is more memory than a
 *   row takes)
 * - max-wr-one-beyond: max_srq_wr + 1: NULL (interpretation)
 * - max-sge-exact: max_srq_sge: made, max_sge >= it
 * - max-sge-one-beyond: max_srq_sge + 1: NULL (interpretation)
 * - srq-limit-irrelevant: a srq_limit of 5 asked of an SRQ of 8: made
 * - attr-is-the-srqs: 37 WRs of 3 SGEs: srq_init_attr's max_wr and
 *   max_sge after are the SRQ's, those ibv_query_srq reads ("the original
 *   values of the SRQ that was created"), not merely at least those asked
 * - holds-its-pd: an SRQ on a second PD: ibv_dealloc_pd of that PD fails
 *   while the SRQ is there (interpretation of ibv_alloc_pd(3)'s "may
 *   fail"), and succeeds once it is destroyed; the effect where it lands:
 *   the kernel's SRQ is on the PD given
 */
#include <errno.h>

#include "verbs_ctl.h"
#include "verbs_srq.h"

#define DOC_UPDATE                                                        \
	"The function ibv_create_srq() will update the srq_init_attr "    \
	"struct with the original values of the SRQ that was created; "   \
	"the values of max_wr and max_sge will be greater than or equal " \
	"to the values requested."
#define DOC_RET                                                              \
	"ibv_create_srq() returns a pointer to the created SRQ, or NULL if " \
	"the request fails."
#define DOC_CREATES                                                         \
	"ibv_create_srq() creates a shared receive queue (SRQ) associated " \
	"with the protection domain pd."
#define DOC_PD_BUSY                                                 \
	"ibv_dealloc_pd() may fail if any other resource is still " \
	"associated with the PD being freed."

/* what create() checks of an SRQ made: at least what was asked, or
 * (EXACT) exactly what ibv_query_srq reads of it */
#define AT_LEAST 0
#define EXACT 1

static vc_check grants, wr_at_max, sge_at_max, limit_irrelevant, exact,
	holds_pd;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/create_srq/grants-at-least",
		 .doc = DOC_UPDATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "37 WRs of 3 SGEs: srq_init_attr's max_wr >= 37 and "
			 "max_sge >= 3 after, and ibv_query_srq says as much; "
			 "the SRQ's pd, context and srq_context are the ones "
			 "it was made with",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = grants,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/create_srq/max-wr-exact",
		 .doc = DOC_UPDATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_wr = ibv_query_device's max_srq_wr, an exact "
			 "fit: made, max_wr >= it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = wr_at_max,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/create_srq/max-wr-one-beyond",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_wr = max_srq_wr + 1 (\"Maximum number of WRs per "
			 "SRQ\", ibv_query_device(3)): beyond the device, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = wr_at_max,
	  .rung = VL_PD,
	  .arg = 1 },
	{ .c = { .id = "verbs/create_srq/max-sge-exact",
		 .doc = DOC_UPDATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "max_sge = ibv_query_device's max_srq_sge, an exact "
			 "fit: made, max_sge >= it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = sge_at_max,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/create_srq/max-sge-one-beyond",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_sge = max_srq_sge + 1 (\"Maximum number of s/g "
			 "per SRQ\"): beyond the device, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = sge_at_max,
	  .rung = VL_PD,
	  .arg = 1 },
	{ .c = { .id = "verbs/create_srq/srq-limit-irrelevant",
		 .doc = DOC_CREATES,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "srq_limit is \"irrelevant for ibv_create_srq\": "
			 "asked 5 of an SRQ of 8, the SRQ is made as without it",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = limit_irrelevant,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/create_srq/attr-is-the-srqs",
		 .doc = DOC_UPDATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "37 WRs of 3 SGEs: srq_init_attr's max_wr and max_sge "
			 "after are what ibv_query_srq reads of the SRQ made",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = exact,
	  .rung = VL_PD },
	{ .c = { .id = "verbs/create_srq/holds-its-pd",
		 .doc = DOC_PD_BUSY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an SRQ on a second PD of the context: ibv_dealloc_pd "
			 "of that PD fails while the SRQ is there, and takes it "
			 "once the SRQ is destroyed",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = holds_pd,
	  .rung = VL_PD },
};

/* The call under test with @wr, @sge, @limit; on success what the page
 * promises of the SRQ (@exact: AT_LEAST or EXACT) is checked and the SRQ
 * destroyed. */
static void create(struct rc_ctx *ctx, struct vl *l, uint32_t wr, uint32_t sge,
		   uint32_t limit, int exact)
{
	int cookie;
	struct ibv_srq_init_attr ia = {
		.srq_context = &cookie,
		.attr = { .max_wr = wr, .max_sge = sge, .srq_limit = limit },
	};
	struct ibv_srq_attr q;
	struct ibv_srq *srq;

	RC_OBSERVE(ctx, srq = ctx->ops->ibv_create_srq(l->pd, &ia));
	if (!srq)
		return;
	if (ia.attr.max_wr < wr || ia.attr.max_sge < sge)
		rc_obs_violation(ctx->obs,
				 "srq_init_attr: max_wr %u, max_sge %u after; "
				 "asked %u, %u",
				 ia.attr.max_wr, ia.attr.max_sge, wr, sge);
	else if (srq->pd != l->pd || srq->context != l->ctx ||
		 srq->srq_context != &cookie)
		rc_obs_violation(ctx->obs,
				 "%s: not the one the SRQ was made with",
				 srq->pd != l->pd	? "pd" :
				 srq->context != l->ctx ? "context" :
							  "srq_context");
	else if (vs_query(ctx, srq, &q) && (q.max_wr < wr || q.max_sge < sge))
		rc_obs_violation(ctx->obs,
				 "query_srq: max_wr %u, max_sge %u; asked %u, "
				 "%u",
				 q.max_wr, q.max_sge, wr, sge);
	else if (exact &&
		 (q.max_wr != ia.attr.max_wr || q.max_sge != ia.attr.max_sge))
		rc_obs_violation(ctx->obs,
				 "srq_init_attr: max_wr %u, max_sge %u after; "
				 "the SRQ made has %u, %u (ibv_query_srq)",
				 ia.attr.max_wr, ia.attr.max_sge, q.max_wr,
				 q.max_sge);
	ctx->ops->ibv_destroy_srq(srq);
}

static void grants(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	create(ctx, l, 37, 3, 0, AT_LEAST);
}

static void wr_at_max(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_device_attr a;

	if (!vc_attr(ctx, l, &a) ||
	    !vc_device_can(ctx, l, a.max_srq > 0, "the device has no SRQs"))
		return;
	if (!row->arg && !vs_fits(ctx, a.max_srq_wr, 1))
		return;
	create(ctx, l, a.max_srq_wr + row->arg, 1, 0, AT_LEAST);
}

static void sge_at_max(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_device_attr a;

	if (vc_attr(ctx, l, &a) &&
	    vc_device_can(ctx, l, a.max_srq > 0, "the device has no SRQs"))
		create(ctx, l, 8, a.max_srq_sge + row->arg, 0, AT_LEAST);
}

static void limit_irrelevant(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	create(ctx, l, 8, 1, 5, AT_LEAST);
}

static void exact(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	create(ctx, l, 37, 3, 0, EXACT);
}

static void holds_pd(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_srq_init_attr ia = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_pd *pd = vc_second_pd(ctx, l);
	struct ibv_srq *srq;
	int ret;

	if (!pd)
		return;
	RC_OBSERVE(ctx, srq = ctx->ops->ibv_create_srq(pd, &ia));
	if (!srq) {
		ctx->ops->ibv_dealloc_pd(pd);
		return;
	}
	if (!vc_pd_held(ctx, pd, "the SRQ")) {
		ctx->ops->ibv_destroy_srq(srq);
		return;
	}
	ctx->ops->ibv_destroy_srq(srq);
	ret = ctx->ops->ibv_dealloc_pd(pd);
	if (ret)
		rc_obs_violation(ctx->obs,
				 "ibv_dealloc_pd: %s once the SRQ is destroyed",
				 rc_errno_name(ret));
}

VC_GROUP(create, ibv_create_srq, RC_CONV_NULL_ERRNO, rows);

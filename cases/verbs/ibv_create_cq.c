// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_cq(3): "creates a completion queue (CQ) with at least cqe
 * entries for the RDMA device context context.  The pointer cq_context
 * will be used to set user context pointer of the CQ structure.  The
 * argument channel is optional"; comp_vector "must be at least zero and
 * less than context->num_comp_vectors."  "ibv_destroy_cq() destroys the
 * CQ cq."  NOTES: "ibv_destroy_cq() fails if any queue pair is still
 * associated with this CQ."
 *
 * ibv_create_cq:
 * - cqe 1, a cq_context of distinct bytes, a channel: cq->cqe >= 1, and
 *   context, cq_context and channel as given (documented)
 * - cqe = max_cqe (ibv_query_device's), an exact fit: cq->cqe >= it
 *   (documented; UNSUPPORTED where such a CQ is more memory than a row
 *   takes, as siw's is: verbs_ctl.h); max_cqe + 1: NULL (interpretation:
 *   "at least cqe entries" the device cannot have)
 * - no channel (documented: optional)
 * - comp_vector num_comp_vectors - 1 (an exact fit) succeeds;
 *   num_comp_vectors and -1 fail (documented)
 * ibv_destroy_cq:
 * - 0, and its channel then destroys (documented; the CQ left it)
 * - a QP still on it: fails, and the CQ is left as it was (documented)
 * - once the QP is destroyed: 0 (state across calls)
 * - the command file gone: an errno value (interpretation)
 */
#include <errno.h>

#include "verbs_ctl.h"

#define DOC_CREATE                                              \
	"ibv_create_cq() creates a completion queue (CQ) with " \
	"at least cqe entries for the RDMA device context context."
#define DOC_CQ_CONTEXT                                     \
	"The pointer cq_context will be used to set user " \
	"context pointer of the CQ structure."
#define DOC_CHANNEL                                           \
	"The argument channel is optional; if not NULL, the " \
	"completion channel channel will be used to return completion events."
#define DOC_VECTOR                                                             \
	"The CQ will use the completion vector comp_vector for "               \
	"signaling completion events; it must be at least zero and less than " \
	"context->num_comp_vectors."
#define DOC_CREATE_RET                                     \
	"ibv_create_cq() returns a pointer to the CQ, or " \
	"NULL if the request fails."
#define DOC_DESTROY "ibv_destroy_cq() destroys the CQ cq."
#define DOC_DESTROY_RET                                  \
	"ibv_destroy_cq() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."
#define DOC_BUSY                                             \
	"ibv_destroy_cq() fails if any queue pair is still " \
	"associated with this CQ."

/* a user context pointer whose bytes are all distinct */
#define CQ_CONTEXT ((void *)0x0123456789abcdefull)

static vc_check create_fields, create_max, create_past_max, create_no_channel,
	create_vector, destroy_frees_channel, destroy_with_qp, destroy_after_qp,
	destroy_severed;

/* create_vector's vector: num_comp_vectors plus this */
enum { LAST_VECTOR = -1, PAST_VECTOR = 0, MINUS_ONE = 1 };

static const struct vc_row create_rows[] = {
	{ .c = { .id = "verbs/create_cq/fields",
		 .doc = DOC_CQ_CONTEXT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "cqe 1, cq_context 0x0123456789abcdef, a channel: cqe "
			 ">= 1, context, cq_context and channel as given",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_fields,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/create_cq/max-cqe",
		 .doc = DOC_CREATE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "cqe = max_cqe: cq->cqe >= max_cqe",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_max,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/create_cq/max-cqe-plus-1",
		 .doc = DOC_CREATE_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "cqe = max_cqe + 1: at least that many entries is "
			 "beyond the device",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_past_max,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/create_cq/no-channel",
		 .doc = DOC_CHANNEL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "channel NULL: a CQ without one",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_no_channel,
	  .rung = VL_CONTEXT },
	{ .c = { .id = "verbs/create_cq/last-comp-vector",
		 .doc = DOC_VECTOR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "comp_vector num_comp_vectors - 1",
		 .needs = VC_NEEDS,
		 .contract = { RC_SUCCEEDS } },
	  .check = create_vector,
	  .rung = VL_CONTEXT,
	  .arg = LAST_VECTOR },
	{ .c = { .id = "verbs/create_cq/comp-vector-num-comp-vectors",
		 .doc = DOC_VECTOR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "comp_vector num_comp_vectors: not less than it",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_vector,
	  .rung = VL_CONTEXT,
	  .arg = PAST_VECTOR },
	{ .c = { .id = "verbs/create_cq/comp-vector-minus-1",
		 .doc = DOC_VECTOR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "comp_vector -1: not at least zero",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_vector,
	  .rung = VL_CONTEXT,
	  .arg = MINUS_ONE },
};

static const struct vc_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_cq/frees-its-channel",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, and its channel then destroys",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_frees_channel,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/destroy_cq/qp-still-on-it",
		 .doc = DOC_BUSY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP's send and receive CQ: refused, and its "
			 "cqe is as it was",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = destroy_with_qp,
	  .rung = VL_QP },
	{ .c = { .id = "verbs/destroy_cq/after-qp-destroyed",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "refused while the QP was on it, then the QP "
			 "destroyed: 0",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_after_qp,
	  .rung = VL_QP },
	{ .c = { .id = "verbs/destroy_cq/command-file-gone",
		 .doc = DOC_DESTROY_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = destroy_severed,
	  .rung = VL_CQ },
};

static void create_fields(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	struct ibv_cq *cq;

	RC_OBSERVE(ctx, cq = ctx->ops->ibv_create_cq(l->ctx, 1, CQ_CONTEXT,
						     l->ch, 0));
	if (!cq)
		return;
	if (cq->cqe < 1)
		rc_obs_violation(ctx->obs, "cqe %d, asked 1", cq->cqe);
	else if (cq->context != l->ctx || cq->channel != l->ch)
		rc_obs_violation(ctx->obs, "context/channel: not the ones "
					   "given");
	else if (cq->cq_context != CQ_CONTEXT)
		rc_obs_violation(ctx->obs, "cq_context %p, given %p",
				 cq->cq_context, CQ_CONTEXT);
	ctx->ops->ibv_destroy_cq(cq);
}

static void create_of(struct rc_ctx *ctx, struct vl *l, int cqe)
{
	struct ibv_cq *cq;

	RC_OBSERVE(ctx,
		   cq = ctx->ops->ibv_create_cq(l->ctx, cqe, NULL, NULL, 0));
	if (!cq)
		return;
	if (cq->cqe < cqe)
		rc_obs_violation(ctx->obs, "cqe %d, asked %d", cq->cqe, cqe);
	ctx->ops->ibv_destroy_cq(cq);
}

static void create_max(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_device_attr a;

	if (vc_attr(ctx, l, &a) && vc_cq_fits(ctx, a.max_cqe))
		create_of(ctx, l, a.max_cqe);
}

static void create_past_max(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_device_attr a;

	if (vc_attr(ctx, l, &a))
		create_of(ctx, l, a.max_cqe + 1);
}

static void create_no_channel(const struct vc_row *row, struct rc_ctx *ctx,
			      struct vl *l)
{
	struct ibv_cq *cq;

	RC_OBSERVE(ctx,
		   cq = ctx->ops->ibv_create_cq(l->ctx, VL_CQE, NULL, NULL, 0));
	if (!cq)
		return;
	if (cq->channel)
		rc_obs_violation(ctx->obs, "channel: one none was given");
	ctx->ops->ibv_destroy_cq(cq);
}

static void create_vector(const struct vc_row *row, struct rc_ctx *ctx,
			  struct vl *l)
{
	int v = row->arg == MINUS_ONE ?
			-1 :
			l->ctx->num_comp_vectors + (int)row->arg;
	struct ibv_cq *cq;

	RC_OBSERVE(ctx,
		   cq = ctx->ops->ibv_create_cq(l->ctx, VL_CQE, NULL, NULL, v));
	if (cq)
		ctx->ops->ibv_destroy_cq(cq);
}

static void destroy_frees_channel(const struct vc_row *row, struct rc_ctx *ctx,
				  struct vl *l)
{
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_cq(l->cq));
	if (ret)
		return;
	l->cq = NULL;
	if (ctx->ops->ibv_destroy_comp_channel(l->ch))
		rc_obs_violation(ctx->obs, "channel: still held by the "
					   "destroyed CQ");
	else
		l->ch = NULL;
}

static void destroy_with_qp(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	int cqe = l->cq->cqe, ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_cq(l->cq));
	if (!ret) {
		/* the QP's CQ is gone: destroy the QP before anything */
		ctx->ops->ibv_destroy_qp(l->qp);
		l->qp = NULL;
		l->cq = NULL;
		return;
	}
	if (l->cq->cqe != cqe)
		rc_obs_violation(ctx->obs,
				 "cqe %d after the refusal, %d "
				 "before",
				 l->cq->cqe, cqe);
}

static void destroy_after_qp(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	int ret;

	if (!ctx->ops->ibv_destroy_cq(l->cq)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the CQ went with a QP "
			     "on it (see qp-still-on-it)");
		ctx->ops->ibv_destroy_qp(l->qp);
		l->qp = NULL;
		l->cq = NULL;
		return;
	}
	if (ctx->ops->ibv_destroy_qp(l->qp)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp "
			     "(set-up): %m");
		return;
	}
	l->qp = NULL;
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_destroy_cq(l->cq));
	if (!ret)
		l->cq = NULL;
}

static void destroy_severed(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	if (vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_destroy_cq(l->cq));
}

VC_GROUP(create, ibv_create_cq, RC_CONV_NULL_ERRNO, create_rows);
VC_GROUP(destroy, ibv_destroy_cq, RC_CONV_ERRNO_RET, destroy_rows);

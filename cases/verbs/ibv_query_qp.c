// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_qp(3): "gets the attributes specified in attr_mask for the QP
 * qp and returns them through the pointers attr and init_attr."  NOTES:
 * "Attribute values are valid if they have been set using
 * ibv_modify_qp()."  "returns 0 on success, or the value of errno on
 * failure".
 *
 * - after create, RC, UC, UD: 0, qp_state RESET, and init_attr's CQs,
 *   srq (none), qp_type and caps (at least those asked) as created; attr
 *   compared across the two implementations (documented)
 * - in RTS, RC, UC, UD: every attribute the walk RESET, INIT, RTR, RTS
 *   set reads back as set, state across calls (documented)
 * - attr_mask IBV_QP_STATE alone on a QP in RTR: qp_state RTR
 *   (documented: the mask is the minimum to retrieve)
 * - a QP the row makes with a context pointer, sq_sig_all 1 and inline
 *   data: init_attr gives back the pointer, sq_sig_all 1 and at least
 *   the inline data asked, attr.cap the same (documented)
 * - the command file gone: an errno value (interpretation)
 * The state rows need an InfiniBand-transport device (iWARP QPs are
 * connected through rdma_cm); UD rows datagrams.
 */
#include <string.h>

#include "verbs_ctl.h"
#include "verbs_qp.h"

#define DOC_QUERY                                                            \
	"ibv_query_qp() gets the attributes specified in attr_mask for the " \
	"QP qp and returns them through the pointers attr and init_attr."
#define DOC_VALID                                                 \
	"Attribute values are valid if they have been set using " \
	"ibv_modify_qp()."
#define DOC_HINT                                                       \
	"The argument attr_mask is a hint that specifies the minimum " \
	"list of attributes to retrieve."
#define DOC_RET                                        \
	"ibv_query_qp() returns 0 on success, or the " \
	"value of errno on failure (which indicates the failure reason)."

#define NEEDS_STATES (VC_NEEDS | RC_NEED_CA)

static vc_check after_create, after_rts, hint_state, as_created, severed;

/* what as_created asks for: a pointer of distinct bytes, inline data */
#define QC_CONTEXT ((void *)0x5a4b3c2d1e0fUL)
#define QC_INLINE 44

#define CREATED(t, T, nd)                                                   \
	{                                                                   \
		.c = { .id = "verbs/query_qp/" #t "-after-create",          \
		       .doc = DOC_QUERY,                                    \
		       .basis = RC_BASIS_DOCUMENTED,                        \
		       .note = "a new " #T                                  \
			       " QP: 0, qp_state RESET, init_attr's "       \
			       "CQs, srq NULL, qp_type and caps (at least " \
			       "8/8/1/1) as created",                       \
		       .needs = nd,                                         \
		       .contract = { RC_RETURNS(0) } },                     \
		.check = after_create, .rung = VL_QP, .arg = IBV_QPT_##T    \
	}
#define IN_RTS(t, T, nd)                                                       \
	{                                                                      \
		.c = { .id = "verbs/query_qp/" #t "-in-rts",                   \
		       .doc = DOC_VALID,                                       \
		       .basis = RC_BASIS_DOCUMENTED,                           \
		       .note = "a " #T                                         \
			       " QP walked RESET, INIT, RTR, RTS with "        \
			       "the tables' attributes (values of distinct "   \
			       "bytes): each reads back as set, qp_state RTS", \
		       .needs = nd,                                            \
		       .contract = { RC_RETURNS(0) } },                        \
		.check = after_rts, .rung = VL_QP, .arg = IBV_QPT_##T          \
	}

static const struct vc_row rows[] = {
	CREATED(rc, RC, VC_NEEDS),
	CREATED(uc, UC, VC_NEEDS | RC_NEED_CA),
	CREATED(ud, UD, VC_NEEDS | RC_NEED_UD),
	IN_RTS(rc, RC, NEEDS_STATES),
	IN_RTS(uc, UC, NEEDS_STATES),
	IN_RTS(ud, UD, NEEDS_STATES | RC_NEED_UD),
	{ .c = { .id = "verbs/query_qp/hint-state-only",
		 .doc = DOC_HINT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "attr_mask IBV_QP_STATE on an RC QP in RTR: 0, "
			 "qp_state RTR",
		 .needs = NEEDS_STATES,
		 .contract = { RC_RETURNS(0) } },
	  .check = hint_state,
	  .rung = VL_QP,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/init-attr-as-created",
		 .doc = DOC_QUERY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an RC QP made with qp_context 0x5a4b3c2d1e0f, "
			 "sq_sig_all 1 and max_inline_data 44: init_attr gives "
			 "back that qp_context, sq_sig_all 1, srq NULL and "
			 "max_inline_data at least 44, as attr.cap does",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = as_created,
	  .rung = VL_CQ,
	  .arg = IBV_QPT_RC },
	{ .c = { .id = "verbs/query_qp/command-file-gone",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the context's command file replaced by an O_PATH "
			 "descriptor",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = severed,
	  .rung = VL_QP },
};

/* the ladder's QP is made with vl.qp_type: the rows' */
static bool typed(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	if (l->qp->qp_type == (enum ibv_qp_type)row->arg)
		return true;
	rc_obs_state(ctx->obs, RC_STATE_BROKEN,
		     "the ladder's QP is of type "
		     "%d, not %ld",
		     l->qp->qp_type, row->arg);
	return false;
}

static void after_create(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr qa;
	int ret;

	if (!typed(row, ctx, l))
		return;
	memset(&qa, 0, sizeof(qa));
	memset(&qi, 0, sizeof(qi));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_qp(
				l->qp, &qa, IBV_QP_STATE | IBV_QP_CAP, &qi));
	if (ret)
		return;
	rc_obs_out(ctx->obs, &qa, sizeof(qa));
	if (qa.qp_state != IBV_QPS_RESET)
		rc_obs_violation(ctx->obs, "qp_state %d, not RESET",
				 qa.qp_state);
	else if (qi.send_cq != l->cq || qi.recv_cq != l->cq || qi.srq)
		rc_obs_violation(ctx->obs, "init_attr.send_cq/recv_cq/srq: "
					   "not as created");
	else if (qi.qp_type != l->qp->qp_type)
		rc_obs_violation(ctx->obs, "init_attr.qp_type %d, created %d",
				 qi.qp_type, l->qp->qp_type);
	else if (qi.cap.max_send_wr < VL_WR || qi.cap.max_recv_wr < VL_WR ||
		 qi.cap.max_send_sge < VL_SGE || qi.cap.max_recv_sge < VL_SGE)
		rc_obs_violation(ctx->obs,
				 "init_attr.cap %u/%u/%u/%u, asked "
				 "%d/%d/%d/%d",
				 qi.cap.max_send_wr, qi.cap.max_recv_wr,
				 qi.cap.max_send_sge, qi.cap.max_recv_sge,
				 VL_WR, VL_WR, VL_SGE, VL_SGE);
}

static void after_rts(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	enum ibv_qp_type t = row->arg;
	int mask = IBV_QP_STATE | vq_entry(t, IBV_QPS_INIT) |
		   vq_entry(t, IBV_QPS_RTR) | vq_entry(t, IBV_QPS_RTS);
	struct ibv_qp_attr want, got;
	struct ibv_qp_init_attr qi;
	int ret;

	if (!typed(row, ctx, l) || !vq_walk(ctx, l, IBV_QPS_RTS))
		return;
	memset(&got, 0, sizeof(got));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_qp(l->qp, &got, mask, &qi));
	if (ret)
		return;
	vq_fill(ctx, &want, mask, IBV_QPS_RTS);
	vq_check_attrs(ctx, &want, &got, mask);
}

static void hint_state(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr got;
	int ret;

	if (!vq_walk(ctx, l, IBV_QPS_RTR))
		return;
	memset(&got, 0, sizeof(got));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_qp(l->qp, &got, IBV_QP_STATE,
						     &qi));
	if (!ret && got.qp_state != IBV_QPS_RTR)
		rc_obs_violation(ctx->obs, "qp_state %d, not RTR",
				 got.qp_state);
}

static void as_created(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_qp_init_attr ia = { .qp_context = QC_CONTEXT,
				       .send_cq = l->cq,
				       .recv_cq = l->cq,
				       .cap = { .max_send_wr = VL_WR,
						.max_recv_wr = VL_WR,
						.max_send_sge = VL_SGE,
						.max_recv_sge = VL_SGE,
						.max_inline_data = QC_INLINE },
				       .qp_type = IBV_QPT_RC,
				       .sq_sig_all = 1 };
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr qa;
	struct ibv_qp *qp;
	int ret;

	qp = ctx->ops->ibv_create_qp(l->pd, &ia);
	if (!qp) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_qp with inline data %d (set-up): %m",
			     QC_INLINE);
		return;
	}
	memset(&qa, 0, sizeof(qa));
	memset(&qi, 0, sizeof(qi));
	RC_OBSERVE(ctx, ret = ctx->ops->ibv_query_qp(qp, &qa, IBV_QP_CAP, &qi));
	if (ret)
		goto out;
	if (qi.qp_context != QC_CONTEXT)
		rc_obs_violation(ctx->obs, "init_attr.qp_context %p, not %p",
				 qi.qp_context, QC_CONTEXT);
	else if (qi.sq_sig_all != 1 || qi.srq)
		rc_obs_violation(ctx->obs, "init_attr.sq_sig_all %d, srq %p",
				 qi.sq_sig_all, (void *)qi.srq);
	else if (qi.cap.max_inline_data < QC_INLINE ||
		 qa.cap.max_inline_data < QC_INLINE)
		rc_obs_violation(ctx->obs,
				 "max_inline_data %u (init_attr), %u (attr), "
				 "asked %d",
				 qi.cap.max_inline_data, qa.cap.max_inline_data,
				 QC_INLINE);
out:
	if (ctx->ops->ibv_destroy_qp(qp))
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_destroy_qp (clean-up): %m");
}

static void severed(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_qp_init_attr qi;
	struct ibv_qp_attr got;

	if (vc_sever(ctx, l))
		RC_OBSERVE(ctx, ctx->ops->ibv_query_qp(l->qp, &got,
						       IBV_QP_STATE, &qi));
}

static void query_run(const void *r, struct rc_ctx *ctx)
{
	const struct vc_row *row = r;
	struct vl l = { .qp_type = row->arg ? (enum ibv_qp_type)row->arg :
					      IBV_QPT_RC };

	if (!rc_need_call(ctx, (const void *)ctx->ops->ibv_query_qp,
			  "ibv_query_qp"))
		return;
	if (vl_up(ctx, &l, row->rung))
		row->check(row, ctx, &l);
	vl_down(ctx, &l);
}

RC_TABLE_GROUP(group, "ibv_query_qp", RC_CONV_ERRNO_RET, "verbs", rows,
	       query_run);

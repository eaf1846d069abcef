// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_flow(3): ERRORS "ENXIO Device managed flow steering isn't
 * currently supported"; NOTES "These verbs are available only for devices
 * supporting IBV_DEVICE_MANAGED_FLOW_STEERING and only for QPs of
 * Transport Service Type IBV_QPT_UD or IBV_QPT_RAW_PACKET".
 * "ibv_destroy_flow() returns 0 on success, or the value of errno on
 * failure".
 *
 * rxe has no flow steering (no IBV_DEVICE_MANAGED_FLOW_STEERING; the
 * kernel's CREATE_FLOW command needs the driver's create_flow).
 *
 * - a device without managed flow steering, a UD QP, a rule of no specs:
 *   NULL, ENXIO (documented)
 * - ibv_destroy_flow of a flow just made: 0 (documented; UNSUPPORTED
 *   without flow steering)
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_ENXIO "ENXIO Device managed flow steering isn't currently supported"
#define DOC_DESTROY_RET                                                      \
	"ibv_destroy_flow() returns 0 on success, or the value of errno on " \
	"failure (which indicates the failure reason)."

static vc_check create_unsupported, destroy_made;

static const struct vc_row create_rows[] = {
	{ .c = { .id = "verbs/create_flow/no-flow-steering",
		 .doc = DOC_ENXIO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no IBV_DEVICE_MANAGED_FLOW_STEERING (rxe): a rule "
			 "of no specs on a UD QP is NULL, ENXIO",
		 .needs = VC_NEEDS | RC_NEED_UD,
		 .contract = { RC_FAILS(ENXIO) } },
	  .check = create_unsupported,
	  .rung = VL_CQ },
};

static const struct vc_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_flow/made",
		 .doc = DOC_DESTROY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a flow just made: 0; UNSUPPORTED without managed "
			 "flow steering",
		 .needs = VC_NEEDS | RC_NEED_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_made,
	  .rung = VL_CQ },
};

/* A UD QP on the row's CQ (set-up), or NULL and the row BROKEN */
static struct ibv_qp *ud_qp(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_qp_init_attr a = {
		.send_cq = l->cq,
		.recv_cq = l->cq,
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = VL_WR,
			 .max_recv_wr = VL_WR,
			 .max_send_sge = VL_SGE,
			 .max_recv_sge = VL_SGE },
	};
	struct ibv_qp *qp = ctx->ops->ibv_create_qp(l->pd, &a);

	if (!qp)
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_qp UD (set-up): %m");
	return qp;
}

static struct ibv_flow *create(struct rc_ctx *ctx, struct vl *l,
			       struct ibv_qp *qp)
{
	struct ibv_flow_attr a = { .type = IBV_FLOW_ATTR_NORMAL,
				   .size = sizeof(a),
				   .port = ctx->target->port };

	return ctx->ops->ibv_create_flow(qp, &a);
}

static bool steering(struct rc_ctx *ctx, struct vl *l, bool *has)
{
	struct ibv_device_attr a;

	if (!vc_attr(ctx, l, &a))
		return false;
	*has = a.device_cap_flags & IBV_DEVICE_MANAGED_FLOW_STEERING;
	return true;
}

static void create_unsupported(const struct vc_row *row, struct rc_ctx *ctx,
			       struct vl *l)
{
	struct ibv_flow *f;
	struct ibv_qp *qp;
	bool has;

	if (!steering(ctx, l, &has) ||
	    !vo_lacks(ctx, has, "managed flow steering") ||
	    !(qp = ud_qp(ctx, l)))
		return;
	RC_OBSERVE(ctx, f = create(ctx, l, qp));
	if (f)
		ctx->ops->ibv_destroy_flow(f);
	ctx->ops->ibv_destroy_qp(qp);
}

static void destroy_made(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_flow *f;
	struct ibv_qp *qp;
	bool has;

	if (!steering(ctx, l, &has) ||
	    !vo_has(ctx, has, "managed flow steering") || !(qp = ud_qp(ctx, l)))
		return;
	if ((f = create(ctx, l, qp)))
		RC_OBSERVE(ctx, ctx->ops->ibv_destroy_flow(f));
	else
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_flow (set-up): %m");
	ctx->ops->ibv_destroy_qp(qp);
}

VC_GROUP(create, ibv_create_flow, RC_CONV_NULL_ERRNO, create_rows);
VC_GROUP(destroy, ibv_destroy_flow, RC_CONV_ERRNO_RET, destroy_rows);

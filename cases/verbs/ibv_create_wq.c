// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_create_wq(3): "returns a pointer to the created WQ, or NULL if the
 * request fails."  "ibv_destroy_wq() returns 0 on success, or the value
 * of errno on failure".  ibv_modify_wq(3): "returns 0 on success, or the
 * value of errno on failure".  ibv_create_rwq_ind_table(3): "returns a
 * pointer to the created RWQ IND TBL, or NULL if the request fails."
 *
 * rxe and siw have no WQs (max_wq_type_rq 0; the kernel's CREATE_WQ
 * command needs the driver's create_wq) and no indirection tables.
 *
 * - ibv_create_wq, max_wq_type_rq 0: NULL (interpretation: a device of no
 *   receive WQs makes none)
 * - ibv_modify_wq of a WQ just made, RESET to RDY: 0 (documented)
 * - ibv_destroy_wq of a WQ just made: 0 (documented)
 * - ibv_create_rwq_ind_table of one WQ, max_rwq_indirection_tables 0:
 *   NULL (interpretation)
 * - ibv_destroy_rwq_ind_table of a table just made: 0 (documented)
 * The last four are UNSUPPORTED where the device has no WQs or tables.
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_CREATE_RET \
	"ibv_create_wq() returns a pointer to the created WQ, or NULL if the request fails."
#define DOC_DESTROY_RET                                                    \
	"ibv_destroy_wq() returns 0 on success, or the value of errno on " \
	"failure (which indicates the failure reason)."
#define DOC_MODIFY_RET                                                   \
	"returns 0 on success, or the value of errno on failure (which " \
	"indicates the failure reason)."
#define DOC_IND_RET                                                        \
	"ibv_create_rwq_ind_table() returns a pointer to the created RWQ " \
	"IND TBL, or NULL if the request fails."
#define DOC_IND_DESTROY_RET                                                  \
	"ibv_destroy_rwq_ind_table() returns 0 on success, or the value of " \
	"errno on failure (which indicates the failure reason)."

static vc_check create_none, modify_rdy, destroy_made, ind_none, ind_destroy;

static const struct vc_row create_rows[] = {
	{ .c = { .id = "verbs/create_wq/no-wqs",
		 .doc = DOC_CREATE_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_wq_type_rq 0 (rxe, siw): a device of no receive "
			 "WQs makes none, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = create_none,
	  .rung = VL_CQ },
};

static const struct vc_row modify_rows[] = {
	{ .c = { .id = "verbs/modify_wq/reset-to-rdy",
		 .doc = DOC_MODIFY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a WQ just made, RESET to RDY: 0; UNSUPPORTED "
			 "without WQs",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = modify_rdy,
	  .rung = VL_CQ },
};

static const struct vc_row destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_wq/made",
		 .doc = DOC_DESTROY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a WQ just made: 0; UNSUPPORTED without WQs",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = destroy_made,
	  .rung = VL_CQ },
};

static const struct vc_row ind_rows[] = {
	{ .c = { .id = "verbs/create_rwq_ind_table/no-tables",
		 .doc = DOC_IND_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_rwq_indirection_tables 0, a table of one WQ: "
			 "NULL; UNSUPPORTED where the device makes no WQ to "
			 "put in it (rxe, siw)",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = ind_none,
	  .rung = VL_CQ },
};

static const struct vc_row ind_destroy_rows[] = {
	{ .c = { .id = "verbs/destroy_rwq_ind_table/made",
		 .doc = DOC_IND_DESTROY_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a table of one WQ just made: 0; UNSUPPORTED without "
			 "WQs or tables",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ind_destroy,
	  .rung = VL_CQ },
};

static struct ibv_wq *create(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_wq_init_attr a = { .wq_type = IBV_WQT_RQ,
				      .max_wr = VL_WR,
				      .max_sge = VL_SGE,
				      .pd = l->pd,
				      .cq = l->cq };

	return ctx->ops->ibv_create_wq(l->ctx, &a);
}

/* A WQ (set-up) where the device has them; NULL and the row UNSUPPORTED
 * or BROKEN */
static struct ibv_wq *wq(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_wq *w;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_has(ctx, a.max_wq_type_rq, "receive WQs (max_wq_type_rq)"))
		return NULL;
	if (!(w = create(ctx, l)))
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_wq (set-up): %m");
	return w;
}

static void create_none(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_wq *w;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_lacks(ctx, a.max_wq_type_rq, "receive WQs (max_wq_type_rq)"))
		return;
	RC_OBSERVE(ctx, w = create(ctx, l));
	if (w)
		ctx->ops->ibv_destroy_wq(w);
}

static void modify_rdy(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_wq_attr a = { .attr_mask = IBV_WQ_ATTR_STATE,
				 .wq_state = IBV_WQS_RDY };
	struct ibv_wq *w = wq(ctx, l);

	if (!w)
		return;
	RC_OBSERVE(ctx, ctx->ops->ibv_modify_wq(w, &a));
	ctx->ops->ibv_destroy_wq(w);
}

static void destroy_made(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_wq *w = wq(ctx, l);

	if (w)
		RC_OBSERVE(ctx, ctx->ops->ibv_destroy_wq(w));
}

static struct ibv_rwq_ind_table *ind(struct rc_ctx *ctx, struct vl *l,
				     struct ibv_wq **w)
{
	struct ibv_rwq_ind_table_init_attr a = { .log_ind_tbl_size = 0,
						 .ind_tbl = w };

	return ctx->ops->ibv_create_rwq_ind_table(l->ctx, &a);
}

static void ind_none(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_rwq_ind_table *t;
	struct ibv_wq *w;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_lacks(ctx, a.rss_caps.max_rwq_indirection_tables,
		      "indirection tables") ||
	    !(w = wq(ctx, l)))
		return;
	RC_OBSERVE(ctx, t = ind(ctx, l, &w));
	if (t)
		ctx->ops->ibv_destroy_rwq_ind_table(t);
	ctx->ops->ibv_destroy_wq(w);
}

static void ind_destroy(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	struct ibv_device_attr_ex a;
	struct ibv_rwq_ind_table *t;
	struct ibv_wq *w;

	if (!vo_attr_ex(ctx, l, &a) ||
	    !vo_has(ctx, a.rss_caps.max_rwq_indirection_tables,
		    "indirection tables") ||
	    !(w = wq(ctx, l)))
		return;
	if ((t = ind(ctx, l, &w)))
		RC_OBSERVE(ctx, ctx->ops->ibv_destroy_rwq_ind_table(t));
	else
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_create_rwq_ind_table (set-up): %m");
	ctx->ops->ibv_destroy_wq(w);
}

VC_GROUP(create, ibv_create_wq, RC_CONV_NULL_ERRNO, create_rows);
VC_GROUP(modify, ibv_modify_wq, RC_CONV_ERRNO_RET, modify_rows);
VC_GROUP(destroy, ibv_destroy_wq, RC_CONV_ERRNO_RET, destroy_rows);
VC_GROUP(ind, ibv_create_rwq_ind_table, RC_CONV_NULL_ERRNO, ind_rows);
VC_GROUP(ind_destroy, ibv_destroy_rwq_ind_table, RC_CONV_ERRNO_RET,
	 ind_destroy_rows);

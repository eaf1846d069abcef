// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_open_xrcd(3): "returns a pointer to the opened XRCD, or NULL if the
 * request fails."  "ibv_close_xrcd() returns 0 on success, or the value of
 * errno on failure".  ibv_open_qp(3): "will fail if a it is asked to open
 * a QP that does not exist within the xrcd with the specified qp_num and
 * qp_type."
 *
 * rxe and siw have no XRC (no IBV_DEVICE_XRC; the kernel's OPEN_XRCD
 * command needs the driver's alloc_xrcd).
 *
 * - ibv_open_xrcd without IBV_DEVICE_XRC: NULL (interpretation)
 * - ibv_close_xrcd of an XRCD just opened (no file): 0 (documented)
 * - ibv_open_qp of a QP number no QP has in the XRCD: NULL (documented)
 * The last two are UNSUPPORTED without XRC.
 */
#include <errno.h>
#include <fcntl.h>

#include "verbs_opt.h"

#define DOC_OPEN_RET \
	"ibv_open_xrcd() returns a pointer to the opened XRCD, or NULL if the request fails."
#define DOC_CLOSE_RET                                                      \
	"ibv_close_xrcd() returns 0 on success, or the value of errno on " \
	"failure (which indicates the failure reason)."
#define DOC_OPEN_QP                                                        \
	"ibv_open_qp() will fail if a it is asked to open a QP that does " \
	"not exist within the xrcd with the specified qp_num and qp_type."

static vc_check open_none, close_made, open_qp_none;

static const struct vc_row open_rows[] = {
	{ .c = { .id = "verbs/open_xrcd/no-xrc",
		 .doc = DOC_OPEN_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "no IBV_DEVICE_XRC (rxe, siw): a device without XRC "
			 "opens no XRCD, NULL",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = open_none,
	  .rung = VL_CONTEXT },
};

static const struct vc_row close_rows[] = {
	{ .c = { .id = "verbs/close_xrcd/made",
		 .doc = DOC_CLOSE_RET,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an XRCD of no file just opened: 0; UNSUPPORTED "
			 "without XRC",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = close_made,
	  .rung = VL_CONTEXT },
};

static const struct vc_row open_qp_rows[] = {
	{ .c = { .id = "verbs/open_qp/no-such-qp",
		 .doc = DOC_OPEN_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "QP number 0xfffff0 of type XRC_RECV in a fresh "
			 "XRCD: NULL; UNSUPPORTED without XRC",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = open_qp_none,
	  .rung = VL_CONTEXT },
};

static struct ibv_xrcd *open_xrcd(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		.oflags = O_CREAT,
	};

	return ctx->ops->ibv_open_xrcd(l->ctx, &a);
}

static bool has_xrc(struct rc_ctx *ctx, struct vl *l, bool *has)
{
	struct ibv_device_attr a;

	if (!vc_attr(ctx, l, &a))
		return false;
	*has = a.device_cap_flags & IBV_DEVICE_XRC;
	return true;
}

static struct ibv_xrcd *xrcd(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_xrcd *x;
	bool has;

	if (!has_xrc(ctx, l, &has) || !vo_has(ctx, has, "XRC"))
		return NULL;
	if (!(x = open_xrcd(ctx, l)))
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "ibv_open_xrcd (set-up): %m");
	return x;
}

static void open_none(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	struct ibv_xrcd *x;
	bool has;

	if (!has_xrc(ctx, l, &has) || !vo_lacks(ctx, has, "XRC"))
		return;
	RC_OBSERVE(ctx, x = open_xrcd(ctx, l));
	if (x)
		ctx->ops->ibv_close_xrcd(x);
}

static void close_made(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_xrcd *x = xrcd(ctx, l);

	if (x)
		RC_OBSERVE(ctx, ctx->ops->ibv_close_xrcd(x));
}

static void open_qp_none(const struct vc_row *row, struct rc_ctx *ctx,
			 struct vl *l)
{
	struct ibv_xrcd *x = xrcd(ctx, l);
	struct ibv_qp_open_attr a = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = 0xfffff0,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct ibv_qp *qp;

	if (!x)
		return;
	a.xrcd = x;
	RC_OBSERVE(ctx, qp = ctx->ops->ibv_open_qp(l->ctx, &a));
	if (qp)
		ctx->ops->ibv_destroy_qp(qp);
	ctx->ops->ibv_close_xrcd(x);
}

VC_GROUP(open, ibv_open_xrcd, RC_CONV_NULL_ERRNO, open_rows);
VC_GROUP(close, ibv_close_xrcd, RC_CONV_ERRNO_RET, close_rows);
VC_GROUP(open_qp, ibv_open_qp, RC_CONV_NULL_ERRNO, open_qp_rows);

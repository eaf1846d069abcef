// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_resize_cq(3): "resizes the completion queue (CQ) cq to have at least
 * cqe entries."  "If cqe is a valid value less than the current CQ size,
 * ibv_resize_cq() may not do anything".  "returns 0 on success, or the
 * value of errno on failure".  NOTES: "The cqe member of cq will be
 * updated to the actual size."
 *
 * The new size is read back from cq->cqe, where the page says it lands.
 * - from 16 to 100: 0, and cqe >= 100 (documented)
 * - to max_cqe, an exact fit: 0, and cqe >= max_cqe (documented;
 *   UNSUPPORTED where such a CQ is more memory than a row takes)
 * - to max_cqe + 1: an errno value, and cqe as it was (interpretation:
 *   beyond the device; a failed call changes nothing)
 * - from 100 down to 16: 0, and cqe >= 16 (documented: it may keep the
 *   larger size)
 * - to -1: an errno value, cqe as it was (interpretation)
 * - completion-after-resize: grown to 100, then a receive posted on the
 *   ladder's QP (INIT) and flushed by the error state: its completion is
 *   polled from the resized CQ (documented: the effect where it lands, a
 *   resized CQ still takes its QP's completions)
 * A device that cannot resize a CQ (EOPNOTSUPP) is UNSUPPORTED for the
 * rows that grow or shrink one.
 */
#include <errno.h>

#include "verbs_ctl.h"
#include "verbs_traffic.h"

#define DOC_RESIZE                                              \
	"ibv_resize_cq() resizes the completion queue (CQ) cq " \
	"to have at least cqe entries."
#define DOC_LESS                                                            \
	"If cqe is a valid value less than the current CQ size, "           \
	"ibv_resize_cq() may not do anything, since this function is only " \
	"guaranteed to resize the CQ to a size at least as big as the "     \
	"requested size."
#define DOC_CQE "The cqe member of cq will be updated to the actual size."
#define DOC_RET                                                  \
	"ibv_resize_cq() returns 0 on success, or the value of " \
	"errno on failure (which indicates the failure reason)."

static vc_check resize_to, resize_max, resize_past_max, resize_down,
	completion_after;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/resize_cq/grows",
		 .doc = DOC_CQE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "16 to 100: cq->cqe >= 100 after",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resize_to,
	  .rung = VL_CQ,
	  .arg = 100 },
	{ .c = { .id = "verbs/resize_cq/to-max-cqe",
		 .doc = DOC_RESIZE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "to ibv_query_device's max_cqe: cq->cqe >= it",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resize_max,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/resize_cq/max-cqe-plus-1",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "to max_cqe + 1: beyond the device; cq->cqe as it was",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = resize_past_max,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/resize_cq/shrinks-or-keeps",
		 .doc = DOC_LESS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "grown to 100, then to 16: 0, and cq->cqe >= 16",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resize_down,
	  .rung = VL_CQ },
	{ .c = { .id = "verbs/resize_cq/minus-1",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "to -1 entries: no such size; cq->cqe as it was",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = resize_to,
	  .rung = VL_CQ,
	  .arg = -1 },
	{ .c = { .id = "verbs/resize_cq/completion-after-resize",
		 .doc = DOC_RESIZE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "16 to 100, then a receive of the CQ's QP flushed by "
			 "the error state: 0, and ibv_poll_cq takes that "
			 "completion (wr_id 0x5eed) from the resized CQ",
		 .needs = VC_NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = completion_after,
	  .rung = VL_QP },
};

/* The call under test to @cqe; cq->cqe checked after it. */
static int resize(struct rc_ctx *ctx, struct vl *l, int cqe, bool must)
{
	int before = l->cq->cqe, ret;

	RC_OBSERVE(ctx, ret = ctx->ops->ibv_resize_cq(l->cq, cqe));
	if (ret == EOPNOTSUPP && must)
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device "
			     "cannot resize a CQ (EOPNOTSUPP)");
	else if (!ret && l->cq->cqe < cqe)
		rc_obs_violation(ctx->obs, "cqe %d after, asked %d", l->cq->cqe,
				 cqe);
	else if (ret && l->cq->cqe != before)
		rc_obs_violation(ctx->obs,
				 "cqe %d after the failure, %d "
				 "before",
				 l->cq->cqe, before);
	return ret;
}

static void resize_to(const struct vc_row *row, struct rc_ctx *ctx,
		      struct vl *l)
{
	resize(ctx, l, row->arg, row->arg > 0);
}

static void resize_max(const struct vc_row *row, struct rc_ctx *ctx,
		       struct vl *l)
{
	struct ibv_device_attr a;

	if (vc_attr(ctx, l, &a) && vc_cq_fits(ctx, a.max_cqe))
		resize(ctx, l, a.max_cqe, true);
}

static void resize_past_max(const struct vc_row *row, struct rc_ctx *ctx,
			    struct vl *l)
{
	struct ibv_device_attr a;

	if (vc_attr(ctx, l, &a))
		resize(ctx, l, a.max_cqe + 1, false);
}

static void resize_down(const struct vc_row *row, struct rc_ctx *ctx,
			struct vl *l)
{
	int err = ctx->ops->ibv_resize_cq(l->cq, 100);

	if (err == EOPNOTSUPP) {
		rc_obs_state(ctx->obs, RC_STATE_UNSUPPORTED,
			     "the device "
			     "cannot resize a CQ (EOPNOTSUPP)");
		return;
	}
	if (err) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "growing the CQ to 100 "
			     "(set-up): %s",
			     rc_errno_name(err));
		return;
	}
	resize(ctx, l, 16, true);
}

/* A receive of @l's QP (in INIT) flushed by the error state: its
 * completion on the CQ, polled with the implementation until the
 * deadline; false and the cause observed when set-up fails */
static bool flushed_receive(struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_recv_wr wr = { .wr_id = 0x5eed }, *bad;
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };
	struct ibv_wc wc;
	const char *why = NULL;
	int n;

	if (!vl_qp_to(ctx, l->qp, IBV_QPS_INIT, l->qp->qp_num, &why) ||
	    ctx->ops->ibv_post_recv(l->qp, &wr, &bad) ||
	    ctx->ops->ibv_modify_qp(l->qp, &err, IBV_QP_STATE)) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "a receive flushed by the error state (set-up): "
			     "%s",
			     why ? why : "refused");
		return false;
	}
	n = vt_poll(ctx, l->cq, &wc, 1);
	if (n != 1)
		rc_obs_violation(
			ctx->obs,
			"ibv_poll_cq: %d after the resize, the flushed "
			"receive's completion not there",
			n);
	else if (wc.wr_id != 0x5eed)
		rc_obs_violation(ctx->obs,
				 "completion: wr_id 0x%llx, not 0x5eed",
				 (unsigned long long)wc.wr_id);
	return n == 1;
}

static void completion_after(const struct vc_row *row, struct rc_ctx *ctx,
			     struct vl *l)
{
	if (!resize(ctx, l, 100, true) && ctx->obs->state == RC_STATE_RAN)
		flushed_receive(ctx, l);
}

VC_GROUP(resize, ibv_resize_cq, RC_CONV_ERRNO_RET, rows);

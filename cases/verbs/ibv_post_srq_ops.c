// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_post_srq_ops(3): "performs series of offload operations on a
 * tag matching SRQ."  "returns 0 on success, or the value of errno on
 * failure".  rxe and siw have no tag matching (tm_caps.max_num_tags 0),
 * so no SRQ of theirs is one.
 *
 * - IBV_WR_TAG_SYNC on an SRQ that is no tag-matching SRQ: an errno
 *   value (interpretation: the ops are a TM SRQ's).  The page says
 *   nothing of *bad_op, so it is not read.
 */
#include <errno.h>

#include "verbs_opt.h"

#define DOC_RET                                                           \
	"ibv_post_srq_ops() returns 0 on success, or the value of errno " \
	"on failure (which indicates the failure reason)."

static vc_check not_tm;

static const struct vc_row rows[] = {
	{ .c = { .id = "verbs/post_srq_ops/not-tag-matching",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a SYNC on a plain SRQ: an errno value",
		 .needs = VC_NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = not_tm,
	  .rung = VL_SRQ },
};

static void not_tm(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	struct ibv_ops_wr op = { .wr_id = 1, .opcode = IBV_WR_TAG_SYNC };
	struct ibv_ops_wr *bad = NULL;

	RC_OBSERVE(ctx, ctx->ops->ibv_post_srq_ops(l->srq, &op, &bad));
}

VC_GROUP(ops, ibv_post_srq_ops, RC_CONV_ERRNO_RET, rows);

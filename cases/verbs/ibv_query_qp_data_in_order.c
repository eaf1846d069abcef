// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_query_qp_data_in_order(3): "Returns 1 if the data is guaranteed to
 * be written in-order, 0 otherwise."  flags: "For now must be 0."  The
 * answer is the provider's (no kernel command); rxe's and siw's providers
 * have no such op, so 0 (nothing is guaranteed), which the page allows.
 *
 * - an RC QP, for SEND, RDMA_WRITE and RDMA_READ: 0 or 1 (documented)
 */
#include "verbs_opt.h"

#define DOC_RET                                                             \
	"ibv_query_qp_data_in_order() Returns 1 if the data is guaranteed " \
	"to be written in-order, 0 otherwise."

static vc_check query;

#define ROW(name, op)                                                 \
	{                                                             \
		.c = { .id = "verbs/query_qp_data_in_order/rc-" name, \
		       .doc = DOC_RET,                                \
		       .basis = RC_BASIS_DOCUMENTED,                  \
		       .note = "an RC QP, " #op ", flags 0: 1 or 0",  \
		       .needs = VC_NEEDS,                             \
		       .contract = { .ret = RC_RET_IN,                \
				     .value = 0,                      \
				     .alt = { 1, 1 } } },             \
		.check = query, .rung = VL_QP, .arg = op              \
	}

static const struct vc_row rows[] = {
	ROW("send", IBV_WR_SEND),
	ROW("rdma-write", IBV_WR_RDMA_WRITE),
	ROW("rdma-read", IBV_WR_RDMA_READ),
};

static void query(const struct vc_row *row, struct rc_ctx *ctx, struct vl *l)
{
	RC_OBSERVE(ctx, ctx->ops->ibv_query_qp_data_in_order(
				l->qp, (enum ibv_wr_opcode)row->arg, 0));
}

VC_GROUP(query, ibv_query_qp_data_in_order, RC_CONV_VALUE, rows);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_destroy_qp(3): "Destroy a QP allocated on the rdma_cm_id."
 * rdma_create_qp(3): "An rdma_cm_id may only be associated with a single
 * QP."
 *
 * - a connected id's QP (the client's, route resolved): id->qp is NULL
 *   after, and the id takes a new QP (the single one it may have is gone)
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_DESTROY "Destroy a QP allocated on the rdma_cm_id."

struct dq_row {
	struct rc_case c;
};

static const struct dq_row rows[] = {
	{ .c = { .id = "rdmacm/destroy_qp/id-takes-another",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after the call id->qp is NULL, and rdma_create_qp "
			 "on the id succeeds again",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_ANY_RETURN } } },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2,
			 .max_recv_wr = 2,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct cm_pair p;

	(void)r;
	if (!rc_need_call(ctx, ctx->ops->rdma_destroy_qp, "rdma_destroy_qp"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve_route(ctx, &p) ||
	    !cm_create_qp(ctx, &p.cli, p.cli.id))
		goto out;
	RC_OBSERVE(ctx, (ctx->ops->rdma_destroy_qp(p.cli.id), 0));
	if (p.cli.id->qp) {
		rc_obs_violation(ctx->obs, "qp id->qp still set");
		goto out;
	}
	qa.send_cq = qa.recv_cq = p.cli.cq;
	if (ctx->ops->rdma_create_qp(p.cli.id, p.cli.pd, &qa))
		rc_obs_violation(ctx->obs, "again rdma_create_qp fails "
					   "(%m) after the QP was destroyed");
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_destroy_qp", RC_CONV_VALUE, "rdmacm", rows, run);

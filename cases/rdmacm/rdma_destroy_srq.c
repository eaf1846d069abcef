// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_destroy_srq(3): "Destroy an SRQ allocated on the rdma_cm_id."
 * NOTES: "Users should destroy any SRQ associated with an rdma_cm_id
 * before destroying the ID."  rdma_create_srq(3): "An rdma_cm_id may only
 * be associated with a single SRQ."
 *
 * An RDMA_PS_TCP id bound to the target's address with an SRQ:
 * - after it id->srq is NULL, and rdma_create_srq on the id succeeds
 *   again (its single SRQ is gone)
 * - on a PD of the caller's: after it ibv_dealloc_pd of that PD returns
 *   0, which it cannot while the SRQ is on it
 * - then rdma_destroy_id of the id returns 0
 */
#include "rdmacm_conn.h"

#define DOC_DESTROY "Destroy an SRQ allocated on the rdma_cm_id."
#define DOC_BEFORE                                                    \
	"Users should destroy any SRQ associated with an rdma_cm_id " \
	"before destroying the ID."

enum ds_kind { DS_AGAIN, DS_PD_FREE, DS_THEN_ID };

struct ds_row {
	struct rc_case c;
	enum ds_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ds_row rows[] = {
	{ .c = { .id = "rdmacm/destroy_srq/another-after",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "id->srq NULL after the call, and a new "
			 "rdma_create_srq on the id succeeds",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DS_AGAIN },
	{ .c = { .id = "rdmacm/destroy_srq/pd-released",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the SRQ on a PD of the caller's: after the call "
			 "ibv_dealloc_pd of it returns 0 (no SRQ on it)",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DS_PD_FREE },
	{ .c = { .id = "rdmacm/destroy_srq/then-destroy-id",
		 .doc = DOC_BEFORE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the order the page asks: after the call "
			 "rdma_destroy_id of the id returns 0",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DS_THEN_ID },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ds_row *row = r;
	struct ibv_srq_init_attr a = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_srq_init_attr b = a;
	struct ibv_pd *pd = NULL;
	struct cm_pair p;
	int err;

	if (!rc_need_call(ctx, ctx->ops->rdma_create_srq, "rdma_create_srq") ||
	    !rc_need_call(ctx, ctx->ops->rdma_destroy_srq, "rdma_destroy_srq"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		goto out;
	if (ctx->ops->rdma_bind_addr(p.srv.id,
				     (struct sockaddr *)&p.srv_addr)) {
		cm_broken(ctx, "rdma_bind_addr");
		goto out;
	}
	if (row->kind == DS_PD_FREE) {
		pd = ctx->ops->ibv_alloc_pd(p.srv.id->verbs);
		if (!pd) {
			cm_broken(ctx, "ibv_alloc_pd");
			goto out;
		}
	}
	if (ctx->ops->rdma_create_srq(p.srv.id, pd, &a)) {
		cm_broken(ctx, "rdma_create_srq");
		goto out;
	}
	RC_OBSERVE(ctx, (ctx->ops->rdma_destroy_srq(p.srv.id), 0));
	switch (row->kind) {
	case DS_AGAIN:
		if (p.srv.id->srq)
			rc_obs_violation(ctx->obs, "srq id->srq still set");
		else if (ctx->ops->rdma_create_srq(p.srv.id, NULL, &b))
			rc_obs_violation(ctx->obs,
					 "again rdma_create_srq fails (%m)");
		else
			ctx->ops->rdma_destroy_srq(p.srv.id);
		break;
	case DS_PD_FREE:
		err = ctx->ops->ibv_dealloc_pd(pd);
		if (err)
			rc_obs_violation(ctx->obs, "pd ibv_dealloc_pd %d", err);
		else
			pd = NULL;
		break;
	case DS_THEN_ID:
		if (ctx->ops->rdma_destroy_id(p.srv.id))
			rc_obs_violation(ctx->obs,
					 "id rdma_destroy_id fails (%m)");
		p.srv.id = NULL;
		break;
	}
out:
	if (pd)
		ctx->ops->ibv_dealloc_pd(pd);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_destroy_srq", RC_CONV_VALUE, "rdmacm", rows, run);

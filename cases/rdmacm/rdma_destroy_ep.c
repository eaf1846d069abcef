// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_destroy_ep(3): "Destroys the specified rdma_cm_id and all
 * associated resources"  NOTES: "rdma_destroy_ep will automatically
 * destroy any QP and SRQ associated with the rdma_cm_id."
 *
 * - a listening passive endpoint: after it, a new id binds the same
 *   address and port (the id, and its port, are gone)
 * - an active endpoint with a QP on the caller's PD: after it, the PD
 *   deallocates (no QP holds it)
 * - an active endpoint without a QP, with an SRQ (rdma_create_srq) on
 *   the caller's PD: after it, the PD deallocates (no SRQ holds it)
 * - the id of a request taken with rdma_get_request, destroyed
 *   unanswered: the client's connection is refused (REJECTED), and the
 *   call returns though the id held the request's event
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_DESTROY \
	"Destroys the specified rdma_cm_id and all associated resources"
#define DOC_QP                                                       \
	"rdma_destroy_ep will automatically destroy any QP and SRQ " \
	"associated with the rdma_cm_id."

enum de_kind { DE_LISTENER, DE_QP, DE_SRQ, DE_REQUEST };

struct de_row {
	struct rc_case c;
	enum de_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct de_row rows[] = {
	{ .c = { .id = "rdmacm/destroy_ep/listener-port-freed",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a passive endpoint on the server's address, "
			 "listening: after the call a new id binds that "
			 "address and port",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DE_LISTENER },
	{ .c = { .id = "rdmacm/destroy_ep/qp-destroyed",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an active endpoint with an RC QP on a PD of the "
			 "caller's (rdma_get_devices' peer context): after the "
			 "call ibv_dealloc_pd of that PD returns 0, which it "
			 "cannot while a QP is on it",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DE_QP },
	{ .c = { .id = "rdmacm/destroy_ep/unanswered-request",
		 .doc = DOC_DESTROY,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the new id of rdma_get_request, which holds the "
			 "request's event, destroyed unanswered: the call "
			 "returns, and the client's connection is refused "
			 "(REJECTED: the id that was to answer is gone)",
		 .needs = NEEDS | RC_NEED_CA,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DE_REQUEST },
	{ .c = { .id = "rdmacm/destroy_ep/srq-destroyed",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an active endpoint without a QP, then an SRQ on it "
			 "(rdma_create_srq) on a PD of the caller's: after the "
			 "call ibv_dealloc_pd of that PD returns 0, which it "
			 "cannot while an SRQ is on it",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .kind = DE_SRQ },
};

static void listener(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_addrinfo ai;
	struct rdma_cm_id *ep;

	cm_ep_info(p, true, &ai);
	if (ctx->ops->rdma_create_ep(&ep, &ai, NULL, NULL) ||
	    ctx->ops->rdma_listen(ep, 1)) {
		cm_broken(ctx, "the listening endpoint");
		return;
	}
	RC_OBSERVE(ctx, (ctx->ops->rdma_destroy_ep(ep), 0));
	if (ctx->ops->rdma_bind_addr(p->srv.id,
				     (struct sockaddr *)&p->srv_addr))
		rc_obs_violation(ctx->obs,
				 "bind the endpoint's address and port are "
				 "still taken (%m)");
}

/* An active endpoint on a PD of the caller's with a QP (@srq false) or
 * an SRQ alone: after rdma_destroy_ep the PD deallocates */
static void on_pd_destroyed(struct rc_ctx *ctx, struct cm_pair *p, bool srq)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 2, .max_sge = 1 } };
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2,
			 .max_recv_wr = 2,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_context **list;
	struct ibv_context *c =
		cm_device_context(ctx, ctx->target->peer, &list);
	struct rdma_addrinfo ai;
	struct rdma_cm_id *ep;
	struct ibv_pd *pd = NULL;
	int err;

	if (c)
		pd = ctx->ops->ibv_alloc_pd(c);
	cm_ep_info(p, false, &ai);
	if (!pd || ctx->ops->rdma_create_ep(&ep, &ai, pd, srq ? NULL : &qa) ||
	    (!srq && !ep->qp)) {
		cm_broken(ctx, "the endpoint");
		goto out;
	}
	if (srq &&
	    (!rc_need_call(ctx, ctx->ops->rdma_create_srq, "rdma_create_srq") ||
	     ctx->ops->rdma_create_srq(ep, pd, &sa))) {
		cm_broken(ctx, "the endpoint's SRQ");
		ctx->ops->rdma_destroy_ep(ep);
		goto out;
	}
	RC_OBSERVE(ctx, (ctx->ops->rdma_destroy_ep(ep), 0));
	err = ctx->ops->ibv_dealloc_pd(pd);
	if (err)
		rc_obs_violation(ctx->obs,
				 "%s ibv_dealloc_pd after the call: %d (a%s "
				 "still on the PD)",
				 srq ? "srq" : "qp", err,
				 srq ? "n SRQ" : " QP");
	else
		pd = NULL;
out:
	if (pd)
		ctx->ops->ibv_dealloc_pd(pd);
	if (list)
		ctx->ops->rdma_free_devices(list);
}

static void unanswered(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_cm_id *ep = NULL, *id = NULL;
	struct rdma_conn_param c;
	struct rdma_addrinfo ai;
	struct rdma_cm_event *ev;
	int got;

	cm_ep_info(p, true, &ai);
	if (ctx->ops->rdma_create_ep(&ep, &ai, NULL, NULL) ||
	    ctx->ops->rdma_listen(ep, 1)) {
		cm_broken(ctx, "the listening endpoint");
		return;
	}
	cm_client_param(&c, NULL, 0);
	if (!cm_resolve(ctx, p) || ctx->ops->rdma_connect(p->cli.id, &c) ||
	    ctx->ops->rdma_get_request(ep, &id)) {
		cm_broken(ctx, "the request");
		goto out;
	}
	RC_OBSERVE(ctx, (ctx->ops->rdma_destroy_ep(id), 0));
	got = cm_next(ctx, &p->cli, CM_WAIT_MS, &ev);
	if (got >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
	if (got != RDMA_CM_EVENT_REJECTED)
		rc_obs_violation(ctx->obs,
				 "client_event %s, not REJECTED, after its "
				 "request's id went",
				 got < 0 ? "none" : cm_event_name(got));
out:
	ctx->ops->rdma_destroy_ep(ep);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct de_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_create_ep, "rdma_create_ep") ||
	    !rc_need_call(ctx, ctx->ops->rdma_destroy_ep, "rdma_destroy_ep"))
		return;
	if (cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops)) {
		if (row->kind == DE_LISTENER)
			listener(ctx, &p);
		else if (row->kind == DE_QP || row->kind == DE_SRQ)
			on_pd_destroyed(ctx, &p, row->kind == DE_SRQ);
		else
			unanswered(ctx, &p);
	}
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_destroy_ep", RC_CONV_VALUE, "rdmacm", rows, run);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_disconnect(3): "Disconnects a connection and transitions any
 * associated QP to the error state, which will flush any posted work
 * requests to the completion queue.  This routine should be called by
 * both the client and server side of a connection.  After successfully
 * disconnecting, an RDMA_CM_EVENT_DISCONNECTED event will be generated on
 * both sides of the connection."  "Returns 0 on success, or -1 on error."
 *
 * - from the client, IPv4 and IPv6, and from the server: 0, then
 *   DISCONNECTED on the other end, which disconnects too ("should be
 *   called by both"), then on the first (IB's DREP answers only the
 *   other side's own rdma_disconnect)
 * - the disconnecting end's QP is in the error state (ibv_query_qp)
 * - a client resolved but never connected: -1 (no connection to end)
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_BOTH                                                            \
	"After successfully disconnecting, an "                             \
	"RDMA_CM_EVENT_DISCONNECTED event will be generated on both sides " \
	"of the connection."
#define DOC_ERR                                                             \
	"Disconnects a connection and transitions any associated QP "       \
	"to the error state, which will flush any posted work requests to " \
	"the completion queue."

struct disc_row;
typedef void disc_check(const struct disc_row *row, struct rc_ctx *ctx,
			struct cm_pair *p, struct cm_end *e,
			struct rdma_cm_id *id);

struct disc_row {
	struct rc_case c;
	disc_check *check;
	int family;
	bool server; /* the server disconnects */
	bool unconnected; /* the client, its route resolved, alone */
};

static disc_check both_disconnected, qp_in_error, refused;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct disc_row rows[] = {
	{ .c = { .id = "rdmacm/disconnect/ipv4-client-side",
		 .doc = DOC_BOTH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client disconnects: DISCONNECTED on the server, "
			 "which disconnects too, then on the client",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = both_disconnected,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/disconnect/ipv6-client-side",
		 .doc = DOC_BOTH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = both_disconnected,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/disconnect/server-side",
		 .doc = DOC_BOTH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's id of the connection disconnects: "
			 "DISCONNECTED on the client, then on the server",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = both_disconnected,
	  .family = AF_INET,
	  .server = true },
	{ .c = { .id = "rdmacm/disconnect/qp-to-error",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client's QP, in RTS before, is in IBV_QPS_ERR "
			 "once rdma_disconnect returns",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = qp_in_error,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/disconnect/never-connected",
		 .doc = DOC_ERR,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a client whose route is resolved but which never "
			 "connected has no connection to disconnect: read as "
			 "-1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = refused,
	  .family = AF_INET,
	  .unconnected = true },
};

static void both_disconnected(const struct disc_row *row, struct rc_ctx *ctx,
			      struct cm_pair *p, struct cm_end *e,
			      struct rdma_cm_id *id)
{
	struct cm_end *other = e == &p->cli ? &p->srv : &p->cli;
	struct rdma_cm_id *other_id = e == &p->cli ? p->srv.conn : p->cli.id;

	if (!cm_expect(ctx, other, RDMA_CM_EVENT_DISCONNECTED, NULL))
		return;
	if (other->ops->rdma_disconnect(other_id)) {
		cm_broken(ctx, "the other end's rdma_disconnect");
		return;
	}
	cm_expect(ctx, e, RDMA_CM_EVENT_DISCONNECTED, NULL);
}

static void qp_in_error(const struct disc_row *row, struct rc_ctx *ctx,
			struct cm_pair *p, struct cm_end *e,
			struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	if (e->ops->ibv_query_qp(id->qp, &a, IBV_QP_STATE, &init)) {
		cm_broken(ctx, "ibv_query_qp");
		return;
	}
	rc_obs_out(ctx->obs, &a.qp_state, sizeof(a.qp_state));
	if (a.qp_state != IBV_QPS_ERR)
		rc_obs_violation(ctx->obs, "qp_state %d, not IBV_QPS_ERR (%d)",
				 a.qp_state, IBV_QPS_ERR);
}

static void refused(const struct disc_row *row, struct rc_ctx *ctx,
		    struct cm_pair *p, struct cm_end *e, struct rdma_cm_id *id)
{
	rc_obs_violation(ctx->obs, "id an id never connected disconnected");
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct disc_row *row = r;
	struct rdma_cm_id *id;
	struct cm_pair p;
	struct cm_end *e;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_disconnect, "rdma_disconnect") ||
	    !rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect"))
		return;
	if (!cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve(ctx, &p) ||
	    (!row->unconnected && !cm_connect_resolved(ctx, &p)))
		goto out;
	e = row->server ? &p.srv : &p.cli;
	id = row->server ? p.srv.conn : p.cli.id;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_disconnect(id));
	if (!ret)
		row->check(row, ctx, &p, e, id);
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_disconnect", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

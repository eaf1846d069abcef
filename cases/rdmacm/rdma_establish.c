// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_establish(3): "Acknowledge an incoming connection response event
 * and complete the connection establishment."  "If a QP has not been
 * created on the rdma_cm_id, this function should be called by the
 * active side to complete the connection, after getting connect response
 * event."  "This will trigger a connection established event on the
 * passive side."  "rdma_establish() returns 0 on success, or -1 on
 * error."
 *
 * Without QPs (RoCE: an iWARP connection needs one):
 * - IPv4 and IPv6: after the client's CONNECT_RESPONSE, 0, and the
 *   server's next event is ESTABLISHED
 * - before it, the server has no ESTABLISHED (what must not happen)
 * - on an id with a QP: -1 ("should not be used", read as refused)
 * - no-response: on a client whose route is resolved and which never
 *   connected: -1 (interpretation: there is no response to acknowledge)
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_PASSIVE                                            \
	"This will trigger a connection established event on " \
	"the passive side."
#define DOC_ACTIVE                                                      \
	"If a QP has not been created on the rdma_cm_id, this "         \
	"function should be called by the active side to complete the " \
	"connection, after getting connect response event."

struct est_row;
typedef void est_check(const struct est_row *row, struct rc_ctx *ctx);

struct est_row {
	struct rc_case c;
	est_check *check;
	int family;
	bool qp; /* unconnected: the client has a QP */
};

static est_check passive_established, unconnected;

#define DOC_QP                                                  \
	"This function should not be used on an rdma_cm_id on " \
	"which a QP has been created."
#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER | RC_NEED_ROCE)

static const struct est_row rows[] = {
	{ .c = { .id = "rdmacm/establish/ipv4-passive-established",
		 .doc = DOC_PASSIVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no QPs: the server sees no ESTABLISHED before the "
			 "call, and ESTABLISHED after it",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = passive_established,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/establish/ipv6-passive-established",
		 .doc = DOC_ACTIVE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = passive_established,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/establish/with-qp-refused",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the client has a QP, its route resolved: \"should "
			 "not be used\" read as -1",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_FAILS() } },
	  .check = unconnected,
	  .family = AF_INET,
	  .qp = true },
	{ .c = { .id = "rdmacm/establish/no-response",
		 .doc = DOC_ACTIVE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a client without a QP, its route resolved, that never "
			 "called rdma_connect: no connect response to follow, -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = unconnected,
	  .family = AF_INET },
};

/* The call on a client whose route is resolved, with a QP or without,
 * that never connected */
static void unconnected(const struct est_row *row, struct rc_ctx *ctx)
{
	struct cm_pair p;

	if (cm_pair_open(ctx, &p, row->family, row->qp, ctx->ops, ctx->ops) &&
	    cm_listen(ctx, &p) &&
	    (row->qp ? cm_resolve(ctx, &p) : cm_resolve_route(ctx, &p)))
		RC_OBSERVE(ctx, ctx->ops->rdma_establish(p.cli.id));
	cm_pair_close(ctx, &p);
}

static void passive_established(const struct est_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param c, s = { .qp_num = CM_SERVER_QPN };
	struct rdma_cm_event *ev;
	struct cm_pair p;
	int ret, type;

	cm_client_param(&c, NULL, 0);
	if (!cm_pair_open(ctx, &p, row->family, false, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve(ctx, &p) ||
	    !cm_request(ctx, &p, &c, NULL))
		goto out;
	if (ctx->ops->rdma_accept(p.srv.conn, &s)) {
		cm_broken(ctx, "rdma_accept");
		goto out;
	}
	if (!cm_expect(ctx, &p.cli, RDMA_CM_EVENT_CONNECT_RESPONSE, NULL))
		goto out;
	type = cm_next(ctx, &p.srv, CM_QUIET_MS, &ev);
	if (type >= 0) {
		rc_obs_state(ctx->obs, RC_STATE_BROKEN,
			     "the server got %s "
			     "before rdma_establish",
			     cm_event_name(type));
		ctx->ops->rdma_ack_cm_event(ev);
		goto out;
	}
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_establish(p.cli.id));
	if (!ret)
		cm_expect(ctx, &p.srv, RDMA_CM_EVENT_ESTABLISHED, NULL);
out:
	cm_pair_close(ctx, &p);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct est_row *row = r;

	if (rc_need_call(ctx, ctx->ops->rdma_establish, "rdma_establish") &&
	    rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect"))
		row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_establish", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

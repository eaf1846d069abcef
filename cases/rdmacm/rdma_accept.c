// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_accept(3): "Called from the listening side to accept a connection
 * or datagram service lookup request."  "If the conn_param parameter is
 * NULL, the values reported in the connection request event are used,
 * adjusted down based on local hardware restrictions."  INFINIBAND
 * SPECIFIC: "The length of the private data provided by the user is
 * limited to 196 bytes for RDMA_PS_TCP, or 136 bytes for RDMA_PS_UDP."
 * "Returns 0 on success, or -1 on error."
 *
 * - IPv4 and IPv6, QPs on both ends: ESTABLISHED on both
 * - 196 bytes of private data, all distinct: the client's
 *   CONNECT_RESPONSE carries them exactly; 197: -1, and the client is
 *   not connected (no CONNECT_RESPONSE; Linux rejects it)
 * - conn_param NULL: the client's reply has the request's depths (the
 *   client's own, crossed back)
 * - the depths at the device's limits exactly (responder_resources
 *   max_qp_rd_atom, initiator_depth max_qp_init_rd_atom), with a QP: 0;
 *   either one beyond: -1
 * - a listener made with no channel (its request's id, from
 *   rdma_get_request, synchronous too), the accept in a thread: it
 *   returns once the client's library answers the reply, 0 with
 *   ESTABLISHED in id->event; -1 when the client goes instead
 * - srq 1 on a server id without a QP: the client's reply has srq 1
 *   (rdma_get_cm_event(3): "Specifies if the sender is using a
 *   shared-receive queue.")
 */
#include <poll.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_ACCEPT                                               \
	"Called from the listening side to accept a connection " \
	"or datagram service lookup request."
#define DOC_196                                                   \
	"The length of the private data provided by the user is " \
	"limited to 196 bytes for RDMA_PS_TCP, or 136 bytes for RDMA_PS_UDP."
#define DOC_RD_ATOM                                                \
	"This value must be less than or equal to the local RDMA " \
	"device attribute max_qp_rd_atom, but preferably greater " \
	"than or equal to the responder_resources value reported " \
	"in the connect request event."
#define DOC_INIT_ATOM                                                   \
	"This value must be less than or equal to the local RDMA "      \
	"device attribute max_qp_init_rd_atom and the initiator_depth " \
	"value reported in the connect request event."
#define DOC_NULL                                                            \
	"If the conn_param parameter is NULL, the values reported "         \
	"in the connection request event are used, adjusted down based on " \
	"local hardware restrictions."

struct accept_row;
typedef void accept_check(const struct accept_row *row, struct rc_ctx *ctx);

struct accept_row {
	struct rc_case c;
	accept_check *check;
	int family;
	uint8_t len;
	/* depths_at_limits: which of the depths is one beyond its limit */
	uint8_t beyond;
	bool client_goes; /* synchronous_accept: the client's id destroyed */
};

#define RESP_BEYOND 1
#define INIT_BEYOND 2

static accept_check establishes, reply_carries_data, too_long_fails,
	null_param_uses_request, reply_has_srq, depths_at_limits,
	synchronous_accept;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct accept_row rows[] = {
	{ .c = { .id = "rdmacm/accept/ipv4-established",
		 .doc = DOC_ACCEPT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, then ESTABLISHED on both ends (QPs on both)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = establishes,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/accept/ipv6-established",
		 .doc = DOC_ACCEPT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = establishes,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/accept/private-data-196-exact",
		 .doc = DOC_196,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "196 bytes, all distinct: 0, and the client's "
			 "CONNECT_RESPONSE (no QP) carries exactly them",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = reply_carries_data,
	  .family = AF_INET,
	  .len = 196 },
	{ .c = { .id = "rdmacm/accept/private-data-197-fails",
		 .doc = DOC_196,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "one byte beyond: -1, and the client gets no "
			 "CONNECT_RESPONSE (the kernel rejects the request "
			 "when an accept fails)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = too_long_fails,
	  .family = AF_INET,
	  .len = 197 },
	{ .c = { .id = "rdmacm/accept/null-param-request-values",
		 .doc = DOC_NULL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client asked responder_resources 3 and "
			 "initiator_depth 2 (within rxe's limits): the reply "
			 "to it has responder_resources 3 and initiator_depth "
			 "2 again, crossed twice",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = null_param_uses_request,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/accept/synchronous-established",
		 .doc = CM_DOC_SYNC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the request's id of a listener made with no channel "
			 "(rdma_get_request), with a QP, its accept in a "
			 "thread: once the client's library answers the reply, "
			 "0, and id->event is ESTABLISHED",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = synchronous_accept,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/accept/synchronous-client-gone",
		 .doc = CM_DOC_SYNC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the same, but the client destroys its id once the "
			 "reply is there (its CM rejects it): the accept "
			 "completes without a connection, -1 (the page names "
			 "no errno)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = synchronous_accept,
	  .family = AF_INET,
	  .client_goes = true },
	{ .c = { .id = "rdmacm/accept/srq-as-given",
		 .doc = CM_DOC_SRQ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "srq 1 on a server id without a QP: the client's "
			 "CONNECT_RESPONSE has srq 1 (rdma_get_cm_event(3): "
			 "\"Specifies if the sender is using a shared-receive "
			 "queue.\")",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = reply_has_srq,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/accept/depths-at-the-limits",
		 .doc = DOC_RD_ATOM,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "responder_resources max_qp_rd_atom and "
			 "initiator_depth max_qp_init_rd_atom exactly, on an id "
			 "with a QP, the client having asked its own device's "
			 "(so that the request's are no smaller): 0",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = depths_at_limits,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/accept/responder-resources-beyond-max",
		 .doc = DOC_RD_ATOM,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "responder_resources max_qp_rd_atom + 1 on an id with "
			 "a QP: a value the page forbids, -1 (the page names no "
			 "errno)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = depths_at_limits,
	  .family = AF_INET,
	  .beyond = RESP_BEYOND },
	{ .c = { .id = "rdmacm/accept/initiator-depth-beyond-max",
		 .doc = DOC_INIT_ATOM,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "initiator_depth max_qp_init_rd_atom + 1 on an id "
			 "with a QP: a value the page forbids, -1 (the page "
			 "names no errno)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = depths_at_limits,
	  .family = AF_INET,
	  .beyond = INIT_BEYOND },
};

/* Up to the server's held request; the client without a QP unless @qp. */
static bool requested(const struct accept_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, bool qp)
{
	struct rdma_conn_param c;

	cm_client_param(&c, NULL, 0);
	return cm_pair_open(ctx, p, row->family, qp, ctx->ops, ctx->ops) &&
	       cm_listen(ctx, p) && cm_resolve(ctx, p) &&
	       cm_request(ctx, p, &c, NULL);
}

static void establishes(const struct accept_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param s = { .responder_resources = 2,
				     .initiator_depth = 3,
				     .rnr_retry_count = 7 };
	struct cm_pair p;
	int ret;

	if (!requested(row, ctx, &p, true))
		goto out;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_accept(p.srv.conn, &s));
	if (!ret)
		cm_established(ctx, &p);
out:
	cm_pair_close(ctx, &p);
}

/* Accept with the row's private data; the client's reply, held. */
static int accept_with_data(const struct accept_row *row, struct rc_ctx *ctx,
			    struct cm_pair *p, uint8_t *data,
			    struct rdma_cm_event **reply)
{
	struct rdma_conn_param s = { .private_data = data,
				     .private_data_len = row->len,
				     .responder_resources = 2,
				     .initiator_depth = 3,
				     .qp_num = CM_SERVER_QPN };
	int ret;

	cm_pattern(data, row->len, 0x40);
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_accept(p->srv.conn, &s));
	if (ret)
		return ret;
	cm_expect(ctx, &p->cli, RDMA_CM_EVENT_CONNECT_RESPONSE, reply);
	return 0;
}

static void reply_carries_data(const struct accept_row *row, struct rc_ctx *ctx)
{
	struct rdma_cm_event *rep = NULL;
	uint8_t data[256];
	struct cm_pair p;

	if (!requested(row, ctx, &p, false) ||
	    accept_with_data(row, ctx, &p, data, &rep) || !rep)
		goto out;
	cm_check_private(ctx, "private_data", rep->param.conn.private_data,
			 rep->param.conn.private_data_len, data, row->len);
	ctx->ops->rdma_ack_cm_event(rep);
out:
	cm_pair_close(ctx, &p);
}

static void too_long_fails(const struct accept_row *row, struct rc_ctx *ctx)
{
	struct rdma_cm_event *ev;
	uint8_t data[256];
	struct cm_pair p;
	int type;

	if (!requested(row, ctx, &p, false) ||
	    !accept_with_data(row, ctx, &p, data, &ev))
		goto out;
	type = cm_next(ctx, &p.cli, CM_QUIET_MS, &ev);
	if (type == RDMA_CM_EVENT_CONNECT_RESPONSE ||
	    type == RDMA_CM_EVENT_ESTABLISHED)
		rc_obs_violation(ctx->obs,
				 "client_event %s after a refused "
				 "accept",
				 cm_event_name(type));
	if (type >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
out:
	cm_pair_close(ctx, &p);
}

static void null_param_uses_request(const struct accept_row *row,
				    struct rc_ctx *ctx)
{
	struct rdma_cm_event *rep;
	struct cm_pair p;
	int ret;

	if (!requested(row, ctx, &p, false))
		goto out;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_accept(p.srv.conn, NULL));
	if (ret ||
	    !cm_expect(ctx, &p.cli, RDMA_CM_EVENT_CONNECT_RESPONSE, &rep))
		goto out;
	/* the client asked 3 and 2 (cm_client_param); the request had 2
	 * and 3; accepted with those, the reply crosses them back */
	if (rep->param.conn.responder_resources != 3 ||
	    rep->param.conn.initiator_depth != 2)
		rc_obs_violation(ctx->obs,
				 "depths the reply has "
				 "responder_resources %u initiator_depth %u, "
				 "not 3 and 2",
				 rep->param.conn.responder_resources,
				 rep->param.conn.initiator_depth);
	ctx->ops->rdma_ack_cm_event(rep);
out:
	cm_pair_close(ctx, &p);
}

static void reply_has_srq(const struct accept_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param s = { .responder_resources = 2,
				     .initiator_depth = 3,
				     .srq = 1,
				     .qp_num = CM_SERVER_QPN };
	struct rdma_cm_event *rep;
	struct cm_pair p;
	int ret;

	if (!requested(row, ctx, &p, false))
		goto out;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_accept(p.srv.conn, &s));
	if (ret ||
	    !cm_expect(ctx, &p.cli, RDMA_CM_EVENT_CONNECT_RESPONSE, &rep))
		goto out;
	if (rep->param.conn.srq != 1)
		rc_obs_violation(ctx->obs, "srq the reply has %u, not 1",
				 rep->param.conn.srq);
	ctx->ops->rdma_ack_cm_event(rep);
out:
	cm_pair_close(ctx, &p);
}

/* The client asks its device's depths, so that the request's are as
 * large as the page lets the server's be; the server accepts with its
 * device's exactly, or one of them one beyond (row->beyond) */
static void depths_at_limits(const struct accept_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param c, s = {};
	struct cm_pair p;

	cm_client_param(&c, NULL, 0);
	if (!cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p) || !cm_resolve(ctx, &p) ||
	    !cm_depth_limits(ctx, p.cli.ops, p.cli.id, &c.responder_resources,
			     &c.initiator_depth) ||
	    !cm_request(ctx, &p, &c, NULL) ||
	    !cm_depth_limits(ctx, ctx->ops, p.srv.conn, &s.responder_resources,
			     &s.initiator_depth))
		goto out;
	s.responder_resources += !!(row->beyond & RESP_BEYOND);
	s.initiator_depth += !!(row->beyond & INIT_BEYOND);
	RC_OBSERVE(ctx, ctx->ops->rdma_accept(p.srv.conn, &s));
out:
	cm_pair_close(ctx, &p);
}

struct sync_server {
	struct rc_ctx *ctx;
	struct rdma_cm_id *id;
	struct rdma_conn_param s;
};

static int accept_observed(void *arg)
{
	struct sync_server *ss = arg;
	int ret;

	RC_OBSERVE(ss->ctx, ret = ss->ctx->ops->rdma_accept(ss->id, &ss->s));
	return ret;
}

/* The pair's listener replaced by one made with no channel; the
 * request's id from rdma_get_request, with a QP; its accept in a thread,
 * while the client (a QP, its own channel) reads the reply: its library
 * answers it, or the row destroys the client's id instead */
static void synchronous_accept(const struct accept_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct sync_server ss = { .ctx = ctx };
	struct rdma_conn_param c;
	struct cm_pair p;
	struct cm_bg bg;

	cm_client_param(&c, NULL, 0);
	if (!cm_pair_open(ctx, &p, row->family, true, ops, ops))
		goto out;
	if (!cm_go_synchronous(ctx, &p.srv) || !cm_listen(ctx, &p) ||
	    !cm_resolve(ctx, &p))
		goto out;
	if (p.cli.ops->rdma_connect(p.cli.id, &c)) {
		cm_broken(ctx, "rdma_connect");
		goto out;
	}
	if (ops->rdma_get_request(p.srv.id, &p.srv.conn)) {
		p.srv.conn = NULL;
		cm_broken(ctx, "rdma_get_request");
		goto out;
	}
	if (!cm_create_qp(ctx, &p.srv, p.srv.conn))
		goto out;
	ss.id = p.srv.conn;
	cm_accept_param(&ss.s);
	if (!cm_bg_start(ctx, &bg, accept_observed, &ss))
		goto out;
	if (!row->client_goes) {
		cm_expect(ctx, &p.cli, RDMA_CM_EVENT_ESTABLISHED, NULL);
	} else if (poll(&(struct pollfd){ .fd = p.cli.ch->fd,
					  .events = POLLIN },
			1, rc_scaled_ms(ctx, CM_WAIT_MS)) == 1) {
		/* the reply is there, unread (reading it, the library would
		 * answer it): the client goes without answering */
		p.cli.ops->rdma_destroy_qp(p.cli.id);
		p.cli.qp_id = NULL;
		p.cli.ops->rdma_destroy_id(p.cli.id);
		p.cli.id = NULL;
	}
	if (!cm_bg_join(&bg) && !row->client_goes)
		cm_check_event_in_id(ctx, ss.id, RDMA_CM_EVENT_ESTABLISHED);
out:
	cm_pair_close(ctx, &p);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct accept_row *row = r;

	if (!rc_need_call(ctx, ctx->ops->rdma_accept, "rdma_accept") ||
	    !rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_accept", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

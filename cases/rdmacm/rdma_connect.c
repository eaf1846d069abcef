// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_connect(3): "For an rdma_cm_id of type RDMA_PS_TCP, this call
 * initiates a connection request to a remote destination."  "Users must
 * have resolved a route to the destination address by having called
 * rdma_resolve_route or rdma_create_ep before calling this routine."
 * INFINIBAND SPECIFIC: "The length of the private data provided by the
 * user is limited to 56 bytes for RDMA_PS_TCP, or 180 bytes for
 * RDMA_PS_UDP."  rdma_get_cm_event(3), CONN EVENT DATA: what the
 * listener's CONNECT_REQUEST carries of the client's parameters.
 * "Returns 0 on success, or -1 on error."
 *
 * The client is the peer device's, the server the target's (--two).
 * - IPv4 and IPv6: the listener gets the request, both ends established
 * - 56 bytes of private data, all distinct: the request carries them
 *   exactly, zeroes after; 57: -1, and no request reaches the listener
 * - the depths cross (the request's responder_resources is the client's
 *   initiator_depth and the reverse), the retry counts, flow control
 *   and qp_num arrive as given
 * - srq 1 without a QP: the request's srq is 1 (rdma_get_cm_event(3):
 *   "Specifies if the sender is using a shared-receive queue."); with a QP
 *   that has no SRQ, srq 1 is ignored: the request's is 0
 * - responder_resources one beyond the device's max_qp_rd_atom: -1, and
 *   no request reaches the listener
 * - a synchronous client (rdma_create_id with no channel; its connect in
 *   a thread): the call returns once the server answers, 0 with the
 *   reply in id->event (CONNECT_RESPONSE without a QP, ESTABLISHED with
 *   one), or -1 when the server rejects
 * - before the route is resolved: -1
 * - the implementation under test as the client of a server made by the
 *   other implementation, and as the server of the other's client
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_CONNECT                                         \
	"For an rdma_cm_id of type RDMA_PS_TCP, this call " \
	"initiates a connection request to a remote destination."
#define DOC_ROUTE                                                        \
	"Users must have resolved a route to the destination "           \
	"address by having called rdma_resolve_route or rdma_create_ep " \
	"before calling this routine."
#define DOC_56                                                    \
	"The length of the private data provided by the user is " \
	"limited to 56 bytes for RDMA_PS_TCP, or 180 bytes for RDMA_PS_UDP."
#define DOC_PDATA                                                    \
	"The data referenced by this field matches that "            \
	"specified by the remote side when calling rdma_connect or " \
	"rdma_accept."
#define DOC_SRQ_IGNORED                                                     \
	"This field is ignored by the library if a QP has been created on " \
	"the rdma_cm_id."
#define DOC_RD_ATOM                                                \
	"This value must be less than or equal to the local RDMA " \
	"device attribute max_qp_rd_atom and remote RDMA device "  \
	"attribute max_qp_init_rd_atom."
#define DOC_DEPTH                                              \
	"This field matches the initiator depth specified by " \
	"the remote node when calling rdma_connect and rdma_accept."

enum cross { CROSS_NONE, CROSS_SERVER, CROSS_CLIENT };

struct conn_row;
typedef void conn_check(const struct conn_row *row, struct rc_ctx *ctx);

struct conn_row {
	struct rc_case c;
	conn_check *check;
	int family;
	uint8_t len; /* the private data's */
	/* CROSS_SERVER: the server is the other implementation's;
	 * CROSS_CLIENT: the client is */
	enum cross cross;
	uint8_t srq; /* the conn_param's */
	bool qp; /* the client has a QP (without an SRQ) */
	bool reject; /* synchronous: the server rejects */
};

static conn_check connects, private_data_arrives, too_long_fails, params_cross,
	srq_arrives, beyond_rd_atom_fails, synchronous, before_route_fails;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct conn_row rows[] = {
	{ .c = { .id = "rdmacm/connect/ipv4-established",
		 .doc = DOC_CONNECT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0; the listener's CONNECT_REQUEST names it as "
			 "listen_id and a new id; after accept, ESTABLISHED on "
			 "both ends (QPs on both)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = connects,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/connect/ipv6-established",
		 .doc = DOC_CONNECT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same between the two devices' IPv6 addresses",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = connects,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/connect/private-data-56-exact",
		 .doc = DOC_56,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "56 bytes, all distinct: 0, and the request's "
			 "private data is those bytes, then zeroes (\"Any "
			 "additional space in the buffer will be zeroed out.\")",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = private_data_arrives,
	  .family = AF_INET,
	  .len = 56 },
	{ .c = { .id = "rdmacm/connect/private-data-57-fails",
		 .doc = DOC_56,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "one byte beyond the limit: -1, and no request "
			 "reaches the listener",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = too_long_fails,
	  .family = AF_INET,
	  .len = 57 },
	{ .c = { .id = "rdmacm/connect/params-cross",
		 .doc = DOC_DEPTH,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client asks responder_resources 3, "
			 "initiator_depth 2: the request has 2 and 3; its "
			 "retry_count 6, rnr_retry_count 5, flow_control 1 and "
			 "qp_num (no QP: the process's own) as given",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = params_cross,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/connect/srq-as-given",
		 .doc = CM_DOC_SRQ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "srq 1 on a client without a QP: the request has srq "
			 "1 (rdma_get_cm_event(3): \"Specifies if the sender is "
			 "using a shared-receive queue.\")",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = srq_arrives,
	  .family = AF_INET,
	  .srq = 1 },
	{ .c = { .id = "rdmacm/connect/srq-ignored-with-a-qp",
		 .doc = DOC_SRQ_IGNORED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "srq 1 on a client whose QP has no SRQ: the request "
			 "has srq 0, the QP's",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = srq_arrives,
	  .family = AF_INET,
	  .srq = 1,
	  .qp = true },
	{ .c = { .id = "rdmacm/connect/responder-resources-beyond-max",
		 .doc = DOC_RD_ATOM,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "responder_resources max_qp_rd_atom + 1 (of the "
			 "client's device, the server's alike): a value the "
			 "page forbids, -1 (the page names no errno), and no "
			 "request reaches the listener",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = beyond_rd_atom_fails,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/connect/synchronous-reply-in-the-id",
		 .doc = CM_DOC_SYNC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a client made with no channel, without a QP, its "
			 "connect in a thread: once the server accepts, 0, and "
			 "id->event is the reply, CONNECT_RESPONSE",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = synchronous,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/connect/synchronous-established",
		 .doc = CM_DOC_SYNC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a client made with no channel, with a QP: once the "
			 "server accepts, 0, and id->event is ESTABLISHED",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_RETURNS(0) } },
	  .check = synchronous,
	  .family = AF_INET,
	  .qp = true },
	{ .c = { .id = "rdmacm/connect/synchronous-rejected",
		 .doc = CM_DOC_SYNC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a client made with no channel: the server rejects, "
			 "and the connect fails, -1 (the operation completed "
			 "without a connection; the page names no errno)",
		 .needs = NEEDS | RC_NEED_ROCE,
		 .contract = { RC_FAILS() } },
	  .check = synchronous,
	  .family = AF_INET,
	  .reject = true },
	{ .c = { .id = "rdmacm/connect/before-route",
		 .doc = DOC_ROUTE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an id whose address is resolved but not its route: "
			 "the page makes the route the caller's duty; read as "
			 "-1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = before_route_fails,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/connect/client-of-other-server",
		 .doc = DOC_PDATA,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the client is the implementation under test, the "
			 "listener the other one's: the request carries the "
			 "client's 56 bytes, both ends established",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = connects,
	  .family = AF_INET,
	  .len = 56,
	  .cross = CROSS_SERVER },
	{ .c = { .id = "rdmacm/connect/server-of-other-client",
		 .doc = DOC_PDATA,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the listener is the implementation under test, the "
			 "client the other one's (its rdma_connect observed)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = connects,
	  .family = AF_INET6,
	  .len = 56,
	  .cross = CROSS_CLIENT },
};

static bool open_pair(const struct conn_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, bool qp)
{
	const struct rc_ops *other = cm_other_ops(ctx);

	return cm_pair_open(ctx, p, row->family, qp,
			    row->cross == CROSS_SERVER ? other : ctx->ops,
			    row->cross == CROSS_CLIENT ? other : ctx->ops) &&
	       cm_listen(ctx, p) && cm_resolve(ctx, p);
}

/* The call observed, with the row's private data. */
static int observe_connect(const struct conn_row *row, struct rc_ctx *ctx,
			   struct cm_pair *p, struct rdma_conn_param *c,
			   uint8_t *data)
{
	int ret;

	cm_pattern(data, row->len, 0x20);
	cm_client_param(c, row->len ? data : NULL, row->len);
	c->srq = row->srq;
	RC_OBSERVE(ctx, ret = p->cli.ops->rdma_connect(p->cli.id, c));
	return ret;
}

static void connects(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_cm_event *req;
	struct rdma_conn_param c;
	uint8_t data[256];
	struct cm_pair p;

	if (!open_pair(row, ctx, &p, true) ||
	    observe_connect(row, ctx, &p, &c, data) ||
	    !cm_expect(ctx, &p.srv, RDMA_CM_EVENT_CONNECT_REQUEST, &req))
		goto out;
	if (req->listen_id != p.srv.id || !req->id || req->id == p.srv.id)
		rc_obs_violation(ctx->obs,
				 "request_ids listen_id %p id %p, "
				 "the listener %p",
				 (void *)req->listen_id, (void *)req->id,
				 (void *)p.srv.id);
	cm_check_private(ctx, "private_data", req->param.conn.private_data,
			 req->param.conn.private_data_len, data, row->len);
	p.srv.conn = req->id;
	p.srv.ops->rdma_ack_cm_event(req);
	if (cm_create_qp(ctx, &p.srv, p.srv.conn))
		cm_accept(ctx, &p, NULL);
out:
	cm_pair_close(ctx, &p);
}

static void private_data_arrives(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_cm_event *req;
	struct rdma_conn_param c;
	uint8_t data[256];
	struct cm_pair p;

	if (!open_pair(row, ctx, &p, false) ||
	    observe_connect(row, ctx, &p, &c, data) ||
	    !cm_expect(ctx, &p.srv, RDMA_CM_EVENT_CONNECT_REQUEST, &req))
		goto out;
	cm_check_private(ctx, "private_data", req->param.conn.private_data,
			 req->param.conn.private_data_len, data, row->len);
	p.srv.conn = req->id;
	p.srv.ops->rdma_ack_cm_event(req);
out:
	cm_pair_close(ctx, &p);
}

/* After a connect that failed: nothing reaches the listener */
static void no_request(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_cm_event *ev;
	int type = cm_next(ctx, &p->srv, CM_QUIET_MS, &ev);

	if (type < 0)
		return;
	rc_obs_violation(ctx->obs, "server_event %s after a refused connect",
			 cm_event_name(type));
	if (type == RDMA_CM_EVENT_CONNECT_REQUEST)
		p->srv.conn = ev->id;
	p->srv.ops->rdma_ack_cm_event(ev);
}

static void too_long_fails(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param c;
	uint8_t data[256];
	struct cm_pair p;

	if (open_pair(row, ctx, &p, false) &&
	    observe_connect(row, ctx, &p, &c, data))
		no_request(ctx, &p);
	cm_pair_close(ctx, &p);
}

static void beyond_rd_atom_fails(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param c;
	uint8_t resp, init;
	struct cm_pair p;
	int ret;

	if (!open_pair(row, ctx, &p, false) ||
	    !cm_depth_limits(ctx, p.cli.ops, p.cli.id, &resp, &init))
		goto out;
	cm_client_param(&c, NULL, 0);
	c.responder_resources = resp + 1;
	RC_OBSERVE(ctx, ret = p.cli.ops->rdma_connect(p.cli.id, &c));
	if (ret)
		no_request(ctx, &p);
out:
	cm_pair_close(ctx, &p);
}

static void params_cross(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_cm_event *req;
	struct rdma_conn_param c, *r;
	uint8_t data[256];
	struct cm_pair p;

	if (!open_pair(row, ctx, &p, false) ||
	    observe_connect(row, ctx, &p, &c, data) ||
	    !cm_expect(ctx, &p.srv, RDMA_CM_EVENT_CONNECT_REQUEST, &req))
		goto out;
	r = &req->param.conn;
	if (r->responder_resources != c.initiator_depth ||
	    r->initiator_depth != c.responder_resources)
		rc_obs_violation(ctx->obs,
				 "depths the request has "
				 "responder_resources %u initiator_depth %u",
				 r->responder_resources, r->initiator_depth);
	else if (r->retry_count != c.retry_count ||
		 r->rnr_retry_count != c.rnr_retry_count)
		rc_obs_violation(ctx->obs,
				 "retry retry_count %u "
				 "rnr_retry_count %u",
				 r->retry_count, r->rnr_retry_count);
	else if (r->qp_num != CM_CLIENT_QPN || !r->flow_control)
		rc_obs_violation(ctx->obs, "qp_num 0x%x, flow_control %u",
				 r->qp_num, r->flow_control);
	p.srv.conn = req->id;
	p.srv.ops->rdma_ack_cm_event(req);
out:
	cm_pair_close(ctx, &p);
}

static void srq_arrives(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_cm_event *req;
	struct rdma_conn_param c;
	uint8_t data[256], want = row->qp ? 0 : row->srq;
	struct cm_pair p;

	if (!open_pair(row, ctx, &p, row->qp) ||
	    observe_connect(row, ctx, &p, &c, data) ||
	    !cm_expect(ctx, &p.srv, RDMA_CM_EVENT_CONNECT_REQUEST, &req))
		goto out;
	if (req->param.conn.srq != want)
		rc_obs_violation(ctx->obs, "srq the request has %u, not %u",
				 req->param.conn.srq, want);
	p.srv.conn = req->id;
	p.srv.ops->rdma_ack_cm_event(req);
out:
	cm_pair_close(ctx, &p);
}

struct sync_client {
	struct rc_ctx *ctx;
	struct rdma_cm_id *id;
};

static int connect_observed(void *arg)
{
	struct sync_client *sc = arg;
	struct rdma_conn_param c;
	int ret;

	cm_client_param(&c, NULL, 0);
	RC_OBSERVE(sc->ctx, ret = sc->ctx->ops->rdma_connect(sc->id, &c));
	return ret;
}

/* The pair's client replaced by one made with no channel, resolved (each
 * resolution blocks), with a QP if the row asks; its connect in a thread
 * while the server answers */
static void synchronous(const struct conn_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct sync_client sc = { ctx, NULL };
	struct rdma_conn_param s;
	struct rdma_cm_event *ev;
	struct cm_pair p;
	struct cm_bg bg;
	int want = row->qp ? RDMA_CM_EVENT_ESTABLISHED :
			     RDMA_CM_EVENT_CONNECT_RESPONSE;

	if (!cm_pair_open(ctx, &p, row->family, false, ops, ops) ||
	    !cm_listen(ctx, &p))
		goto out;
	if (!cm_go_synchronous(ctx, &p.cli))
		goto out;
	sc.id = p.cli.id;
	if (ops->rdma_resolve_addr(sc.id, (struct sockaddr *)&p.cli_addr,
				   (struct sockaddr *)&p.srv_addr,
				   CM_RESOLVE_MS) ||
	    ops->rdma_resolve_route(sc.id, CM_RESOLVE_MS)) {
		cm_broken(ctx, "the synchronous client's resolution");
		goto out;
	}
	if ((row->qp && !cm_create_qp(ctx, &p.cli, sc.id)) ||
	    !cm_bg_start(ctx, &bg, connect_observed, &sc))
		goto out;
	if (cm_expect(ctx, &p.srv, RDMA_CM_EVENT_CONNECT_REQUEST, &ev)) {
		p.srv.conn = ev->id;
		ops->rdma_ack_cm_event(ev);
		cm_accept_param(&s);
		s.qp_num = CM_SERVER_QPN;
		if (row->reject)
			ops->rdma_reject(p.srv.conn, NULL, 0);
		else if (ops->rdma_accept(p.srv.conn, &s))
			cm_broken(ctx, "the server's rdma_accept");
	}
	/* never answered: it waits for the CM's own time-out */
	if (!cm_bg_join(&bg) && !row->reject)
		cm_check_event_in_id(ctx, sc.id, want);
out:
	cm_pair_close(ctx, &p);
}

static void before_route_fails(const struct conn_row *row, struct rc_ctx *ctx)
{
	struct rdma_conn_param c;
	struct cm_pair p;
	int ret;

	if (!cm_pair_open(ctx, &p, row->family, false, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p))
		goto out;
	if (ctx->ops->rdma_resolve_addr(
		    p.cli.id, (struct sockaddr *)&p.cli_addr,
		    (struct sockaddr *)&p.srv_addr, CM_RESOLVE_MS) ||
	    !cm_expect(ctx, &p.cli, RDMA_CM_EVENT_ADDR_RESOLVED, NULL)) {
		cm_broken(ctx, "rdma_resolve_addr");
		goto out;
	}
	cm_client_param(&c, NULL, 0);
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_connect(p.cli.id, &c));
	(void)ret;
out:
	cm_pair_close(ctx, &p);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct conn_row *row = r;

	if (!rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect") ||
	    !rc_need_call(ctx, ctx->ops->rdma_accept, "rdma_accept") ||
	    !rc_need_call(ctx, ctx->ops->rdma_resolve_route,
			  "rdma_resolve_route"))
		return;
	row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_connect", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

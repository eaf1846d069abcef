// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_cm_event(3), EVENT TYPES, over a whole connection (QPs on both
 * ends, the client resolving, connecting and disconnecting):
 * RDMA_CM_EVENT_ADDR_RESOLVED "Address resolution (rdma_resolve_addr)
 * completed successfully.", ROUTE_RESOLVED, CONNECT_REQUEST "Generated on
 * the passive side to notify the user of a new connection request.",
 * CONNECT_RESPONSE "It is only generated on rdma_cm_id's that do not have
 * a QP associated with them.", ESTABLISHED, DISCONNECTED.  "Returns 0 on
 * success, or -1 on error."
 *
 * - the client's events are ADDR_RESOLVED, ROUTE_RESOLVED, ESTABLISHED
 *   (no CONNECT_RESPONSE: it has a QP), DISCONNECTED, in that order; the
 *   server's CONNECT_REQUEST, ESTABLISHED, DISCONNECTED (the server
 *   disconnecting in turn); each status 0; IPv4 and IPv6
 * - NOTES: "The default synchronous behavior of this routine can be
 *   changed by modifying the file descriptor associated with the given
 *   channel.": the channel's fd O_NONBLOCK and no event: -1 at once
 */
#include <fcntl.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_RESPONSE                                             \
	"It is only generated on rdma_cm_id's that do not have " \
	"a QP associated with them."

#define MAX_EVENTS 6

struct ev_row;
typedef void ev_check(const struct ev_row *row, struct rc_ctx *ctx);

struct ev_row {
	struct rc_case c;
	ev_check *check;
	int family;
};

static ev_check connection_order, nonblocking_empty;

#define DOC_NONBLOCK                                                       \
	"The default synchronous behavior of this routine can "            \
	"be changed by modifying the file descriptor associated with the " \
	"given channel."

static const struct ev_row rows[] = {
	{ .c = { .id = "rdmacm/get_cm_event/ipv4-connection-order",
		 .doc = DOC_RESPONSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "client: ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED "
			 "DISCONNECTED; server: CONNECT_REQUEST ESTABLISHED "
			 "DISCONNECTED; each status 0 (the order each step's "
			 "page gives)",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = connection_order,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_cm_event/ipv6-connection-order",
		 .doc = DOC_RESPONSE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = RC_NEED_DEVICE | RC_NEED_PEER,
		 .contract = { RC_RETURNS(0) } },
	  .check = connection_order,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/get_cm_event/nonblocking-empty",
		 .doc = DOC_NONBLOCK,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "the channel's fd made O_NONBLOCK, no event pending: "
			 "-1 (EAGAIN, as a non-blocking read), not a wait",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EAGAIN, EWOULDBLOCK) } },
	  .check = nonblocking_empty },
};

struct seq {
	int8_t type[MAX_EVENTS];
	int n;
	int bad_status;
};

/* The end's next event, acknowledged, into @s; the request's new id
 * kept in @conn. */
static void take(struct rc_ctx *ctx, struct cm_end *e, struct seq *s)
{
	struct rdma_cm_event *ev;
	int type = cm_next(ctx, e, CM_WAIT_MS, &ev);

	if (s->n < MAX_EVENTS)
		s->type[s->n++] = type;
	if (type < 0)
		return;
	if (ev->status)
		s->bad_status = ev->status;
	if (type == RDMA_CM_EVENT_CONNECT_REQUEST)
		e->conn = ev->id;
	e->ops->rdma_ack_cm_event(ev);
}

/* The whole connection, each end's events taken as they come. */
static int connection(struct rc_ctx *ctx, struct cm_pair *p, struct seq *c,
		      struct seq *s)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_conn_param cp;

	cm_client_param(&cp, NULL, 0);
	if (ops->rdma_resolve_addr(p->cli.id, (struct sockaddr *)&p->cli_addr,
				   (struct sockaddr *)&p->srv_addr,
				   CM_RESOLVE_MS))
		return -1;
	take(ctx, &p->cli, c);
	if (ops->rdma_resolve_route(p->cli.id, CM_RESOLVE_MS))
		return -1;
	take(ctx, &p->cli, c);
	if (!cm_create_qp(ctx, &p->cli, p->cli.id) ||
	    ops->rdma_connect(p->cli.id, &cp))
		return -1;
	take(ctx, &p->srv, s);
	if (!p->srv.conn || !cm_create_qp(ctx, &p->srv, p->srv.conn) ||
	    ops->rdma_accept(p->srv.conn, NULL))
		return -1;
	take(ctx, &p->cli, c);
	take(ctx, &p->srv, s);
	/* "This routine should be called by both the client and server
	 * side of a connection." (rdma_disconnect(3)) */
	if (ops->rdma_disconnect(p->cli.id))
		return -1;
	take(ctx, &p->srv, s);
	if (ops->rdma_disconnect(p->srv.conn))
		return -1;
	take(ctx, &p->cli, c);
	return 0;
}

static void nonblocking_empty(const struct ev_row *row, struct rc_ctx *ctx)
{
	const struct rc_ops *ops = ctx->ops;
	struct rdma_event_channel *ch = ops->rdma_create_event_channel();
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id = NULL;
	int ret;

	if (!ch || ops->rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) ||
	    fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK)) {
		cm_broken(ctx, "a channel and an id");
		goto out;
	}
	RC_OBSERVE(ctx, ret = ops->rdma_get_cm_event(ch, &ev));
	if (!ret)
		ops->rdma_ack_cm_event(ev);
out:
	if (id)
		ops->rdma_destroy_id(id);
	if (ch)
		ops->rdma_destroy_event_channel(ch);
}

static void connection_order(const struct ev_row *row, struct rc_ctx *ctx)
{
	static const int8_t want_c[] = {
		RDMA_CM_EVENT_ADDR_RESOLVED,
		RDMA_CM_EVENT_ROUTE_RESOLVED,
		RDMA_CM_EVENT_ESTABLISHED,
		RDMA_CM_EVENT_DISCONNECTED,
	};
	static const int8_t want_s[] = {
		RDMA_CM_EVENT_CONNECT_REQUEST,
		RDMA_CM_EVENT_ESTABLISHED,
		RDMA_CM_EVENT_DISCONNECTED,
	};
	struct seq c = {}, s = {};
	struct cm_pair p;
	int ret, i;

	if (!cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops) ||
	    !cm_listen(ctx, &p))
		goto out;
	RC_OBSERVE(ctx, ret = connection(ctx, &p, &c, &s));
	if (ret) {
		cm_broken(ctx, "a step of the connection");
		goto out;
	}
	rc_obs_out(ctx->obs, c.type, sizeof(want_c));
	for (i = 0; i < (int)sizeof(want_c); i++)
		if (c.type[i] != want_c[i]) {
			rc_obs_violation(ctx->obs,
					 "client_events #%d is %s, "
					 "not %s",
					 i, cm_event_name(c.type[i]),
					 cm_event_name(want_c[i]));
			goto out;
		}
	for (i = 0; i < (int)sizeof(want_s); i++)
		if (s.type[i] != want_s[i]) {
			rc_obs_violation(ctx->obs,
					 "server_events #%d is %s, "
					 "not %s",
					 i, cm_event_name(s.type[i]),
					 cm_event_name(want_s[i]));
			goto out;
		}
	if (c.bad_status || s.bad_status)
		rc_obs_violation(ctx->obs, "status %d",
				 c.bad_status ?: s.bad_status);
out:
	cm_pair_close(ctx, &p);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ev_row *row = r;

	if (rc_need_call(ctx, ctx->ops->rdma_get_cm_event,
			 "rdma_get_cm_event") &&
	    rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect"))
		row->check(row, ctx);
}

RC_TABLE_GROUP(group, "rdma_get_cm_event", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);

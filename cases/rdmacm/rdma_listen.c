// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_listen(3): "Initiates a listen for incoming connection requests or
 * datagram service lookup.  The listen will be restricted to the locally
 * bound source address."  NOTES: "If the rdma_cm_id is bound to a
 * specific IP address, the listen will be restricted to that address and
 * the associated RDMA device.  If the rdma_cm_id is bound to an RDMA port
 * number only, the listen will occur across all RDMA devices."
 * rdma_accept(3): "Connection request events give the user a newly
 * created rdma_cm_id, similar to a new socket, but the rdma_cm_id is
 * bound to a specific RDMA device."  "Returns 0 on success, or -1 on
 * error."
 *
 * - bound to the target's address: 0; a client's request arrives, its
 *   new id on the target's device
 * - bound to the IPv4 address: a request to the device's IPv6 address
 *   never reaches it (what must not happen), and the client hears no
 *   ESTABLISHED
 * - bound to a port only (the IPv4 wildcard): a request to the target's
 *   address arrives
 * - a client's id, its address resolved: -1 (not a passive side)
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_LISTEN                                                \
	"Initiates a listen for incoming connection requests or " \
	"datagram service lookup."
#define DOC_NEW_ID                                                             \
	"Connection request events give the user a newly created "             \
	"rdma_cm_id, similar to a new socket, but the rdma_cm_id is bound to " \
	"a specific RDMA device."
#define DOC_RESTRICTED                                                      \
	"If the rdma_cm_id is bound to a specific IP address, "             \
	"the listen will be restricted to that address and the associated " \
	"RDMA device."
#define DOC_ANY                                                        \
	"If the rdma_cm_id is bound to an RDMA port number only, the " \
	"listen will occur across all RDMA devices."

struct listen_row;
typedef void listen_check(const struct listen_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p);

struct listen_row {
	struct rc_case c;
	listen_check *check;
	bool wildcard; /* bind the port only */
};

static listen_check request_arrives, other_address_unheard,
	resolving_id_refused;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct listen_row rows[] = {
	{ .c = { .id = "rdmacm/listen/request-arrives",
		 .doc = DOC_NEW_ID,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0; the request's new id is not the listener, and its "
			 "device is the target's",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = request_arrives },
	{ .c = { .id = "rdmacm/listen/restricted-to-address",
		 .doc = DOC_RESTRICTED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "listening on the IPv4 address, a request to the "
			 "same device's IPv6 address and port: no request, "
			 "and the client is not ESTABLISHED",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = other_address_unheard },
	{ .c = { .id = "rdmacm/listen/port-only-any-device",
		 .doc = DOC_ANY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "bound to 0.0.0.0 and the row's port: a request to "
			 "the target's address arrives",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = request_arrives,
	  .wildcard = true },
	{ .c = { .id = "rdmacm/listen/resolving-id-refused",
		 .doc = DOC_LISTEN,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "an id whose address is resolved toward a "
			 "destination (an active side) does not start "
			 "listening: read as -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = resolving_id_refused },
};

/* The server bound (to the row's port only, when @wildcard) and the call
 * observed on it: true when it listens. */
static bool listened(const struct listen_row *row, struct rc_ctx *ctx,
		     struct cm_pair *p)
{
	struct sockaddr_storage bound = p->srv_addr;
	int ret;

	if (row->wildcard)
		((struct sockaddr_in *)&bound)->sin_addr.s_addr = 0;
	if (ctx->ops->rdma_bind_addr(p->srv.id, (struct sockaddr *)&bound))
		return cm_broken(ctx, "rdma_bind_addr");
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_listen(p->srv.id, 4));
	return !ret;
}

static void resolving_id_refused(const struct listen_row *row,
				 struct rc_ctx *ctx, struct cm_pair *p)
{
	if (ctx->ops->rdma_resolve_addr(
		    p->cli.id, (struct sockaddr *)&p->cli_addr,
		    (struct sockaddr *)&p->srv_addr, CM_RESOLVE_MS) ||
	    !cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, NULL)) {
		cm_broken(ctx, "rdma_resolve_addr");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->rdma_listen(p->cli.id, 4));
}

static void request_arrives(const struct listen_row *row, struct rc_ctx *ctx,
			    struct cm_pair *p)
{
	struct rdma_conn_param c;
	struct rdma_cm_event *req;
	const char *dev;

	cm_client_param(&c, NULL, 0);
	if (!listened(row, ctx, p) || !cm_resolve(ctx, p) ||
	    !cm_request(ctx, p, &c, &req))
		return;
	dev = req->id && req->id->verbs ?
		      ibv_get_device_name(req->id->verbs->device) :
		      NULL;
	if (req->id == p->srv.id)
		rc_obs_violation(ctx->obs, "id the request's id is the "
					   "listener");
	else if (!dev || strcmp(dev, ctx->target->ca))
		rc_obs_violation(ctx->obs,
				 "verbs the new id is on %s, not "
				 "%s",
				 dev ? dev : "no device", ctx->target->ca);
	p->srv.ops->rdma_ack_cm_event(req);
}

static void other_address_unheard(const struct listen_row *row,
				  struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_conn_param c;
	struct rdma_cm_event *ev;
	struct cm_pair six;
	bool refused;
	int type;

	memset(&six, 0, sizeof(six));
	if (!listened(row, ctx, p))
		return;
	/* the IPv6 addresses of the same two devices, the same port */
	if (!cm_pair_open(ctx, &six, AF_INET6, p->qp, ctx->ops, ctx->ops))
		goto out;
	cm_client_param(&c, NULL, 0);
	if (!cm_resolve(ctx, &six)) {
		cm_broken(ctx, "the client of the IPv6 address");
		goto out;
	}
	/* iWARP's connect is a TCP one: refused at once is also unheard */
	refused = ctx->ops->rdma_connect(six.cli.id, &c) != 0;
	type = cm_next(ctx, &p->srv, CM_QUIET_MS, &ev);
	if (type >= 0) {
		rc_obs_violation(ctx->obs,
				 "server_event %s for another "
				 "address",
				 cm_event_name(type));
		if (type == RDMA_CM_EVENT_CONNECT_REQUEST)
			p->srv.conn = ev->id;
		ctx->ops->rdma_ack_cm_event(ev);
	}
	type = refused ? -1 : cm_next(ctx, &six.cli, CM_WAIT_MS, &ev);
	if (type == RDMA_CM_EVENT_ESTABLISHED ||
	    type == RDMA_CM_EVENT_CONNECT_RESPONSE)
		rc_obs_violation(ctx->obs, "client_event %s",
				 cm_event_name(type));
	if (type >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
out:
	cm_pair_close(ctx, &six);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct listen_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_listen, "rdma_listen") ||
	    !rc_need_call(ctx, ctx->ops->rdma_connect, "rdma_connect"))
		return;
	if (cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_listen", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

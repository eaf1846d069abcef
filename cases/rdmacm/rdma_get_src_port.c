// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_src_port(3): "Returns the local port number for an rdma_cm_id
 * that has been bound to a local address."  RETURN VALUE: "Returns the
 * 16-bit port identifier associated with the local endpoint.  If the
 * rdma_cm_id is not bound to a port, the returned value is 0."  The
 * header declares it __be16: network order, as the sockaddr has it.
 *
 * - a listener bound to the row's port (two distinct bytes): that port,
 *   in network order; IPv4 and IPv6
 * - a new id: 0
 * - a connected client: the port the server's id sees as its peer's
 *   (where the value lands), not 0
 */
#include <arpa/inet.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_PORT                                                    \
	"Returns the local port number for an rdma_cm_id that has " \
	"been bound to a local address."
#define DOC_ZERO                                                  \
	"If the rdma_cm_id is not bound to a port, the returned " \
	"value is 0."

struct sp_row;
typedef void sp_check(const struct sp_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p);

struct sp_row {
	struct rc_case c;
	sp_check *check;
	int family;
};

static sp_check listener_port, new_id_zero, client_port_at_server;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct sp_row rows[] = {
	{ .c = { .id = "rdmacm/get_src_port/ipv4-listener",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "bound to the row's port 0x5aNN: htons(0x5aNN)",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = listener_port,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_src_port/ipv6-listener",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = listener_port,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/get_src_port/not-bound",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a new id: 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = new_id_zero,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_src_port/connected-client",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after ESTABLISHED, the client's port is not 0 and is "
			 "the port of the server's id's peer address",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = client_port_at_server,
	  .family = AF_INET6 },
};

static void listener_port(const struct sp_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p)
{
	__be16 port;

	if (!cm_listen(ctx, p))
		return;
	RC_OBSERVE(ctx, (port = ctx->ops->rdma_get_src_port(p->srv.id)) ==
				htons(cm_port(ctx)));
	if (port != htons(cm_port(ctx)))
		rc_obs_violation(ctx->obs, "port 0x%04x, not htons(0x%04x)",
				 port, cm_port(ctx));
}

static void new_id_zero(const struct sp_row *row, struct rc_ctx *ctx,
			struct cm_pair *p)
{
	RC_OBSERVE(ctx, ctx->ops->rdma_get_src_port(p->cli.id));
}

static void client_port_at_server(const struct sp_row *row, struct rc_ctx *ctx,
				  struct cm_pair *p)
{
	__be16 port;

	if (!cm_connect(ctx, p))
		return;
	RC_OBSERVE(ctx, (port = ctx->ops->rdma_get_src_port(p->cli.id)) != 0);
	if (!port || port != cm_port_of(&p->srv.conn->route.addr.dst_addr))
		rc_obs_violation(ctx->obs,
				 "port 0x%04x; the server's id "
				 "has its peer at 0x%04x",
				 port,
				 cm_port_of(&p->srv.conn->route.addr.dst_addr));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct sp_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_src_port,
			  "rdma_get_src_port"))
		return;
	if (cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_get_src_port", RC_CONV_VALUE, "rdmacm", rows, run);

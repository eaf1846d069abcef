// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_dst_port(3): "Returns the remote port number for an rdma_cm_id
 * that has been bound to a remote address."  RETURN VALUE: "Returns the
 * 16-bit port identifier associated with the peer endpoint.  If the
 * rdma_cm_id is not connected, the returned value is 0."  __be16, as
 * the sockaddr has it.
 *
 * - a connected client, IPv4 and IPv6: the server's port, htons(0x5aNN)
 * - the server's id of the connection: the client's own port
 * - a client whose route is resolved but which has not connected: 0
 * - a new id: 0
 */
#include <arpa/inet.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_PORT                                                     \
	"Returns the remote port number for an rdma_cm_id that has " \
	"been bound to a remote address."
#define DOC_ZERO                                                     \
	"If the rdma_cm_id is not connected, the returned value is " \
	"0."

struct dp_row;
typedef void dp_check(const struct dp_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p);

struct dp_row {
	struct rc_case c;
	dp_check *check;
	int family;
};

static dp_check client_sees_server, server_sees_client, resolved_zero,
	new_id_zero;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct dp_row rows[] = {
	{ .c = { .id = "rdmacm/get_dst_port/ipv4-connected-client",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after ESTABLISHED: htons(0x5aNN), the server's port",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = client_sees_server,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_dst_port/ipv6-connected-client",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = client_sees_server,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/get_dst_port/connected-server",
		 .doc = DOC_PORT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's id of the connection: the client's "
			 "port (its source address's), not 0",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = server_sees_client,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_dst_port/resolved-not-connected",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "address and route resolved, no rdma_connect yet: "
			 "not connected, so 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resolved_zero,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_dst_port/not-connected",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a new id: 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = new_id_zero,
	  .family = AF_INET },
};

static void client_sees_server(const struct dp_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p)
{
	__be16 port;

	if (!cm_connect(ctx, p))
		return;
	RC_OBSERVE(ctx, (port = ctx->ops->rdma_get_dst_port(p->cli.id)) ==
				htons(cm_port(ctx)));
	if (port != htons(cm_port(ctx)))
		rc_obs_violation(ctx->obs, "port 0x%04x, not htons(0x%04x)",
				 port, cm_port(ctx));
}

static void server_sees_client(const struct dp_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p)
{
	__be16 port, want;

	if (!cm_connect(ctx, p))
		return;
	want = cm_port_of(&p->cli.id->route.addr.src_addr);
	RC_OBSERVE(ctx,
		   (port = ctx->ops->rdma_get_dst_port(p->srv.conn)) == want);
	if (!port || port != want)
		rc_obs_violation(ctx->obs,
				 "port 0x%04x, the client's is "
				 "0x%04x",
				 port, want);
}

static void resolved_zero(const struct dp_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p)
{
	if (cm_listen(ctx, p) && cm_resolve(ctx, p))
		RC_OBSERVE(ctx, ctx->ops->rdma_get_dst_port(p->cli.id));
}

static void new_id_zero(const struct dp_row *row, struct rc_ctx *ctx,
			struct cm_pair *p)
{
	RC_OBSERVE(ctx, ctx->ops->rdma_get_dst_port(p->cli.id));
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct dp_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_dst_port,
			  "rdma_get_dst_port"))
		return;
	if (cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_get_dst_port", RC_CONV_VALUE, "rdmacm", rows, run);

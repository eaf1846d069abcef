// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_peer_addr(3): "Returns the remote IP address associated with an
 * rdma_cm_id."  RETURN VALUE: "Returns a pointer to the sockaddr address
 * of the connected peer.  If the rdma_cm_id is not connected, the contents
 * of the sockaddr structure will be set to all zeroes."
 *
 * - a connected client, IPv4 and IPv6: exactly the server's address and
 *   port
 * - the server's id of the connection: the client's address and port
 * - a client whose route is resolved, not yet connected: all zeroes
 * - a new id: all zeroes
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_PEER                                                      \
	"Returns a pointer to the sockaddr address of the connected " \
	"peer."
#define DOC_ZERO                                                   \
	"If the rdma_cm_id is not connected, the contents of the " \
	"sockaddr structure will be set to all zeroes."

struct pa_row;
typedef void pa_check(const struct pa_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p);

struct pa_row {
	struct rc_case c;
	pa_check *check;
	int family;
};

static pa_check client_sees_server, server_sees_client, resolved_zeroes,
	new_id_zeroes;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct pa_row rows[] = {
	{ .c = { .id = "rdmacm/get_peer_addr/ipv4-connected-client",
		 .doc = DOC_PEER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's sockaddr_in (address and port), byte "
			 "for byte",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = client_sees_server,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_peer_addr/ipv6-connected-client",
		 .doc = DOC_PEER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's sockaddr_in6, byte for byte",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = client_sees_server,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/get_peer_addr/connected-server",
		 .doc = DOC_PEER,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the server's id of the connection: the client's "
			 "address and port",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = server_sees_client,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_peer_addr/resolved-not-connected",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "address and route resolved, no rdma_connect yet: "
			 "not connected, so all zeroes",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = resolved_zeroes,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_peer_addr/not-connected",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a new id: all zeroes",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = new_id_zeroes,
	  .family = AF_INET },
};

static socklen_t len_of(int family)
{
	return family == AF_INET ? sizeof(struct sockaddr_in) :
				   sizeof(struct sockaddr_in6);
}

/* The call observed on @id; the address compared with @want. */
static void peer_is(struct rc_ctx *ctx, struct rdma_cm_id *id, const void *want,
		    size_t len, bool out)
{
	struct sockaddr *a;

	RC_OBSERVE(ctx, (a = ctx->ops->rdma_get_peer_addr(id)) != NULL);
	if (!a) {
		rc_obs_violation(ctx->obs,
				 "addr NULL, not a pointer to a sockaddr");
		return;
	}
	if (out)
		rc_obs_out(ctx->obs, a, len);
	if (memcmp(a, want, len))
		rc_obs_violation(ctx->obs, "addr %s",
				 len == sizeof(struct sockaddr_storage) ?
					 "not all zeroes" :
					 "not the peer's address");
}

static void client_sees_server(const struct pa_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p)
{
	if (cm_connect(ctx, p))
		peer_is(ctx, p->cli.id, &p->srv_addr, len_of(row->family),
			false);
}

static void server_sees_client(const struct pa_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p)
{
	struct sockaddr_in want;

	if (!cm_connect(ctx, p))
		return;
	want = *(struct sockaddr_in *)&p->cli_addr;
	want.sin_port = ((struct sockaddr_in *)&p->cli.id->route.addr.src_addr)
				->sin_port;
	peer_is(ctx, p->srv.conn, &want, sizeof(want), false);
}

static void resolved_zeroes(const struct pa_row *row, struct rc_ctx *ctx,
			    struct cm_pair *p)
{
	static const struct sockaddr_storage zero;

	if (cm_listen(ctx, p) && cm_resolve(ctx, p))
		peer_is(ctx, p->cli.id, &zero, sizeof(zero), false);
}

static void new_id_zeroes(const struct pa_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p)
{
	static const struct sockaddr_storage zero;

	peer_is(ctx, p->cli.id, &zero, sizeof(zero), true);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct pa_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_peer_addr,
			  "rdma_get_peer_addr"))
		return;
	if (cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_get_peer_addr", RC_CONV_VALUE, "rdmacm", rows, run);

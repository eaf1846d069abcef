// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_get_local_addr(3): "Returns the local IP address for an rdma_cm_id
 * that has been bound to a local device."  RETURN VALUE: "Returns a
 * pointer to the local sockaddr address of the rdma_cm_id.  If the
 * rdma_cm_id is not bound to an address, the contents of the sockaddr
 * structure will be set to all zeroes."
 *
 * - a bound listener, IPv4 and IPv6: exactly the address and port bound
 * - a connected client: the peer device's address, with the port the
 *   server's id sees as its peer's
 * - a new id: all zeroes
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_LOCAL                                                  \
	"Returns the local IP address for an rdma_cm_id that has " \
	"been bound to a local device."
#define DOC_ZERO                                                      \
	"If the rdma_cm_id is not bound to an address, the contents " \
	"of the sockaddr structure will be set to all zeroes."

struct la_row;
typedef void la_check(const struct la_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p);

struct la_row {
	struct rc_case c;
	la_check *check;
	int family;
};

static la_check listener_addr, client_addr, new_id_zeroes;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct la_row rows[] = {
	{ .c = { .id = "rdmacm/get_local_addr/ipv4-listener",
		 .doc = DOC_LOCAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the sockaddr_in bound, byte for byte",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = listener_addr,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_local_addr/ipv6-listener",
		 .doc = DOC_LOCAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the sockaddr_in6 bound, byte for byte",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = listener_addr,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/get_local_addr/connected-client",
		 .doc = DOC_LOCAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the peer device's address; its port the one the "
			 "server's id has for its peer",
		 .needs = NEEDS,
		 .contract = { RC_ANY_RETURN } },
	  .check = client_addr,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/get_local_addr/not-bound",
		 .doc = DOC_ZERO,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a new id: a sockaddr_storage of zeroes",
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

static void listener_addr(const struct la_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p)
{
	struct sockaddr *a;

	if (!cm_listen(ctx, p))
		return;
	RC_OBSERVE(ctx, (a = ctx->ops->rdma_get_local_addr(p->srv.id)) != NULL);
	if (!a) {
		rc_obs_violation(ctx->obs,
				 "addr NULL, not a pointer to a sockaddr");
		return;
	}
	if (memcmp(a, &p->srv_addr, len_of(row->family)))
		rc_obs_violation(ctx->obs, "addr not the address bound");
}

static void client_addr(const struct la_row *row, struct rc_ctx *ctx,
			struct cm_pair *p)
{
	struct sockaddr_in *a, want;

	if (!cm_connect(ctx, p))
		return;
	RC_OBSERVE(ctx, (a = (void *)ctx->ops->rdma_get_local_addr(
				 p->cli.id)) != NULL);
	if (!a) {
		rc_obs_violation(ctx->obs,
				 "addr NULL, not a pointer to a sockaddr");
		return;
	}
	want = *(struct sockaddr_in *)&p->cli_addr;
	want.sin_port =
		((struct sockaddr_in *)&p->srv.conn->route.addr.dst_addr)
			->sin_port;
	if (a->sin_family != AF_INET ||
	    a->sin_addr.s_addr != want.sin_addr.s_addr)
		rc_obs_violation(ctx->obs, "addr not the peer's address");
	else if (!a->sin_port || a->sin_port != want.sin_port)
		rc_obs_violation(ctx->obs,
				 "port 0x%04x, the server has its "
				 "peer at 0x%04x",
				 a->sin_port, want.sin_port);
}

static void new_id_zeroes(const struct la_row *row, struct rc_ctx *ctx,
			  struct cm_pair *p)
{
	static const struct sockaddr_storage zero;
	struct sockaddr *a;

	RC_OBSERVE(ctx, (a = ctx->ops->rdma_get_local_addr(p->cli.id)) != NULL);
	if (!a) {
		rc_obs_violation(ctx->obs,
				 "addr NULL, not a pointer to a sockaddr");
		return;
	}
	rc_obs_out(ctx->obs, a, sizeof(zero));
	if (memcmp(a, &zero, sizeof(zero)))
		rc_obs_violation(ctx->obs, "addr not all zeroes");
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct la_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_get_local_addr,
			  "rdma_get_local_addr"))
		return;
	if (cm_pair_open(ctx, &p, row->family, true, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_get_local_addr", RC_CONV_VALUE, "rdmacm", rows,
	       run);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_resolve_route(3): "Resolves an RDMA route to the destination
 * address in order to establish a connection.  The destination address
 * must have already been resolved by calling rdma_resolve_addr."
 * rdma_get_cm_event(3): RDMA_CM_EVENT_ROUTE_RESOLVED "Route resolution
 * (rdma_resolve_route) completed successfully."  "Returns 0 on success,
 * or -1 on error."
 *
 * - IPv4 and IPv6, after ADDR_RESOLVED: 0, then ROUTE_RESOLVED, status 0
 * - an id whose address was never resolved: -1
 * - a synchronous id (no channel): 0 once resolved, ROUTE_RESOLVED in
 *   id->event
 */
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_ROUTE                                               \
	"Resolves an RDMA route to the destination address in " \
	"order to establish a connection."
#define DOC_FIRST                                                  \
	"The destination address must have already been resolved " \
	"by calling rdma_resolve_addr."

struct rr_row {
	struct rc_case c;
	int family;
	bool resolve_addr; /* rdma_resolve_addr first */
	bool synchronous; /* the client without a channel */
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct rr_row rows[] = {
	{ .c = { .id = "rdmacm/resolve_route/ipv4-resolved",
		 .doc = DOC_ROUTE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, then ROUTE_RESOLVED with status 0",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET,
	  .resolve_addr = true },
	{ .c = { .id = "rdmacm/resolve_route/ipv6-resolved",
		 .doc = DOC_ROUTE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET6,
	  .resolve_addr = true },
	{ .c = { .id = "rdmacm/resolve_route/address-not-resolved",
		 .doc = DOC_FIRST,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a new id, never resolved: the page makes resolving "
			 "the address the caller's duty and names no failure "
			 "of its own; read as -1 (\"-1 on error\"), not a crash",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/resolve_route/synchronous-resolved",
		 .doc = CM_DOC_SYNC " ... " CM_DOC_SYNC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a synchronous client (no channel), its address "
			 "resolved: 0 once the route is, ROUTE_RESOLVED with "
			 "status 0 in id->event (rdma_create_id(3)'s words)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .family = AF_INET,
	  .resolve_addr = true,
	  .synchronous = true },
};

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct rr_row *row = r;
	struct cm_pair p;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_resolve_route,
			  "rdma_resolve_route") ||
	    !rc_need_call(ctx, ctx->ops->rdma_resolve_addr,
			  "rdma_resolve_addr"))
		return;
	if (!cm_pair_open(ctx, &p, row->family, false, ctx->ops, ctx->ops) ||
	    (row->synchronous && !cm_go_synchronous(ctx, &p.cli)))
		goto out;
	/* a synchronous id's event is in the id once the call returns */
	if (row->resolve_addr &&
	    (ctx->ops->rdma_resolve_addr(
		     p.cli.id, (struct sockaddr *)&p.cli_addr,
		     (struct sockaddr *)&p.srv_addr, CM_RESOLVE_MS) ||
	     (!row->synchronous &&
	      !cm_expect(ctx, &p.cli, RDMA_CM_EVENT_ADDR_RESOLVED, NULL)))) {
		cm_broken(ctx, "rdma_resolve_addr");
		goto out;
	}
	RC_OBSERVE(ctx,
		   ret = ctx->ops->rdma_resolve_route(p.cli.id, CM_RESOLVE_MS));
	if (!ret && row->synchronous) {
		cm_check_event_in_id(ctx, p.cli.id,
				     RDMA_CM_EVENT_ROUTE_RESOLVED);
		if (p.cli.id->event && p.cli.id->event->status)
			rc_obs_violation(ctx->obs,
					 "status %d in ROUTE_RESOLVED",
					 p.cli.id->event->status);
	} else if (!ret) {
		cm_expect(ctx, &p.cli, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL);
	}
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_resolve_route", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_resolve_addr(3): "Resolve destination and optional source
 * addresses from IP addresses to an RDMA address.  If successful, the
 * specified rdma_cm_id will be bound to a local device."  NOTES: "If a
 * source address is given, the rdma_cm_id is bound to that address, the
 * same as if rdma_bind_addr were called.  If no source address is given,
 * and the rdma_cm_id has not yet been bound to a device, then the
 * rdma_cm_id will be bound to a source address based on the local routing
 * tables."  ARGUMENTS: "timeout_ms  Time to wait for resolution to
 * complete."  rdma_get_cm_event(3): RDMA_CM_EVENT_ADDR_RESOLVED "Address
 * resolution (rdma_resolve_addr) completed successfully.",
 * RDMA_CM_EVENT_ADDR_ERROR "Address resolution (rdma_resolve_addr)
 * failed."  "Returns 0 on success, or -1 on error."
 *
 * From the peer device's address to the target's:
 * - IPv4 and IPv6: ADDR_RESOLVED with status 0; the id's device is the
 *   peer's, its local address the source given
 * - no source: the routing tables pick the peer's address and device
 * - a source address no device has: -1 (binding to it fails)
 * - a destination no route reaches: -1, or ADDR_ERROR; never
 *   ADDR_RESOLVED
 * - a destination on the link that nobody answers: ADDR_ERROR after the
 *   timeout given (400 ms), IPv4 and IPv6
 * - the same from a synchronous id: -1, ADDR_ERROR in the id, and errno
 *   the event's status (the failure's reason the kernel gives)
 * - the server's address from a synchronous id: 0, ADDR_RESOLVED in the
 *   id, on the peer's device
 * - an AF_UNIX destination, or an AF_UNIX source with the server's
 *   address: -1 EINVAL (Linux: the kernel takes no family rdma_cm has not)
 * - resolved, the id is on the device's port 1 (rxe and siw have one)
 * - an id bound already (rdma_bind_addr, the peer's address, port 0),
 *   no source: resolved from the address it is bound to, its port kept
 */
#include <arpa/inet.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_BOUND                                                   \
	"If successful, the specified rdma_cm_id will be bound to " \
	"a local device."
#define DOC_SRC                                                     \
	"If a source address is given, the rdma_cm_id is bound to " \
	"that address, the same as if rdma_bind_addr were called."
#define DOC_NOSRC                                                            \
	"If no source address is given, and the rdma_cm_id has "             \
	"not yet been bound to a device, then the rdma_cm_id will be bound " \
	"to a source address based on the local routing tables."
#define DOC_ERROR "Address resolution (rdma_resolve_addr) failed."
#define DOC_TIMEOUT "Time to wait for resolution to complete."
#define DOC_ERRNO                                                        \
	"If an error occurs, errno will be set to indicate the failure " \
	"reason."

#define TIMEOUT_MS 400

enum dst { DST_PEER, DST_NO_ROUTE, DST_SILENT, DST_UNIX };

struct ra_row;
typedef void ra_check(const struct ra_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct sockaddr_storage *dst);

struct ra_row {
	struct rc_case c;
	ra_check *check;
	int family;
	enum dst dst;
};

static ra_check resolved_on_peer, src_from_routes, bound_keeps_address,
	nonlocal_src_fails, call_only, unix_src_fails, no_route_fails,
	times_out, synchronous_error, synchronous_resolved;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ra_row rows[] = {
	{ .c = { .id = "rdmacm/resolve_addr/ipv4-resolved",
		 .doc = DOC_BOUND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0, then ADDR_RESOLVED with status 0; id->verbs is "
			 "the peer device's (the source address's)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resolved_on_peer,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/resolve_addr/ipv6-resolved",
		 .doc = DOC_BOUND,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same over IPv6",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resolved_on_peer,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/resolve_addr/source-bound",
		 .doc = DOC_SRC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rdma_get_local_addr's address is the source given "
			 "(its port the kernel's choice)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = resolved_on_peer,
	  .family = AF_INET6 },
	{ .c = { .id = "rdmacm/resolve_addr/no-source-routes",
		 .doc = DOC_NOSRC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "src_addr NULL: the VM's routes send the target's "
			 "address out of the peer's netdev, so the id's source "
			 "is the peer's address, its device the peer's",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = src_from_routes,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/resolve_addr/bound-id-keeps-address",
		 .doc = DOC_NOSRC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the id bound first (rdma_bind_addr: the peer's "
			 "address, port 0, so the kernel's choice), then "
			 "src_addr NULL: it is bound, so the routing tables "
			 "pick nothing; ADDR_RESOLVED, the id on the peer's "
			 "device, from the address and port it was bound to",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = bound_keeps_address,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/resolve_addr/no-route",
		 .doc = DOC_ERROR,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "203.0.113.1 (TEST-NET-3, no route): -1 at once, or "
			 "0 then ADDR_ERROR; never ADDR_RESOLVED",
		 .needs = NEEDS,
		 .contract = { .ret = RC_RET_IN,
			       .value = 0,
			       .alt = { -1, -1 } } },
	  .check = no_route_fails,
	  .family = AF_INET,
	  .dst = DST_NO_ROUTE },
	{ .c = { .id = "rdmacm/resolve_addr/ipv4-timeout",
		 .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "an address of the link that no one has (.77): "
			 "ADDR_ERROR with a non-zero status, 400 ms after the "
			 "call (the call and the wait are timed together)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0), .ms = TIMEOUT_MS,
			       .tol_ms = 150 } },
	  .check = times_out,
	  .family = AF_INET,
	  .dst = DST_SILENT },
	{ .c = { .id = "rdmacm/resolve_addr/ipv6-timeout",
		 .doc = DOC_TIMEOUT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the same for an IPv6 address of the link (::77)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0), .ms = TIMEOUT_MS,
			       .tol_ms = 150 } },
	  .check = times_out,
	  .family = AF_INET6,
	  .dst = DST_SILENT },
	{ .c = { .id = "rdmacm/resolve_addr/source-not-local",
		 .doc = DOC_SRC,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a source of the peer's subnet that no host has "
			 "(.99): bound \"as if rdma_bind_addr were called\", "
			 "which cannot bind it: -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = nonlocal_src_fails,
	  .family = AF_INET },
	{ .c = { .id = "rdmacm/resolve_addr/unix-destination",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_LINUX,
		 .note = "an AF_UNIX destination: the kernel's "
			 "ucma_resolve_addr takes only addresses of a family "
			 "rdma_cm knows (their size by rdma_addr_size_kss), "
			 "-1 EINVAL",
		 .needs = NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = call_only,
	  .family = AF_INET,
	  .dst = DST_UNIX },
	{ .c = { .id = "rdmacm/resolve_addr/unix-source",
		 .doc = DOC_SRC,
		 .basis = RC_BASIS_LINUX,
		 .note = "an AF_UNIX source, the server's address as the "
			 "destination: bound \"as if rdma_bind_addr were "
			 "called\", whose kernel side takes no such family, "
			 "-1 EINVAL",
		 .needs = NEEDS,
		 .contract = { RC_FAILS(EINVAL) } },
	  .check = unix_src_fails,
	  .family = AF_INET,
	  .dst = DST_PEER },
	{ .c = { .id = "rdmacm/resolve_addr/synchronous-error-in-errno",
		 .doc = DOC_ERRNO,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a synchronous client (no channel), the silent "
			 "address (.77), 400 ms: -1, ADDR_ERROR left in "
			 "id->event (rdma_create_id(3)), and errno the "
			 "negated status of that event: the reason the "
			 "kernel gives (the page names no errno)",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = synchronous_error,
	  .family = AF_INET,
	  .dst = DST_SILENT },
	{ .c = { .id = "rdmacm/resolve_addr/synchronous-resolved",
		 .doc = CM_DOC_SYNC " ... " CM_DOC_SYNC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a synchronous client (no channel), the server's "
			 "address: 0 once resolved, ADDR_RESOLVED with status "
			 "0 in id->event (rdma_create_id(3)'s words), the id "
			 "on the peer device",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = synchronous_resolved,
	  .family = AF_INET,
	  .dst = DST_PEER },
};

/* A sockaddr of a family rdma_cm has not: AF_UNIX, a path */
static void unix_address(struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = AF_UNIX;
	memcpy((char *)ss + sizeof(sa_family_t), "/rdmaconf", 9);
}

/* The row's destination: the target's address, or one of its subnet's
 * that nobody has (the last byte 0x77), or one that nothing routes. */
static void destination(const struct ra_row *row, const struct cm_pair *p,
			struct sockaddr_storage *dst)
{
	*dst = p->srv_addr;
	if (row->dst == DST_SILENT && row->family == AF_INET)
		((uint8_t *)&((struct sockaddr_in *)dst)->sin_addr)[3] = 0x77;
	else if (row->dst == DST_SILENT)
		((struct sockaddr_in6 *)dst)->sin6_addr.s6_addr[15] = 0x77;
	else if (row->dst == DST_NO_ROUTE && row->family == AF_INET)
		inet_pton(AF_INET, "203.0.113.1",
			  &((struct sockaddr_in *)dst)->sin_addr);
	else if (row->dst == DST_NO_ROUTE)
		inet_pton(AF_INET6, "2001:db8:ffff::1",
			  &((struct sockaddr_in6 *)dst)->sin6_addr);
	else if (row->dst == DST_UNIX)
		unix_address(dst);
}

static bool same_ip(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a->sa_family != b->ss_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
}

/* ADDR_RESOLVED, status 0; the id on the peer's device and address. */
/* Once ADDR_RESOLVED came (on the channel, or in a synchronous id
 * already), the id is on the peer's device, from its address */
static void bound_to_peer(struct rc_ctx *ctx, struct cm_pair *p)
{
	const char *dev;

	dev = p->cli.id->verbs ? ibv_get_device_name(p->cli.id->verbs->device) :
				 NULL;
	if (!dev || strcmp(dev, ctx->target->peer))
		rc_obs_violation(ctx->obs, "verbs bound to %s, not %s",
				 dev ? dev : "no device", ctx->target->peer);
	else if (!same_ip(&p->cli.id->route.addr.src_addr, &p->cli_addr))
		rc_obs_violation(ctx->obs, "src_addr not the peer's address");
	/* bound to a device is bound to one of its ports: rxe and siw
	 * devices have port 1 alone */
	else if (p->cli.id->port_num != 1)
		rc_obs_violation(ctx->obs, "port_num %u, not 1",
				 p->cli.id->port_num);
}

static void on_peer(struct rc_ctx *ctx, struct cm_pair *p)
{
	if (cm_expect(ctx, &p->cli, RDMA_CM_EVENT_ADDR_RESOLVED, NULL))
		bound_to_peer(ctx, p);
}

/* The call observed: from the peer's address, or (@no_src) from none. */
static int observe(struct rc_ctx *ctx, struct cm_pair *p,
		   struct sockaddr_storage *dst, bool no_src, int timeout_ms)
{
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->rdma_resolve_addr(
				p->cli.id,
				no_src ? NULL : (struct sockaddr *)&p->cli_addr,
				(struct sockaddr *)dst, timeout_ms));
	return ret;
}

static void resolved_on_peer(const struct ra_row *row, struct rc_ctx *ctx,
			     struct cm_pair *p, struct sockaddr_storage *dst)
{
	if (!observe(ctx, p, dst, false, CM_RESOLVE_MS))
		on_peer(ctx, p);
}

static void src_from_routes(const struct ra_row *row, struct rc_ctx *ctx,
			    struct cm_pair *p, struct sockaddr_storage *dst)
{
	if (!observe(ctx, p, dst, true, CM_RESOLVE_MS))
		on_peer(ctx, p);
}

static void bound_keeps_address(const struct ra_row *row, struct rc_ctx *ctx,
				struct cm_pair *p, struct sockaddr_storage *dst)
{
	__be16 bound, now;

	if (ctx->ops->rdma_bind_addr(p->cli.id,
				     (struct sockaddr *)&p->cli_addr)) {
		cm_broken(ctx, "rdma_bind_addr");
		return;
	}
	bound = cm_port_of(ctx->ops->rdma_get_local_addr(p->cli.id));
	if (!bound) {
		cm_broken(ctx, "rdma_bind_addr left port 0");
		return;
	}
	if (observe(ctx, p, dst, true, CM_RESOLVE_MS))
		return;
	on_peer(ctx, p);
	now = cm_port_of(ctx->ops->rdma_get_local_addr(p->cli.id));
	if (now != bound)
		rc_obs_violation(ctx->obs, "port 0x%04x, not the bound 0x%04x",
				 ntohs(now), ntohs(bound));
}

static void nonlocal_src_fails(const struct ra_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p, struct sockaddr_storage *dst)
{
	((uint8_t *)&((struct sockaddr_in *)&p->cli_addr)->sin_addr)[3] = 0x63;
	observe(ctx, p, dst, false, CM_RESOLVE_MS);
}

static void call_only(const struct ra_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct sockaddr_storage *dst)
{
	observe(ctx, p, dst, false, CM_RESOLVE_MS);
}

static void unix_src_fails(const struct ra_row *row, struct rc_ctx *ctx,
			   struct cm_pair *p, struct sockaddr_storage *dst)
{
	unix_address(&p->cli_addr);
	observe(ctx, p, dst, false, CM_RESOLVE_MS);
}

static void no_route_fails(const struct ra_row *row, struct rc_ctx *ctx,
			   struct cm_pair *p, struct sockaddr_storage *dst)
{
	struct rdma_cm_event *ev;
	int type;

	if (observe(ctx, p, dst, false, TIMEOUT_MS))
		return;
	type = cm_next(ctx, &p->cli, CM_WAIT_MS, &ev);
	if (type != RDMA_CM_EVENT_ADDR_ERROR)
		rc_obs_violation(ctx->obs, "client_event %s, not ADDR_ERROR",
				 type < 0 ? "none" : cm_event_name(type));
	if (type >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
}

/* The call and its event, timed together. */
static int resolve_and_wait(struct rc_ctx *ctx, struct cm_pair *p,
			    struct sockaddr_storage *dst, int *type,
			    struct rdma_cm_event **ev)
{
	int ret = ctx->ops->rdma_resolve_addr(p->cli.id,
					      (struct sockaddr *)&p->cli_addr,
					      (struct sockaddr *)dst,
					      TIMEOUT_MS);

	*type = ret ? -1 : cm_next(ctx, &p->cli, 4 * TIMEOUT_MS, ev);
	return ret;
}

static void times_out(const struct ra_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct sockaddr_storage *dst)
{
	struct rdma_cm_event *ev;
	int ret, type;

	RC_OBSERVE(ctx, ret = resolve_and_wait(ctx, p, dst, &type, &ev));
	if (ret)
		return;
	if (type != RDMA_CM_EVENT_ADDR_ERROR || !ev->status)
		rc_obs_violation(ctx->obs,
				 "client_event %s (status %d), not "
				 "ADDR_ERROR",
				 type < 0 ? "none" : cm_event_name(type),
				 type < 0 ? 0 : ev->status);
	if (type >= 0)
		ctx->ops->rdma_ack_cm_event(ev);
}

static void synchronous_error(const struct ra_row *row, struct rc_ctx *ctx,
			      struct cm_pair *p, struct sockaddr_storage *dst)
{
	const struct rdma_cm_event *ev;

	if (!cm_go_synchronous(ctx, &p->cli) ||
	    !observe(ctx, p, dst, false, TIMEOUT_MS))
		return;
	ev = p->cli.id->event;
	cm_check_event_in_id(ctx, p->cli.id, RDMA_CM_EVENT_ADDR_ERROR);
	if (ev && (ev->status >= 0 || ctx->obs->err != -ev->status))
		rc_obs_violation(ctx->obs, "errno %d, the event's status %d",
				 ctx->obs->err, ev->status);
}

static void synchronous_resolved(const struct ra_row *row, struct rc_ctx *ctx,
				 struct cm_pair *p,
				 struct sockaddr_storage *dst)
{
	if (!cm_go_synchronous(ctx, &p->cli) ||
	    observe(ctx, p, dst, false, CM_RESOLVE_MS))
		return;
	cm_check_event_in_id(ctx, p->cli.id, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (p->cli.id->event && p->cli.id->event->status)
		rc_obs_violation(ctx->obs, "status %d in ADDR_RESOLVED",
				 p->cli.id->event->status);
	bound_to_peer(ctx, p);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ra_row *row = r;
	struct sockaddr_storage dst;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_resolve_addr,
			  "rdma_resolve_addr"))
		return;
	if (cm_pair_open(ctx, &p, row->family, false, ctx->ops, ctx->ops)) {
		destination(row, &p, &dst);
		row->check(row, ctx, &p, &dst);
	}
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_resolve_addr", RC_CONV_M1_ERRNO, "rdmacm", rows,
	       run);

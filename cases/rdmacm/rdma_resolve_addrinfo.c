// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_resolve_addrinfo(3) and rdma_query_addrinfo(3) (rdma-core 60,
 * RDMACM_1.4; ABSENT from 44.0).  "This call submits an asynchronous
 * address resolution request.  The behavior is similar to
 * rdma_getaddrinfo(), except that the operation is asynchronous,
 * generating an event on the RDMA CM event channel that is associated
 * with the specified rdma_cm_id when complete."  On the server's id of
 * the connection pair (its own channel), with the server's numeric
 * address and a port as the node and service:
 * - resolve_addrinfo/dns-resolved: 0, then RDMA_CM_EVENT_ADDRINFO_RESOLVED
 *   on the id with status 0
 * - resolve_addrinfo/sa-and-dns, sa-with-node: the flags the NOTES rule
 *   out fail at once, and no event follows ("The address resolution was
 *   not started, and no event will be generated")
 * - resolve_addrinfo/sa-on-roce: RAI_SA on an id bound to the RoCE port:
 *   an error (the call's, or RDMA_CM_EVENT_ADDRINFO_ERROR), never a
 *   resolution
 * - resolve_addrinfo/no-written-events: on a kernel that cannot report
 *   the result, the resolution fails at once and no event follows
 * Every -1 names its failure reason: errno positive.
 * - query_addrinfo/after-resolved: the result is the address asked for
 *   (its destination, port and all), as rdma_getaddrinfo would give it;
 *   asked again, there is none
 * - query_addrinfo/nothing-resolved, after-refused-resolve: -1, and
 *   *info as it was
 * What needs a written event (the resolution's) needs the kernel's
 * WRITE_CM_EVENT (Linux 6.15): a SKIP that says so on older kernels.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "rdmacm_written.h"

#define DOC_ASYNC                                                         \
	"The behavior is similar to rdma_getaddrinfo(), except that the " \
	"operation is asynchronous, generating an event on the RDMA CM "  \
	"event channel that is associated with the specified rdma_cm_id " \
	"when complete."
#define DOC_EVENT                                           \
	"The cm event RDMA_CM_EVENT_ADDRINFO_RESOLVED (on " \
	"success) or RDMA_CM_EVENT_ADDRINFO_ERROR (on failure) is generated."
#define DOC_ERR                                                              \
	"Returns -1 on error, errno will be set to indicate the failure "    \
	"reason. The address resolution was not started, and no event will " \
	"be generated on the event channel."
#define DOC_EXCL "These 2 flags are mutual-exclusive;"
#define DOC_SA_NODE "The %node parameter must be null (not supported)."
#define DOC_SA_PORT                                                    \
	"The rdma_cm_id associated with the call must be bound to an " \
	"Infiniband port, or an error will occur."
#define DOC_QUERY                                                         \
	"This function retrieves the resulting rdma_addrinfo structures " \
	"from a successful rdma_resolve_addrinfo() operation."
#define DOC_QRET                                                              \
	"On success 0 is returned, info contains a resolved address "         \
	"information On error -1 is returned, errno will be set to indicate " \
	"the failure reason."

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

enum what {
	W_RESOLVED, /* DNS: RESOLVED */
	W_SA_AND_DNS, /* refused at once */
	W_SA_NODE,
	W_SA_ROCE, /* an error, by the call or by the event */
	W_NO_WRITES, /* a kernel that takes no written event: refused */
	W_Q_AFTER, /* query: the result, once */
	W_Q_NOTHING, /* query: nothing resolved */
	W_Q_REFUSED, /* query after a refused resolution */
};

struct ra_row {
	struct rc_case c;
	enum what what;
};

#define ROW(i, d, b, n, ct, w)               \
	{                                    \
		.c = { .id = i,              \
		       .doc = d,             \
		       .basis = b,           \
		       .note = n,            \
		       .needs = NEEDS,       \
		       .contract = { ct } }, \
		.what = w                    \
	}

static const struct ra_row resolve_rows[] = {
	ROW("rdmacm/resolve_addrinfo/dns-resolved", DOC_ASYNC " ... " DOC_EVENT,
	    RC_BASIS_DOCUMENTED,
	    "the server's numeric address and port 0x5aNN, RAI_NUMERICHOST "
	    "and RAI_DNS: 0, then RDMA_CM_EVENT_ADDRINFO_RESOLVED on the id "
	    "with status 0",
	    RC_RETURNS(0), W_RESOLVED),
	ROW("rdmacm/resolve_addrinfo/sa-and-dns", DOC_EXCL " ... " DOC_ERR,
	    RC_BASIS_DOCUMENTED,
	    "RAI_SA and RAI_DNS together: -1 with errno, and no event in "
	    "300 ms",
	    RC_FAILS(), W_SA_AND_DNS),
	ROW("rdmacm/resolve_addrinfo/sa-with-node", DOC_SA_NODE " ... " DOC_ERR,
	    RC_BASIS_DOCUMENTED,
	    "RAI_SA with the node given: -1 with errno, and no event in "
	    "300 ms",
	    RC_FAILS(), W_SA_NODE),
	ROW("rdmacm/resolve_addrinfo/sa-on-roce", DOC_SA_PORT " ... " DOC_ERR,
	    RC_BASIS_DOCUMENTED,
	    "RAI_SA and service \"1\" on an id bound to the RoCE port's "
	    "address: an error, -1 with errno a failure reason (positive) or "
	    "RDMA_CM_EVENT_ADDRINFO_ERROR, never "
	    "RDMA_CM_EVENT_ADDRINFO_RESOLVED",
	    RC_ANY_RETURN, W_SA_ROCE),
	ROW("rdmacm/resolve_addrinfo/no-written-events", DOC_ERR,
	    RC_BASIS_DOCUMENTED,
	    "on a kernel that takes no written event (Linux before 6.15) the "
	    "result cannot be reported: the numeric resolution of the "
	    "server's address fails, -1 with errno a failure reason "
	    "(positive), and no event follows (a SKIP on newer kernels)",
	    RC_FAILS(), W_NO_WRITES),
};

static const struct ra_row query_rows[] = {
	ROW("rdmacm/query_addrinfo/after-resolved", DOC_QUERY " ... " DOC_QRET,
	    RC_BASIS_DOCUMENTED,
	    "after ADDRINFO_RESOLVED: 0 and a list whose first entry has "
	    "the address and port asked for as ai_dst_addr; a second query "
	    "finds none (the caller owns what it got: -1)",
	    RC_RETURNS(0), W_Q_AFTER),
	ROW("rdmacm/query_addrinfo/nothing-resolved",
	    DOC_QUERY " ... " DOC_QRET, RC_BASIS_DOCUMENTED,
	    "a new id that resolved nothing: -1 with errno, *info as it was",
	    RC_FAILS(), W_Q_NOTHING),
	ROW("rdmacm/query_addrinfo/after-refused-resolve",
	    DOC_QUERY " ... " DOC_QRET, RC_BASIS_DOCUMENTED,
	    "after a resolution refused at once (RAI_SA and RAI_DNS): "
	    "nothing to retrieve, -1 with errno, *info as it was",
	    RC_FAILS(), W_Q_REFUSED),
};

/* The server's address as a numeric host and its port as a service */
static void node_service(const struct cm_pair *p, char *node, size_t n,
			 char *service, size_t m)
{
	const struct sockaddr_in *in = (const void *)&p->srv_addr;

	inet_ntop(AF_INET, &in->sin_addr, node, (socklen_t)n);
	snprintf(service, m, "%u", ntohs(in->sin_port));
}

/* No event on the server's channel within CM_QUIET_MS */
static void no_event(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_cm_event *ev;
	int got = cm_next(ctx, &p->srv, CM_QUIET_MS, &ev);

	if (got < 0)
		return;
	rc_obs_violation(ctx->obs, "an event came: %s (%d)", cm_event_name(got),
			 got);
	p->srv.ops->rdma_ack_cm_event(ev);
}

/* The resolution's event within CM_WAIT_MS: its type (-1: none), with
 * its status in @status */
static int resolution(struct rc_ctx *ctx, struct cm_pair *p, int *status)
{
	struct rdma_cm_event *ev;
	int got = cm_next(ctx, &p->srv, CM_WAIT_MS, &ev);

	if (got < 0)
		return -1;
	*status = ev->status;
	if (ev->id != p->srv.id)
		rc_obs_violation(ctx->obs, "the %s event is another id's",
				 cm_event_name(got));
	p->srv.ops->rdma_ack_cm_event(ev);
	return got;
}

/* A -1 of the call under test names its failure reason in errno */
static void failure_reason(struct rc_ctx *ctx)
{
	if (ctx->obs->ret == -1 && ctx->obs->err <= 0)
		rc_obs_violation(ctx->obs,
				 "-1 with errno %d, which names no failure "
				 "reason",
				 ctx->obs->err);
}

/* The numeric resolution of the server's address; observed when
 * @observe.  Its return. */
static int resolve(struct rc_ctx *ctx, struct cm_pair *p, int flags,
		   bool with_node, bool observe)
{
	struct rdma_addrinfo hints = { .ai_flags = flags,
				       .ai_family = AF_INET,
				       .ai_port_space = RDMA_PS_TCP };
	char node[64], service[16];
	int ret;

	node_service(p, node, sizeof(node), service, sizeof(service));
	if (observe) {
		RC_OBSERVE(ctx, ret = ctx->ops->rdma_resolve_addrinfo(
					p->srv.id, with_node ? node : NULL,
					service, &hints));
		failure_reason(ctx);
	} else
		ret = ctx->ops->rdma_resolve_addrinfo(
			p->srv.id, with_node ? node : NULL, service, &hints);
	return ret;
}

static void resolved(struct rc_ctx *ctx, struct cm_pair *p)
{
	int status = 0, got;

	if (resolve(ctx, p, RAI_NUMERICHOST | CM_RAI_DNS, true, true))
		return;
	got = resolution(ctx, p, &status);
	if (got != CM_EVENT_ADDRINFO_RESOLVED || status)
		rc_obs_violation(ctx->obs,
				 "waited for ADDRINFO_RESOLVED, got %s "
				 "(status %d)",
				 got < 0 ? "none" : cm_event_name(got), status);
}

static void sa_on_roce(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct rdma_addrinfo hints = { .ai_flags = CM_RAI_SA };
	int status = 0, got;

	if (ctx->ops->rdma_bind_addr(p->srv.id,
				     (struct sockaddr *)&p->srv_addr)) {
		cm_broken(ctx, "rdma_bind_addr");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->rdma_resolve_addrinfo(p->srv.id, NULL, "1",
							&hints));
	failure_reason(ctx);
	if (ctx->obs->ret)
		return;
	got = resolution(ctx, p, &status);
	if (got != CM_EVENT_ADDRINFO_ERROR)
		rc_obs_violation(ctx->obs, "0, then %s: not ADDRINFO_ERROR",
				 got < 0 ? "no event" : cm_event_name(got));
}

/* The query after a resolution: the address asked for, then none */
static void query_after(struct rc_ctx *ctx, struct cm_pair *p)
{
	const struct sockaddr_in *want = (const void *)&p->srv_addr;
	struct rdma_addrinfo *ai = NULL, *again = NULL;
	const struct sockaddr_in *got;
	int status = 0;

	if (resolve(ctx, p, RAI_NUMERICHOST | CM_RAI_DNS, true, false) ||
	    resolution(ctx, p, &status) != CM_EVENT_ADDRINFO_RESOLVED) {
		cm_broken(ctx, "rdma_resolve_addrinfo and its event");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->rdma_query_addrinfo(p->srv.id, &ai));
	if (ctx->obs->ret)
		return;
	got = ai ? (const void *)ai->ai_dst_addr : NULL;
	if (!got || ai->ai_family != AF_INET || got->sin_family != AF_INET ||
	    got->sin_addr.s_addr != want->sin_addr.s_addr ||
	    got->sin_port != want->sin_port)
		rc_obs_violation(ctx->obs,
				 "the first result is not the address and "
				 "port asked for");
	if (ctx->ops->rdma_query_addrinfo(p->srv.id, &again) != -1)
		rc_obs_violation(ctx->obs,
				 "a second query found a result again");
	if (ai)
		ctx->ops->rdma_freeaddrinfo(ai);
}

static void query_none(struct rc_ctx *ctx, struct cm_pair *p, bool refused)
{
	struct rdma_addrinfo *ai = (struct rdma_addrinfo *)&ai;

	if (refused && !resolve(ctx, p, CM_RAI_SA | CM_RAI_DNS, false, false)) {
		cm_broken(ctx, "a resolution with RAI_SA and RAI_DNS was "
			       "taken (set-up)");
		return;
	}
	RC_OBSERVE(ctx, ctx->ops->rdma_query_addrinfo(p->srv.id, &ai));
	failure_reason(ctx);
	if (ai != (struct rdma_addrinfo *)&ai)
		rc_obs_violation(ctx->obs, "*info changed");
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ra_row *row = r;
	const struct rc_ops *o = ctx->ops;
	struct cm_pair p;
	bool writes = row->what == W_RESOLVED || row->what == W_Q_AFTER;

	if (!rc_need_call(ctx, o->rdma_resolve_addrinfo,
			  "rdma_resolve_addrinfo") ||
	    !rc_need_call(ctx, o->rdma_query_addrinfo, "rdma_query_addrinfo"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, false, o, o))
		goto out;
	if (writes && !cm_kernel_writes_events(ctx))
		goto out;
	switch (row->what) {
	case W_RESOLVED:
		resolved(ctx, &p);
		break;
	case W_SA_AND_DNS:
	case W_SA_NODE:
		resolve(ctx, &p,
			CM_RAI_SA |
				(row->what == W_SA_AND_DNS ? CM_RAI_DNS : 0),
			row->what == W_SA_NODE, true);
		no_event(ctx, &p);
		break;
	case W_SA_ROCE:
		sa_on_roce(ctx, &p);
		break;
	case W_NO_WRITES:
		if (cm_written_events()) {
			rc_obs_state(ctx->obs, RC_STATE_SKIP,
				     "the kernel takes written events (or "
				     "has no rdma_cm): this row is for "
				     "kernels that have rdma_cm without them");
			break;
		}
		resolve(ctx, &p, RAI_NUMERICHOST | CM_RAI_DNS, true, true);
		no_event(ctx, &p);
		break;
	case W_Q_AFTER:
		query_after(ctx, &p);
		break;
	default:
		query_none(ctx, &p, row->what == W_Q_REFUSED);
		break;
	}
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(resolve_group, "rdma_resolve_addrinfo", RC_CONV_M1_ERRNO,
	       "rdmacm", resolve_rows, run);
RC_TABLE_GROUP(query_group, "rdma_query_addrinfo", RC_CONV_M1_ERRNO, "rdmacm",
	       query_rows, run);

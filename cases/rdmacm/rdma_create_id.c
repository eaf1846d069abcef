// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_id(3): "Creates an identifier that is used to track
 * communication information."  ARGUMENTS: channel "This may be NULL.",
 * context "User specified context associated with the rdma_cm_id.", ps
 * "RDMA port space."  NOTES: "Asynchronous communication events on an
 * rdma_cm_id are reported through the associated event channel.  If the
 * channel parameter is NULL, the rdma_cm_id will be placed into
 * synchronous operation.  While operating synchronously, calls that
 * result in an event will block until the operation completes.  The
 * event will be returned to the user through the rdma_cm_id structure,
 * and be available for access until another rdma_cm call is made."
 *
 * - NULL channel: 0, a channel of the id's own; rdma_resolve_addr returns
 *   with id->verbs set and ADDR_RESOLVED in id->event
 * - a synchronous id beside an asynchronous one on channel A: the
 *   asynchronous id's rdma_resolve_addr leaves id->event NULL and its
 *   ADDR_RESOLVED comes on A; the synchronous id's never does
 * - the event stays until the next call: after rdma_resolve_route
 *   id->event is ROUTE_RESOLVED
 * - every port space of the page (RDMA_PS_TCP, RDMA_PS_UDP, RDMA_PS_IB):
 *   id->ps is it, id->context the context given; RDMA_PS_TCP's id has
 *   qp_type IBV_QPT_RC (reliable, connection-oriented), RDMA_PS_UDP's
 *   IBV_QPT_UD (unreliable, connectionless)
 * - a port space the kernel does not know: -1 EINVAL
 */
#include <poll.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_SYNC                                                           \
	"If the channel parameter is NULL, the rdma_cm_id will be placed " \
	"into synchronous operation."
#define DOC_ASYNC                                                          \
	"Asynchronous communication events on an rdma_cm_id are reported " \
	"through the associated event channel."
#define DOC_EVENT                                                        \
	"The event will be returned to the user through the rdma_cm_id " \
	"structure, and be available for access until another rdma_cm "  \
	"call is made."
#define DOC_PS "RDMA port space."
#define DOC_PS_TCP "Provides reliable, connection-oriented QP communication."
#define DOC_PS_UDP "Provides unreliable, connectionless QP communication."

enum ci_kind { CI_SYNC, CI_BESIDE, CI_UNTIL_NEXT, CI_PS, CI_BAD_PS };

struct ci_row {
	struct rc_case c;
	enum ci_kind kind;
	enum rdma_port_space ps;
	enum ibv_qp_type qp_type; /* CI_PS: id->qp_type's, when not 0 */
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ci_row rows[] = {
	{ .c = { .id = "rdmacm/create_id/null-channel-synchronous",
		 .doc = DOC_SYNC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "channel NULL: 0 and id->channel the id's own; "
			 "rdma_resolve_addr returns with id->verbs set and "
			 "id->event ADDR_RESOLVED",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_SYNC,
	  .ps = RDMA_PS_TCP },
	{ .c = { .id = "rdmacm/create_id/synchronous-beside-asynchronous",
		 .doc = DOC_ASYNC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "the call under test makes the synchronous id; the "
			 "asynchronous one's rdma_resolve_addr leaves id->event "
			 "NULL, its ADDR_RESOLVED comes on its channel A, and "
			 "nothing of the synchronous id's does",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_BESIDE,
	  .ps = RDMA_PS_TCP },
	{ .c = { .id = "rdmacm/create_id/event-until-next-call",
		 .doc = DOC_EVENT,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a synchronous id: after rdma_resolve_addr id->event "
			 "is ADDR_RESOLVED, after rdma_resolve_route "
			 "ROUTE_RESOLVED",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_UNTIL_NEXT,
	  .ps = RDMA_PS_TCP },
	{ .c = { .id = "rdmacm/create_id/ps-tcp",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_PS_TCP on a channel: id->ps RDMA_PS_TCP, "
			 "id->context the one given",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_PS,
	  .ps = RDMA_PS_TCP },
	{ .c = { .id = "rdmacm/create_id/ps-udp",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_PS_UDP: id->ps RDMA_PS_UDP, id->context the one "
			 "given",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_PS,
	  .ps = RDMA_PS_UDP },
	{ .c = { .id = "rdmacm/create_id/ps-tcp-reliable-connected",
		 .doc = DOC_PS_TCP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RDMA_PS_TCP: id->qp_type is IBV_QPT_RC, the reliable "
			 "connected type, before any QP",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_PS,
	  .ps = RDMA_PS_TCP,
	  .qp_type = IBV_QPT_RC },
	{ .c = { .id = "rdmacm/create_id/ps-udp-unreliable-datagram",
		 .doc = DOC_PS_UDP,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "RDMA_PS_UDP: id->qp_type is IBV_QPT_UD, the "
			 "unreliable datagram type, before any QP",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_PS,
	  .ps = RDMA_PS_UDP,
	  .qp_type = IBV_QPT_UD },
	{ .c = { .id = "rdmacm/create_id/ps-ib",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RDMA_PS_IB (\"Provides for any IB services\"): id->ps "
			 "RDMA_PS_IB, id->context the one given",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CI_PS,
	  .ps = RDMA_PS_IB },
	{ .c = { .id = "rdmacm/create_id/unknown-ps",
		 .doc = DOC_PS,
		 .basis = RC_BASIS_LINUX,
		 .note = "port space 0x7ff, none of <rdma/rdma_user_cm.h>'s: "
			 "the kernel's ucma_create_id finds no QP type for it, "
			 "EINVAL",
		 .needs = RC_NEED_DEVICE,
		 .contract = { RC_FAILS(EINVAL) } },
	  .kind = CI_BAD_PS,
	  .ps = (enum rdma_port_space)0x7ff },
};

static bool quiet(struct rc_ctx *ctx, struct rdma_event_channel *ch)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };

	return poll(&pfd, 1, rc_scaled_ms(ctx, CM_QUIET_MS)) == 0;
}

static void synchronous(const struct ci_row *row, struct rc_ctx *ctx,
			struct cm_pair *p)
{
	struct rdma_cm_id *id = NULL;
	int ret;

	RC_OBSERVE(ctx, ret = ctx->ops->rdma_create_id(NULL, &id, p, row->ps));
	if (ret)
		return;
	if (!id->channel || id->channel == p->cli.ch ||
	    id->channel == p->srv.ch)
		rc_obs_violation(ctx->obs, "channel not the id's own");
	if (ctx->ops->rdma_resolve_addr(id, (struct sockaddr *)&p->cli_addr,
					(struct sockaddr *)&p->srv_addr,
					CM_RESOLVE_MS)) {
		rc_obs_violation(ctx->obs,
				 "resolve rdma_resolve_addr fails (%m)");
		goto out;
	}
	if (!id->verbs)
		rc_obs_violation(ctx->obs,
				 "verbs NULL when rdma_resolve_addr returned");
	cm_check_event_in_id(ctx, id, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (row->kind == CI_UNTIL_NEXT) {
		if (ctx->ops->rdma_resolve_route(id, CM_RESOLVE_MS))
			rc_obs_violation(ctx->obs,
					 "route rdma_resolve_route fails (%m)");
		else
			cm_check_event_in_id(ctx, id,
					     RDMA_CM_EVENT_ROUTE_RESOLVED);
	}
	if (row->kind == CI_BESIDE) {
		/* the pair's client: an asynchronous id on channel A */
		if (!cm_resolve_route(ctx, p))
			goto out;
		if (p->cli.id->event)
			rc_obs_violation(ctx->obs,
					 "event the asynchronous id's "
					 "id->event is set");
		if (!quiet(ctx, p->cli.ch))
			rc_obs_violation(ctx->obs,
					 "channel A has an event beyond the "
					 "asynchronous id's");
	}
out:
	ctx->ops->rdma_destroy_id(id);
}

static void port_space(const struct ci_row *row, struct rc_ctx *ctx)
{
	struct rdma_event_channel *ch = ctx->ops->rdma_create_event_channel();
	struct rdma_cm_id *id = NULL;
	int ret, context;

	if (!ch) {
		cm_broken(ctx, "rdma_create_event_channel");
		return;
	}
	RC_OBSERVE(ctx,
		   ret = ctx->ops->rdma_create_id(ch, &id, &context, row->ps));
	if (!ret) {
		if (id->ps != row->ps)
			rc_obs_violation(ctx->obs, "ps 0x%x, not 0x%x", id->ps,
					 row->ps);
		if (id->context != &context)
			rc_obs_violation(ctx->obs, "context not the one given");
		if (id->channel != ch)
			rc_obs_violation(ctx->obs, "channel not the one given");
		if (row->qp_type && id->qp_type != row->qp_type)
			rc_obs_violation(ctx->obs, "qp_type %d, not %d",
					 id->qp_type, row->qp_type);
		ctx->ops->rdma_destroy_id(id);
	}
	ctx->ops->rdma_destroy_event_channel(ch);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ci_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_create_id, "rdma_create_id"))
		return;
	if (row->kind == CI_PS || row->kind == CI_BAD_PS) {
		port_space(row, ctx);
		return;
	}
	if (cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops) &&
	    cm_listen(ctx, &p))
		synchronous(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_create_id", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_ep(3): "After resolving address information using
 * rdma_getaddrinfo, a user may use this call to allocate an rdma_cm_id
 * based on the results."  Active side: "rdma_create_ep will automatically
 * create a QP on the rdma_cm_id if qp_init_attr is not NULL.  The QP will
 * be associated with the specified protection domain, if provided, or a
 * default protection domain if not."  "After calling rdma_create_ep, the
 * returned rdma_cm_id may be connected by calling rdma_connect.  The
 * active side calls rdma_resolve_addr and rdma_resolve_route are not
 * necessary."  Passive side: "the returned rdma_cm_id may be placed into
 * a listening state by immediately calling rdma_listen."  "The newly
 * created rdma_cm_id will be set to use synchronous operation."
 *
 * The rdma_addrinfo is made by hand (cm_ep_info): the client's address as
 * the source, the server's (listening, an asynchronous id) as the
 * destination.
 * - active, no QP: the id is resolved (id->verbs is the peer's device,
 *   its destination the server's), id->qp NULL; rdma_connect sends the
 *   request the server gets (on iWARP, which connects only with a QP,
 *   with one)
 * - active with qp_init_attr, no PD: a QP of type RC with a PD
 * - active with a PD (of the source device, from rdma_get_devices): the
 *   QP's PD is it
 * - synchronous: rdma_connect on the endpoint has not returned while the
 *   server holds the request; it returns once the server rejects it
 * - passive: bound to the server's address (its port), rdma_listen at
 *   once succeeds
 * - an active source address no device has (TEST-NET-2): -1, at once
 * - active, port space UDP with a UD QP's attributes: the QP is UD and
 *   in RTS (rdma_create_qp(3), which the page sends the reader to: "If
 *   the QP is unconnected, it will be ready to post sends.")
 * - passive with a PD (of the server's device) and qp_init_attr (3 send
 *   and 5 receive WRs): the request rdma_get_request returns has a QP of
 *   that PD, RC, with at least those queues
 */
#include <arpa/inet.h>
#include <string.h>
#include <unistd.h>

#include "rdmacm_conn.h"

#define DOC_ALLOC                                                             \
	"After resolving address information using rdma_getaddrinfo, a user " \
	"may use this call to allocate an rdma_cm_id based on the results."
#define DOC_RESOLVED                                                      \
	"The active side calls rdma_resolve_addr and rdma_resolve_route " \
	"are not necessary."
#define DOC_QP                                                             \
	"The QP will be associated with the specified protection domain, " \
	"if provided, or a default protection domain if not."
#define DOC_SYNC                                                       \
	"The newly created rdma_cm_id will be set to use synchronous " \
	"operation."
#define DOC_LISTEN                                                      \
	"After calling rdma_create_ep, the returned rdma_cm_id may be " \
	"placed into a listening state by immediately calling rdma_listen."
#define DOC_SAVED                                                              \
	"When a new connection request is retrieved by calling "               \
	"rdma_get_request, the rdma_cm_id associated with the new connection " \
	"will automatically be associated with a QP using the pd and "         \
	"qp_init_attr parameters."
#define DOC_UD_READY "If the QP is unconnected, it will be ready to post sends."
#define DOC_FAIL                                                      \
	"Returns 0 on success, or -1 on error.  If an error occurs, " \
	"errno will be set to indicate the failure reason."

struct ce_row;
typedef void ce_check(const struct ce_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p);

struct ce_row {
	struct rc_case c;
	ce_check *check;
	bool client_qp; /* the client end connects with a QP of its own */
};

static ce_check active_resolved, active_qp, active_qp_pd, active_ud_qp,
	synchronous, passive_listen, passive_qp, source_not_local;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct ce_row rows[] = {
	{ .c = { .id = "rdmacm/create_ep/active-resolved",
		 .doc = DOC_RESOLVED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "no qp_init_attr: 0, id->verbs the peer's device, "
			 "the id's destination the server's address, id->qp "
			 "NULL; rdma_connect (in a thread) sends a request the "
			 "server gets",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = active_resolved },
	{ .c = { .id = "rdmacm/create_ep/active-qp-default-pd",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "qp_init_attr of an RC QP without CQs, pd NULL: id->qp "
			 "an RC QP with a PD, id->pd that PD, and qp_init_attr "
			 "back with the CQs made for it (rdma_create_qp(3))",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = active_qp },
	{ .c = { .id = "rdmacm/create_ep/active-qp-pd",
		 .doc = DOC_QP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a PD allocated on the peer device's context of "
			 "rdma_get_devices: id->qp->pd is that PD",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = active_qp_pd },
	{ .c = { .id = "rdmacm/create_ep/active-ud-qp-ready-to-send",
		 .doc = DOC_UD_READY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rdma_create_ep(3): \"Users should see rdma_create_qp "
			 "for details\"; port space UDP, the qp_init_attr of a "
			 "UD QP: id->qp is UD and ibv_query_qp reads RTS; "
			 "id->pd is its PD, qp_init_attr has its CQs",
		 .needs = NEEDS | RC_NEED_UD,
		 .contract = { RC_RETURNS(0) } },
	  .check = active_ud_qp },
	{ .c = { .id = "rdmacm/create_ep/synchronous",
		 .doc = DOC_SYNC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "rdma_connect of the endpoint (in a thread) has not "
			 "returned 300 ms after the server got the request; "
			 "once the server rejects, it returns",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = synchronous },
	{ .c = { .id = "rdmacm/create_ep/passive-listen",
		 .doc = DOC_LISTEN,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_PASSIVE, the server's address: 0, the id's source "
			 "port the row's (bound), and rdma_listen succeeds",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = passive_listen },
	{ .c = { .id = "rdmacm/create_ep/passive-qp-for-requests",
		 .doc = DOC_SAVED,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "RAI_PASSIVE with a PD of the server's device (from "
			 "rdma_get_devices) and qp_init_attr of 3 send and 5 "
			 "receive WRs: rdma_listen, a client connects, and the "
			 "id rdma_get_request returns has an RC QP of that PD "
			 "with at least those queues (ibv_query_qp)",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = passive_qp,
	  .client_qp = true },
	{ .c = { .id = "rdmacm/create_ep/source-not-local",
		 .doc = DOC_FAIL,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "active, with source 198.51.100.7 (TEST-NET-2, no "
			 "device's): the binding the call's resolution does "
			 "fails, so does the call, -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = source_not_local },
};

static struct ibv_qp_init_attr rc_attr(void)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2,
			 .max_recv_wr = 2,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return qa;
}

static int create_in(struct rc_ctx *ctx, struct rdma_addrinfo *ai,
		     struct ibv_pd *pd, struct ibv_qp_init_attr *qa,
		     struct rdma_cm_id **ep)
{
	int ret;

	*ep = NULL;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_create_ep(ep, ai, pd, qa));
	if (ret)
		*ep = NULL;
	return ret;
}

static int create(struct rc_ctx *ctx, struct cm_pair *p, bool passive,
		  struct ibv_pd *pd, struct ibv_qp_init_attr *qa,
		  struct rdma_cm_id **ep)
{
	struct rdma_addrinfo ai;

	cm_ep_info(p, passive, &ai);
	return create_in(ctx, &ai, pd, qa, ep);
}

/* What rdma_create_qp(3) says the QP made reports, which rdma_create_ep
 * (3) sends the reader to: "The actual capabilities and properties of
 * the created QP will be returned to the user through the qp_init_attr
 * parameter" (the CQs the rdma_cm made for it among them), and the PD
 * it is on in the id. */
static void qp_reported(struct rc_ctx *ctx, const struct rdma_cm_id *ep,
			const struct ibv_qp_init_attr *qa)
{
	if (!ep->qp)
		return;
	if (!qa->send_cq || qa->send_cq != ep->qp->send_cq || !qa->recv_cq ||
	    qa->recv_cq != ep->qp->recv_cq)
		rc_obs_violation(ctx->obs,
				 "qp_init_attr send_cq %p recv_cq %p, the "
				 "QP's %p %p",
				 (void *)qa->send_cq, (void *)qa->recv_cq,
				 (void *)ep->qp->send_cq,
				 (void *)ep->qp->recv_cq);
	else if (!ep->pd || ep->pd != ep->qp->pd)
		rc_obs_violation(ctx->obs, "pd id->pd %p, the QP's %p",
				 (void *)ep->pd, (void *)ep->qp->pd);
}

/* A UD endpoint's QP: UD, ready to post sends.  Queried with
 * libibverbs: the reference's datagram ids are on its contexts, as
 * librdmacm's are. */
static void active_ud_qp(const struct ce_row *row, struct rc_ctx *ctx,
			 struct cm_pair *p)
{
	struct ibv_qp_init_attr qa = rc_attr(), init;
	struct rdma_addrinfo ai;
	struct ibv_qp_attr attr;
	struct rdma_cm_id *ep;

	qa.qp_type = IBV_QPT_UD;
	cm_ep_info(p, false, &ai);
	ai.ai_qp_type = IBV_QPT_UD;
	ai.ai_port_space = RDMA_PS_UDP;
	if (create_in(ctx, &ai, NULL, &qa, &ep))
		return;
	if (!ep->qp || ep->qp->qp_type != IBV_QPT_UD)
		rc_obs_violation(ctx->obs, "qp %s", ep->qp ? "not UD" : "none");
	else if (ibv_query_qp(ep->qp, &attr, IBV_QP_STATE, &init))
		rc_obs_violation(ctx->obs, "qp ibv_query_qp fails (%m)");
	else if (attr.qp_state != IBV_QPS_RTS)
		rc_obs_violation(ctx->obs, "qp state %d, not RTS",
				 attr.qp_state);
	qp_reported(ctx, ep, &qa);
	ctx->ops->rdma_destroy_ep(ep);
}

static const char *dev_name(struct rc_ctx *ctx, struct rdma_cm_id *id)
{
	return id->verbs && id->verbs->device ?
		       ctx->ops->ibv_get_device_name(id->verbs->device) :
		       "none";
}

struct connecting {
	struct rc_ctx *ctx;
	struct rdma_cm_id *ep;
};

static int connect_ep(void *arg)
{
	struct connecting *c = arg;
	struct rdma_conn_param cp;

	cm_client_param(&cp, NULL, 0);
	return c->ctx->ops->rdma_connect(c->ep, &cp);
}

/* rdma_connect of @ep in a thread, the server's request, then its
 * rejection (after @hold ms, when given, checking the call still
 * blocks) */
static void connect_rejected(struct rc_ctx *ctx, struct cm_pair *p,
			     struct rdma_cm_id *ep, int hold)
{
	struct connecting c = { ctx, ep };
	struct rdma_cm_event *ev;
	struct cm_bg bg;

	if (!cm_listen(ctx, p) || !cm_bg_start(ctx, &bg, connect_ep, &c))
		return;
	if (cm_expect(ctx, &p->srv, RDMA_CM_EVENT_CONNECT_REQUEST, &ev)) {
		p->srv.conn = ev->id;
		ctx->ops->rdma_ack_cm_event(ev);
		if (hold) {
			usleep(rc_scaled_ms(ctx, hold) * 1000);
			if (cm_bg_done(&bg))
				rc_obs_violation(
					ctx->obs,
					"sync rdma_connect returned before "
					"the server answered");
		}
		ctx->ops->rdma_reject(p->srv.conn, NULL, 0);
	}
	/* never answered: it waits for the CM's own time-out */
	cm_bg_join(&bg);
}

/* iWARP connects only with a QP: there the connecting rows have one */
static struct ibv_qp_init_attr *connect_attr(struct rc_ctx *ctx,
					     struct ibv_qp_init_attr *qa)
{
	*qa = rc_attr();
	return ctx->target->link == RC_LINK_IWARP ? qa : NULL;
}

static void active_resolved(const struct ce_row *row, struct rc_ctx *ctx,
			    struct cm_pair *p)
{
	struct ibv_qp_init_attr qa, *with = connect_attr(ctx, &qa);
	struct rdma_cm_id *ep;

	if (create(ctx, p, false, NULL, with, &ep))
		return;
	if (strcmp(dev_name(ctx, ep), ctx->target->peer))
		rc_obs_violation(ctx->obs, "verbs %s, not the peer's %s",
				 dev_name(ctx, ep), ctx->target->peer);
	if (cm_port_of(&ep->route.addr.dst_addr) !=
	    cm_port_of((struct sockaddr *)&p->srv_addr))
		rc_obs_violation(ctx->obs,
				 "dst_addr port 0x%04x, not the server's",
				 ntohs(cm_port_of(&ep->route.addr.dst_addr)));
	if (!with && ep->qp)
		rc_obs_violation(ctx->obs, "qp made without qp_init_attr");
	connect_rejected(ctx, p, ep, 0);
	ctx->ops->rdma_destroy_ep(ep);
}

static void active_qp(const struct ce_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p)
{
	struct ibv_qp_init_attr qa = rc_attr();
	struct rdma_cm_id *ep;

	if (create(ctx, p, false, NULL, &qa, &ep))
		return;
	if (!ep->qp)
		rc_obs_violation(ctx->obs, "qp none made");
	else if (ep->qp->qp_type != IBV_QPT_RC || !ep->qp->pd)
		rc_obs_violation(ctx->obs, "qp type %d, pd %p", ep->qp->qp_type,
				 (void *)ep->qp->pd);
	qp_reported(ctx, ep, &qa);
	ctx->ops->rdma_destroy_ep(ep);
}

/* A PD on device @name's context of rdma_get_devices (*@list, for
 * rdma_free_devices after), or NULL and the row broken. */
static struct ibv_pd *pd_on(struct rc_ctx *ctx, const char *name,
			    struct ibv_context ***list)
{
	struct ibv_context *c = cm_device_context(ctx, name, list);
	struct ibv_pd *pd = c ? ctx->ops->ibv_alloc_pd(c) : NULL;

	if (!pd)
		cm_broken(ctx, "a PD on the row's device");
	return pd;
}

static void active_qp_pd(const struct ce_row *row, struct rc_ctx *ctx,
			 struct cm_pair *p)
{
	struct ibv_qp_init_attr qa = rc_attr();
	struct ibv_context **list;
	struct rdma_cm_id *ep;
	struct ibv_pd *pd = pd_on(ctx, ctx->target->peer, &list);

	if (pd && !create(ctx, p, false, pd, &qa, &ep)) {
		if (!ep->qp || ep->qp->pd != pd)
			rc_obs_violation(ctx->obs,
					 "pd the QP's PD is not the one given");
		ctx->ops->rdma_destroy_ep(ep);
	}
	if (pd)
		ctx->ops->ibv_dealloc_pd(pd);
	if (list)
		ctx->ops->rdma_free_devices(list);
}

/* The request's QP as the passive endpoint's PD and attributes make it */
static void check_request_qp(struct rc_ctx *ctx, struct rdma_cm_id *req,
			     struct ibv_pd *pd,
			     const struct ibv_qp_init_attr *qa)
{
	struct ibv_qp_init_attr got;
	struct ibv_qp_attr attr;

	if (!req->qp || req->qp->pd != pd || req->qp->qp_type != IBV_QPT_RC) {
		rc_obs_violation(ctx->obs, "qp %s",
				 req->qp ? "not an RC QP of the PD given" :
					   "none");
		return;
	}
	if (ctx->ops->ibv_query_qp(req->qp, &attr, IBV_QP_CAP, &got))
		rc_obs_violation(ctx->obs, "qp ibv_query_qp fails (%m)");
	else if (got.cap.max_send_wr < qa->cap.max_send_wr ||
		 got.cap.max_recv_wr < qa->cap.max_recv_wr)
		rc_obs_violation(ctx->obs,
				 "qp %u send and %u receive WRs, fewer than "
				 "%u and %u",
				 got.cap.max_send_wr, got.cap.max_recv_wr,
				 qa->cap.max_send_wr, qa->cap.max_recv_wr);
}

static void passive_qp(const struct ce_row *row, struct rc_ctx *ctx,
		       struct cm_pair *p)
{
	struct ibv_qp_init_attr qa = rc_attr();
	struct rdma_cm_id *ep, *req = NULL;
	struct ibv_context **list;
	struct ibv_pd *pd = pd_on(ctx, ctx->target->ca, &list);
	struct rdma_conn_param cp;

	qa.cap.max_send_wr = 3;
	qa.cap.max_recv_wr = 5;
	if (!pd || create(ctx, p, true, pd, &qa, &ep))
		goto out;
	cm_client_param(&cp, NULL, 0);
	if (ctx->ops->rdma_listen(ep, 1))
		cm_broken(ctx, "rdma_listen");
	else if (cm_resolve(ctx, p) && ctx->ops->rdma_connect(p->cli.id, &cp))
		cm_broken(ctx, "rdma_connect");
	else if (ctx->obs->state == RC_STATE_RAN &&
		 ctx->ops->rdma_get_request(ep, &req))
		rc_obs_violation(ctx->obs,
				 "request rdma_get_request fails (%m)");
	else if (req)
		check_request_qp(ctx, req, pd, &qa);
	if (req)
		ctx->ops->rdma_destroy_ep(req);
	ctx->ops->rdma_destroy_ep(ep);
out:
	if (pd)
		ctx->ops->ibv_dealloc_pd(pd);
	if (list)
		ctx->ops->rdma_free_devices(list);
}

static void synchronous(const struct ce_row *row, struct rc_ctx *ctx,
			struct cm_pair *p)
{
	struct ibv_qp_init_attr qa;
	struct rdma_cm_id *ep;

	if (create(ctx, p, false, NULL, connect_attr(ctx, &qa), &ep))
		return;
	connect_rejected(ctx, p, ep, CM_QUIET_MS);
	ctx->ops->rdma_destroy_ep(ep);
}

static void passive_listen(const struct ce_row *row, struct rc_ctx *ctx,
			   struct cm_pair *p)
{
	struct rdma_cm_id *ep;

	if (create(ctx, p, true, NULL, NULL, &ep))
		return;
	if (ctx->ops->rdma_get_src_port(ep) != htons(cm_port(ctx)))
		rc_obs_violation(ctx->obs, "port 0x%04x, not 0x%04x",
				 ntohs(ctx->ops->rdma_get_src_port(ep)),
				 cm_port(ctx));
	if (ctx->ops->rdma_listen(ep, 1))
		rc_obs_violation(ctx->obs, "listen rdma_listen fails (%m)");
	ctx->ops->rdma_destroy_ep(ep);
}

static void source_not_local(const struct ce_row *row, struct rc_ctx *ctx,
			     struct cm_pair *p)
{
	struct sockaddr_in *src = (struct sockaddr_in *)&p->cli_addr;
	struct rdma_cm_id *ep;

	src->sin_addr.s_addr = htonl(0xc6336407); /* 198.51.100.7 */
	if (!create(ctx, p, false, NULL, NULL, &ep))
		ctx->ops->rdma_destroy_ep(ep);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct ce_row *row = r;
	struct cm_pair p;

	if (!rc_need_call(ctx, ctx->ops->rdma_create_ep, "rdma_create_ep") ||
	    !rc_need_call(ctx, ctx->ops->rdma_destroy_ep, "rdma_destroy_ep"))
		return;
	if (cm_pair_open(ctx, &p, AF_INET, row->client_qp, ctx->ops, ctx->ops))
		row->check(row, ctx, &p);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_create_ep", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

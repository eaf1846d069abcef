// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_qp(3) for a connected id (RDMA_PS_TCP): "Allocate a QP
 * associated with the specified rdma_cm_id and transition it for sending
 * and receiving."  NOTES: "QPs allocated to an rdma_cm_id are
 * automatically transitioned by the librdmacm through their states.
 * After being allocated, the QP will be ready to handle posting of
 * receives."  "If a protection domain is not given - pd parameter is NULL
 * - then the rdma_cm_id will be created using a default protection
 * domain."  "If a send or receive completion queue is not specified, then
 * a CQ will be allocated by the rdma_cm for the QP, along with
 * corresponding completion channels.  Completion channels and CQ data
 * created by the rdma_cm are exposed to the user through the rdma_cm_id
 * structure."  "The actual capabilities and properties of the created QP
 * will be returned to the user through the qp_init_attr parameter.  An
 * rdma_cm_id may only be associated with a single QP."
 *
 * On the client, its route resolved; states read back with ibv_query_qp
 * (the kernel's, where the transitions land):
 * - INIT, RTR or RTS at once (receives can be posted)
 * - connected: both ends' QPs in RTS
 * - pd NULL: id->pd set and the QP's
 * - pd NULL on a second id bound to the same device: the same PD ("One
 *   default protection domain is allocated per RDMA device.")
 * - no CQs: id->send_cq, recv_cq and their channels set, the QP's CQs
 * - the capabilities written back: at least the 4 work requests asked
 * - a second QP on the id: -1 (interpretation of "only")
 * - on a new id, bound to no device: -1
 * And for a datagram id (RDMA_PS_UDP, a UD QP), bound to the device's
 * address, where the NOTES make no exception either:
 * - pd NULL: id->pd set and the QP's
 * - no CQs: id->send_cq, recv_cq and their channels set, the QP's CQs
 */
#include <string.h>

#include "rdmacm_ud.h"

#define DOC_RECV                                                 \
	"After being allocated, the QP will be ready to handle " \
	"posting of receives."
#define DOC_STATES                                          \
	"QPs allocated to an rdma_cm_id are automatically " \
	"transitioned by the librdmacm through their states."
#define DOC_PD                                                            \
	"If a protection domain is not given - pd parameter is NULL - "   \
	"then the rdma_cm_id will be created using a default protection " \
	"domain."
#define DOC_PD_ONE "One default protection domain is allocated per RDMA device."
#define DOC_CQ                                                        \
	"Completion channels and CQ data created by the rdma_cm are " \
	"exposed to the user through the rdma_cm_id structure."
#define DOC_CAP                                                     \
	"The actual capabilities and properties of the created QP " \
	"will be returned to the user through the qp_init_attr parameter."
#define DOC_BOUND                                                          \
	"The rdma_cm_id must be bound to a local RDMA device "             \
	"before calling this function, and the protection domain must be " \
	"for that same device."
#define DOC_SINGLE "An rdma_cm_id may only be associated with a single QP."

struct cq_row;
typedef void cq_check(const struct cq_row *row, struct rc_ctx *ctx,
		      struct cm_pair *p, struct ibv_qp_init_attr *qa);

struct cq_row {
	struct rc_case c;
	cq_check *check;
	bool no_pd, no_cqs;
	bool unbound; /* on a new id, bound to nothing */
	bool udp; /* a datagram id (RDMA_PS_UDP) and a UD QP */
};

static cq_check refused, ready_for_receives, rts_when_connected, default_pd,
	default_pd_shared, default_cqs, caps_written, second_qp_fails;

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)

static const struct cq_row rows[] = {
	{ .c = { .id = "rdmacm/create_qp/ready-for-receives",
		 .doc = DOC_RECV,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "0; the QP is in INIT, RTR or RTS (where receives "
			 "may be posted), not RESET",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = ready_for_receives },
	{ .c = { .id = "rdmacm/create_qp/rts-when-connected",
		 .doc = DOC_STATES,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "after ESTABLISHED on both ends, both QPs are in RTS",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = rts_when_connected },
	{ .c = { .id = "rdmacm/create_qp/default-pd",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd NULL: 0, id->pd is set and is the QP's",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = default_pd,
	  .no_pd = true },
	{ .c = { .id = "rdmacm/create_qp/default-pd-one-per-device",
		 .doc = DOC_PD " ... " DOC_PD_ONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd NULL, then pd NULL again on a second id bound to "
			 "the same device's address (its CQs the rdma_cm's): "
			 "both QPs, and both ids' pd, are on one PD",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = default_pd_shared,
	  .no_pd = true },
	{ .c = { .id = "rdmacm/create_qp/default-cqs",
		 .doc = DOC_CQ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "send_cq and recv_cq NULL: 0; id->send_cq, recv_cq "
			 "and both channels are set, the CQs the QP's",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = default_cqs,
	  .no_cqs = true },
	{ .c = { .id = "rdmacm/create_qp/udp-default-pd",
		 .doc = DOC_PD,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id (RDMA_PS_UDP) bound to the device's "
			 "address, a UD QP, pd NULL: 0, id->pd is set and is "
			 "the QP's",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_RETURNS(0) } },
	  .no_pd = true,
	  .udp = true },
	{ .c = { .id = "rdmacm/create_qp/udp-default-cqs",
		 .doc = DOC_CQ,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a datagram id bound to the device's address, a UD "
			 "QP, send_cq and recv_cq NULL: 0; id->send_cq, "
			 "recv_cq and both channels are set, the CQs the QP's",
		 .needs = RC_NEED_DEVICE | RC_NEED_UD,
		 .contract = { RC_RETURNS(0) } },
	  .no_cqs = true,
	  .udp = true },
	{ .c = { .id = "rdmacm/create_qp/caps-written",
		 .doc = DOC_CAP,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "4 send and 4 receive work requests asked: the "
			 "qp_init_attr's cap has at least 4 of each",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = caps_written },
	{ .c = { .id = "rdmacm/create_qp/second-qp",
		 .doc = DOC_SINGLE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "read as: a second QP on an id that has one is "
			 "refused (-1), and id->qp stays the first",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .check = second_qp_fails },
	{ .c = { .id = "rdmacm/create_qp/id-not-bound",
		 .doc = DOC_BOUND,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a new id, bound to no device (pd and CQs NULL: "
			 "there is no device to take them from): the page "
			 "makes the binding the caller's duty; read as -1, "
			 "not a crash",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .check = refused,
	  .no_pd = true,
	  .no_cqs = true,
	  .unbound = true },
};

static void refused(const struct cq_row *row, struct rc_ctx *ctx,
		    struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	rc_obs_violation(ctx->obs, "qp made on an id with no device");
}

static int qp_state(struct rc_ctx *ctx, const struct rc_ops *ops,
		    struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	if (!qp || ops->ibv_query_qp(qp, &a, IBV_QP_STATE, &init))
		return -1;
	return a.qp_state;
}

static void ready_for_receives(const struct cq_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	int st = qp_state(ctx, ctx->ops, p->cli.id->qp);

	if (st != IBV_QPS_INIT && st != IBV_QPS_RTR && st != IBV_QPS_RTS)
		rc_obs_violation(ctx->obs, "qp_state %d", st);
}

static void rts_when_connected(const struct cq_row *row, struct rc_ctx *ctx,
			       struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	struct rdma_conn_param c;
	int cli, srv;

	p->qp = true;
	cm_client_param(&c, NULL, 0);
	if (!cm_request(ctx, p, &c, NULL) || !cm_accept(ctx, p, NULL))
		return;
	cli = qp_state(ctx, ctx->ops, p->cli.id->qp);
	srv = qp_state(ctx, ctx->ops, p->srv.conn->qp);
	rc_obs_out(ctx->obs, &cli, sizeof(cli));
	if (cli != IBV_QPS_RTS || srv != IBV_QPS_RTS)
		rc_obs_violation(ctx->obs,
				 "qp_state the client's %d, the "
				 "server's %d, not RTS (%d)",
				 cli, srv, IBV_QPS_RTS);
}

/* The default PD: in id->pd, and the QP's */
static void id_pd(struct rc_ctx *ctx, const struct rdma_cm_id *id)
{
	if (!id->pd || !id->qp || id->qp->pd != id->pd)
		rc_obs_violation(ctx->obs, "pd id->pd %p, the QP's %p",
				 (void *)id->pd,
				 id->qp ? (void *)id->qp->pd : NULL);
}

/* The CQs and channels made for the QP: in the id, and the QP's */
static void id_cqs(struct rc_ctx *ctx, const struct rdma_cm_id *id)
{
	if (!id->send_cq || !id->recv_cq || !id->send_cq_channel ||
	    !id->recv_cq_channel)
		rc_obs_violation(ctx->obs,
				 "cq send_cq %p recv_cq %p, "
				 "channels %p %p",
				 (void *)id->send_cq, (void *)id->recv_cq,
				 (void *)id->send_cq_channel,
				 (void *)id->recv_cq_channel);
	else if (id->qp->send_cq != id->send_cq ||
		 id->qp->recv_cq != id->recv_cq)
		rc_obs_violation(ctx->obs, "cq not the QP's CQs");
}

static void default_pd(const struct cq_row *row, struct rc_ctx *ctx,
		       struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	id_pd(ctx, p->cli.id);
}

static void default_pd_shared(const struct cq_row *row, struct rc_ctx *ctx,
			      struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	struct ibv_qp_init_attr qa2 = { .qp_type = IBV_QPT_RC, .cap = qa->cap };
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *first = p->cli.id->qp->pd;

	if (!cm_id_bound(ctx, &p->cli_addr, &ch, &id))
		goto out;
	if (id->verbs != p->cli.id->verbs) {
		cm_broken(ctx, "the second id on another context");
		goto out;
	}
	if (ctx->ops->rdma_create_qp(id, NULL, &qa2)) {
		cm_broken(ctx, "rdma_create_qp on the second id");
		goto out;
	}
	if (id->qp->pd != first || id->pd != p->cli.id->pd)
		rc_obs_violation(ctx->obs,
				 "pd the second id's QP on %p (id->pd %p), the "
				 "first's on %p (id->pd %p)",
				 (void *)id->qp->pd, (void *)id->pd,
				 (void *)first, (void *)p->cli.id->pd);
	ctx->ops->rdma_destroy_qp(id);
out:
	cm_id_close(ctx, ch, id);
}

static void default_cqs(const struct cq_row *row, struct rc_ctx *ctx,
			struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	id_cqs(ctx, p->cli.id);
}

static void caps_written(const struct cq_row *row, struct rc_ctx *ctx,
			 struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	if (qa->cap.max_send_wr < 4 || qa->cap.max_recv_wr < 4)
		rc_obs_violation(ctx->obs,
				 "cap max_send_wr %u max_recv_wr "
				 "%u",
				 qa->cap.max_send_wr, qa->cap.max_recv_wr);
}

static void second_qp_fails(const struct cq_row *row, struct rc_ctx *ctx,
			    struct cm_pair *p, struct ibv_qp_init_attr *qa)
{
	struct ibv_qp *first = p->cli.id->qp;
	struct ibv_qp_init_attr again = *qa;

	if (!ctx->ops->rdma_create_qp(p->cli.id, p->cli.pd, &again)) {
		rc_obs_violation(ctx->obs, "second a second QP was made");
		/* the first one is lost to the id: destroy what it has */
		if (p->cli.id->qp != first)
			ctx->ops->rdma_destroy_qp(p->cli.id);
		p->cli.id->qp = first;
	} else if (p->cli.id->qp != first) {
		rc_obs_violation(ctx->obs, "second id->qp changed");
	}
}

/* A datagram id bound to the device's address, its UD QP made with the
 * row's missing PD or CQs, and what the id then holds */
static void run_udp(const struct cq_row *row, struct rc_ctx *ctx)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct cmud s = { 0 };
	int ret;

	if (!cmud_bind(ctx, &s, ctx->target->ca, ctx->target->port))
		goto out;
	/* libibverbs', as rdma_post_ud_send's rows make them: the
	 * reference's datagram ids are on a libibverbs context */
	if (!row->no_pd)
		s.pd = ibv_alloc_pd(s.id->verbs);
	if (!row->no_cqs)
		s.cq = ibv_create_cq(s.id->verbs, 8, NULL, NULL, 0);
	if ((!row->no_pd && !s.pd) || (!row->no_cqs && !s.cq)) {
		cm_broken(ctx, "PD or CQ");
		goto out;
	}
	qa.send_cq = qa.recv_cq = s.cq;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_create_qp(s.id, s.pd, &qa));
	if (!ret && row->no_pd)
		id_pd(ctx, s.id);
	else if (!ret)
		id_cqs(ctx, s.id);
out:
	/* the QP first, then the CQ and PD it is on */
	cmud_close(ctx, &s);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct cq_row *row = r;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct cm_pair p;
	struct cm_end *e = &p.cli;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_create_qp, "rdma_create_qp"))
		return;
	if (row->udp) {
		run_udp(row, ctx);
		return;
	}
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops) ||
	    (!row->unbound &&
	     (!cm_listen(ctx, &p) || !cm_resolve_route(ctx, &p))))
		goto out;
	if (!row->no_pd)
		e->pd = ctx->ops->ibv_alloc_pd(e->id->verbs);
	if (!row->no_cqs)
		e->cq = ctx->ops->ibv_create_cq(e->id->verbs, 8, NULL, NULL, 0);
	if ((!row->no_pd && !e->pd) || (!row->no_cqs && !e->cq)) {
		cm_broken(ctx, "PD or CQ");
		goto out;
	}
	qa.send_cq = qa.recv_cq = e->cq;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_create_qp(e->id, e->pd, &qa));
	if (ret)
		goto out;
	e->qp_id = e->id;
	row->check(row, ctx, &p, &qa);
out:
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_create_qp", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_srq(3): "Allocate a SRQ associated with the specified
 * rdma_cm_id."  NOTES: "The rdma_cm_id must be bound to a local RDMA
 * device before calling this function, and the protection domain, if
 * provided, must be for that same device.  After being allocated, the SRQ
 * will be ready to handle posting of receives."  "If a protection domain
 * is not given - pd parameter is NULL - then the rdma_cm_id will be
 * created using a default protection domain."  "The actual capabilities
 * and properties of the created SRQ will be returned to the user through
 * the attr parameter.  An rdma_cm_id may only be associated with a single
 * SRQ."
 *
 * An RDMA_PS_TCP id bound to the target's address; a basic SRQ of 16 WRs
 * and one SGE, srq_limit 0:
 * - no PD: 0, id->srq set, on a PD; attr's max_wr and max_sge at least
 *   those asked for, and ibv_query_srq of id->srq (where the provider
 *   has it) says the same max_wr
 * - a PD of the id's device: id->srq->pd is it
 * - ready for receives: ibv_post_srq_recv of one WR (a registered buffer)
 *   returns 0
 * - an id bound to no device: -1
 * - a second SRQ on the id: -1, and id->srq is still the first
 * - a PD of the other device (the peer's): -1
 * - no PD on a second id bound to the same device: the first's PD ("One
 *   default protection domain is allocated per RDMA device.")
 * - no PD, then rdma_reg_msgs on the id: its MR is on the SRQ's PD
 * - max_wr one beyond the device's max_srq_wr: -1, id->srq NULL, and the
 *   next call with the row's 16 WRs makes the SRQ
 */
#include <stdlib.h>
#include <string.h>

#include "rdmacm_conn.h"

#define DOC_ALLOC "Allocate a SRQ associated with the specified rdma_cm_id."
#define DOC_ACTUAL                                                           \
	"The actual capabilities and properties of the created SRQ will be " \
	"returned to the user through the attr parameter."
#define DOC_PD                                                            \
	"If a protection domain is not given - pd parameter is NULL - "   \
	"then the rdma_cm_id will be created using a default protection " \
	"domain."
#define DOC_READY                                                            \
	"After being allocated, the SRQ will be ready to handle posting of " \
	"receives."
#define DOC_BOUND                                                             \
	"The rdma_cm_id must be bound to a local RDMA device before calling " \
	"this function, and the protection domain, if provided, must be for " \
	"that same device."
#define DOC_SINGLE "An rdma_cm_id may only be associated with a single SRQ."
#define DOC_PD_ONE "One default protection domain is allocated per RDMA device."
#define DOC_REG_PD                                                     \
	"The memory buffer is registered with the proteection domain " \
	"associated with the idenfier."
#define DOC_RET                                                       \
	"Returns 0 on success, or -1 on error.  If an error occurs, " \
	"errno will be set to indicate the failure reason."

enum cs_kind {
	CS_DEFAULT_PD,
	CS_PD,
	CS_READY,
	CS_UNBOUND,
	CS_SECOND,
	CS_OTHER_PD,
	CS_SHARED_PD, /* a second id's SRQ on the same default PD */
	CS_REG_MSGS, /* rdma_reg_msgs on the id after: the SRQ's PD */
	CS_BEYOND /* max_wr beyond max_srq_wr, then the row's 16 */
};

struct cs_row {
	struct rc_case c;
	enum cs_kind kind;
};

#define NEEDS (RC_NEED_DEVICE | RC_NEED_PEER)
#define WRS 16

static const struct cs_row rows[] = {
	{ .c = { .id = "rdmacm/create_srq/default-pd-actual-attr",
		 .doc = DOC_ACTUAL,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd NULL, 16 WRs and 1 SGE asked: 0, id->srq on a PD; "
			 "attr's max_wr >= 16 and max_sge >= 1, and "
			 "ibv_query_srq's max_wr is attr's",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CS_DEFAULT_PD },
	{ .c = { .id = "rdmacm/create_srq/given-pd",
		 .doc = DOC_ALLOC,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "a PD allocated on id->verbs: 0, id->srq->pd is it",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CS_PD },
	{ .c = { .id = "rdmacm/create_srq/ready-for-receives",
		 .doc = DOC_READY,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "ibv_post_srq_recv of one WR with a registered 64-byte "
			 "buffer returns 0 at once",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CS_READY },
	{ .c = { .id = "rdmacm/create_srq/unbound-id",
		 .doc = DOC_BOUND,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "a new id, bound to no device (the page's \"must be "
			 "bound\" read as a failure when it is not): -1, "
			 "id->srq NULL",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = CS_UNBOUND },
	{ .c = { .id = "rdmacm/create_srq/second-srq",
		 .doc = DOC_SINGLE,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"may only be\" read as a refusal: a second "
			 "rdma_create_srq on the id fails, -1, and id->srq is "
			 "still the first",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = CS_SECOND },
	{ .c = { .id = "rdmacm/create_srq/other-device-pd",
		 .doc = DOC_BOUND,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "\"must be for that same device\" read as a refusal "
			 "otherwise: a PD of the peer's device "
			 "(rdma_get_devices) on an id bound to the target's, -1",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = CS_OTHER_PD },
	{ .c = { .id = "rdmacm/create_srq/default-pd-one-per-device",
		 .doc = DOC_PD " ... " DOC_PD_ONE,
		 .basis = RC_BASIS_DOCUMENTED,
		 .note = "pd NULL on the id, then pd NULL on a second id bound "
			 "to the same device's address: both SRQs on one PD",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CS_SHARED_PD },
	{ .c = { .id = "rdmacm/create_srq/reg-msgs-on-its-pd",
		 .doc = DOC_REG_PD,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "pd NULL on an id without a QP, then rdma_reg_msgs(3) "
			 "on the id (its page): the MR is on the SRQ's PD, the "
			 "one the id now has",
		 .needs = NEEDS,
		 .contract = { RC_RETURNS(0) } },
	  .kind = CS_REG_MSGS },
	{ .c = { .id = "rdmacm/create_srq/max-wr-beyond-device",
		 .doc = DOC_RET,
		 .basis = RC_BASIS_INTERPRETATION,
		 .note = "max_wr one beyond ibv_query_device's max_srq_wr: -1 "
			 "and id->srq still NULL; the next call, with 16 WRs, "
			 "makes the SRQ (a failed call leaves the id as it was)",
		 .needs = NEEDS,
		 .contract = { RC_FAILS() } },
	  .kind = CS_BEYOND },
};

static struct ibv_srq_init_attr srq_attr(void)
{
	struct ibv_srq_init_attr a = { .attr = { .max_wr = WRS,
						 .max_sge = 1 } };

	return a;
}

static void post_one(struct rc_ctx *ctx, struct rdma_cm_id *id)
{
	struct ibv_recv_wr wr = { .wr_id = 0x5a17 }, *bad = NULL;
	struct ibv_sge sge;
	struct ibv_mr *mr;
	void *buf = calloc(1, 64);
	int err;

	mr = buf ? (ctx->ops->ibv_reg_mr)(id->srq->pd, buf, 64,
					  IBV_ACCESS_LOCAL_WRITE) :
		   NULL;
	if (!mr) {
		cm_broken(ctx, "ibv_reg_mr");
		free(buf);
		return;
	}
	sge = (struct ibv_sge){ .addr = (uintptr_t)buf,
				.length = 64,
				.lkey = mr->lkey };
	wr.sg_list = &sge;
	wr.num_sge = 1;
	err = ctx->ops->ibv_post_srq_recv(id->srq, &wr, &bad);
	if (err)
		rc_obs_violation(ctx->obs, "post ibv_post_srq_recv %d", err);
	ctx->ops->ibv_dereg_mr(mr);
	free(buf);
}

/* @a's max_wr one beyond the device's max_srq_wr */
static bool beyond_device(struct rc_ctx *ctx, struct rdma_cm_id *id,
			  struct ibv_srq_init_attr *a)
{
	struct ibv_device_attr d;

	if (ctx->ops->ibv_query_device(id->verbs, &d))
		return cm_broken(ctx, "ibv_query_device");
	a->attr.max_wr = d.max_srq_wr + 1;
	return true;
}

/* A second id bound to the same device, its SRQ on no PD given: on the
 * first id's SRQ's PD */
static void second_id_same_pd(struct rc_ctx *ctx, struct cm_pair *p)
{
	struct ibv_srq_init_attr a = srq_attr();
	struct sockaddr_storage addr = p->srv_addr;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;

	((struct sockaddr_in *)&addr)->sin_port = 0;
	if (!cm_id_bound(ctx, &addr, &ch, &id))
		goto out;
	if (ctx->ops->rdma_create_srq(id, NULL, &a)) {
		cm_broken(ctx, "rdma_create_srq on the second id");
		goto out;
	}
	if (id->srq->pd != p->srv.id->srq->pd)
		rc_obs_violation(ctx->obs,
				 "pd the second id's SRQ on %p, the first's "
				 "on %p",
				 (void *)id->srq->pd,
				 (void *)p->srv.id->srq->pd);
	ctx->ops->rdma_destroy_srq(id);
out:
	cm_id_close(ctx, ch, id);
}

static void reg_msgs_on_srq_pd(struct rc_ctx *ctx, struct rdma_cm_id *id)
{
	static uint8_t buf[64];
	struct ibv_mr *mr;

	if (!rc_need_call(ctx, ctx->ops->rdma_reg_msgs, "rdma_reg_msgs"))
		return;
	mr = ctx->ops->rdma_reg_msgs(id, buf, sizeof(buf));
	if (!mr) {
		rc_obs_violation(ctx->obs, "mr none from rdma_reg_msgs (%s)",
				 strerror(errno));
		return;
	}
	if (mr->pd != id->srq->pd)
		rc_obs_violation(ctx->obs, "mr on PD %p, the SRQ on %p",
				 (void *)mr->pd, (void *)id->srq->pd);
	ctx->ops->rdma_dereg_mr(mr);
}

static void run(const void *r, struct rc_ctx *ctx)
{
	const struct cs_row *row = r;
	struct ibv_srq_init_attr a = srq_attr(), b = srq_attr();
	struct ibv_context **list = NULL, *c;
	struct ibv_srq *first;
	struct ibv_srq_attr q;
	struct ibv_pd *pd = NULL;
	struct cm_pair p;
	int ret;

	if (!rc_need_call(ctx, ctx->ops->rdma_create_srq, "rdma_create_srq") ||
	    !rc_need_call(ctx, ctx->ops->rdma_destroy_srq, "rdma_destroy_srq"))
		return;
	if (!cm_pair_open(ctx, &p, AF_INET, false, ctx->ops, ctx->ops))
		goto out;
	if (row->kind != CS_UNBOUND &&
	    ctx->ops->rdma_bind_addr(p.srv.id,
				     (struct sockaddr *)&p.srv_addr)) {
		cm_broken(ctx, "rdma_bind_addr");
		goto out;
	}
	if (row->kind == CS_PD)
		pd = ctx->ops->ibv_alloc_pd(p.srv.id->verbs);
	if (row->kind == CS_OTHER_PD) {
		c = cm_device_context(ctx, ctx->target->peer, &list);
		pd = c ? ctx->ops->ibv_alloc_pd(c) : NULL;
	}
	if ((row->kind == CS_PD || row->kind == CS_OTHER_PD) && !pd) {
		cm_broken(ctx, "ibv_alloc_pd");
		goto out;
	}
	if (row->kind == CS_SECOND &&
	    ctx->ops->rdma_create_srq(p.srv.id, NULL, &b)) {
		cm_broken(ctx, "the first SRQ");
		goto out;
	}
	if (row->kind == CS_BEYOND && !beyond_device(ctx, p.srv.id, &a))
		goto out;
	first = p.srv.id->srq;
	RC_OBSERVE(ctx, ret = ctx->ops->rdma_create_srq(p.srv.id, pd, &a));
	switch (row->kind) {
	case CS_DEFAULT_PD:
		if (ret)
			break;
		if (!p.srv.id->srq || !p.srv.id->srq->pd) {
			rc_obs_violation(ctx->obs, "srq none, or on no PD");
			break;
		}
		if (a.attr.max_wr < WRS || a.attr.max_sge < 1)
			rc_obs_violation(ctx->obs,
					 "attr max_wr %u, max_sge %u: less "
					 "than asked",
					 a.attr.max_wr, a.attr.max_sge);
		/* a provider without query_srq (siw's) says nothing */
		if (!ctx->ops->ibv_query_srq(p.srv.id->srq, &q) &&
		    q.max_wr != a.attr.max_wr)
			rc_obs_violation(ctx->obs,
					 "attr max_wr %u, where the SRQ has %u",
					 a.attr.max_wr, q.max_wr);
		break;
	case CS_PD:
		if (!ret && (!p.srv.id->srq || p.srv.id->srq->pd != pd))
			rc_obs_violation(ctx->obs, "pd not the one given");
		break;
	case CS_READY:
		if (!ret && p.srv.id->srq)
			post_one(ctx, p.srv.id);
		break;
	case CS_SHARED_PD:
		if (!ret)
			second_id_same_pd(ctx, &p);
		break;
	case CS_REG_MSGS:
		if (!ret)
			reg_msgs_on_srq_pd(ctx, p.srv.id);
		break;
	case CS_BEYOND:
		if (!ret || p.srv.id->srq) {
			rc_obs_violation(ctx->obs,
					 "srq made with max_wr %u beyond the "
					 "device's",
					 a.attr.max_wr);
			break;
		}
		if (ctx->ops->rdma_create_srq(p.srv.id, NULL, &b) ||
		    !p.srv.id->srq)
			rc_obs_violation(ctx->obs,
					 "srq none from the next call with %u "
					 "WRs (%s)",
					 WRS, strerror(errno));
		break;
	case CS_SECOND:
		if (p.srv.id->srq != first)
			rc_obs_violation(ctx->obs,
					 "srq no longer the first SRQ");
		break;
	default:
		if (ret && p.srv.id->srq)
			rc_obs_violation(ctx->obs, "srq set by a failed call");
		break;
	}
	if (p.srv.id->srq)
		ctx->ops->rdma_destroy_srq(p.srv.id);
out:
	if (pd)
		ctx->ops->ibv_dealloc_pd(pd);
	if (list)
		ctx->ops->rdma_free_devices(list);
	cm_pair_close(ctx, &p);
}

RC_TABLE_GROUP(group, "rdma_create_srq", RC_CONV_M1_ERRNO, "rdmacm", rows, run);

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The datagram ids of the rows of <rdma/rdma_verbs.h>'s UD calls
 * (rdmacm_ud.h): their PD, MR and CQ are rdma-core's (a datagram id's
 * verbs are libibverbs' in the reference too), their QP, AH target and
 * receives the implementation's.
 */
#include "rdmacm_ud.h"
#include "../../harness/device.h"
#include <rdma/rdma_verbs.h>

bool cmud_bind(struct rc_ctx *ctx, struct cmud *s, const char *ca, int port)
{
	const struct rc_ops *o = ctx->ops;
	struct sockaddr_storage ss;

	if (!cm_dev_addr(ctx, ca, port, AF_INET, &ss) ||
	    !cm_id_open(ctx, o, &s->ch, &s->id, s, RDMA_PS_UDP))
		return false;
	if (o->rdma_bind_addr(s->id, (struct sockaddr *)&ss) || !s->id->verbs)
		return cm_broken(ctx, "rdma_bind_addr to the device's address");
	return true;
}

/* cmud_bind, and the PD and MR of the buffer (rdma-core's) */
static bool bound(struct rc_ctx *ctx, struct cmud *s, const char *ca, int port)
{
	if (!cmud_bind(ctx, s, ca, port))
		return false;
	s->pd = ibv_alloc_pd(s->id->verbs);
	s->mr = s->pd ? ibv_reg_mr(s->pd, s->buf, sizeof(s->buf),
				   IBV_ACCESS_LOCAL_WRITE) :
			NULL;
	if (!s->mr)
		return cm_broken(ctx, "PD or MR");
	return true;
}

/* @own_cqs: the QP's CQs are those rdma_create_qp makes (s->cq NULL) */
bool cmud_sender_open(struct rc_ctx *ctx, struct cmud *s,
		      const union ibv_gid *dgid, bool own_cqs)
{
	const struct rc_ops *o = ctx->ops;
	const struct rc_target *t = ctx->target;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 1,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = 64 },
	};
	struct ibv_ah_attr aa = { .is_global = 1 };
	union ibv_gid sg;
	int sgid;

	if (!bound(ctx, s, t->peer, t->peer_port))
		return false;
	if (!own_cqs) {
		s->cq = ibv_create_cq(s->id->verbs, 8, NULL, NULL, 0);
		if (!s->cq)
			return cm_broken(ctx, "ibv_create_cq");
	}
	qa.send_cq = qa.recv_cq = s->cq;
	if (o->rdma_create_qp(s->id, s->pd, &qa))
		return cm_broken(ctx, "rdma_create_qp");
	sgid = rc_port_gid(t->peer, t->peer_port, RC_GID_IPV4, sg.raw);
	if (sgid < 0) {
		errno = ENOENT;
		return cm_broken(ctx, "the peer port's IPv4-mapped GID");
	}
	aa.port_num = t->peer_port;
	aa.grh.dgid = *dgid;
	aa.grh.sgid_index = sgid;
	aa.grh.hop_limit = 64;
	s->ah = ibv_create_ah(s->pd, &aa);
	if (!s->ah)
		return cm_broken(ctx, "ibv_create_ah");
	return true;
}

/* A datagram id on the target device's address whose QP has the CQs
 * rdma_create_qp makes, a receive of @len bytes posted with the
 * implementation's rdma_post_recv (context @context); @gid its port's
 * IPv4-mapped GID, for the sender's AH */
bool cmud_receiver_open(struct rc_ctx *ctx, struct cmud *s, size_t len,
			void *context, union ibv_gid *gid)
{
	const struct rc_ops *o = ctx->ops;
	const struct rc_target *t = ctx->target;
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 1,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	if (rc_port_gid(t->ca, t->port, RC_GID_IPV4, gid->raw) < 0) {
		errno = ENOENT;
		return cm_broken(ctx, "the target port's IPv4-mapped GID");
	}
	if (!bound(ctx, s, t->ca, t->port))
		return false;
	if (o->rdma_create_qp(s->id, s->pd, &qa))
		return cm_broken(ctx, "rdma_create_qp");
	if (o->rdma_post_recv(s->id, context, s->buf, len, s->mr))
		return cm_broken(ctx, "rdma_post_recv");
	return true;
}

void cmud_close(struct rc_ctx *ctx, struct cmud *s)
{
	const struct rc_ops *o = ctx->ops;

	if (s->ah)
		ibv_destroy_ah(s->ah);
	if (s->id && s->id->qp)
		o->rdma_destroy_qp(s->id);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->cq)
		ibv_destroy_cq(s->cq);
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	if (s->id)
		o->rdma_destroy_id(s->id);
	if (s->ch)
		o->rdma_destroy_event_channel(s->ch);
}

/* The receiver @v (open) ready for the sender's messages, and the sender
 * @s addressing it */
bool cmud_pair_open(struct rc_ctx *ctx, struct vres *v, struct cmud *s,
		    bool own_cqs)
{
	struct ibv_qp_attr qkey = { .qkey = RDMA_UDP_QKEY };

	if (ibv_modify_qp(v->qp, &qkey, IBV_QP_QKEY))
		return cm_broken(ctx, "the receiver's Q_Key");
	return vres_post_recv(ctx, v, 2) &&
	       cmud_sender_open(ctx, s, &v->g4, own_cqs);
}

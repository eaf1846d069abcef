// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_create_qp(3): "Allocate a QP associated with the specified
 * rdma_cm_id and transition it for sending and receiving."  "QPs allocated
 * to an rdma_cm_id are automatically transitioned by the librdmacm
 * through their states.  After being allocated, the QP will be ready to
 * handle posting of receives.  If the QP is unconnected, it will be ready
 * to post sends."  "If a protection domain is not given - pd parameter is
 * NULL - then the rdma_cm_id will be created using a default protection
 * domain."  "If a send or receive completion queue is not specified, then
 * a CQ will be allocated by the rdma_cm for the QP, along with
 * corresponding completion channels."  rdma_destroy_qp(3), and
 * rdma_init_qp_attr(3): the kernel's attributes for the state the caller
 * puts in qp_attr->qp_state.
 *
 * A connected id's QP is the verbs reference's, a kernel object moved to
 * INIT here and to RTR and RTS when the connection is accepted or
 * answered (conn.c, event.c), each time with the attributes the kernel
 * gives (INIT_QP_ATTR).  On iWARP the kernel moves it past INIT itself.
 * A datagram id's QP is libibverbs' (the multicast rows send through
 * it), moved to RTS at once.
 */
#include <stdlib.h>
#include <string.h>

#include "cm_priv.h"
#include "ucma.h"
#include "../verbs/ref_verbs.h"

static void attr_from_kernel(const struct ib_uverbs_qp_attr *k,
			     struct ibv_qp_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->qp_state = k->qp_state;
	a->cur_qp_state = k->cur_qp_state;
	a->path_mtu = k->path_mtu;
	a->path_mig_state = k->path_mig_state;
	a->qkey = k->qkey;
	a->rq_psn = k->rq_psn;
	a->sq_psn = k->sq_psn;
	a->dest_qp_num = k->dest_qp_num;
	a->qp_access_flags = k->qp_access_flags;
	a->cap.max_send_wr = k->max_send_wr;
	a->cap.max_recv_wr = k->max_recv_wr;
	a->cap.max_send_sge = k->max_send_sge;
	a->cap.max_recv_sge = k->max_recv_sge;
	a->cap.max_inline_data = k->max_inline_data;
	ref_ah_attr_from_uverbs(&k->ah_attr, &a->ah_attr);
	ref_ah_attr_from_uverbs(&k->alt_ah_attr, &a->alt_ah_attr);
	a->pkey_index = k->pkey_index;
	a->alt_pkey_index = k->alt_pkey_index;
	a->en_sqd_async_notify = k->en_sqd_async_notify;
	a->sq_draining = k->sq_draining;
	a->max_rd_atomic = k->max_rd_atomic;
	a->max_dest_rd_atomic = k->max_dest_rd_atomic;
	a->min_rnr_timer = k->min_rnr_timer;
	a->port_num = k->port_num;
	a->timeout = k->timeout;
	a->retry_cnt = k->retry_cnt;
	a->rnr_retry = k->rnr_retry;
	a->alt_port_num = k->alt_port_num;
	a->alt_timeout = k->alt_timeout;
}

int ref_rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr,
			  int *qp_attr_mask)
{
	struct ib_uverbs_qp_attr k;

	if (!id || !qp_attr || !qp_attr_mask)
		return ref_cm_fail(EINVAL);
	if (ucma_init_qp_attr(id->channel->fd, ref_of(id)->handle,
			      qp_attr->qp_state, &k))
		return -1;
	attr_from_kernel(&k, qp_attr);
	*qp_attr_mask = k.qp_attr_mask;
	return 0;
}

bool ref_cm_iwarp(const struct ref_id *r)
{
	return r->id.verbs &&
	       r->id.verbs->device->transport_type == IBV_TRANSPORT_IWARP;
}

int ref_cm_modify_qp(struct ref_id *r, int state,
		     const struct rdma_conn_param *conn)
{
	struct ibv_qp_attr a = { .qp_state = state };
	int mask;

	if (!r->id.qp)
		return 0;
	if (ref_rdma_init_qp_attr(&r->id, &a, &mask))
		return -1;
	if (conn && state == IBV_QPS_RTR &&
	    conn->responder_resources != RDMA_MAX_RESP_RES)
		a.max_dest_rd_atomic = conn->responder_resources;
	if (conn && state == IBV_QPS_RTS &&
	    conn->initiator_depth != RDMA_MAX_INIT_DEPTH)
		a.max_rd_atomic = conn->initiator_depth;
	return ref_ibv_modify_qp(r->id.qp, &a, mask) ? -1 : 0;
}

bool ref_cm_datagram(const struct ref_id *r)
{
	return r->id.qp_type == IBV_QPT_UD;
}

static void destroy_cq(const struct ref_id *r, struct ibv_cq *cq)
{
	if (ref_cm_datagram(r))
		ibv_destroy_cq(cq);
	else
		ref_ibv_destroy_cq(cq);
}

static void destroy_channel(const struct ref_id *r, struct ibv_comp_channel *ch)
{
	if (ref_cm_datagram(r))
		ibv_destroy_comp_channel(ch);
	else
		ref_ibv_destroy_comp_channel(ch);
}

static void free_cqs(struct ref_id *r)
{
	if (!r->own_cqs)
		return;
	if (r->id.recv_cq && r->id.recv_cq != r->id.send_cq)
		destroy_cq(r, r->id.recv_cq);
	if (r->id.send_cq)
		destroy_cq(r, r->id.send_cq);
	if (r->id.recv_cq_channel)
		destroy_channel(r, r->id.recv_cq_channel);
	if (r->id.send_cq_channel)
		destroy_channel(r, r->id.send_cq_channel);
	r->id.send_cq = r->id.recv_cq = NULL;
	r->id.send_cq_channel = r->id.recv_cq_channel = NULL;
	r->own_cqs = false;
}

/* A CQ of @cqe entries (at least 1) with a completion channel of its
 * own, of the id's kind; NULL, and *@ch what was made, when it fails */
static struct ibv_cq *cq_with_channel(struct ref_id *r, uint32_t cqe,
				      struct ibv_comp_channel **ch)
{
	struct ibv_context *c = r->id.verbs;
	bool ud = ref_cm_datagram(r);

	*ch = ud ? ibv_create_comp_channel(c) : ref_ibv_create_comp_channel(c);
	if (!*ch)
		return NULL;
	return ud ? ibv_create_cq(c, cqe ?: 1, r, *ch, 0) :
		    ref_ibv_create_cq(c, cqe ?: 1, r, *ch, 0);
}

/* The CQs the caller did not give, each with its completion channel. */
static int own_cqs(struct ref_id *r, struct ibv_qp_init_attr *attr)
{
	r->own_cqs = true;
	if (!attr->send_cq) {
		r->id.send_cq = cq_with_channel(r, attr->cap.max_send_wr,
						&r->id.send_cq_channel);
		if (!r->id.send_cq)
			return -1;
		attr->send_cq = r->id.send_cq;
	}
	if (!attr->recv_cq) {
		r->id.recv_cq = cq_with_channel(r, attr->cap.max_recv_wr,
						&r->id.recv_cq_channel);
		if (!r->id.recv_cq)
			return -1;
		attr->recv_cq = r->id.recv_cq;
	}
	return 0;
}

struct ibv_pd *ref_cm_default_pd(struct ref_id *r)
{
	return ref_cm_device_pd(r->id.verbs);
}

/* A datagram QP, libibverbs', straight to RTS (its Q_Key the kernel's);
 * the PD and CQs not given are the id's own, as for a connected id (the
 * NOTES make no exception). */
static int ud_qp(struct ref_id *r, struct ibv_pd *pd,
		 struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };
	struct ibv_qp_init_attr ia = *attr;
	struct ibv_qp *qp;
	int mask, err;

	if (attr->qp_type != IBV_QPT_UD)
		return ref_cm_fail(EOPNOTSUPP);
	if (!pd && !(pd = ref_cm_default_pd(r)))
		return -1;
	if (pd->context != r->id.verbs)
		return ref_cm_fail(EINVAL);
	if ((!ia.send_cq || !ia.recv_cq) && own_cqs(r, &ia))
		goto fail;
	qp = ibv_create_qp(pd, &ia);
	if (!qp)
		goto fail;
	if (ref_rdma_init_qp_attr(&r->id, &a, &mask) ||
	    ibv_modify_qp(qp, &a, mask))
		goto err;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		goto err;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
		goto err;
	r->id.qp = qp;
	r->id.pd = pd;
	*attr = ia;
	return 0;
err:
	err = errno;
	ibv_destroy_qp(qp);
	errno = err;
fail:
	err = errno;
	free_cqs(r);
	return ref_cm_fail(err);
}

/* A connected QP, the verbs reference's, in INIT. */
static int rc_qp(struct ref_id *r, struct ibv_pd *pd,
		 struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr a = *attr;
	struct ibv_qp *qp;
	int err;

	if (!pd && !(pd = ref_cm_default_pd(r)))
		return -1;
	if (pd->context != r->id.verbs)
		return ref_cm_fail(EINVAL);
	if ((!a.send_cq || !a.recv_cq) && own_cqs(r, &a))
		goto err;
	qp = ref_ibv_create_qp(pd, &a);
	if (!qp)
		goto err;
	r->id.qp = qp;
	if (ref_cm_modify_qp(r, IBV_QPS_INIT, NULL)) {
		err = errno;
		r->id.qp = NULL;
		ref_ibv_destroy_qp(qp);
		errno = err;
		goto err;
	}
	/* "The actual capabilities and properties of the created QP will be
	 * returned to the user through the qp_init_attr parameter." */
	*attr = a;
	r->id.pd = pd;
	return 0;
err:
	err = errno;
	free_cqs(r);
	return ref_cm_fail(err);
}

int ref_rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		       struct ibv_qp_init_attr *qp_init_attr)
{
	struct ref_id *r = ref_of(id);

	if (!id || !qp_init_attr || !id->verbs)
		return ref_cm_fail(EINVAL);
	/* "An rdma_cm_id may only be associated with a single QP." */
	if (id->qp)
		return ref_cm_fail(EINVAL);
	if (id->qp_type == IBV_QPT_UD)
		return ud_qp(r, pd, qp_init_attr);
	if (qp_init_attr->qp_type != id->qp_type)
		return ref_cm_fail(EINVAL);
	return rc_qp(r, pd, qp_init_attr);
}

void ref_rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct ref_id *r = ref_of(id);

	if (!id || !id->qp)
		return;
	ref_cm_mc_detach_all(id);
	if (ref_cm_datagram(r))
		ibv_destroy_qp(id->qp);
	else
		ref_ibv_destroy_qp(id->qp);
	free_cqs(r);
	id->qp = NULL;
}

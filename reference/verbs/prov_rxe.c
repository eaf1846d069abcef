// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_rxe's part of the commands (<rdma/rdma_user_rxe.h>).  Its context
 * and MRs carry no driver data.  A CQ, a QP (send and receive queue) and
 * an SRQ each answer with a struct mminfo per queue: where, in the
 * command fd, the queue's struct rxe_queue_buf lies and how long it is.
 * A resize (ibv_resize_cq, ibv_modify_srq with IBV_SRQ_MAX_WR) moves the
 * queue: the CQ's answer says where to, the SRQ's new place is written
 * to the address its command gives (struct rxe_modify_srq_cmd).
 *
 * The kernel keeps a queue's header, index_mask among it, in the buffer
 * itself: a queue of 2^n slots holds 2^n - 1 entries, so index_mask is
 * the capacity the driver granted (rxe_queue_init rounds up and sets
 * it).  That is the cap reported for a QP: the core's answer repeats
 * what was asked.
 */
#include <errno.h>
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "objects.h"
#include "dp_rxe.h"

BUILD_ASSERT(sizeof(struct mminfo) == 16);
BUILD_ASSERT(offsetof(struct rxe_queue_buf, producer_index) == 128);
BUILD_ASSERT(offsetof(struct rxe_queue_buf, consumer_index) == 256);
BUILD_ASSERT(offsetof(struct rxe_queue_buf, data) == 384);
BUILD_ASSERT(sizeof(struct rxe_create_qp_resp) == 32);
BUILD_ASSERT(sizeof(struct rxe_create_srq_resp) == 24);
BUILD_ASSERT(sizeof(struct rxe_modify_srq_cmd) == 8);
BUILD_ASSERT(sizeof(struct rxe_create_qp_resp) <= REF_UDATA_WORDS * 8);

static int map_mminfo(struct ref_context *ctx, struct ref_queue *q,
		      const struct mminfo *mi)
{
	if (!mi->size)
		return 0; /* no such queue (a QP's RQ with an SRQ) */
	return ref_queue_map(ctx, q, mi->offset, mi->size);
}

static uint32_t capacity(const struct ref_queue *q)
{
	const struct rxe_queue_buf *b = q->addr;

	return b ? b->index_mask : 0;
}

static void cq_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct rxe_create_cq_resp);
}

static int cq_done(struct ref_cq *cq, const struct ref_udata *u)
{
	const struct rxe_create_cq_resp *r = (const void *)u->out;

	return map_mminfo(ref_ctx(cq->cq.context), &cq->q, &r->mi);
}

static void resize_cq_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct rxe_resize_cq_resp);
}

static int resize_cq_done(struct ref_cq *cq, const struct ref_udata *u)
{
	const struct rxe_resize_cq_resp *r = (const void *)u->out;
	struct ref_queue old = cq->q;
	int err;

	memset(&cq->q, 0, sizeof(cq->q));
	err = map_mminfo(ref_ctx(cq->cq.context), &cq->q, &r->mi);
	if (err) {
		cq->q = old;
		return err;
	}
	ref_queue_unmap(&old);
	return 0;
}

static void qp_in(struct ref_udata *u)
{
	/* rxe_create_qp refuses any driver data in */
	u->out_len = sizeof(struct rxe_create_qp_resp);
}

static int qp_done(struct ref_qp *qp, const struct ref_udata *u,
		   struct ibv_qp_cap *cap)
{
	const struct rxe_create_qp_resp *r = (const void *)u->out;
	struct ref_context *ctx = ref_ctx(qp->qp.context);
	int err;

	err = map_mminfo(ctx, &qp->sq, &r->sq_mi);
	if (!err)
		err = map_mminfo(ctx, &qp->rq, &r->rq_mi);
	if (err)
		return err;
	cap->max_send_wr = capacity(&qp->sq);
	if (qp->rq.addr)
		cap->max_recv_wr = capacity(&qp->rq);
	return 0;
}

static void srq_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct rxe_create_srq_resp);
}

static int srq_done(struct ref_srq *srq, const struct ref_udata *u)
{
	const struct rxe_create_srq_resp *r = (const void *)u->out;
	int err = map_mminfo(ref_ctx(srq->srq.context), &srq->q, &r->mi);

	if (!err)
		srq->max_wr = capacity(&srq->q);
	return err;
}

static void modify_srq_in(struct ref_srq *srq, struct ref_udata *u)
{
	struct rxe_modify_srq_cmd c = {
		.mmap_info_addr = (uintptr_t)&srq->remap,
	};

	BUILD_ASSERT(sizeof(srq->remap) == sizeof(struct mminfo));
	memset(&srq->remap, 0, sizeof(srq->remap));
	memcpy(u->in, &c, sizeof(c));
	u->in_len = sizeof(c);
}

static int modify_srq_done(struct ref_srq *srq, int mask)
{
	struct ref_queue old = srq->q;
	struct mminfo mi;
	int err;

	if (!(mask & IBV_SRQ_MAX_WR))
		return 0;
	memcpy(&mi, &srq->remap, sizeof(mi));
	memset(&srq->q, 0, sizeof(srq->q));
	err = map_mminfo(ref_ctx(srq->srq.context), &srq->q, &mi);
	if (err || !srq->q.addr) {
		srq->q = old;
		return err;
	}
	ref_queue_unmap(&old);
	srq->max_wr = capacity(&srq->q);
	return 0;
}

const struct ref_provider ref_provider_rxe = {
	.name = "rxe",
	.driver_id = RDMA_DRIVER_RXE,
	.cq_in = cq_in,
	.cq_done = cq_done,
	.resize_cq_in = resize_cq_in,
	.resize_cq_done = resize_cq_done,
	.qp_in = qp_in,
	.qp_done = qp_done,
	.srq_in = srq_in,
	.srq_done = srq_done,
	.modify_srq_in = modify_srq_in,
	.modify_srq_done = modify_srq_done,
	.ah_in = ref_rxe_ah_in,
	.ah_done = ref_rxe_ah_done,
	.post_send_one = ref_rxe_post_send_one,
	.send_doorbell = ref_send_doorbell,
	.post_recv_one = ref_rxe_post_recv_one,
	.poll_one = ref_rxe_poll_one,
	/* every opcode of enum ibv_wr_opcode before TSO */
	.wr_ops = (1u << IBV_WR_TSO) - 1,
};

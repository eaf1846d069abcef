// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's part of the commands (<rdma/siw-abi.h>).  Its context answers
 * with the device id; an MR takes the key byte of its STag in (the
 * consumer's part, struct siw_ureq_reg_mr) and answers with the STag.  A
 * CQ answers with its id, its size and the key (mmap offset) of its
 * array of struct siw_cqe followed by a struct siw_cq_ctrl; a QP with the
 * sizes and keys of its send (struct siw_sqe) and receive (struct
 * siw_rqe) queues; an SRQ with its size and key.  siw rounds every queue
 * up to a power of two but answers the core command with what was asked:
 * the sizes in its own answer are what was granted, and the number of
 * each queue's slots (dp_siw.c).  siw cannot resize a CQ or an SRQ.
 */
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/siw-abi.h>

#include "objects.h"
#include "dp_siw.h"

BUILD_ASSERT(sizeof(struct siw_uresp_create_qp) == 32);
BUILD_ASSERT(sizeof(struct siw_uresp_create_cq) == 16);
BUILD_ASSERT(sizeof(struct siw_uresp_create_srq) == 16);
BUILD_ASSERT(sizeof(struct siw_ureq_reg_mr) == 8);
BUILD_ASSERT(sizeof(struct siw_uresp_reg_mr) == 8);
BUILD_ASSERT(sizeof(struct siw_uresp_alloc_ctx) == 8);
BUILD_ASSERT(sizeof(struct siw_sqe) == 120);
BUILD_ASSERT(sizeof(struct siw_rqe) == 112);
BUILD_ASSERT(sizeof(struct siw_cqe) == 32);
BUILD_ASSERT(sizeof(struct siw_cq_ctrl) == 8);

static void ctx_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct siw_uresp_alloc_ctx);
}

static void mr_in(struct ref_udata *u)
{
	/* the STag's key byte is the consumer's to choose: 0 */
	struct siw_ureq_reg_mr req = { .stag_key = 0 };

	memcpy(u->in, &req, sizeof(req));
	u->in_len = sizeof(req);
	u->out_len = sizeof(struct siw_uresp_reg_mr);
}

static void cq_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct siw_uresp_create_cq);
}

static int cq_done(struct ref_cq *cq, const struct ref_udata *u)
{
	const struct siw_uresp_create_cq *r = (const void *)u->out;

	cq->q.slots = r->num_cqe;
	return ref_queue_map(ref_ctx(cq->cq.context), &cq->q, r->cq_key,
			     r->num_cqe * sizeof(struct siw_cqe) +
				     sizeof(struct siw_cq_ctrl));
}

static void qp_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct siw_uresp_create_qp);
}

static int qp_done(struct ref_qp *qp, const struct ref_udata *u,
		   struct ibv_qp_cap *cap)
{
	const struct siw_uresp_create_qp *r = (const void *)u->out;
	struct ref_context *ctx = ref_ctx(qp->qp.context);
	int err;

	err = ref_queue_map(ctx, &qp->sq, r->sq_key,
			    r->num_sqe * sizeof(struct siw_sqe));
	if (err)
		return err;
	qp->sq.slots = r->num_sqe;
	cap->max_send_wr = r->num_sqe;
	/* with an SRQ the answer still counts the RQ asked for, but siw made
	 * none: there is nothing at rq_key */
	if (!qp->qp.srq && r->num_rqe) {
		err = ref_queue_map(ctx, &qp->rq, r->rq_key,
				    r->num_rqe * sizeof(struct siw_rqe));
		qp->rq.slots = r->num_rqe;
		cap->max_recv_wr = r->num_rqe;
	}
	return err;
}

static void srq_in(struct ref_udata *u)
{
	u->out_len = sizeof(struct siw_uresp_create_srq);
}

static int srq_done(struct ref_srq *srq, const struct ref_udata *u)
{
	const struct siw_uresp_create_srq *r = (const void *)u->out;

	srq->max_wr = r->num_rqe;
	srq->q.slots = r->num_rqe;
	return ref_queue_map(ref_ctx(srq->srq.context), &srq->q, r->srq_key,
			     r->num_rqe * sizeof(struct siw_rqe));
}

const struct ref_provider ref_provider_siw = {
	.name = "siw",
	.driver_id = RDMA_DRIVER_SIW,
	.ctx_in = ctx_in,
	.mr_in = mr_in,
	.cq_in = cq_in,
	.cq_done = cq_done,
	.qp_in = qp_in,
	.qp_done = qp_done,
	.srq_in = srq_in,
	.srq_done = srq_done,
	.post_send_one = ref_siw_post_send_one,
	.send_doorbell = ref_send_doorbell,
	.post_recv_one = ref_siw_post_recv_one,
	.poll_one = ref_siw_poll_one,
	.wr_ops = 1u << IBV_WR_SEND | 1u << IBV_WR_SEND_WITH_INV |
		  1u << IBV_WR_RDMA_WRITE | 1u << IBV_WR_RDMA_READ,
	.sq_takes = ref_siw_sq_takes,
	.req_notify = ref_siw_req_notify,
};
